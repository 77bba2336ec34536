import { RealArray, sofaComponent, type MatrixAccumulator, SingleStateForceField } from '@sofa-ts/core';

/**
 * SOFA's DiagonalVelocityDampingForceField: a viscous force per dof,
 *   f_i = −c_i ⊙ v_i,   B = ∂f/∂v = −diag(c_i)   (K = 0),
 * with c_i the i-th Deriv of dampingCoefficient, the last one for the points beyond the list
 * (one Deriv thus damps every point alike). B always enters the implicit solvers. An empty list
 * damps nothing.
 */
@sofaComponent({
  name: 'DiagonalVelocityDampingForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Velocity damping with one coefficient per dof: f = −c ⊙ v.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d', 'Rigid2d'],
})
export class DiagonalVelocityDampingForceField extends SingleStateForceField {
  readonly dampingCoefficient = this.initData({
    name: 'dampingCoefficient',
    type: RealArray(0, 'vector<Deriv>'),
    default: new Float64Array(0),
    unit: 'N·s/m',
    help: 'velocity damping coefficients (by cinematic dof; the last one applies to the points beyond the list)',
  });

  private d = 3;

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    this.d = s.stateType.derivSize;
    const n = this.dampingCoefficient.value.length;
    if (n % this.d !== 0)
      throw this.error(`'dampingCoefficient' needs ${this.d} numbers per point (a ${s.stateType.name} derivative), got ${n}`);
    if (n === 0) this.warn('dampingCoefficient is empty: no damping');
  }

  /** c of dof j of point i. */
  private coef(i: number, j: number): number {
    const c = this.dampingCoefficient.value,
      d = this.d;
    const last = c.length / d - 1;
    return c[Math.min(i, last) * d + j];
  }

  addForce(f: readonly Float64Array[], _x: readonly Float64Array[], v: readonly Float64Array[]): void {
    if (this.dampingCoefficient.value.length === 0) return;
    const out = f[0],
      vs = v[0],
      d = this.d;
    for (let i = 0; i < vs.length / d; i++) for (let j = 0; j < d; j++) out[i * d + j] -= this.coef(i, j) * vs[i * d + j];
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], _kFactor: number, bFactor: number): void {
    if (this.dampingCoefficient.value.length === 0 || bFactor === 0) return;
    const out = df[0],
      ds = dx[0],
      d = this.d;
    for (let i = 0; i < ds.length / d; i++) for (let j = 0; j < d; j++) out[i * d + j] -= bFactor * this.coef(i, j) * ds[i * d + j];
  }

  addKToMatrix(_acc: MatrixAccumulator, _kFactor: number): void {}

  override addBToMatrix(acc: MatrixAccumulator, bFactor: number): void {
    if (this.dampingCoefficient.value.length === 0) return;
    const s = this.states[0],
      d = this.d;
    for (let i = 0; i < s.size; i++) for (let j = 0; j < d; j++) acc.add(i * d + j, i * d + j, -bFactor * this.coef(i, j));
  }
}
