import {
  contextStateLink,
  BaseLagrangianConstraint,
  IndexArray,
  Indices,
  RealArray,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
} from '@sofa-ts/core';
import { rotationDifference } from './rotation-difference.js';

/**
 * What the position components of the inverse problem share (PositionEffector, PositionEquality):
 * points `indices` of a Vec3 (or Rigid3) state, and for each point one row per used direction d:
 *
 *   δ = d · (x_free − goal)                      J = d on that point
 *
 * Directions are vectors of the state's derivative space (3 numbers for Vec3, 6 for Rigid3: a
 * translation and a rotation part), normalised, by default its axes; `useDirections` keeps some of them (1) and
 * drops the others (0). On a Rigid3 frame the rotation part acts on the rotation vector of
 * q_free·q_goal⁻¹ (world frame), which is what a small rotation ω moves to first order.
 */
export abstract class PositionModel extends BaseLagrangianConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: Uint32Array.of(0),
    help: 'points of the state that are constrained',
  });
  readonly directions = this.initData({
    name: 'directions',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'directions of the rows, vectors of the derivative space (default: its axes)',
  });
  readonly useDirections = this.initData({
    name: 'useDirections',
    type: IndexArray(1, 'vector<bool>'),
    default: new Uint32Array(0),
    help: 'one flag per direction: 1 keeps it, 0 drops it (default: all kept)',
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the state of the points (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d or Rigid3d)',
    ),
  );

  protected states: BaseMechanicalState[] = [];
  protected row = 0;
  /** Derivative size (3 or 6) and the used directions (nDir × d). */
  protected d = 3;
  protected dirs = new Float64Array(0);
  protected nDir = 0;
  private readonly rot = new Float64Array(3);
  /** The points' positions at init, one coordinate per index (the default goal). */
  protected initialPositions = new Float64Array(0);
  private free = new Float64Array(0);
  private current = new Float64Array(0);
  /** Length of the goals last checked, and the name of their Data (goals are read at every step). */
  private checkedGoalLength = -1;
  private goalName = 'goal';

  override init(): void {
    const s = this.mstate.require();
    const name = s.stateType.name;
    if (name !== 'Vec3d' && name !== 'Rigid3d') throw this.error(`a Vec3d or Rigid3d state is needed (got ${name})`);
    this.template = name;
    this.states = [s];
    const d = (this.d = s.stateType.derivSize);
    for (const i of this.indices.value)
      if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    let all = this.directions.value;
    if (all.length === 0) {
      all = new Float64Array(d * d);
      for (let k = 0; k < d; k++) all[k * d + k] = 1;
    } else if (all.length % d !== 0) {
      throw this.error(`directions holds ${all.length} numbers: expected groups of ${d} (one vector of the derivative space each)`);
    }
    const count = all.length / d;
    const use = this.useDirections.value;
    if (use.length !== 0 && use.length !== count) throw this.error(`useDirections has ${use.length} flags for ${count} directions`);
    let kept = 0;
    for (let k = 0; k < count; k++) if (use.length === 0 || use[k] !== 0) kept++;
    if (kept === 0) throw this.error('useDirections drops every direction: nothing to constrain');
    this.dirs = new Float64Array(kept * d);
    let r = 0;
    for (let k = 0; k < count; k++) {
      if (use.length !== 0 && use[k] === 0) continue;
      let norm = 0;
      for (let a = 0; a < d; a++) norm += all[k * d + a] * all[k * d + a];
      norm = Math.sqrt(norm);
      if (!(norm > 0)) throw this.error(`direction ${k} is zero`);
      for (let a = 0; a < d; a++) this.dirs[r * d + a] = all[k * d + a] / norm;
      r++;
    }
    this.nDir = kept;
    const c = s.stateType.coordSize,
      idx = this.indices.value;
    this.initialPositions = new Float64Array(c * idx.length);
    for (let p = 0; p < idx.length; p++) for (let a = 0; a < c; a++) this.initialPositions[p * c + a] = s.x[c * idx[p] + a];
    this.free = new Float64Array(kept);
    this.current = new Float64Array(kept);
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  /** Number of rows: used directions × points. */
  get nbRows(): number {
    return this.nDir * this.indices.value.length;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0],
      idx = this.indices.value,
      d = this.d;
    this.row = firstRow;
    let r = firstRow;
    for (let p = 0; p < idx.length; p++) {
      for (let k = 0; k < this.nDir; k++) J.add(s, r++, idx[p], this.dirs.subarray(k * d, k * d + d));
    }
    return r - firstRow;
  }

  /**
   * The goals set by the user: one coordinate per index, or (when `singleGoalAllowed`) one for all;
   * empty: the initial positions.
   */
  protected abstract goals(): Float64Array;

  /** True when one goal may serve every index. */
  protected get singleGoalAllowed(): boolean {
    return false;
  }

  /**
   * Checks the length of the user's goals (named `dataName` in the message): at init, and again at
   * the step after a controller or the API gave goals of another length.
   */
  protected checkGoals(dataName: string): void {
    const c = this.states[0].stateType.coordSize,
      n = this.indices.value.length,
      g = this.goals().length;
    this.goalName = dataName;
    if (g === 0 || g === c * n || (this.singleGoalAllowed && g === c)) {
      this.checkedGoalLength = g;
      return;
    }
    throw this.error(
      `${dataName} holds ${g} numbers: expected ${c} per index (${n} indices)${this.singleGoalAllowed ? ' or one goal for all' : ''}`,
    );
  }

  /** Copies this constraint's rows of `src` into the array of `data` (kept, no allocation) and marks it changed. */
  protected storeRows(data: { readonly value: Float64Array; setValue(v: Float64Array): void; touch(): void }, src: Float64Array): void {
    const m = this.nbRows;
    const out = data.value;
    if (out.length !== m) {
      data.setValue(Float64Array.from(src.subarray(this.row, this.row + m)));
      return;
    }
    for (let r = 0; r < m; r++) out[r] = src[this.row + r];
    data.touch();
  }

  /**
   * The largest shift to the goal a row may aim at in one step (the effector's limits), measured
   * from the current position: Infinity by default.
   */
  protected shiftLimit(_dt: number): number {
    return Infinity;
  }

  /**
   * δ_free = d·(x_free − goal). With a finite shift limit L the goal is replaced by an intermediate
   * one at most L away from the current position x along d: δ_free = d·(x_free − x) + clamp(d·(x − goal), ±L).
   */
  getConstraintViolation(out: Float64Array, order: ConstraintOrder, dt: number): void {
    if (order === 'vel')
      throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported: pose the problem on positions');
    if (this.goals().length !== this.checkedGoalLength) this.checkGoals(this.goalName);
    const limit = this.shiftLimit(dt);
    const s = this.states[0];
    let r = this.row;
    for (let p = 0; p < this.indices.value.length; p++) {
      let g = this.goals();
      const c = s.stateType.coordSize;
      if (g.length === 0) g = this.initialPositions;
      const go = g.length === c ? 0 : p * c;
      this.shiftAlongDirections(this.free, s.xFree, p, g, go);
      if (limit < Infinity) this.shiftAlongDirections(this.current, s.x, p, g, go);
      for (let k = 0; k < this.nDir; k++) {
        const f = this.free[k];
        out[r++] = limit < Infinity ? f - this.current[k] + Math.max(-limit, Math.min(limit, this.current[k])) : f;
      }
    }
  }

  /** out[k] = d_k·(x_p − goal) for the used directions of point p (rotation part on Rigid3). */
  private shiftAlongDirections(out: Float64Array, x: ArrayLike<number>, p: number, g: ArrayLike<number>, go: number): void {
    const d = this.d,
      o = this.states[0].stateType.coordSize * this.indices.value[p];
    const ex = x[o] - g[go],
      ey = x[o + 1] - g[go + 1],
      ez = x[o + 2] - g[go + 2];
    if (d === 6) rotationDifference(this.rot, x, o + 3, g, go + 3);
    for (let k = 0; k < this.nDir; k++) {
      const u = this.dirs,
        b = k * d;
      let shift = u[b] * ex + u[b + 1] * ey + u[b + 2] * ez;
      if (d === 6) shift += u[b + 3] * this.rot[0] + u[b + 4] * this.rot[1] + u[b + 5] * this.rot[2];
      out[k] = shift;
    }
  }
}
