import { Bool, Int, RealArray, Str, inertComponent } from '@sofa-ts/core';
import { ImageData, SofaImage } from './image.js';
import { ImageTransformData } from './image-transform.js';
import { ONE_IMAGE_TEMPLATES } from './image-support.js';

/** SOFA's ImageViewer: draws slices of an image in the GUI. Drawing only: inert in a batch run. */
export const ImageViewer = inertComponent(
  {
    name: 'ImageViewer',
    category: 'Visual',
    module: 'image',
    description: 'Draws slices of an image and its histogram in the GUI (drawing only: inert in a batch run).',
    templates: ONE_IMAGE_TEMPLATES,
    defaultTemplate: 'ImageUC',
  },
  [
    { name: 'image', type: ImageData, default: SofaImage.empty(), help: 'input image', aliases: ['outputImage'] },
    {
      name: 'transform',
      type: ImageTransformData,
      default: ImageTransformData.parse(''),
      help: 'image transform',
      aliases: ['outputTransform'],
    },
    { name: 'slicedModels', type: Bool, default: false, help: 'display visual models on cutPlanes' },
    { name: 'histo', type: RealArray(0), default: new Float64Array(0), help: 'histogram clamp values' },
    { name: 'plane', type: RealArray(0), default: new Float64Array(0), help: 'indices of the x, y, z planes shown' },
    { name: 'points', type: RealArray(3), default: new Float64Array(0), help: 'points drawn' },
    {
      name: 'vectorvis',
      type: Str,
      default: '',
      help: 'vector / tensor visualisation options (subsample, scale, rgb, shape, tensor order)',
    },
    { name: 'scrollDirection', type: Int, default: 0, help: '0 if no scrolling, 1 for up, 2 for down, 3 left, and 4 for right' },
    { name: 'display', type: Bool, default: true, help: 'true if image is displayed, false otherwise' },
  ],
);
