import {
  BaseForceField,
  Indices,
  Real,
  Vec3,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type MatrixAccumulator,
} from '@sofa-ts/core';

/**
 * An example of a user-written force field: linear (viscous) drag in a moving fluid.
 *   f_i = −c·(v_i − w)      B = ∂f/∂v = −c·I,   K = ∂f/∂x = 0
 * with c the drag coefficient and w the fluid (wind) velocity. A particle of mass m falling under
 * gravity g reaches the terminal velocity w + m·g/c.
 *
 * What a plugin component needs: `@sofaComponent` (its SOFA-style name, category, description),
 * Data declared once with `initData` (type, default, unit, help: the XML attributes and the
 * `sofa-ts components` reference come from them), and the force field methods.
 */
@sofaComponent({
  name: 'LinearDragForceField',
  category: 'ForceField',
  description: 'Viscous drag f = -c (v - w) on every point (example plugin).',
  templates: ['Vec3d'],
})
export class LinearDragForceField extends BaseForceField {
  readonly dragCoefficient = this.initData({
    name: 'dragCoefficient',
    type: Real,
    default: 1,
    unit: 'N·s/m',
    help: 'drag coefficient c: force per unit of relative velocity',
  });
  readonly windVelocity = this.initData({
    name: 'windVelocity',
    type: Vec3,
    default: new Float64Array(3),
    unit: 'm/s',
    help: 'velocity w of the surrounding fluid',
  });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points subject to drag (default: all)',
  });

  readonly mstate = this.initLink({
    name: 'mstate',
    help: 'the state dragged (default: the one of this node)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    search: 'local',
    required: true,
  });

  private points: Uint32Array = new Uint32Array(0);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return [this.mstate.require()];
  }

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`only Vec3 states are supported (got ${s.stateType.name})`);
    if (this.dragCoefficient.value < 0) throw this.error(`dragCoefficient must be >= 0 (got ${this.dragCoefficient.value})`);
    const idx = this.indices.value;
    for (const i of idx) if (i >= s.size) throw this.error(`index ${i} is out of range (${s.size} points)`);
    this.points = idx.length > 0 ? Uint32Array.from(idx) : Uint32Array.from({ length: s.size }, (_, i) => i);
  }

  addForce(f: readonly Float64Array[], _x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const c = this.dragCoefficient.value;
    const w = this.windVelocity.value;
    const fv = f[0],
      vv = v[0];
    for (const p of this.points) for (let k = 0; k < 3; k++) fv[3 * p + k] -= c * (vv[3 * p + k] - w[k]);
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], _kFactor: number, bFactor: number): void {
    // df += bFactor·B·dx with B = −c·I (K = 0)
    const c = this.dragCoefficient.value * bFactor;
    const out = df[0],
      d = dx[0];
    for (const p of this.points) for (let k = 0; k < 3; k++) out[3 * p + k] -= c * d[3 * p + k];
  }

  addKToMatrix(_acc: MatrixAccumulator, _kFactor: number): void {
    // K = 0: nothing to emit.
  }

  override addBToMatrix(acc: MatrixAccumulator, bFactor: number): void {
    const c = this.dragCoefficient.value * bFactor;
    for (const p of this.points) for (let k = 0; k < 3; k++) acc.add(3 * p + k, 3 * p + k, -c);
  }
}
