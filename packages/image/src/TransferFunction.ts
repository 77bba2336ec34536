import { DataEngine, Enum, RealArray, sofaComponent } from '@sofa-ts/core';
import { ImageData, SofaImage, castValue, isIntegerPixel } from './image.js';
import { imagePairTemplates, templatePixelType } from './image-support.js';

const FILTERS = ['0 - Piecewise Linear ( i1, o1, i2, o2 ...)'] as const;

/**
 * SOFA's TransferFunction: outputImage = f(inputImage) voxel by voxel, f the piecewise linear map
 * through the points (i1, o1), (i2, o2), … (sorted by input, the input cast to the input type):
 * the first segment extended below i1, the last output from the last input on (SOFA's loop). No
 * param: a copy.
 */
@sofaComponent({
  name: 'TransferFunction',
  category: 'Engine',
  module: 'image',
  description: 'Transforms pixel intensities by a piecewise linear function.',
  templates: imagePairTemplates([
    'ImageD,ImageUC',
    'ImageUC,ImageUI',
    'ImageUC,ImageUS',
    'ImageUS,ImageUC',
    'ImageUC,ImageB',
    'ImageUC,ImageF',
  ]),
  defaultTemplate: 'ImageUC,ImageUC',
})
export class TransferFunction extends DataEngine {
  readonly filter = this.initData({ name: 'filter', type: Enum(FILTERS), default: FILTERS[0], help: 'Filter' });
  readonly param = this.initData({ name: 'param', type: RealArray(1), default: new Float64Array(0), help: 'Parameters' });
  readonly inputImage = this.initData({ name: 'inputImage', type: ImageData, default: SofaImage.empty(), help: 'input image' });
  readonly outputImage = this.initData({
    name: 'outputImage',
    type: ImageData,
    default: SofaImage.empty(),
    help: 'output image',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.filter, this.param, this.inputImage);
    this.addOutput(this.outputImage);
  }

  override init(): void {
    if (this.param.value.length % 2 !== 0) throw this.dataError(this.param, 'param holds (input, output) pairs: an even count of numbers');
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const inp = this.inputImage.value;
    const tin = inp.pixelType,
      tout = templatePixelType(this, this.template.includes(',') ? 1 : 0);
    const p = this.param.value;
    if (inp.isEmpty) return;
    if (p.length === 0) {
      this.outputImage.value = inp.as(tout) === inp ? inp.clone() : inp.as(tout);
      return;
    }
    // the map input → output, keyed by the input cast to the input type (later pairs replace)
    const map = new Map<number, number>();
    for (let i = 0; i + 1 < p.length; i += 2) map.set(castValue(tin, isIntegerPixel(tin) ? Math.trunc(p[i]) : p[i]), p[i + 1]);
    const keys = [...map.keys()].sort((a, b) => a - b);
    const vals = keys.map((k) => castValue(tout, isIntegerPixel(tout) ? Math.trunc(map.get(k)!) : map.get(k)!));
    const out = SofaImage.create(tout, inp.width, inp.height, inp.depth, inp.spectrum, inp.frames);
    for (let i = 0; i < inp.data.length; i++) {
      const v = inp.data[i];
      // SOFA's loop: the segment of the first input above v (from the second point on, so below
      // i2 the first segment extends), else the last output
      let o = vals[vals.length - 1];
      for (let k = 1; k < keys.length; k++)
        if (keys[k] > v) {
          const a = (keys[k] - v) / (keys[k] - keys[k - 1]);
          o = a * vals[k - 1] + (1 - a) * vals[k];
          break;
        }
      out.data[i] = castValue(tout, isIntegerPixel(tout) ? Math.trunc(o) : o);
    }
    this.outputImage.value = out;
  }
}
