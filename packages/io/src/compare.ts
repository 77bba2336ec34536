/** SOFA's regression judgement (its Regression_test with CompareState components).
 *
 *  For each reference frame f of each compared state m:
 *    e(f, m) = mean_i |ref_i − cur_i| over the X scalars / nPoints(m)
 *            + the same over the V scalars when the reference frame has V.
 *  `cur` is first rounded to what SOFA would print (6 significant digits), since SOFA compares
 *  the reference text with the current state written as text.
 *    ERRORBYDOF = Σ_m Σ_f e(f, m) / number of states;  the run fails when ERRORBYDOF > epsilon.
 *
 *  A reference frame at time T is compared with the first current frame at t >= T − 0.001·dt
 *  (SOFA compares at the beginning of the step whose time reaches T, with a tolerance against
 *  rounding of accumulated time). Where SOFA would silently compare less (a missing frame, a
 *  shorter vector), this reports a failure with its reason instead. One difference by design:
 *  when two reference frames fall within the same step SOFA compares only the later one; here
 *  both are compared (SOFA's own references never have that: one frame per step at most). */
import { SofaError } from '@sofa-ts/core';
import { roundLikeSofa } from './number-format.js';
import { defaultDerivScalars } from './state-layout.js';

/** A frame as produced by a run or read from a file. */
export interface StateFrameLike {
  time: number;
  X: ArrayLike<number>;
  V?: ArrayLike<number> | undefined;
}

/** All recorded frames of one mechanical state. */
export interface StateSeries {
  /** Component name, as in the reference file name (`..._<i>_<name>_mstate.txt.gz`). */
  name?: string;
  /** X scalars per point: 1 Vec1, 2 Vec2, 3 Vec3, 7 Rigid3. */
  scalarsPerPoint: number;
  /** V scalars per point; by default 6 when scalarsPerPoint is 7 (Rigid3), else scalarsPerPoint. */
  derivScalarsPerPoint?: number;
  frames: readonly StateFrameLike[];
}

/** Where the largest absolute error was found. */
export interface ErrorLocation {
  state: number;
  stateName: string | undefined;
  refFrame: number;
  time: number;
  vector: 'X' | 'V';
  scalar: number;
  point: number;
  component: number;
  ref: number;
  cur: number;
}

export interface FrameComparison {
  refFrame: number;
  refTime: number;
  curFrame: number;
  curTime: number;
  points: number;
  /** Mean |ref − cur| over the X scalars. */
  meanAbsX: number;
  /** Mean |ref − cur| over the V scalars, when the reference frame has V. */
  meanAbsV: number | undefined;
  /** e(f, m): this frame's share of the state's error. */
  error: number;
}

export interface StateComparison {
  state: number;
  name: string | undefined;
  /** Σ_f e(f, m) over the frames that could be compared. */
  error: number;
  frames: FrameComparison[];
}

export interface ComparisonResult {
  passed: boolean;
  /** ERRORBYDOF: Σ_m Σ_f e(f, m) / number of reference states. */
  errorByDof: number;
  epsilon: number;
  stateCount: number;
  states: StateComparison[];
  maxAbsError: number;
  maxErrorAt: ErrorLocation | undefined;
  /** Largest |ref| over all compared scalars. */
  maxAbsRef: number;
  /** maxAbsError / maxAbsRef (0 when both are 0). */
  relativeError: number;
  /** Why the comparison could not be made as asked; any entry fails the run. */
  failures: string[];
}

/** Frames are matched with this fraction of dt as tolerance, as SOFA's CompareState does. */
export const TIME_TOLERANCE_DT = 0.001;

