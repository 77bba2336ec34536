import { DataEngine, Int, sofaComponent } from '@sofa-ts/core';
import { Reals, Vec3s } from '../engine-support.js';

/**
 * SOFA's NormEngine: output[i] = ‖input[i]‖_l for 3D vectors, l = normType: 2 Euclidean (default),
 * 1 Manhattan, l < 0 the infinity norm (max |x_k|), 0 the count of non-zero components, other l
 * (Σ |x_k|^l)^(1/l).
 */
@sofaComponent({
  name: 'NormEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'Convert Vec in Real.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class NormEngine extends DataEngine {
  readonly input = this.initData({ name: 'input', type: Vec3s, default: new Float64Array(0), help: 'input array of 3d points' });
  readonly output = this.initData({
    name: 'output',
    type: Reals,
    default: new Float64Array(0),
    help: 'output array of scalar norms',
    output: true,
  });
  readonly normType = this.initData({
    name: 'normType',
    type: Int,
    default: 2,
    help: 'type of norm: 2 Euclidean, 1 Manhattan, negative for the infinity norm, 0 the number of non-zero components',
  });

  constructor() {
    super();
    this.addInput(this.input, this.normType);
    this.addOutput(this.output);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const x = this.input.value,
      l = this.normType.value;
    const out = new Float64Array(x.length / 3);
    for (let i = 0; i < out.length; i++) {
      const v = [Math.abs(x[3 * i]), Math.abs(x[3 * i + 1]), Math.abs(x[3 * i + 2])];
      if (l === 2) out[i] = Math.hypot(v[0], v[1], v[2]);
      else if (l < 0) out[i] = Math.max(v[0], v[1], v[2]);
      else if (l === 1) out[i] = v[0] + v[1] + v[2];
      else if (l === 0) out[i] = v.filter((a) => a !== 0).length;
      else out[i] = (v[0] ** l + v[1] ** l + v[2] ** l) ** (1 / l);
    }
    this.output.value = out;
  }
}
