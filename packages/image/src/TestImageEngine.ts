import { DataEngine, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { ImageData, SofaImage } from './image.js';
import { ONE_IMAGE_TEMPLATES } from './image-support.js';

/** SOFA's TestImageEngine (image_test): outputImage = a copy of inputImage, updated at each step end. */
@sofaComponent({
  name: 'TestImageEngine',
  category: 'Engine',
  module: 'image',
  description: 'TestImageEngine to test engine with data image: copies its input image.',
  templates: ONE_IMAGE_TEMPLATES,
  defaultTemplate: 'ImageUC',
})
export class TestImageEngine extends DataEngine {
  readonly inputImage = this.initData({
    name: 'inputImage',
    type: ImageData,
    default: SofaImage.empty(),
    help: 'input image',
    aliases: ['image'],
  });
  readonly outputImage = this.initData({
    name: 'outputImage',
    type: ImageData,
    default: SofaImage.empty(),
    help: 'output image',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.inputImage);
    this.addOutput(this.outputImage);
  }

  override init(): void {
    this.startUpdates();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'AnimateEndEvent') this.update();
  }

  protected updateOutputs(): void {
    const inp = this.inputImage.value;
    const out = this.outputImage.rawValue;
    // same dimensions and type: copy into the output's pixels (no allocation per step)
    if (out.pixelType === inp.pixelType && out.dimensions.every((d, i) => d === inp.dimensions[i])) {
      out.data.set(inp.data);
      this.outputImage.touch();
    } else this.outputImage.value = inp.clone();
  }
}
