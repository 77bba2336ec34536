/**
 * A worker of ThreadPool: waits for the generation counter to move, then registers a job (a
 * WebAssembly instance over the shared memory, or an ES module's kernel), runs one on its row of
 * arguments or forgets one, and decrements the pending counter.
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { POOL_ARGS, PoolControl, PoolOp, WARM_SPIN_MS, type PoolKernel } from './thread-pool.js';

const { ctrl, args, index, port, generation } = workerData as {
  ctrl: Int32Array;
  args: Float64Array;
  index: number;
  port: MessagePort;
  generation: number;
};
const row = args.subarray(POOL_ARGS * index, POOL_ARGS * index + POOL_ARGS);
type Runner = () => void;
const jobs: Runner[] = [];

interface JobMessage {
  id: number;
  kind: 'wasm' | 'module';
  module?: object;
  memory?: object;
  exportName: string;
  url?: string;
  data?: unknown;
}

async function register(m: JobMessage): Promise<void> {
  if (m.kind === 'wasm') {
    const wasm = (
      globalThis as unknown as { WebAssembly: { Instance: new (m: object, i: object) => { exports: Record<string, unknown> } } }
    ).WebAssembly;
    const inst = new wasm.Instance(m.module!, { env: { memory: m.memory } });
    const fn = inst.exports[m.exportName] as (...a: number[]) => void;
    jobs[m.id] = () => fn(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7]);
  } else {
    const mod = (await import(m.url!)) as Record<string, PoolKernel>;
    const fn = mod[m.exportName];
    const data = m.data;
    jobs[m.id] = () => fn(data, row);
  }
}

// the generation when the pool made this worker (it may have moved before this line runs), and the
// signals with work seen (none before the first: the pool makes its workers before it signals)
let seen = generation;
let runs = 0;
for (;;) {
  let g = Atomics.load(ctrl, PoolControl.generation);
  for (let spin = 0; g === seen; spin++) {
    if (spin > 2000) Atomics.wait(ctrl, PoolControl.generation, seen);
    g = Atomics.load(ctrl, PoolControl.generation);
  }
  seen = g;
  const r = Atomics.load(ctrl, PoolControl.runs);
  if (r === runs) {
    // warmed (ThreadPool.warm): no work, no pending count; spin for the run that follows, a while
    const end = Date.now() + WARM_SPIN_MS;
    for (let k = 1; Atomics.load(ctrl, PoolControl.generation) === seen; k++) if ((k & 1023) === 0 && Date.now() > end) break;
    continue;
  }
  // the op and job of that signal were written before its count moved; the next signal waits for this one
  runs = r;
  try {
    const op = Atomics.load(ctrl, PoolControl.op);
    const job = Atomics.load(ctrl, PoolControl.job);
    if (op === PoolOp.register) {
      const msg = receiveMessageOnPort(port);
      if (msg) await register(msg.message as JobMessage);
    } else if (op === PoolOp.remove) {
      delete jobs[job];
    } else {
      jobs[job]();
    }
  } catch {
    Atomics.store(ctrl, PoolControl.error, 1);
  }
  if (Atomics.sub(ctrl, PoolControl.pending, 1) === 1) Atomics.notify(ctrl, PoolControl.pending);
}
