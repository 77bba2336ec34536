import { DataEngine, RealArray, sofaComponent } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';
import { mat4InvertAffine, mat4Mul, quatInverse, quatMul, quatRotate, rigidMatrix4 } from '../rigid-math.js';

const Rigids = RealArray(7, 'vector<Rigid3dTypes::Coord>');

/**
 * SOFA's DisplacementTransformEngine: the displacement of rigid frames from their rest pose,
 *   D_i = M(x_i) · M(x0_i)⁻¹,
 * as 4×4 homogeneous matrices (template Rigid3d,Mat4x4: 16 numbers each, row-major) or as rigid
 * frames (template Rigid3d,Rigid3d: q = q_x ⊗ q_x0⁻¹, c = c_x − q·c_x0). x and x0 of different
 * sizes are an error.
 */
@sofaComponent({
  name: 'DisplacementTransformEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Converts a vector of Affine or Rigid to a vector of displacements.',
  templates: ['Rigid3d,Mat4x4', 'Rigid3d,Rigid3d'],
  defaultTemplate: 'Rigid3d,Mat4x4',
})
export class DisplacementTransformEngine extends DataEngine {
  readonly x0 = this.initData({ name: 'x0', type: Rigids, default: new Float64Array(0), help: 'rest position' });
  readonly x = this.initData({ name: 'x', type: Rigids, default: new Float64Array(0), help: 'current position' });
  readonly displacements = this.initData({
    name: 'displacements',
    type: RealArray(0, 'vector<T>'),
    default: new Float64Array(0),
    help: 'displacement transforms with respect to the rest frames',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.x0, this.x);
    this.addOutput(this.displacements);
  }

  override init(): void {
    this.startUpdates();
  }

  /** D_i as 4×4 matrices: M(x_i)·M(x0_i)⁻¹, then the extra factor of DisplacementMatrixEngine. */
  protected matrices(extra?: (i: number) => Float64Array): Float64Array {
    const x = this.x.value,
      x0 = this.x0.value;
    if (x.length !== x0.length) throw this.error(`x has ${x.length / 7} frames and x0 ${x0.length / 7}: they must have the same size`);
    const n = x.length / 7;
    const out = new Float64Array(16 * n);
    for (let i = 0; i < n; i++) {
      const inv = mat4InvertAffine(rigidMatrix4(x0.subarray(7 * i, 7 * i + 3), x0.subarray(7 * i + 3, 7 * i + 7)))!;
      const right = extra ? mat4Mul(extra(i), inv) : inv;
      out.set(mat4Mul(rigidMatrix4(x.subarray(7 * i, 7 * i + 3), x.subarray(7 * i + 3, 7 * i + 7)), right), 16 * i);
    }
    return out;
  }

  protected updateOutputs(): void {
    if (this.template !== 'Rigid3d,Rigid3d') {
      this.displacements.value = this.matrices();
      return;
    }
    const x = this.x.value,
      x0 = this.x0.value;
    if (x.length !== x0.length) throw this.error(`x has ${x.length / 7} frames and x0 ${x0.length / 7}: they must have the same size`);
    const out = new Float64Array(x.length);
    const c = [0, 0, 0];
    for (let o = 0; o < x.length; o += 7) {
      const q = quatMul(x.subarray(o + 3, o + 7), quatInverse(x0.subarray(o + 3, o + 7)));
      quatRotate(q, x0[o], x0[o + 1], x0[o + 2], c);
      out.set([x[o] - c[0], x[o + 1] - c[1], x[o + 2] - c[2], ...q], o);
    }
    this.displacements.value = out;
  }
}

/**
 * SOFA's DisplacementMatrixEngine: DisplacementTransformEngine's 4×4 matrices, with an optional
 * scale per frame: D_i = M(x_i) · S_i · M(x0_i)⁻¹, S_i = diag(scales_i, 1) (default identity).
 * The output is named `displaceMats` (alias `displacements`).
 */
@sofaComponent({
  name: 'DisplacementMatrixEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Converts a vector of Affine or Rigid to a vector of displacement matrices.',
  templates: ['Rigid3d'],
  defaultTemplate: 'Rigid3d',
})
export class DisplacementMatrixEngine extends DisplacementTransformEngine {
  readonly scales = this.initData({
    name: 'scales',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'scale added to each rigid transformation (default 1 1 1)',
  });

  constructor() {
    super();
    this.addInput(this.scales);
  }

  override findData(name: string): ReturnType<DataEngine['findData']> {
    return name === 'displaceMats' ? this.displacements : super.findData(name);
  }

  protected override updateOutputs(): void {
    const s = this.scales.value;
    const n = this.x0.value.length / 7;
    if (s.length > 0 && s.length !== 3 * n) throw this.error(`${s.length / 3} scales for ${n} frames: give one scale per frame, or none`);
    this.displacements.value = this.matrices((i) => {
      const m = new Float64Array(16);
      for (let k = 0; k < 3; k++) m[5 * k] = s.length > 0 ? s[3 * i + k] : 1;
      m[15] = 1;
      return m;
    });
  }
}
