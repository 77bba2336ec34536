import * as os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FromThread, ToThread } from './case-thread.js';
import { CaseFailure, type CaseJob, type CaseResult } from './run-case.js';
import type { SceneBundle } from './scene-bundle.js';

export interface PoolOptions {
  /** Threads, each running one case at a time (default: one per core). */
  readonly threads?: number;
  /** Memory one thread may use (MB) before its case is stopped as failed (default 4096). */
  readonly maxMemoryMb?: number;
  /** Seconds a case may take before it is stopped as failed (default: no limit). */
  readonly timeoutSec?: number;
}

interface Task {
  readonly bundleHash: string;
  readonly bundle: SceneBundle;
  readonly job: CaseJob;
  readonly onStart: (() => void) | undefined;
  resolve(r: CaseResult): void;
  reject(e: CaseFailure): void;
}

interface Lane {
  worker: Worker | undefined;
  /** Bundles this lane's thread holds. */
  readonly sent: Set<string>;
  busy: boolean;
}

export const defaultThreads = (): number => Math.max(1, os.availableParallelism());

/**
 * Worker threads running sweep cases: one case per thread at a time, a thread per core by default.
 * A thread that dies (out of memory, a crash) or overruns the time limit fails its case and is
 * replaced for the next one; the other threads go on.
 */
export class CaseThreadPool {
  private readonly lanes: Lane[];
  private readonly waiting: Task[] = [];
  private closed = false;
  readonly size: number;

  constructor(private readonly o: PoolOptions = {}) {
    this.size = Math.max(1, o.threads ?? defaultThreads());
    this.lanes = Array.from({ length: this.size }, () => ({ worker: undefined, sent: new Set<string>(), busy: false }));
  }

  /** Runs a case on the next free thread; rejects with a CaseFailure. `onStart`: when a thread takes it. */
  run(bundleHash: string, bundle: SceneBundle, job: CaseJob, onStart?: () => void): Promise<CaseResult> {
    return new Promise<CaseResult>((resolve, reject) => {
      if (this.closed) return reject(new CaseFailure('the thread pool is closed', 0));
      this.waiting.push({ bundleHash, bundle, job, onStart, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every thread: cases in progress and waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.waiting.splice(0)) t.reject(new CaseFailure('the thread pool is closed', 0));
    await Promise.all(
      this.lanes.map(async (l) => {
        const w = l.worker;
        l.worker = undefined;
        if (w) await w.terminate();
      }),
    );
  }

  private dispatch(): void {
    for (const lane of this.lanes) {
      if (this.waiting.length === 0) return;
      if (!lane.busy) this.start(lane, this.waiting.shift()!);
    }
  }

  private spawn(lane: Lane): Worker {
    const w = new Worker(new URL('./case-thread.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.o.maxMemoryMb ?? 4096 },
      stdout: true,
      stderr: true,
    });
    // what components print goes nowhere (their warnings come back with the result)
    w.stdout.resume();
    w.stderr.resume();
    lane.worker = w;
    lane.sent.clear();
    return w;
  }

  private start(lane: Lane, task: Task): void {
    lane.busy = true;
    const w = lane.worker ?? this.spawn(lane);
    const id = task.job.id;
    let settled = false;
    const finish = (broken: boolean, f: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      if (broken) {
        if (lane.worker === w) lane.worker = undefined;
        void w.terminate();
      }
      lane.busy = false;
      f();
      if (!this.closed) this.dispatch();
    };
    const onMessage = (m: FromThread): void => {
      if (m.id !== id) return;
      if (m.kind === 'started') task.onStart?.();
      else if (m.kind === 'done') finish(false, () => task.resolve(m.result));
      else finish(false, () => task.reject(new CaseFailure(m.message, m.step)));
    };
    const onError = (e: Error & { code?: string }): void =>
      finish(true, () =>
        task.reject(
          new CaseFailure(
            e.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `stopped: the case needed more than ${this.o.maxMemoryMb ?? 4096} MB of memory`
              : `the case's worker thread failed: ${e.message.split('\n')[0]}`,
            0,
          ),
        ),
      );
    const onExit = (code: number): void =>
      finish(true, () => task.reject(new CaseFailure(`the case's worker thread exited (code ${code})`, 0)));
    const limit = this.o.timeoutSec;
    const timer = limit
      ? setTimeout(() => finish(true, () => task.reject(new CaseFailure(`stopped after ${limit} s (--timeout)`, 0))), limit * 1000)
      : undefined;
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    if (!lane.sent.has(task.bundleHash)) {
      w.postMessage({ kind: 'bundle', hash: task.bundleHash, bundle: task.bundle } satisfies ToThread);
      lane.sent.add(task.bundleHash);
    }
    w.postMessage({ kind: 'case', bundle: task.bundleHash, job: task.job } satisfies ToThread);
  }
}
