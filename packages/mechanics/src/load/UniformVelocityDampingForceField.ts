import { Bool, Real, sofaComponent, type MatrixAccumulator, SingleStateForceField } from '@sofa-ts/core';

/**
 * SOFA's UniformVelocityDampingForceField: a viscous force on every dof,
 *   f = −c·v,   B = ∂f/∂v = −c·I   (K = 0),
 * c = dampingCoefficient. B enters the implicit solvers only with `implicit` (SOFA's default is an
 * explicit force).
 */
@sofaComponent({
  name: 'UniformVelocityDampingForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Uniform velocity damping force f = −c·v.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d', 'Rigid2d'],
})
export class UniformVelocityDampingForceField extends SingleStateForceField {
  readonly dampingCoefficient = this.initData({
    name: 'dampingCoefficient',
    type: Real,
    default: 0.1,
    unit: 'N·s/m',
    help: 'velocity damping coefficient',
    aliases: ['damping'],
  });
  readonly implicit = this.initData({
    name: 'implicit',
    type: Bool,
    default: false,
    help: 'should it generate the damping matrix df/dv? (explicit otherwise, i.e. only generating a force)',
  });

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
  }

  addForce(f: readonly Float64Array[], _x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const out = f[0],
      vs = v[0],
      c = this.dampingCoefficient.value;
    for (let i = 0; i < vs.length; i++) out[i] -= c * vs[i];
  }

  /** df += bFactor·B·dx with B = −c·I (implicit only). */
  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], _kFactor: number, bFactor: number): void {
    if (!this.implicit.value || bFactor === 0) return;
    const out = df[0],
      d = dx[0],
      s = bFactor * this.dampingCoefficient.value;
    for (let i = 0; i < d.length; i++) out[i] -= s * d[i];
  }

  addKToMatrix(_acc: MatrixAccumulator, _kFactor: number): void {}

  override addBToMatrix(acc: MatrixAccumulator, bFactor: number): void {
    if (!this.implicit.value) return;
    const s = this.states[0],
      n = s.size * s.stateType.derivSize,
      v = -bFactor * this.dampingCoefficient.value;
    for (let i = 0; i < n; i++) acc.add(i, i, v);
  }
}
