import {
  AnimateBeginEvent,
  host,
  Bool,
  Indices,
  Real,
  RealArray,
  SofaError,
  Str,
  BaseObject,
  isMass,
  sofaComponent,
  type BaseMechanicalState,
  type SofaEvent,
  checkpointFields,
  restoreFields,
  type CheckpointReader,
  type CheckpointRecord,
  type RestoreContext,
} from '@sofa-ts/core';
import { formatSofaNumber } from '../number-format.js';
import { formatSofaVector } from '../format-vector.js';
import { localMechanicalState, outputFilePath } from './playback-files.js';

/**
 * Writes the state of its node's MechanicalObject to a file in SOFA's state format (SOFA
 * WriteState), the format `sofa-ts run --write-state` writes and ReadState / CompareState read:
 *
 *     T= t
 *       X= x…      (writeX)      X0= x0…  (writeX0)      V= v…  (writeV)      F= f…  (writeF)
 *
 * Frames are written at the beginning of a step (AnimateBeginEvent), with the time of that step:
 * at each time of `time`, then every `period` after the last of them. Neither set: every step from
 * t = 0 (period = dt). A time t_w is reached when t > t_w or |t − t_w| < 0.1·dt.
 * stopAt > 0: every keperiod the kinetic energy of the node's mass is compared with its previous
 * measure; once it changed by less than stopAt, writing stops after that step's frame.
 * A name ending in .gz is written gzipped (one gzip member per frame, a valid .gz file).
 */
