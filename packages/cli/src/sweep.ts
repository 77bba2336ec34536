import * as path from 'node:path';
import pc from 'picocolors';
import { defaultThreads, parseParam, parseRecord, runQueueWorker, runSweep, type SweepOptions } from '@sofa-ts/sweep';
import { EXIT_OK, exitCodeOfSignal } from './exit-codes.js';

export interface SweepCommandOptions {
  param: string[];
  steps: number;
  record: string[];
  out: string;
  samples?: number;
  seed: number;
  jobs?: number;
  queue?: string;
  queueName?: string;
  retries: number;
  rerunFailed?: boolean;
  timeout?: number;
  maxMemory: number;
  dataPath: string[];
  strict?: boolean;
  skipUnknown?: boolean;
  plugin: string[];
}

/** Case progress with the ETA: a bar redrawn in place on a terminal, a line every 10% otherwise. */
export class SweepProgress {
  private lastDraw = 0;
  private lastDecile = -1;
  private readonly t0 = performance.now();
  done = 0;
  failed = 0;
  workers: number | undefined;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  /** Seconds left at the rate of the cases finished so far by this run. */
  eta(): number | undefined {
    if (this.done === 0) return undefined;
    return (((performance.now() - this.t0) / this.done) * (this.total - this.done)) / 1000;
  }

  update(): void {
    if (this.total <= 0) return;
    const pct = Math.floor((100 * this.done) / this.total);
    const eta = this.eta();
    const tail = `${this.done}/${this.total} cases${this.failed ? `, ${this.failed} failed` : ''}${eta !== undefined ? `  ETA ${formatDuration(eta)}` : ''}${this.workers !== undefined && this.workers >= 0 ? `  (${this.workers} worker${this.workers === 1 ? '' : 's'})` : ''}`;
    if (this.out.isTTY) {
      const now = Date.now();
      if (this.done < this.total && now - this.lastDraw < 100) return;
      this.lastDraw = now;
      const width = 30;
      const filled = Math.round((width * this.done) / this.total);
      this.out.write(
        `\r${pc.cyan('[' + '#'.repeat(filled) + ' '.repeat(width - filled) + ']')} ${String(pct).padStart(3)}%  ${tail}\x1b[K`,
      );
      if (this.done >= this.total) this.stop();
    } else {
      const decile = Math.floor((10 * this.done) / this.total);
      if (decile !== this.lastDecile) {
        this.lastDecile = decile;
        this.out.write(`${pct}%  ${tail}\n`);
      }
    }
  }

  stop(): void {
    if (this.out.isTTY && this.lastDraw !== 0) this.out.write('\n');
    this.lastDraw = 0;
  }
}

