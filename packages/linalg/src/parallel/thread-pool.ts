import type { WasmMemory } from '../wasm/wasm-module.js';

/**
 * SOFA's task scheduler for the MultiThreading components: a pool of worker threads that run the
 * same kernel over shared memory (SharedArrayBuffer / shared WebAssembly memory), each on its own
 * range, while the calling thread runs its own range. One job = a kernel registered once (a
 * WebAssembly export over a shared memory, or an export of an ES module given by URL, called with
 * shared arrays); each run passes up to ARGS numbers per thread and returns when every thread is done.
 *
 * Synchronisation is a generation counter in shared memory: the caller writes the arguments, bumps
 * the generation and wakes the workers (Atomics.notify); each worker runs its range and decrements
 * a pending counter; the caller waits for 0 (Atomics.wait). Workers spin briefly before sleeping, so
 * the back-to-back products of a CG iteration do not pay a wake-up each; `warm` wakes them ahead
 * of a run (no pending count: they only spin for the next generation).
 * Node only (worker_threads); where there is none, `ThreadPool.get` returns undefined and the
 * components run on one thread.
 */
export const POOL_ARGS = 8;

/** Longest wait for the workers of one run before the pool reports them stalled. */
const STALL_MS = 120_000;

/**
 * Control words of the pool (Int32Array on a SharedArrayBuffer). `generation` moves at every
 * signal (the word workers sleep on), `runs` only at those with work (a run, a registration, a
 * removal), after their op and job are written: a worker woken with `runs` unchanged was only warmed.
 */
export const PoolControl = { generation: 0, pending: 1, op: 2, job: 3, error: 4, runs: 5 } as const;

/** Operations a worker is woken for. */
export const PoolOp = { run: 1, register: 2, remove: 3 } as const;

/** How long a worker woken by `warm` keeps spinning for the run that follows before it sleeps again. */
export const WARM_SPIN_MS = 10;

interface WorkerLike {
  unref(): void;
  terminate(): Promise<number>;
  on(event: string, cb: (...a: unknown[]) => void): void;
}
interface WorkerThreads {
  Worker: new (url: URL, opts: { workerData: unknown }) => WorkerLike;
  MessageChannel: new () => { port1: { postMessage(m: unknown): void; close(): void }; port2: unknown };
}

function workerThreads(): WorkerThreads | undefined {
  const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return p?.getBuiltinModule?.('node:worker_threads') as WorkerThreads | undefined;
  } catch {
    return undefined;
  }
}

/** A JavaScript kernel: called on each thread with the job's shared data and this thread's arguments. */
export type PoolKernel = (data: unknown, args: Float64Array) => void;

const pools = new Map<number, ThreadPool>();

export class ThreadPool {
  /** Threads of a run, the calling thread included. */
  readonly threads: number;
  private readonly ctrl: Int32Array;
  /** (threads × POOL_ARGS) per-thread arguments of the current run. */
  readonly args: Float64Array;
  private readonly workers: WorkerLike[];
  private readonly port: { postMessage(m: unknown): void };
  private nextJob = 0;
  private failure: string | undefined;

  private constructor(wt: WorkerThreads, threads: number) {
    this.threads = threads;
    this.ctrl = new Int32Array(new SharedArrayBuffer(64));
    this.args = new Float64Array(new SharedArrayBuffer(8 * POOL_ARGS * threads));
    this.workers = [];
    const ports: { postMessage(m: unknown): void }[] = [];
    for (let t = 1; t < threads; t++) {
      const ch = new wt.MessageChannel();
      const w = new wt.Worker(new URL('./pool-worker.js', import.meta.url), {
        workerData: { ctrl: this.ctrl, args: this.args, index: t, port: ch.port2, generation: 0 },
        transferList: [ch.port2],
      } as never);
      w.unref();
      w.on('error', (e) => {
        this.failure = String((e as Error)?.message ?? e);
      });
      this.workers.push(w);
      ports.push(ch.port1);
    }
    this.port = { postMessage: (m) => ports.forEach((p) => p.postMessage(m)) };
  }

