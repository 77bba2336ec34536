import { BaseObject, Bool, Str, UInt, sofaComponent } from '@sofa-ts/core';
import { ImageData, SofaImage } from './image.js';
import { ImageTransformData } from './image-transform.js';
import { ONE_IMAGE_TEMPLATES, templatePixelType } from './image-support.js';
import { eulerDegreesOfMatrix } from './io/image-file.js';
import { IMAGE_FORMATS, readImageFile } from './io/read-image-file.js';

/**
 * SOFA's ImageContainer: holds an image and its transform, read from `filename` unless the scene
 * links `image`. The file's pixels are cast to the template's type (ImageUC by default); its
 * placement (voxel size, origin, orientation) sets `transform` unless the scene gave one. At init
 * the transform's camera centre is set to the image centre ((w−1)/2, (h−1)/2) for perspective
 * images.
 */
@sofaComponent({
  name: 'ImageContainer',
  category: 'Loader',
  module: 'image',
  description: `Image container: loads an image (${IMAGE_FORMATS}) or holds a linked one, with its transform.`,
  templates: ONE_IMAGE_TEMPLATES,
  defaultTemplate: 'ImageUC',
})
export class ImageContainer extends BaseObject {
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty(), help: 'image', aliases: ['inputImage'] });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: ImageTransformData.parse(''),
    help: '12-param vector for trans, rot, scale, ...',
    aliases: ['inputTransform'],
    group: 'Transform',
  });
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'Image file' });
  readonly drawBB = this.initData({
    name: 'drawBB',
    type: Bool,
    default: false,
    help: 'draw bounding box (drawing: inert in a batch run)',
  });
  readonly sequence = this.initData({ name: 'sequence', type: Bool, default: false, help: 'load a sequence of images' });
  readonly nFrames = this.initData({
    name: 'numberOfFrames',
    type: UInt,
    default: 0,
    help: 'The number of frames of the sequence to be loaded. Default is the entire sequence.',
    aliases: ['nFrames'],
  });

  override init(): void {
    const type = templatePixelType(this);
    const linked = this.image.isSet || this.image.parent !== undefined;
    if (this.sequence.value)
      this.warnAbout(this.sequence, 'sequence loading (one file per frame) is not supported: the single file is loaded');
    if (!linked) {
      if (this.filename.value.trim() !== '') this.load(type);
      else if (this.getName().includes('CAMERA'))
        throw this.error('no camera: SOFA captures a camera image through OpenCV, which sofa-ts does not have (a hardware scene)');
      else throw this.error('no input image (set filename or link image)');
    } else if (this.image.parent === undefined && this.image.value.pixelType !== type) {
      this.image.value = this.image.value.as(type);
    }
    const img = this.image.value;
    const t = this.transform.value.clone();
    t.setCamPos((img.width - 1) / 2, (img.height - 1) / 2);
    t.update();
    this.transform.value = t;
  }

  private load(type: ReturnType<typeof templatePixelType>): void {
    const file = readImageFile(this, this.filename.value.trim());
    if (file.image.pixelType !== type && this.printLog.value)
      this.warn(`image type ${file.image.pixelType} of '${this.filename.value}' is converted to the template's ${type}`);
    this.image.value = file.image.as(type);
    if (this.transform.isSet) return;
    const t = this.transform.value.clone();
    const p = t.params;
    if (file.translation) for (let i = 0; i < 3; i++) p[i] = file.translation[i];
    if (file.rotationMatrix) p.set(eulerDegreesOfMatrix(file.rotationMatrix), 3);
    if (file.scale) for (let i = 0; i < 3; i++) p[6 + i] = file.scale[i];
    if (file.offsetT !== undefined) p[9] = file.offsetT;
    if (file.scaleT !== undefined) p[10] = file.scaleT;
    if (file.isPerspective !== undefined) p[11] = file.isPerspective;
    t.update();
    this.transform.value = t;
    // transform was not given by the scene: keep it "not set" for src links, as SOFA does
    this.transform.isSet = false;
  }
}
