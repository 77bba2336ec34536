import { BaseObject, RealArray, sofaComponent } from '@sofa-ts/core';
import { ImageData, SofaImage } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';

/**
 * SOFA's Kinect: the colour and depth images of a Kinect sensor, read through libfreenect. A
 * hardware component: sofa-ts has no sensor driver, so init stops with a located error (its
 * scenes are hardware scenes).
 */
@sofaComponent({
  name: 'Kinect',
  category: 'Loader',
  module: 'image',
  description: 'Colour and depth images of a Kinect sensor (hardware: needs libfreenect and a sensor; an error in sofa-ts).',
})
export class Kinect extends BaseObject {
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty(), help: 'colour image', output: true });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'colour image transform',
  });
  readonly depthImage = this.initData({
    name: 'depthImage',
    type: ImageData,
    default: SofaImage.empty('US'),
    help: 'depth image',
    output: true,
  });
  readonly depthTransform = this.initData({
    name: 'depthTransform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'depth image transform',
  });
  readonly tiltAngle = this.initData({
    name: 'tiltAngle',
    type: RealArray(1),
    default: new Float64Array(1),
    help: 'tilt angle of the sensor (degrees)',
  });

  override init(): void {
    throw this.error('a Kinect sensor is hardware that sofa-ts cannot reach (SOFA reads it through libfreenect): this is a hardware scene');
  }
}
