import {
  Bool,
  contextStateLink,
  BaseLagrangianConstraint,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
} from '@sofa-ts/core';
import { BilateralNResolution, BilateralResolution } from './resolutions.js';

const ONE = Float64Array.of(1);

/**
 * SOFA's UniformLagrangianConstraint (Vec1): every dof of its state is held at 0 (at its rest
 * value with constrainToRestPos) by one bilateral row each, J = +1 on the dof.
 *   position orders: δ_i = x_free,i (− x_rest,i);
 *   'vel': δ_i = v_free,i + (x_i (− x_rest,i))/dt, x the positions at the start of the step.
 * Resolution: each row alone (λ −= δ/W_ii, SOFA's BilateralConstraintResolution) when iterative,
 * otherwise all rows as one block λ −= W_b⁻¹·δ (SOFA's BilateralConstraintResolutionNDof).
 * Typical use: under a DistanceMapping, inextensible edges.
 */
@sofaComponent({
  name: 'UniformLagrangianConstraint',
  aliases: ['UniformConstraint'],
  category: 'LagrangianConstraint',
  module: 'Sofa.Component.Constraint.Lagrangian.Model',
  description: 'A constraint equation applied on all dofs.',
  templates: ['Vec1d'],
})
export class UniformLagrangianConstraint extends BaseLagrangianConstraint {
  readonly iterative = this.initData({
    name: 'iterative',
    type: Bool,
    default: true,
    help: 'Iterate over the bilateral constraints, otherwise a block factorisation is computed.',
  });
  readonly constrainToRestPos = this.initData({
    name: 'constrainToRestPos',
    type: Bool,
    default: false,
    help: 'if false, constrains the pos to be zero / if true constraint the current position to stay at rest position',
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the 1D state constrained (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec1d)',
    ),
  );

  private states: BaseMechanicalState[] = [];
  private firstRow = 0;
  private count = 0;
  private lines: ConstraintResolution[] = [];
  private block: BilateralNResolution | undefined;

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec1d') throw this.error(`a Vec1d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec1d';
    this.states = [s];
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0];
    const n = s.size;
    this.firstRow = firstRow;
    this.count = n;
    for (let i = 0; i < n; i++) J.add(s, firstRow + i, i, ONE);
    return n;
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder, dt: number): void {
    const s = this.states[0];
    const n = this.count,
      r = this.firstRow;
    const rest = this.constrainToRestPos.value ? s.x0 : undefined;
    if (order === 'vel') {
      const v = s.vFree,
        x = s.x,
        inv = 1 / dt;
      for (let i = 0; i < n; i++) out[r + i] = v[i] + inv * (x[i] - (rest ? rest[i] : 0));
      return;
    }
    const x = s.xFree;
    for (let i = 0; i < n; i++) out[r + i] = x[i] - (rest ? rest[i] : 0);
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    const n = this.count,
      r = this.firstRow;
    if (n === 0) return;
    if (!this.iterative.value) {
      if (this.block?.nbLines !== n) this.block = new BilateralNResolution(n);
      out[r] = this.block;
      return;
    }
    while (this.lines.length < n) this.lines.push(new BilateralResolution());
    for (let i = 0; i < n; i++) out[r + i] = this.lines[i];
  }
}
