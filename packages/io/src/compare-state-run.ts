/** SOFA's CompareState through a run, frame by frame as the run reaches them.
 *
 *  At the beginning of every step (time t, after init for the first), each state's reference file
 *  is read on (ReadState::readNext) over the frames with T ≤ t + 0.001·dt; the last of them is
 *  compared with the state as it is then, the ones before it in the same step are passed over (SOFA
 *  keeps only the latest frame's lines; its references have one frame per step at most). So every
 *  frame the reference has is compared, whatever the list says SOFA dumps (last_step_only); frames
 *  after the run's last step are never reached, as in SOFA. The error is SOFA's sum:
 *    e(f, m) = (mean |ref − round6(cur)| over X + the same over V where the frame has V) / points,
 *    ERRORBYDOF = Σ_m Σ_f e(f, m) / number of states.
 *  Nothing is stored but the reference frames and one small record per compared frame. */
import { SofaError } from '@sofa-ts/core';
import { MaxTracker, TIME_TOLERANCE_DT, compareFrame, type ComparisonResult, type StateComparison, type StateSeries } from './compare.js';
import { defaultDerivScalars } from './state-layout.js';

/** The layout of a current state (its name and scalars per point). */
export interface CurrentStateLayout {
  name?: string | undefined;
  scalarsPerPoint: number;
  derivScalarsPerPoint?: number | undefined;
}

export interface CompareStateRunResult extends ComparisonResult {
  /** Reference frames passed over because a later one fell within the same step. */
  readonly passedOver: number;
  /** Reference frames after the run's last step (never reached, never compared). */
  readonly notReached: number;
  /** Steps at whose beginning the states were compared with something. */
  readonly comparedSteps: number;
}

export class CompareStateRun {
  private readonly next: number[];
  private readonly failures: string[] = [];
  private readonly max = new MaxTracker();
  private readonly states: StateComparison[];
  private readonly usable: boolean[];
  private passedOver = 0;
  private comparedSteps = 0;

  constructor(
    private readonly refs: readonly StateSeries[],
    currents: readonly CurrentStateLayout[],
    private readonly epsilon: number,
    private readonly dt: number,
  ) {
    if (!(epsilon >= 0) || !Number.isFinite(epsilon)) throw new SofaError(`epsilon must be a finite number >= 0, got ${epsilon}`);
    if (!(dt >= 0) || !Number.isFinite(dt)) throw new SofaError(`dt must be a finite number >= 0, got ${dt}`);
    if (refs.length === 0) this.failures.push('no reference state to compare');
    if (refs.length !== currents.length) this.failures.push(`${refs.length} reference state(s) but ${currents.length} current state(s)`);
    this.next = refs.map(() => 0);
    this.states = refs.map((r, m) => ({ state: m, name: r.name, error: 0, frames: [] }));
    this.usable = refs.map((r, m) => {
      const cur = currents[m];
      const label = this.label(m);
      if (!cur) return false;
      if (!Number.isInteger(r.scalarsPerPoint) || r.scalarsPerPoint <= 0)
        this.failures.push(`${label}: scalarsPerPoint must be a positive integer, got ${r.scalarsPerPoint}`);
      else if (r.name !== undefined && cur.name !== undefined && r.name !== cur.name)
        this.failures.push(`${label}: current state ${m} is named '${cur.name}'`);
      else if (cur.scalarsPerPoint !== r.scalarsPerPoint)
        this.failures.push(`${label}: reference has ${r.scalarsPerPoint} scalars per point, current ${cur.scalarsPerPoint}`);
      else {
        if (r.frames.length === 0) this.failures.push(`${label}: reference has no frame`);
        return true;
      }
      return false;
    });
  }

  private label(m: number): string {
    const name = this.refs[m].name;
    return `state ${m}${name === undefined ? '' : ` '${name}'`}`;
  }

  /** At the beginning of a step at time t: compares each state (X, V as they are now, by state
   *  index) with the last reference frame it reaches. `step` is the step's index (its record). */
  atStepBegin(step: number, time: number, currents: readonly { X: ArrayLike<number>; V?: ArrayLike<number> | undefined }[]): void {
    const until = time + TIME_TOLERANCE_DT * this.dt;
    let compared = false;
    for (let m = 0; m < this.refs.length; m++) {
      if (!this.usable[m]) continue;
      const ref = this.refs[m];
      let p = this.next[m];
      const first = p;
      while (p < ref.frames.length && ref.frames[p].time <= until) p++;
      this.next[m] = p;
      if (p === first) continue;
      this.passedOver += p - first - 1;
      const f = p - 1;
      const cur = currents[m];
      const frame = compareFrame(
        m,
        ref.name,
        this.label(m),
        ref.frames[f],
        f,
        { time, X: cur.X, V: cur.V },
        step,
        ref.scalarsPerPoint,
        ref.derivScalarsPerPoint ?? defaultDerivScalars(ref.scalarsPerPoint),
        this.failures,
        this.max,
      );
      if (frame) {
        this.states[m].frames.push(frame);
        this.states[m].error += frame.error;
      }
      compared = true;
    }
    if (compared) this.comparedSteps++;
  }

  /** The judgement after the run's last step. */
  result(): CompareStateRunResult {
    const failures = [...this.failures];
    const total = this.states.reduce((s, x) => s + x.error, 0);
    const errorByDof = this.refs.length > 0 ? total / this.refs.length : 0;
    // NaN > epsilon is false: a NaN error must not pass silently.
    if (!Number.isFinite(errorByDof)) failures.push(`ERRORBYDOF is ${errorByDof} (non-finite values in a state)`);
    const max = this.max;
    const relativeError = max.maxAbsRef > 0 ? max.maxAbs / max.maxAbsRef : max.maxAbs === 0 ? 0 : Infinity;
    const notReached = this.refs.reduce((s, r, m) => s + (this.usable[m] ? r.frames.length - this.next[m] : 0), 0);
    return {
      passed: failures.length === 0 && errorByDof <= this.epsilon,
      errorByDof,
      epsilon: this.epsilon,
      stateCount: this.refs.length,
      states: this.states,
      maxAbsError: max.maxAbs,
      maxErrorAt: max.at,
      maxAbsRef: max.maxAbsRef,
      relativeError,
      failures,
      passedOver: this.passedOver,
      notReached,
      comparedSteps: this.comparedSteps,
    };
  }
}
