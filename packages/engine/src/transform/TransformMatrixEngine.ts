import { DataEngine, sofaComponent, Vec3 } from '@sofa-ts/core';
import { IDENTITY4, Mat4 } from '../engine-support.js';
import { mat4InvertAffine, mat4Mul, quatFromEulerDeg } from '../rigid-math.js';
import { quatToMatrix3At } from '@sofa-ts/linalg';

/**
 * SOFA's transform matrix engines: each composes its input 4×4 transform `inT` (default the
 * identity) with its own transform A on the right, outT = inT · A (A is applied first to a point):
 *   TranslateTransformMatrixEngine  A = [I t; 0 1]
 *   ScaleTransformMatrixEngine      A = diag(sx, sy, sz, 1)
 *   RotateTransformMatrixEngine     A = [R 0; 0 1], R of Euler angles in degrees (x, then y, then z)
 *   InvertTransformMatrixEngine     outT = inT⁻¹ (affine inverse; a singular inT is an error)
 * Matrices are row-major, 16 numbers, as MeshLoader's `transformation` reads them.
 */
abstract class AbstractTransformMatrixEngine extends DataEngine {
  readonly inT = this.initData({ name: 'inT', type: Mat4, default: Float64Array.from(IDENTITY4), help: 'input transformation, if any' });
  readonly outT = this.initData({
    name: 'outT',
    type: Mat4,
    default: Float64Array.from(IDENTITY4),
    help: 'output transformation',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.inT);
    this.addOutput(this.outT);
  }

  override init(): void {
    this.startUpdates();
  }
}

@sofaComponent({
  name: 'TranslateTransformMatrixEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Compose the input transform (if any) with the given translation.',
})
export class TranslateTransformMatrixEngine extends AbstractTransformMatrixEngine {
  readonly translation = this.initData({ name: 'translation', type: Vec3, default: new Float64Array(3), help: 'translation vector' });
  constructor() {
    super();
    this.addInput(this.translation);
  }
  protected updateOutputs(): void {
    const t = this.translation.value;
    const a = Float64Array.from(IDENTITY4);
    a[3] = t[0];
    a[7] = t[1];
    a[11] = t[2];
    this.outT.value = mat4Mul(this.inT.value, a);
  }
}

@sofaComponent({
  name: 'ScaleTransformMatrixEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Compose the input transform (if any) with the given scale transformation.',
})
export class ScaleTransformMatrixEngine extends AbstractTransformMatrixEngine {
  readonly scale = this.initData({
    name: 'scale',
    type: Vec3,
    default: new Float64Array(3),
    help: 'scaling values (SOFA leaves the default at 0 0 0)',
  });
  constructor() {
    super();
    this.addInput(this.scale);
  }
  protected updateOutputs(): void {
    const s = this.scale.value;
    const a = Float64Array.from(IDENTITY4);
    a[0] = s[0];
    a[5] = s[1];
    a[10] = s[2];
    this.outT.value = mat4Mul(this.inT.value, a);
  }
}

@sofaComponent({
  name: 'RotateTransformMatrixEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Compose the input transform (if any) with the given rotation.',
})
export class RotateTransformMatrixEngine extends AbstractTransformMatrixEngine {
  readonly rotation = this.initData({
    name: 'rotation',
    type: Vec3,
    default: new Float64Array(3),
    unit: 'deg',
    help: 'Euler angles in degrees (about x, then y, then z)',
  });
  constructor() {
    super();
    this.addInput(this.rotation);
  }
  protected updateOutputs(): void {
    const r = new Float64Array(9);
    quatToMatrix3At(r, 0, quatFromEulerDeg(this.rotation.value), 0);
    const a = Float64Array.from(IDENTITY4);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) a[4 * i + j] = r[3 * i + j];
    this.outT.value = mat4Mul(this.inT.value, a);
  }
}

@sofaComponent({
  name: 'InvertTransformMatrixEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Inverts the input transform.',
})
export class InvertTransformMatrixEngine extends AbstractTransformMatrixEngine {
  protected updateOutputs(): void {
    const inv = mat4InvertAffine(this.inT.value);
    if (!inv) throw this.error('the input transform is not invertible');
    this.outT.value = inv;
  }
}
