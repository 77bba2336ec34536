import { RealArray, sofaComponent, type ConstraintResolution } from '@sofa-ts/core';
import type { InverseConstraint, InverseRows } from '../inverse-rows.js';
import { PositionModel } from '../position-model.js';

/**
 * A position held exactly in the inverse problem: points of a Vec3 or Rigid3 state, along the used
 * directions (see PositionModel), must end the step at `eqPosition`; a force on each row, an
 * unknown of the QP, holds them (the hard counterpart of PositionEffector). `force` gives the λ
 * per row, `delta` the remaining shift (0 within the QP tolerance).
 */
@sofaComponent({
  name: 'PositionEquality',
  category: 'SoftRobots.Inverse',
  module: 'SoftRobots.Inverse',
  description: 'Points of a soft robot held at given positions by unknown forces of the inverse problem (equality constraint).',
  templates: ['Vec3d', 'Rigid3d'],
})
export class PositionEquality extends PositionModel implements InverseConstraint {
  readonly inverseRole = 'equality';
  readonly eqPosition = this.initData({ name: 'eqPosition', type: RealArray(0), default: new Float64Array(0), help: 'positions to hold, one per index (default: the initial positions)' });
  readonly force = this.initData({ name: 'force', type: RealArray(1), default: new Float64Array(0), help: 'λ per row in the last step (SOFA impulse, force·dt)', output: true });
  readonly delta = this.initData({ name: 'delta', type: RealArray(1), default: new Float64Array(0), help: 'remaining shift per row after the last solve', output: true });

  private initialPosition = new Float64Array(0);

  override init(): void {
    super.init();
    const s = this.states[0]!, c = s.stateType.coordSize, idx = this.indices.value;
    this.initialPosition = new Float64Array(c * idx.length);
    for (let p = 0; p < idx.length; p++) for (let a = 0; a < c; a++) this.initialPosition[p * c + a] = s.x[c * idx[p]! + a]!;
    const g = this.eqPosition.value;
    if (g.length !== 0 && g.length !== c * idx.length) throw this.error(`eqPosition holds ${g.length} numbers: expected ${c} per index (${idx.length} indices)`);
    this.force.setValue(new Float64Array(this.nbRows));
    this.delta.setValue(new Float64Array(this.nbRows));
  }

  protected goal(p: number): ArrayLike<number> {
    const c = this.states[0]!.stateType.coordSize;
    const g = this.eqPosition.value.length === 0 ? this.initialPosition : this.eqPosition.value;
    return g.subarray(p * c, p * c + c);
  }

  getInverseRows(rows: InverseRows): void {
    for (let r = 0; r < this.nbRows; r++) rows.setEqualityOnDisplacement(this.row + r, 0);
  }

  storeResults(lambda: Float64Array, delta: Float64Array): void {
    const m = this.nbRows;
    this.force.setValue(Float64Array.from(lambda.subarray(this.row, this.row + m)));
    this.delta.setValue(Float64Array.from(delta.subarray(this.row, this.row + m)));
  }

  getConstraintResolution(_out: Array<ConstraintResolution | undefined>): void {
    throw this.error('an equality of the inverse problem is solved by QPInverseProblemSolver');
  }
}
