import { DataEngine, Real, sofaComponent } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';

/**
 * SOFA's Spiral: rolls a straight strip (along x) into an Archimedean spiral r = A·t.
 * For a rest point (x0, y0, z0): the arc length of the spiral, l(t) = A/2·(t√(1+t²) + asinh t),
 * is matched to |x0| by 10 Newton steps from t = √|x0|; the point goes to
 *   (r cos t, r sin t, z0) + y0·n,  r = sign(x0)·A·t,
 * with n the unit normal (−A sin t − A t cos t, A cos t − A t sin t, 0), its y capped at 0.8 (x then
 * −√(1 − 0.8²)) for −π/2 < t < π/2. A = curvature.
 */
@sofaComponent({
  name: 'Spiral',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'Set a spiral-like position of the points.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class Spiral extends DataEngine {
  readonly restPosition = this.initData({
    name: 'rest_position',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'rest positions (the strip along x)',
  });
  readonly position = this.initData({
    name: 'position',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'positions on the spiral',
    output: true,
  });
  readonly curvature = this.initData({ name: 'curvature', type: Real, default: 0.2, help: 'spiral curvature factor A' });

  constructor() {
    super();
    this.addInput(this.restPosition, this.curvature);
    this.addOutput(this.position);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const x0 = this.restPosition.value;
    const A = this.curvature.value;
    const out = new Float64Array(x0.length);
    for (let i = 0; i < x0.length; i += 3) {
      const t0 = x0[i];
      const l = Math.abs(t0);
      // Newton on l(t) = A/2 (t √(1+t²) + asinh t) − l.
      let t = Math.sqrt(l);
      for (let k = 0; k < 10; k++) {
        const lt = (A / 2) * (t * Math.sqrt(1 + t * t) + Math.asinh(t));
        t -= (lt - l) / (A * Math.sqrt(1 + t * t));
      }
      const r = t0 > 0 ? A * t : -A * t;
      let nx = -A * Math.sin(t) - A * t * Math.cos(t),
        ny = A * Math.cos(t) - A * t * Math.sin(t);
      const len = Math.hypot(nx, ny);
      if (len > Number.EPSILON) {
        nx /= len;
        ny /= len;
      }
      if (t > -Math.PI / 2 && t < Math.PI / 2 && ny > 0.8) {
        ny = 0.8;
        nx = -Math.sqrt(1 - ny * ny);
      }
      out[i] = r * Math.cos(t) + nx * x0[i + 1];
      out[i + 1] = r * Math.sin(t) + ny * x0[i + 1];
      out[i + 2] = x0[i + 2];
    }
    this.position.value = out;
  }
}
