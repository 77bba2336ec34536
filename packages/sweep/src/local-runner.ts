import { CaseThreadPool, type PoolOptions } from './thread-pool.js';
import { CaseFailure, type CaseJob, type CaseResult } from './run-case.js';
import type { SceneBundle } from './scene-bundle.js';

/** How a case ended: its result, or its failure once the retries are spent. */
export type CaseOutcome =
  | { readonly ok: true; readonly result: CaseResult; readonly attempts: number; readonly ranOn: string }
  | { readonly ok: false; readonly error: string; readonly step: number; readonly attempts: number; readonly ranOn: string };

/**
 * The local default: the cases on a pool of worker threads (one per core), no server. A failing
 * case is run again up to `retries` times (a thread that ran out of memory, a time limit) and then
 * reported with its last message. Resolves when every case has an outcome, or, once `stop()` is
 * true, when no new case is started (the cases running are abandoned, to run again on resume).
 */
export async function runLocally(
  o: PoolOptions & { retries?: number },
  bundleHash: string,
  bundle: SceneBundle,
  jobs: readonly CaseJob[],
  onOutcome: (job: CaseJob, outcome: CaseOutcome) => void,
  stop: () => boolean,
  onStart?: (job: CaseJob) => void,
): Promise<void> {
  const pool = new CaseThreadPool(o);
  const retries = o.retries ?? 1;
  let next = 0;
  let stopped = false;
  const lane = async (): Promise<void> => {
    while (next < jobs.length && !stopped) {
      const job = jobs[next++];
      for (let attempt = 1; ; attempt++) {
        try {
          const result = await pool.run(bundleHash, bundle, job, () => onStart?.(job));
          if (!stopped) onOutcome(job, { ok: true, result, attempts: attempt, ranOn: 'local' });
          break;
        } catch (e) {
          if (stopped) return;
          const f = e instanceof CaseFailure ? e : new CaseFailure(String(e), 0);
          if (attempt > retries) {
            onOutcome(job, { ok: false, error: f.message, step: f.step, attempts: attempt, ranOn: 'local' });
            break;
          }
        }
      }
    }
  };
  const watch = setInterval(() => {
    if (!stopped && stop()) {
      stopped = true;
      void pool.close();
    }
  }, 50);
  try {
    await Promise.all(Array.from({ length: Math.min(pool.size, jobs.length) }, () => lane()));
  } finally {
    clearInterval(watch);
    stopped = true;
    await pool.close();
  }
}
