import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  SofaError,
  readCheckpointFile,
  writeCheckpointFile,
  type CheckpointRecord,
  type SceneCheckpoint,
  type SofaScene,
  type StateRecorder,
  io,
} from 'sofa-ts';

/** Checkpoint files of `sofa-ts run`: `<dir>/step-<step, 8 digits>.ckpt`. */
export function checkpointFileName(step: number): string {
  return `step-${String(step).padStart(8, '0')}.ckpt`;
}

const CHECKPOINT_NAME = /^step-(\d+)\.ckpt$/;
/** Temporary files of writeCheckpointFile: `.<name>.<pid>.tmp`. */
const TEMPORARY_NAME = /^\.step-\d+\.ckpt\.(\d+)\.tmp$/;

/** The checkpoint to resume from: the file given, or the one of the highest step in the folder given. */
export function resolveResumePath(p: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(p);
  } catch {
    throw new SofaError(`--resume: ${p} does not exist`, {
      hint: 'give a checkpoint file (step-….ckpt) or the folder of --checkpoint-dir',
    });
  }
  if (!stat.isDirectory()) return p;
  const steps = fs
    .readdirSync(p)
    .map((n) => CHECKPOINT_NAME.exec(n))
    .filter((m) => m !== null)
    .map((m) => ({ name: m[0], step: Number(m[1]) }));
  if (steps.length === 0) throw new SofaError(`--resume: no checkpoint (step-….ckpt) in ${p}`);
  steps.sort((a, b) => b.step - a.step);
  return path.join(p, steps[0].name);
}

/** Removes temporary checkpoint files left in `dir` by runs that were killed while writing one. */
export function removeStaleTemporaries(dir: string): void {
  if (!fs.existsSync(dir)) return;
  for (const n of fs.readdirSync(dir)) {
    const m = TEMPORARY_NAME.exec(n);
    if (!m || Number(m[1]) === process.pid || processAlive(Number(m[1]))) continue;
    fs.rmSync(path.join(dir, n), { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What `sofa-ts run` keeps in a checkpoint besides the simulation: its state files and period. */
export interface RunInfo {
  readonly writePeriod: number;
  /** One per state, in state order; null when the run wrote no states. */
  readonly states: readonly (io.StateFileMark & { readonly file: string })[] | null;
}

function runInfoRecord(writePeriod: number, recorder: StateRecorder | undefined): CheckpointRecord {
  const states = recorder
    ? recorder.marks.map((m, i) => ({
        file: path.basename(recorder.files[i]),
        bytes: m.bytes,
        sha256: m.sha256,
        frames: m.frames,
        time: m.time,
      }))
    : null;
  return { run: { writePeriod, states } };
}

/** The run information of a checkpoint (written by `sofa-ts run`), or undefined. */
export function runInfoOf(c: SceneCheckpoint, source: string): RunInfo | undefined {
  const run = c.extra['run'];
  if (run === undefined) return undefined;
  const bad = (): SofaError => new SofaError(`${source}: its run information is damaged`);
  if (run === null || typeof run !== 'object' || Array.isArray(run) || ArrayBuffer.isView(run)) throw bad();
  const r = run as Record<string, unknown>;
  if (typeof r['writePeriod'] !== 'number') throw bad();
  const states = r['states'];
  if (states === null) return { writePeriod: r['writePeriod'], states: null };
  if (!Array.isArray(states)) throw bad();
  return {
    writePeriod: r['writePeriod'],
    states: states.map((s: Record<string, unknown>) => {
      if (
        typeof s['file'] !== 'string' ||
        typeof s['bytes'] !== 'number' ||
        typeof s['sha256'] !== 'string' ||
        typeof s['frames'] !== 'number' ||
        typeof s['time'] !== 'number'
      )
        throw bad();
      return { file: s['file'], bytes: s['bytes'], sha256: s['sha256'], frames: s['frames'], time: s['time'] };
    }),
  };
}

/** Writes the checkpoints of a run into `dir`, reporting once what they cannot hold. */
export class RunCheckpoints {
  /** Step of the last checkpoint written (−1: none yet). */
  lastStep = -1;
  lastFile = '';
  private readonly warned = new Set<string>();

  constructor(
    private readonly scene: SofaScene,
    readonly dir: string,
    private readonly writePeriod: number,
    private readonly recorder: StateRecorder | undefined,
    private readonly warn: (w: SofaError) => void,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    removeStaleTemporaries(dir);
  }

  /** A checkpoint of the current step (nothing when one was written at this step already). */
  write(): string {
    const step = this.scene.simulation.stepCount;
    if (step === this.lastStep) return this.lastFile;
    const { checkpoint, warnings } = this.scene.checkpoint(runInfoRecord(this.writePeriod, this.recorder));
    for (const w of warnings) {
      if (this.warned.has(w.message)) continue;
      this.warned.add(w.message);
      this.warn(w);
    }
    const file = path.join(this.dir, checkpointFileName(step));
    writeCheckpointFile(file, checkpoint);
    this.lastStep = step;
    this.lastFile = file;
    return file;
  }
}

export { readCheckpointFile };
