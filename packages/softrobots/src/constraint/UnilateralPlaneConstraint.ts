import {
  contextStateLink,
  BaseLagrangianConstraint,
  Bool,
  IndexArray,
  Real,
  sofaComponent,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
} from '@sofa-ts/core';
import { UnilateralResolution } from '@sofa-ts/constraint';
import { planeDistance, planeDistanceGradient } from './unilateral-plane-geometry.js';

/**
 * SoftRobots' UnilateralPlaneConstraint: of the four points `indices` of a Vec3 state, the first
 * stays on the side of the plane through the other three that their normal (p2 − p1) × (p3 − p1)
 * points to (the other side with flipNormal). One unilateral row, at the free positions:
 *   δ = signed distance of p0 to the plane ≥ 0,  λ ≥ 0,  δ·λ = 0,
 * J = ∂δ/∂x on the four points (unilateral-plane-geometry.ts), solved by the scene's constraint
 * solver (λ = max(0, λ − d/W_ii) in a Gauss-Seidel sweep).
 * Departures from SoftRobots, whose violation is the distance but whose row is |n| times the
 * normal (a triangle of double area ≠ 1 then under- or overshoots the plane), and gives each
 * plane point −n/3: the row here is the gradient of the distance itself (unit normal on p0, the
 * barycentric split plus the lever of the plane's rotation on the plane points; −n̂/3 each when
 * p0 lies over the centroid). `force` and `physicalForce` are sofa-ts outputs.
 */
@sofaComponent({
  name: 'UnilateralPlaneConstraint',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Keeps a point on one side of the plane through three other points (unilateral Lagrangian constraint).',
  templates: ['Vec3d'],
})
export class UnilateralPlaneConstraint extends BaseLagrangianConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: IndexArray(4, 'Vec4u'),
    default: new Uint32Array(4),
    help: 'four points: the constrained point, then the three points of the plane',
  });
  readonly flipNormal = this.initData({
    name: 'flipNormal',
    type: Bool,
    default: false,
    help: 'the allowed side is the one opposite to (p2 − p1) × (p3 − p1)',
  });

  readonly force = this.initData({
    name: 'force',
    type: Real,
    default: 0,
    help: 'λ of the last step (SOFA impulse, force·dt; sofa-ts)',
    output: true,
  });
  readonly physicalForce = this.initData({
    name: 'physicalForce',
    type: Real,
    default: 0,
    help: 'contact force of the last step, λ/dt (sofa-ts)',
    output: true,
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Vec3 state of the four points (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d)',
    ),
  );

  private states: BaseMechanicalState[] = [];
  private row = 0;
  private readonly grad = new Float64Array(12);
  /** The four 3-vectors of grad (views made once). */
  private readonly blocks = [0, 1, 2, 3].map((k) => this.grad.subarray(3 * k, 3 * k + 3));
  private readonly resolutionObj = new UnilateralResolution();

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    const idx = this.indices.value;
    if (idx.length !== 4)
      throw this.error(`indices holds ${idx.length} numbers: expected 4 (the point, then the three points of the plane)`);
    for (const i of idx) if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    if (!Number.isFinite(planeDistance(s.x, idx[0], idx[1], idx[2], idx[3], false)))
      throw this.error(`the plane points ${idx[1]}, ${idx[2]}, ${idx[3]} are aligned: they define no plane`);
    this.states = [s];
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0],
      idx = this.indices.value;
    this.row = firstRow;
    planeDistanceGradient(this.grad, s.xFree, idx[0], idx[1], idx[2], idx[3], this.flipNormal.value);
    for (let k = 0; k < 4; k++) J.add(s, firstRow, idx[k], this.blocks[k]);
    return 1;
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    if (order === 'vel')
      throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported by the plane: pose the problem on positions');
    const idx = this.indices.value;
    const d = planeDistance(this.states[0].xFree, idx[0], idx[1], idx[2], idx[3], this.flipNormal.value);
    if (!Number.isFinite(d)) throw this.error(`the plane points ${idx[1]}, ${idx[2]}, ${idx[3]} became aligned: they define no plane`);
    out[this.row] = d;
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    out[this.row] = this.resolutionObj;
  }

  override storeLambda(lambda: Float64Array): void {
    const l = lambda[this.row];
    this.force.setValue(l);
    this.physicalForce.setValue(l / this.context.getDt());
  }
}