  /**
   * The process's pool of `threads` threads (made at the first request), or undefined where
   * worker threads or shared memory are missing, or for fewer than 2 threads.
   */
  static get(threads: number): ThreadPool | undefined {
    if (!(threads >= 2) || typeof SharedArrayBuffer === 'undefined') return undefined;
    const existing = pools.get(threads);
    if (existing) return existing;
    const wt = workerThreads();
    if (!wt) return undefined;
    const pool = new ThreadPool(wt, threads);
    pools.set(threads, pool);
    return pool;
  }

  /** Registers a WebAssembly module over a shared memory on every worker; returns the job id. */
  addWasm(module: object, memory: WasmMemory, exportName: string): number {
    return this.register({ kind: 'wasm', module, memory, exportName });
  }

  /** Registers `exportName` of the ES module at `url` (a PoolKernel) with its shared data. */
  addModule(url: string, exportName: string, data: unknown): number {
    return this.register({ kind: 'module', url, exportName, data });
  }

  private register(message: Record<string, unknown>): number {
    const id = this.nextJob++;
    this.port.postMessage({ ...message, id });
    this.signal(PoolOp.register, id);
    this.wait();
    return id;
  }

  /**
   * Wakes the workers without a job: they spin (up to WARM_SPIN_MS) for the run that follows, so
   * that it does not wait for a sleeping thread to be woken (tens to hundreds of µs on a virtual
   * machine). For a caller that knows a run is coming (a factorization after the assembly); returns
   * at once.
   */
  warm(): void {
    const c = this.ctrl;
    Atomics.add(c, PoolControl.generation, 1);
    Atomics.notify(c, PoolControl.generation);
  }

  /** Forgets job `id` on every worker (its instance, and the memory it holds, can be collected). */
  remove(id: number): void {
    this.signal(PoolOp.remove, id);
    this.wait();
  }

  /**
   * Runs job `id` on the workers with the arguments in `args` (row t for thread t; row 0 is the
   * caller's) while the caller runs `local`; returns when all are done (spinning for them `spinMs`
   * before it sleeps).
   */
  run(id: number, local: () => void, spinMs = 0): void {
    this.signal(PoolOp.run, id);
    try {
      local();
    } finally {
      this.wait(spinMs);
    }
  }

  private signal(op: number, job: number): void {
    const c = this.ctrl;
    Atomics.store(c, PoolControl.pending, this.workers.length);
    Atomics.store(c, PoolControl.op, op);
    Atomics.store(c, PoolControl.job, job);
    Atomics.add(c, PoolControl.runs, 1);
    Atomics.add(c, PoolControl.generation, 1);
    Atomics.notify(c, PoolControl.generation);
  }

  /**
   * Waits for the workers: spinning for `spinMs` at least (a caller that expects them within a
   * fraction of a millisecond: being woken from a sleep takes longer on a virtual machine), then
   * sleeping.
   */
  private wait(spinMs = 0): void {
    const c = this.ctrl;
    let slept = 0;
    const spinUntil = spinMs > 0 ? Date.now() + spinMs : 0;
    let sleep = false;
    for (let spin = 0; ; spin++) {
      const p = Atomics.load(c, PoolControl.pending);
      if (p === 0) break;
      if (this.failure) throw new Error(`a worker thread failed: ${this.failure}`);
      if (!sleep && spin > 2000) sleep = spinUntil === 0 || ((spin & 1023) === 0 && Date.now() > spinUntil);
      if (sleep) {
        // a worker that died cannot say so while this thread blocks: give up after STALL_MS
        if (Atomics.wait(c, PoolControl.pending, p, 100) === 'timed-out' && (slept += 100) > STALL_MS) {
          throw new Error(`the worker threads did not answer for ${STALL_MS / 1000} s`);
        }
      }
    }
    if (Atomics.load(c, PoolControl.error) !== 0) {
      Atomics.store(c, PoolControl.error, 0);
      throw new Error('a kernel failed on a worker thread');
    }
  }
}
