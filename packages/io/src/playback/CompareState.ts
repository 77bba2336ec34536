import { AnimateBeginEvent, Real, sofaComponent, type SofaEvent, type CheckpointReader, type CheckpointRecord } from '@sofa-ts/core';
import { roundLikeSofa } from '../number-format.js';
import { ReadState } from './ReadState.js';

/**
 * Compares the state of its node's MechanicalObject with a state file (SOFA CompareState). At the
 * beginning of every step, with t = time + shift + 0.001·dt, the last frame of the file with T ≤ t
 * not read yet (see FrameCursor) is compared with the current state, SOFA's measure:
 *   e_X = Σ_i |ref_i − round6(x_i)| / n_X    over the scalars of X (n_X of them; the current value
 *                                             as SOFA prints it, 6 significant digits)
 *   totalError += e_X (+ e_V when the frame has V);  errorByDof += e_X / points (+ e_V / points)
 * The same measure is the regression rule of packages/io/src/compare.ts. A frame whose size differs
 * from the state's is an error (SOFA would compare the common part).
 * Differs from SOFA by choice: SOFA's CompareState inherits ReadState's bwdInit and so overwrites
 * the state with the file's first frame at init (which is then never compared); here the state is
 * never written and the first frame is compared at the first step.
 */
@sofaComponent({
  name: 'CompareState',
  category: 'Playback',
  module: 'Sofa.Component.Playback',
  description: 'Compare the mechanical state of its node with a state file at each step and accumulate the error.',
})
export class CompareState extends ReadState {
  readonly totalErrorData = this.initData({
    name: 'totalError',
    type: Real,
    default: 0,
    output: true,
    help: 'accumulated error of positions and velocities, Σ e (sofa-ts output; SOFA gives it by getTotalError())',
  });
  readonly errorByDofData = this.initData({
    name: 'errorByDof',
    type: Real,
    default: 0,
    output: true,
    help: 'accumulated error per point, Σ e / points (sofa-ts output; SOFA gives it by getErrorByDof())',
  });

  private totalErrorX = 0;
  private totalErrorV = 0;
  private dofErrorX = 0;
  private dofErrorV = 0;
  /** Number of frames compared so far. */
  comparedFrames = 0;

  /** SOFA getTotalError: Σ e_X + Σ e_V. */
  get totalError(): number {
    return this.totalErrorX + this.totalErrorV;
  }

  /** SOFA getErrorByDof: Σ e_X / points + Σ e_V / points. */
  get errorByDof(): number {
    return this.dofErrorX + this.dofErrorV;
  }

  override bwdInit(): void {}

  /** Checkpoint: the cursor and the accumulated errors. */
  override checkpointState(): CheckpointRecord {
    return {
      ...super.checkpointState(),
      totalErrorX: this.totalErrorX,
      totalErrorV: this.totalErrorV,
      dofErrorX: this.dofErrorX,
      dofErrorV: this.dofErrorV,
      comparedFrames: this.comparedFrames,
    };
  }

  override restoreState(saved: CheckpointReader): void {
    super.restoreState(saved);
    this.totalErrorX = saved.number('totalErrorX');
    this.totalErrorV = saved.number('totalErrorV');
    this.dofErrorX = saved.number('dofErrorX');
    this.dofErrorV = saved.number('dofErrorV');
    this.comparedFrames = saved.number('comparedFrames');
  }

  override reset(): void {
    super.reset();
    this.totalErrorX = this.totalErrorV = this.dofErrorX = this.dofErrorV = 0;
    this.comparedFrames = 0;
    this.publish();
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateBeginEvent) || this.componentState !== 'valid' || !this.state) return;
    const frame = this.cursor.advance(this.frameTime());
    if (!frame) return;
    const s = this.state;
    const points = s.size;
    this.checkSize('X', frame.X.length, s.x.length, frame.time);
    const eX = meanAbsDifference(frame.X, s.x);
    this.totalErrorX += eX;
    if (points > 0) this.dofErrorX += eX / points;
    if (frame.V) {
      this.checkSize('V', frame.V.length, s.v.length, frame.time);
      const eV = meanAbsDifference(frame.V, s.v);
      this.totalErrorV += eV;
      if (points > 0) this.dofErrorV += eV / points;
    }
    this.comparedFrames++;
    this.publish();
  }

  private publish(): void {
    this.totalErrorData.value = this.totalError;
    this.errorByDofData.value = this.errorByDof;
  }
}

/** Σ |ref_i − round6(cur_i)| / n over the n scalars (sizes checked by the caller); 0 when n = 0. */
function meanAbsDifference(ref: Float64Array, cur: Float64Array): number {
  const n = Math.min(ref.length, cur.length);
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs(ref[i] - roundLikeSofa(cur[i]));
  return sum / n;
}