/** Compare current states with reference states (paired by index) the way SOFA judges a scene. */
export function compareStates(
  refs: readonly StateSeries[],
  currents: readonly StateSeries[],
  epsilon: number,
  dt: number,
): ComparisonResult {
  if (!(epsilon >= 0) || !Number.isFinite(epsilon)) throw new SofaError(`epsilon must be a finite number >= 0, got ${epsilon}`);
  if (!(dt >= 0) || !Number.isFinite(dt)) throw new SofaError(`dt must be a finite number >= 0, got ${dt}`);

  const failures: string[] = [];
  const max = new MaxTracker();
  const states: StateComparison[] = [];

  if (refs.length === 0) failures.push('no reference state to compare');
  if (refs.length !== currents.length) {
    failures.push(`${refs.length} reference state(s) but ${currents.length} current state(s)`);
  }

  let total = 0;
  for (let m = 0; m < Math.min(refs.length, currents.length); m++) {
    const state = compareState(m, refs[m], currents[m], dt, failures, max);
    states.push(state);
    total += state.error;
  }

  const errorByDof = refs.length > 0 ? total / refs.length : 0;
  // NaN > epsilon is false: a NaN error must not pass silently.
  if (!Number.isFinite(errorByDof)) failures.push(`ERRORBYDOF is ${errorByDof} (non-finite values in a state)`);
  const relativeError = max.maxAbsRef > 0 ? max.maxAbs / max.maxAbsRef : max.maxAbs === 0 ? 0 : Infinity;
  return {
    passed: failures.length === 0 && errorByDof <= epsilon,
    errorByDof,
    epsilon,
    stateCount: refs.length,
    states,
    maxAbsError: max.maxAbs,
    maxErrorAt: max.at,
    maxAbsRef: max.maxAbsRef,
    relativeError,
    failures,
  };
}

function compareState(m: number, ref: StateSeries, cur: StateSeries, dt: number, failures: string[], max: MaxTracker): StateComparison {
  const label = `state ${m}${ref.name === undefined ? '' : ` '${ref.name}'`}`;
  const result: StateComparison = { state: m, name: ref.name, error: 0, frames: [] };
  const spp = ref.scalarsPerPoint;
  const vspp = ref.derivScalarsPerPoint ?? defaultDerivScalars(spp);

  if (!Number.isInteger(spp) || spp <= 0) {
    failures.push(`${label}: scalarsPerPoint must be a positive integer, got ${spp}`);
    return result;
  }
  if (ref.name !== undefined && cur.name !== undefined && ref.name !== cur.name) {
    // SOFA finds a state's reference by its name: another name means no reference at all.
    failures.push(`${label}: current state ${m} is named '${cur.name}'`);
    return result;
  }
  if (cur.scalarsPerPoint !== spp) {
    failures.push(`${label}: reference has ${spp} scalars per point, current ${cur.scalarsPerPoint}`);
    return result;
  }
  if (ref.frames.length === 0) failures.push(`${label}: reference has no frame`);

  const order = timeOrder(cur.frames);
  const tolerance = TIME_TOLERANCE_DT * dt;
  ref.frames.forEach((rf, f) => {
    const c = firstAtOrAfter(cur.frames, order, rf.time - tolerance);
    if (c === undefined) {
      const last = order.length > 0 ? `last current frame at t=${cur.frames[order[order.length - 1]].time}` : 'no current frame';
      failures.push(`${label} at T=${rf.time}: no current frame (${last})`);
      return;
    }
    const frame = compareFrame(m, ref.name, label, rf, f, cur.frames[c], c, spp, vspp, failures, max);
    if (frame) {
      result.frames.push(frame);
      result.error += frame.error;
    }
  });
  return result;
}

/**
 * e(f, m) of one reference frame against one current frame (the mean |ref − round6(cur)| of X,
 * plus V's where the reference has V, over the points), or undefined with a failure when their
 * layouts do not match. `label` names the state in the failures.
 */
