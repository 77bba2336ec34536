import { Bool, DataEngine, Real, Vec3, sofaComponent } from '@sofa-ts/core';
import { quatMultiplyAt, quatToMatrix3At } from '@sofa-ts/linalg';
import { ImageLPTransform, ImageTransformData, rotate } from './image-transform.js';
import { eulerDegreesOfMatrix } from './io/image-file.js';

/**
 * SOFA's ImageTransformEngine: outputTransform = the similarity (scale s, rotation r of Euler
 * angles `rotation` in degrees, translation t) applied to inputTransform: scale·s, translation
 * r·T·s + t, rotation r·R. With `inverse` the inverse similarity (1/s, r⁻¹, −r⁻¹·t/s).
 */
@sofaComponent({
  name: 'ImageTransformEngine',
  category: 'Engine',
  module: 'image',
  description: 'Apply a transform (translation, rotation, uniform scale) to an image transform.',
})
export class ImageTransformEngine extends DataEngine {
  readonly inputTransform = this.initData({
    name: 'inputTransform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'input transform',
  });
  readonly outputTransform = this.initData({
    name: 'outputTransform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'output transform',
    output: true,
  });
  readonly translation = this.initData({ name: 'translation', type: Vec3, default: new Float64Array(3), help: 'translation vector ' });
  readonly rotation = this.initData({ name: 'rotation', type: Vec3, default: new Float64Array(3), help: 'rotation vector ', unit: 'deg' });
  readonly scale = this.initData({ name: 'scale', type: Real, default: 1, help: 'scale factor' });
  readonly inverse = this.initData({ name: 'inverse', type: Bool, default: false, help: 'true to apply inverse transformation' });

  constructor() {
    super();
    this.addInput(this.translation, this.rotation, this.scale, this.inverse, this.inputTransform);
    this.addOutput(this.outputTransform);
  }

  override init(): void {
    if (this.scale.value === 0) throw this.dataError(this.scale, 'scale 0 is not a transform');
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const inT = this.inputTransform.value;
    const rq = new ImageLPTransform([0, 0, 0, ...this.rotation.value]).q;
    const r = Float64Array.from(rq);
    let s = this.scale.value;
    const t = Float64Array.from(this.translation.value);
    if (this.inverse.value) {
      s = 1 / s;
      r[0] = -r[0];
      r[1] = -r[1];
      r[2] = -r[2];
      rotate(r, t[0], t[1], t[2], t);
      for (let k = 0; k < 3; k++) t[k] = -t[k] * s;
    }
    const out = new ImageLPTransform();
    const p = out.params;
    for (let k = 0; k < 3; k++) p[6 + k] = inT.scale[k] * s;
    const T = inT.translation;
    rotate(r, T[0], T[1], T[2], p, 0);
    for (let k = 0; k < 3; k++) p[k] = p[k] * s + t[k];
    // q = r ⊗ inT.q
    const q = new Float64Array(4);
    quatMultiplyAt(q, 0, r, 0, inT.q, 0);
    const R = new Array<number>(9);
    quatToMatrix3At(R, 0, q, 0);
    p.set(eulerDegreesOfMatrix(R), 3);
    out.update();
    this.outputTransform.value = out;
  }
}
