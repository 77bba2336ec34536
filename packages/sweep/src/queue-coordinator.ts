import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis, type RedisOptions as RedisIoOptions } from 'ioredis';
import { SofaError } from '@sofa-ts/core';
import { BUNDLE_TTL_S, DEFAULT_QUEUE_NAME, bundleKey, redisOptions } from './redis-url.js';
import type { CaseJob } from './run-case.js';
import { decodeResult, type EncodedResult } from './result-codec.js';
import { encodeBundle, type SceneBundle } from './scene-bundle.js';
import type { CaseOutcome } from './local-runner.js';

/** What a queue job carries: the case and the bundle its scene is read from. */
export interface CaseJobData {
  readonly bundle: string;
  readonly job: CaseJob;
}

/** What a worker returns for a case (its result, JSON-safe), and where it ran. */
export type CaseJobResult = EncodedResult & { ranOn: string };

export interface QueueCoordinatorOptions {
  /** redis://HOST:PORT */
  readonly url: string;
  /** The BullMQ queue (default 'sofa-ts-sweep'; workers must name the same). */
  readonly queueName?: string;
  /** Runs after the first for a failing case (default 1). */
  readonly retries?: number;
  /** Tells this sweep's jobs apart from other sweeps' in the same queue (job id = tag-caseId). */
  readonly tag: string;
  /** Seconds between full checks of the finished jobs, beside the queue's events (default 5). */
  readonly reconcileSec?: number;
}

/**
 * The coordinator's side of a distributed sweep: puts the cases on a BullMQ queue in Redis (job id
 * = the case identity: a case already queued, running or finished is not added again), the scene
 * bundle beside them, and takes each case's outcome back as its job finishes — a completed job's
 * return value, or a failed one's reason once its retries are spent — then removes the job.
 * Outcomes come from the queue's events, and a full look at the finished jobs every few seconds
 * catches what an event could miss (a coordinator that started after a job finished, a dropped
 * connection). Workers killed mid-case lose nothing: BullMQ's stalled-job check puts their case back
 * in the queue once its lock expires. Resolves when every case has an outcome, or when `stop()`
 * returns true (the queued cases stay queued: a re-run of the sweep picks them up).
 */
export async function runOnQueue(
  o: QueueCoordinatorOptions,
  bundleHash: string,
  bundle: SceneBundle,
  jobs: readonly CaseJob[],
  onOutcome: (job: CaseJob, outcome: CaseOutcome) => void,
  stop: () => boolean,
  onStatus?: (s: { workers: number }) => void,
): Promise<void> {
  const connection = redisOptions(o.url);
  const name = o.queueName ?? DEFAULT_QUEUE_NAME;
  const redis = new Redis({ ...(connection as RedisIoOptions), lazyConnect: true, maxRetriesPerRequest: 3 });
  try {
    await redis.connect();
  } catch (e) {
    redis.disconnect();
    throw new SofaError(`cannot reach Redis at ${o.url}: ${(e as Error).message}`);
  }
  const queue = new Queue<CaseJobData, CaseJobResult, 'case'>(name, { connection });
  const byJobId = new Map<string, CaseJob>(jobs.map((j) => [`${o.tag}-${j.id}`, j]));
  const pending = new Set(byJobId.keys());
  // Events from a little before now: nothing between the first look and the listening is missed.
  const events = new QueueEvents(name, { connection, lastEventId: `${Date.now() - 1000}-0` });
  let wake: (() => void) | undefined;
  /** Jobs being looked at: an event and a full look may name the same job at once. */
  const busy = new Set<string>();
  const take = async (jobId: string): Promise<void> => {
    if (!pending.has(jobId) || busy.has(jobId)) return;
    busy.add(jobId);
    try {
      const job = (await queue.getJob(jobId)) as Job<CaseJobData, CaseJobResult> | undefined;
      if (!job) return;
      const state = await job.getState();
      if (state !== 'completed' && state !== 'failed') return;
      const c = byJobId.get(jobId)!;
      const attempts = Math.max(1, job.attemptsMade);
      if (state === 'completed') {
        const rv = job.returnvalue;
        onOutcome(c, { ok: true, result: decodeResult(rv), attempts, ranOn: rv.ranOn ?? job.processedBy ?? '' });
      } else {
        const { message, step } = parseFailure(job.failedReason);
        onOutcome(c, { ok: false, error: message, step, attempts, ranOn: job.processedBy ?? '' });
      }
      pending.delete(jobId);
      await job.remove().catch(() => undefined);
      wake?.();
    } finally {
      busy.delete(jobId);
    }
  };
  events.on('completed', ({ jobId }) => void take(jobId).catch(() => undefined));
  events.on('failed', ({ jobId }) => void take(jobId).catch(() => undefined));
  const reconcile = async (): Promise<void> => {
    for (let start = 0; ; start += 1000) {
      const finished = await queue.getJobs(['completed', 'failed'], start, start + 999, true);
      for (const j of finished) if (j?.id && pending.has(j.id)) await take(j.id);
      if (finished.length < 1000) break;
    }
  };
  try {
    await events.waitUntilReady();
    await redis.set(bundleKey(bundleHash), encodeBundle(bundle), 'EX', BUNDLE_TTL_S);
    // What an earlier coordinator left finished, then the cases not yet in the queue.
    await reconcile();
    const attempts = 1 + (o.retries ?? 1);
    const toAdd = [...pending];
    for (let i = 0; i < toAdd.length; i += 500) {
      await queue.addBulk(
        toAdd.slice(i, i + 500).map((jobId) => ({
          name: 'case',
          data: { bundle: bundleHash, job: byJobId.get(jobId)! },
          opts: { jobId, attempts, removeOnComplete: false, removeOnFail: false },
        })),
      );
    }
    let lastReconcile = Date.now();
    while (pending.size > 0 && !stop()) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 250);
      });
      wake = undefined;
      if (Date.now() - lastReconcile > 1000 * (o.reconcileSec ?? 5)) {
        await reconcile();
        lastReconcile = Date.now();
        if (onStatus) onStatus({ workers: await queue.getWorkersCount().catch(() => -1) });
      }
    }
  } finally {
    await events.close().catch(() => undefined);
    await queue.close().catch(() => undefined);
    redis.disconnect();
  }
}

/** A failed job's reason: the worker's {message, step} JSON, or BullMQ's own text (a stalled job). */
function parseFailure(reason: string | undefined): { message: string; step: number } {
  try {
    const o = JSON.parse(reason ?? '') as { message?: unknown; step?: unknown };
    if (typeof o.message === 'string') return { message: o.message, step: typeof o.step === 'number' ? o.step : 0 };
  } catch {
    // not the worker's
  }
  return { message: reason ?? 'failed (no reason given)', step: 0 };
}
