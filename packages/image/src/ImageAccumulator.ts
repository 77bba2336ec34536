import { Bool, DataEngine, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { ImageData, SofaImage, newPixelArray, type PixelArray } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { ONE_IMAGE_TEMPLATES } from './image-support.js';

/**
 * SOFA's ImageAccumulator: while `accumulate`, appends the first frame of inputImage to
 * outputImage at the end of each time step (once per simulation time). outputTransform is the
 * input's, its time scale the mean time between frames: SOFA measures it on the wall clock, here
 * on the simulation clock (reproducible). Frames go into a buffer grown by doubling, so appending
 * does not copy the frames each step.
 */
@sofaComponent({
  name: 'ImageAccumulator',
  category: 'Engine',
  module: 'image',
  description: 'Wraps images from a video stream into a single image (one frame per time step).',
  templates: ONE_IMAGE_TEMPLATES,
  defaultTemplate: 'ImageUC',
})
export class ImageAccumulator extends DataEngine {
  readonly accumulate = this.initData({ name: 'accumulate', type: Bool, default: false, help: 'accumulate ?' });
  readonly inputImage = this.initData({ name: 'inputImage', type: ImageData, default: SofaImage.empty(), help: 'input image' });
  readonly inputTransform = this.initData({
    name: 'inputTransform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'input transform',
  });
  readonly outputImage = this.initData({
    name: 'outputImage',
    type: ImageData,
    default: SofaImage.empty(),
    help: 'output image',
    output: true,
  });
  readonly outputTransform = this.initData({
    name: 'outputTransform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'output transform',
    output: true,
  });
  private lastTime = 0;
  private firstTime = 0;
  private frames = 0;
  private buffer: PixelArray | undefined;

  constructor() {
    super();
    this.addInput(this.inputImage, this.inputTransform);
    this.addOutput(this.outputImage, this.outputTransform);
  }

  override init(): void {
    this.startUpdates();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'AnimateEndEvent') this.update();
  }

  protected updateOutputs(): void {
    const time = this.context.getTime();
    if (time === this.lastTime) return;
    this.lastTime = time;
    if (!this.accumulate.value) return;
    const inp = this.inputImage.value;
    if (inp.isEmpty) return;
    const frame = inp.voxelCount * inp.spectrum;
    const prev = this.outputImage.rawValue;
    if (this.frames > 0 && (prev.pixelType !== inp.pixelType || prev.voxelCount * prev.spectrum !== frame))
      throw this.error('the input image changed size or type while accumulating');
    if (this.frames === 0) {
      this.firstTime = time;
      this.outputTransform.value = this.inputTransform.value.clone();
    } else {
      const t = this.outputTransform.value.clone();
      t.params[10] = (time - this.firstTime) / this.frames;
      this.outputTransform.value = t;
    }
    if (!this.buffer || this.buffer.length < (this.frames + 1) * frame) {
      const grown = newPixelArray(inp.pixelType, Math.max(1, 2 * this.frames) * frame + frame);
      if (this.buffer) grown.set(this.buffer.subarray(0, this.frames * frame));
      this.buffer = grown;
    }
    this.buffer.set(inp.data.subarray(0, frame), this.frames * frame);
    this.frames++;
    this.outputImage.value = new SofaImage(
      inp.pixelType,
      inp.width,
      inp.height,
      inp.depth,
      inp.spectrum,
      this.frames,
      this.buffer.subarray(0, this.frames * frame),
    );
  }
}