export function compareFrame(
  m: number,
  name: string | undefined,
  label: string,
  rf: StateFrameLike,
  f: number,
  cf: StateFrameLike,
  c: number,
  spp: number,
  vspp: number,
  failures: string[],
  max: MaxTracker,
): FrameComparison | undefined {
  const where = `${label} at T=${rf.time}`;
  if (rf.X.length % spp !== 0) {
    failures.push(`${where}: reference X has ${rf.X.length} scalars, not a multiple of ${spp} per point`);
    return;
  }
  if (cf.X.length !== rf.X.length) {
    failures.push(
      `${where}: X size mismatch: reference ${rf.X.length / spp} point(s) (${rf.X.length} scalars), current ${cf.X.length} scalars`,
    );
    return;
  }
  const points = cf.X.length / spp;
  const context = { state: m, stateName: name, refFrame: f, time: rf.time };
  const meanAbsX = meanAbsError(rf.X, cf.X, { ...context, vector: 'X', perPoint: spp }, max);
  let meanAbsV: number | undefined;
  if (rf.V !== undefined) {
    if (cf.V === undefined) {
      failures.push(`${where}: reference has V but the current frame has none`);
      return;
    }
    if (rf.V.length !== points * vspp) {
      failures.push(`${where}: reference V has ${rf.V.length} scalars, expected ${points * vspp} (${points} point(s) × ${vspp})`);
      return;
    }
    if (cf.V.length !== rf.V.length) {
      failures.push(`${where}: V size mismatch: reference ${rf.V.length} scalars, current ${cf.V.length}`);
      return;
    }
    meanAbsV = meanAbsError(rf.V, cf.V, { ...context, vector: 'V', perPoint: vspp }, max);
  }
  // An empty state contributes nothing (SOFA's 0/0 is not a number worth keeping).
  const error = points === 0 ? 0 : (meanAbsX + (meanAbsV ?? 0)) / points;
  return { refFrame: f, refTime: rf.time, curFrame: c, curTime: cf.time, points, meanAbsX, meanAbsV, error };
}

/** Mean of |ref − round6(cur)| over one vector, feeding every scalar to the max-error tracker. */
function meanAbsError(ref: ArrayLike<number>, cur: ArrayLike<number>, context: VectorContext, max: MaxTracker): number {
  if (ref.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < ref.length; i++) {
    const r = ref[i];
    const v = roundLikeSofa(cur[i]);
    const d = Math.abs(r - v);
    sum += d;
    max.see(d, r, v, i, context);
  }
  return sum / ref.length;
}

/** Indices of frames sorted by time (stable), so matching does not assume a sorted input. */
function timeOrder(frames: readonly StateFrameLike[]): number[] {
  return frames.map((_, i) => i).sort((a, b) => frames[a].time - frames[b].time || a - b);
}

/** Index of the earliest frame with time >= threshold. */
function firstAtOrAfter(frames: readonly StateFrameLike[], order: number[], threshold: number): number | undefined {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames[order[mid]].time >= threshold) hi = mid;
    else lo = mid + 1;
  }
  return lo < order.length ? order[lo] : undefined;
}

/** Which vector of which frame is being compared (the location, minus the scalar). */
interface VectorContext {
  state: number;
  stateName: string | undefined;
  refFrame: number;
  time: number;
  vector: 'X' | 'V';
  perPoint: number;
}

/** The largest absolute error and where it is, and the largest |ref|, over every compared scalar. */
export class MaxTracker {
  maxAbs = 0;
  maxAbsRef = 0;
  at: ErrorLocation | undefined;

  see(diff: number, ref: number, cur: number, scalar: number, c: VectorContext): void {
    // A NaN difference is the worst possible one.
    const d = Number.isNaN(diff) ? Infinity : diff;
    if (this.at === undefined || d > this.maxAbs) {
      this.maxAbs = d;
      const { perPoint, ...where } = c;
      this.at = { ...where, scalar, point: Math.floor(scalar / perPoint), component: scalar % perPoint, ref, cur };
    }
    const a = Math.abs(ref);
    if (a > this.maxAbsRef) this.maxAbsRef = a;
  }
}
