import * as os from 'node:os';
import { Worker, type Job } from 'bullmq';
import { Redis, type RedisOptions as RedisIoOptions } from 'ioredis';
import { SofaError } from '@sofa-ts/core';
import type { CaseJobData, CaseJobResult } from './queue-coordinator.js';
import { DEFAULT_QUEUE_NAME, bundleKey, redisOptions } from './redis-url.js';
import { encodeResult } from './result-codec.js';
import { CaseFailure } from './run-case.js';
import { decodeBundle, type SceneBundle } from './scene-bundle.js';
import { CaseThreadPool, type PoolOptions } from './thread-pool.js';

export interface QueueWorkerOptions extends PoolOptions {
  readonly url: string;
  readonly queueName?: string;
  /**
   * Milliseconds a case's lock lasts without renewal (default 30000): the worker renews it while the
   * case runs; a worker that dies stops renewing, and once the lock is past, any worker's stalled
   * check (every lockMs) puts the case back in the queue.
   */
  readonly lockMs?: number;
  /**
   * Run the cases of Python scenes. A Python scene is a program (its script runs with the
   * worker's rights), so a worker runs them only when its user says so; the script and its
   * modules are read from the coordinator's paths, which must exist on this machine.
   */
  readonly allowPython?: boolean;
}

/** Why a worker refuses a Python scene's case, unless started with --allow-python. */
export function pythonCaseRefusal(scene: string, allowPython: boolean | undefined): string | undefined {
  if (allowPython || !/\.py$/i.test(scene)) return undefined;
  return `${scene} is a Python scene: its script is a program, which this worker runs only when started with --allow-python`;
}

/** A line of the worker's log: `start`, `done` or `failed`, with the case index and identity. */
export type WorkerLog = (event: 'start' | 'done' | 'failed' | 'ready' | 'closing', detail: string) => void;

/**
 * `sofa-ts worker --queue redis://HOST:PORT`: takes cases from the sweep queue, runs them on its
 * worker threads (one case per thread; the main thread stays free to renew the cases' locks), and
 * sends each result back as the job's return value — or fails the job with the case's message, so
 * BullMQ retries it as the coordinator asked. Resolves once `stop` resolves and the cases in
 * progress have finished (a SIGTERM does not lose work).
 */
export async function runQueueWorker(o: QueueWorkerOptions, stop: Promise<void>, log: WorkerLog = () => undefined): Promise<void> {
  const connection = redisOptions(o.url);
  const redis = new Redis({ ...(connection as RedisIoOptions), lazyConnect: true, maxRetriesPerRequest: 3 });
  try {
    await redis.connect();
  } catch (e) {
    redis.disconnect();
    throw new SofaError(`cannot reach Redis at ${o.url}: ${(e as Error).message}`);
  }
  const pool = new CaseThreadPool(o);
  const bundles = new Map<string, SceneBundle>();
  const ranOn = `${os.hostname()}:${process.pid}`;
  const bundleOf = async (hash: string): Promise<SceneBundle> => {
    const cached = bundles.get(hash);
    if (cached) return cached;
    const bytes = await redis.getBuffer(bundleKey(hash));
    if (!bytes)
      throw new Error(
        JSON.stringify({ step: 0, message: `the scene bundle ${hash} is not in Redis (expired, or the coordinator's Redis differs)` }),
      );
    const b = decodeBundle(bytes);
    bundles.set(hash, b);
    while (bundles.size > 4) bundles.delete(bundles.keys().next().value!);
    return b;
  };
  const lockMs = o.lockMs ?? 30000;
  const worker = new Worker<CaseJobData, CaseJobResult>(
    o.queueName ?? DEFAULT_QUEUE_NAME,
    async (job: Job<CaseJobData, CaseJobResult>) => {
      const { bundle: hash, job: c } = job.data;
      const b = await bundleOf(hash);
      const refused = pythonCaseRefusal(b.scene, o.allowPython);
      if (refused) {
        log('failed', `case ${c.index} ${c.id}: ${refused}`);
        throw new Error(JSON.stringify({ step: 0, message: refused }));
      }
      try {
        const result = await pool.run(hash, b, c, () => log('start', `case ${c.index} ${c.id} (attempt ${job.attemptsMade + 1})`));
        log('done', `case ${c.index} ${c.id} in ${(result.loadMs + result.stepsMs).toFixed(0)} ms`);
        return { ...encodeResult(result), ranOn };
      } catch (e) {
        const f = e instanceof CaseFailure ? e : new CaseFailure(String(e), 0);
        log('failed', `case ${c.index} ${c.id}: ${f.message.split('\n')[0]}`);
        throw new Error(JSON.stringify({ step: f.step, message: f.message }), { cause: e });
      }
    },
    { connection, concurrency: pool.size, lockDuration: lockMs, stalledInterval: lockMs, maxStalledCount: 2, name: ranOn },
  );
  worker.on('error', () => undefined); // connection trouble: ioredis reconnects by itself
  try {
    await worker.waitUntilReady();
    log('ready', `${pool.size} thread(s) on queue '${o.queueName ?? DEFAULT_QUEUE_NAME}' at ${o.url}`);
    await stop;
    log('closing', 'finishing the cases in progress');
  } finally {
    await worker.close();
    await pool.close();
    redis.disconnect();
  }
}