@sofaComponent({
  name: 'WriteState',
  category: 'Playback',
  module: 'Sofa.Component.Playback',
  description: 'Write the state vectors of the mechanical state of its node to a file, at given times or periodically.',
})
export class WriteState extends BaseObject {
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'file written (relative names: beside the scene file); .gz names are compressed',
  });
  readonly writeX = this.initData({ name: 'writeX', type: Bool, default: true, help: 'write the positions (X= lines)' });
  readonly writeX0 = this.initData({ name: 'writeX0', type: Bool, default: false, help: 'write the rest positions (X0= lines)' });
  readonly writeV = this.initData({ name: 'writeV', type: Bool, default: false, help: 'write the velocities (V= lines)' });
  readonly writeF = this.initData({ name: 'writeF', type: Bool, default: false, help: 'write the forces (F= lines)' });
  readonly time = this.initData({
    name: 'time',
    type: RealArray(1, 'vector<double>'),
    default: new Float64Array(0),
    unit: 's',
    help: 'times at which to write; with a period, only the first one is kept (the start of the periodic writing); default: t = 0',
  });
  readonly period = this.initData({
    name: 'period',
    type: Real,
    default: 0,
    unit: 's',
    help: 'period of the writing after the last time of `time`; default: dt when `time` is not given',
  });
  readonly DOFsX = this.initData({
    name: 'DOFsX',
    type: Indices,
    default: new Uint32Array(0),
    help: 'positions to write: not used, every point is written (SOFA does not use it either)',
  });
  readonly DOFsV = this.initData({
    name: 'DOFsV',
    type: Indices,
    default: new Uint32Array(0),
    help: 'velocities to write: not used, every point is written (SOFA does not use it either)',
  });
  readonly stopAt = this.initData({
    name: 'stopAt',
    type: Real,
    default: 0,
    help: 'stop writing once the kinetic energy changes by less than this between two measures (0: never)',
  });
  readonly keperiod = this.initData({
    name: 'keperiod',
    type: Real,
    default: 0,
    unit: 's',
    help: 'period of the kinetic energy measures used by stopAt',
  });

  /** What the component could not honour (located), for the caller to show. */
  readonly warnings: SofaError[] = [];

  private state: BaseMechanicalState | undefined;
  private file = '';
  private gzip = false;
  private periodic = false;
  private nextIteration = 0;
  private lastTime = 0;
  private firstExport = false;
  private energyThresholdReached = false;
  private timeToTestEnergy = 0;
  private savedKineticEnergy = 0;
  /** True until the first step empties the file (SOFA opens it at init; a resumed run continues it). */
  private truncatePending = true;

  /** The file written, once initialised. */
  get outputFile(): string {
    return this.file;
  }

  override init(): void {
    this.state = localMechanicalState(this);
    const name = this.filename.value.trim();
    if (name === '') throw this.error('no output file given', "set filename='states.txt'");
    for (const d of [this.DOFsX, this.DOFsV]) {
      if (d.value.length > 0) this.warnings.push(this.error(`${d.name} is not used: every point is written`));
    }
    const dt = this.context.getDt();
    // The schedule: SOFA's rules for time and period.
    this.periodic = false;
    if (this.period.isSet) {
      this.periodic = true;
      if (this.time.value.length === 0) this.time.value = Float64Array.of(0);
      else if (this.time.value.length > 1) this.time.value = this.time.value.slice(0, 1);
    } else if (!this.time.isSet) {
      this.period.value = dt;
      this.periodic = true;
    }
    if (this.time.value.length === 0) this.time.value = Float64Array.of(0);
    const times = this.time.value;
    for (let i = 0; i < times.length; i++) {
      if (i === 0 ? times[i] < 0 : times[i] <= 0)
        throw this.error(`time[${i}] = ${times[i]} must be ${i === 0 ? 'zero or positive' : 'positive'}`);
    }
    if (this.stopAt.value < 0) throw this.error(`stopAt = ${this.stopAt.value} must be zero or positive`);
    this.file = outputFilePath(this, name);
    this.gzip = this.file.endsWith('.gz');
    // A file without write permission is data to keep (a reference file of a corpus): even a
    // process that may write it anyway (root) leaves it alone.
    const h = host();
    if (this.gzip && !h.gzip) throw this.error(`'${this.file}': this host cannot compress (.gz)`, 'write a file without .gz');
    if (h.isFile(this.file) && h.isReadOnly?.(this.file)) {
      throw this.error(`'${this.file}' is read-only: WriteState does not overwrite it`, 'write to another file name or folder');
    }
    // Created now (an unwritable place is reported at init), emptied at the first step: a run
    // resumed from a checkpoint cuts it back to its length at the checkpoint instead.
    try {
      h.writeFile(this.file, '', { append: true });
    } catch (e) {
      throw this.error(`cannot create '${this.file}': ${(e as Error).message}`);
    }
    this.truncatePending = true;
    this.reset();
  }

  private static readonly schedule = [
    'nextIteration',
    'lastTime',
    'firstExport',
    'energyThresholdReached',
    'timeToTestEnergy',
    'savedKineticEnergy',
  ] as const;

  private fileLength(): number {
    const h = host();
    return h.fileSize?.(this.file) ?? (h.isFile(this.file) ? h.readBytes(this.file).length : 0);
  }

  /** Checkpoint: the schedule of the writes and how long the file is. */
  checkpointState(): CheckpointRecord {
    return { ...checkpointFields(this, WriteState.schedule, this.describe()), bytes: this.truncatePending ? 0 : this.fileLength() };
  }

  /** The schedule, and the file cut back to its length at the checkpoint (its frames after it are written again). */
  restoreState(saved: CheckpointReader, ctx: RestoreContext): void {
    restoreFields(this, saved, WriteState.schedule);
    const bytes = saved.number('bytes');
    const h = host();
    const size = this.fileLength();
    if (size < bytes) {
      ctx.warn(
        this,
        `'${this.file}' has ${size} bytes, ${bytes} when the checkpoint was taken: it is written again from the checkpoint's step, without its earlier frames`,
      );
      h.writeFile(this.file, '');
    } else if (size > bytes) h.writeFile(this.file, h.readBytes(this.file).subarray(0, bytes));
    this.truncatePending = false;
  }

  override reset(): void {
    this.nextIteration = 0;
    this.lastTime = 0;
    this.firstExport = false;
    this.energyThresholdReached = false;
    this.timeToTestEnergy = this.keperiod.value;
    this.savedKineticEnergy = 0;
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateBeginEvent) || this.componentState !== 'valid' || !this.state) return;
    if (this.truncatePending) {
      this.truncatePending = false;
      try {
        host().writeFile(this.file, '');
      } catch (e) {
        throw this.error(`cannot write '${this.file}': ${(e as Error).message}`);
      }
    }
    if (this.energyThresholdReached) return;
    const t = this.context.getTime();
    if (this.stopAt.value > 0 && t > this.timeToTestEnergy) this.measureKineticEnergy();
    if (this.isWriteTime(t)) this.writeFrame(t, this.state);
  }

  /** Whether a frame is due at t (and advances the schedule). */
  private isWriteTime(t: number): boolean {
    const eps = 0.1 * this.context.getDt();
    const times = this.time.value;
    if (this.nextIteration < times.length) {
      this.lastTime = times[this.nextIteration];
      if (t > this.lastTime || Math.abs(t - this.lastTime) < eps) {
        this.firstExport = true;
        this.nextIteration++;
        return true;
      }
      return false;
    }
    if (this.firstExport && this.periodic) {
      const next = this.lastTime + this.period.value;
      if (t > next || Math.abs(t - next) < eps) {
        this.lastTime = next;
        return true;
      }
    }
    return false;
  }

  private measureKineticEnergy(): void {
    const mass = this.context.getObject(isMass, 'local');
    if (!mass) throw this.error('stopAt needs the kinetic energy, but the node has no mass');
    const ke = mass.getKineticEnergy(this.state!.v);
    if (Math.abs(ke - this.savedKineticEnergy) < this.stopAt.value) {
      this.energyThresholdReached = true;
    } else {
      this.savedKineticEnergy = ke;
      this.timeToTestEnergy += this.keperiod.value;
    }
  }

  private writeFrame(t: number, s: BaseMechanicalState): void {
    let text = `T= ${formatSofaNumber(t)}\n`;
    if (this.writeX.value) text += `  X= ${formatSofaVector(s.x)}\n`;
    if (this.writeX0.value) text += `  X0= ${formatSofaVector(s.x0)}\n`;
    if (this.writeV.value) text += `  V= ${formatSofaVector(s.v)}\n`;
    if (this.writeF.value) text += `  F= ${formatSofaVector(s.f)}\n`;
    try {
      const h = host();
      h.writeFile(this.file, this.gzip ? h.gzip!(new TextEncoder().encode(text)) : text, { append: true });
    } catch (e) {
      throw this.error(`cannot write '${this.file}': ${(e as Error).message}`);
    }
  }
}