export function formatDuration(s: number): string {
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/**
 * `sofa-ts sweep`: the cases of the parameters on local threads or a Redis queue, results in the
 * --out folder. Exit code 0 when every case has an outcome (failed cases are results too: see
 * failures.csv), 130/143 when interrupted (finished cases are kept: the same command resumes).
 */
export async function sweepCommand(scene: string, o: SweepCommandOptions): Promise<number> {
  const options: SweepOptions = {
    scene,
    params: o.param.map(parseParam),
    ...(o.samples !== undefined ? { samples: o.samples } : {}),
    seed: o.seed,
    steps: o.steps,
    records: (o.record.length ? o.record : ['states']).map(parseRecord),
    out: o.out,
    dataPaths: o.dataPath,
    ...(o.strict ? { strict: true } : {}),
    ...(o.skipUnknown ? { skipUnknown: true } : {}),
    ...(o.plugin.length ? { plugins: o.plugin } : {}),
    ...(o.jobs ? { threads: o.jobs } : {}),
    maxMemoryMb: o.maxMemory,
    ...(o.timeout ? { timeoutSec: o.timeout } : {}),
    retries: o.retries,
    ...(o.queue ? { queue: { url: o.queue, ...(o.queueName ? { name: o.queueName } : {}) } } : {}),
    ...(o.rerunFailed ? { rerunFailed: true } : {}),
  };
  if (options.params.length === 0) throw new Error('sweep: give at least one --param PATH=SPEC');
  const err = process.stderr;
  let signal: NodeJS.Signals | undefined;
  const onSignal = (s: NodeJS.Signals): void => {
    if (signal) return;
    signal = s;
    progress?.stop();
    err.write(`\n${s}: stopping; the finished cases are kept (the same command resumes the sweep)\n`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let progress: SweepProgress | undefined;
  try {
    const s = await runSweep(
      options,
      {
        onPlan: (p) => {
          const where =
            p.toRun === 0
              ? 'nothing to run'
              : `${p.toRun} to run ${o.queue ? `on the queue at ${o.queue}` : `on ${Math.min(o.jobs ?? defaultThreads(), p.toRun)} thread(s)`}`;
          err.write(
            `${p.total} case(s)${p.duplicates ? ` (${p.duplicates} duplicate(s) of the same values dropped)` : ''}: ${p.kept} kept from an earlier run, ${where}\n`,
          );
          progress = new SweepProgress(p.toRun);
        },
        onOutcome: (_j, out) => {
          if (!progress) return;
          progress.done++;
          if (!out.ok) progress.failed++;
          progress.update();
        },
        onStatus: ({ workers }) => {
          if (!progress) return;
          progress.workers = workers;
          progress.update();
        },
      },
      () => signal !== undefined,
    );
    progress?.stop();
    const out = process.stdout;
    const perCase = s.ran > 0 ? ` (${(s.ms / s.ran).toFixed(1)} ms per case run)` : '';
    out.write(`${pc.bold('scene')}        ${scene} (${s.sceneHash.slice(0, 12)})\n`);
    out.write(
      `${pc.bold('cases')}        ${s.total}: ${s.ok} ok, ${s.failed} failed, ${s.total - s.ok - s.failed} unfinished; ${s.ran} run now, ${s.kept} kept from an earlier run\n`,
    );
    out.write(`${pc.bold('time')}         ${formatDuration(s.ms / 1000)}${perCase}\n`);
    out.write(`${pc.bold('results')}      ${rel(s.files.parquet)}, ${rel(s.files.csv)}\n`);
    out.write(`${pc.bold('summary')}      ${rel(s.files.summary)}\n`);
    if (s.failed > 0) out.write(`${pc.bold('failures')}     ${rel(s.files.failures)}\n`);
    if (signal) return exitCodeOfSignal(signal);
    return EXIT_OK;
  } finally {
    progress?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

const rel = (p: string): string => path.relative(process.cwd(), p) || p;

export interface WorkerCommandOptions {
  queue: string;
  queueName?: string;
  jobs?: number;
  lockMs: number;
  timeout?: number;
  maxMemory: number;
  quiet?: boolean;
  allowPython?: boolean;
}

/**
 * `sofa-ts worker --queue redis://HOST:PORT`: runs cases of the sweeps put on the queue until
 * SIGINT or SIGTERM, then finishes the cases in progress and exits (a second signal exits at once;
 * its cases go back to the queue when their locks expire).
 */
export async function workerCommand(o: WorkerCommandOptions): Promise<number> {
  let signal: NodeJS.Signals | undefined;
  let release: () => void = () => undefined;
  const stop = new Promise<void>((resolve) => (release = resolve));
  const onSignal = (s: NodeJS.Signals): void => {
    if (signal) process.exit(exitCodeOfSignal(s));
    signal = s;
    release();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const out = process.stdout;
  try {
    await runQueueWorker(
      {
        url: o.queue,
        ...(o.queueName ? { queueName: o.queueName } : {}),
        ...(o.jobs ? { threads: o.jobs } : {}),
        lockMs: o.lockMs,
        ...(o.timeout ? { timeoutSec: o.timeout } : {}),
        maxMemoryMb: o.maxMemory,
        ...(o.allowPython ? { allowPython: true } : {}),
      },
      stop,
      (event, detail) => {
        if (o.quiet && (event === 'start' || event === 'done')) return;
        const tag = event === 'failed' ? pc.red(event) : event === 'done' ? pc.green(event) : event;
        out.write(`${new Date().toISOString()} ${tag} ${detail}\n`);
      },
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return signal ? exitCodeOfSignal(signal) : EXIT_OK;
}
