import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { mutate } from './mutate.js';
import { Random } from './random.js';
import { LARGE_PROBLEM_DOFS, defectClasses, type FuzzClass, type FuzzJob, type FuzzOutcome } from './classes.js';

export interface CampaignOptions {
  /** Scene files whose mutants are run. */
  sources: readonly string[];
  /** Data paths for the scenes' meshes. */
  dataPaths: readonly string[];
  mutants: number;
  seed: number;
  steps: number;
  jobs: number;
  /** Seconds a mutant may take before it counts as a hang. */
  timeout: number;
  /** Memory cap of a worker (MB): above it the worker dies and the mutant counts as a crash. */
  maxMemoryMb: number;
  /** Where the defective mutants are saved (with their outcome), if given. */
  out?: string;
  onProgress?: (done: number) => void;
}

export interface MutantResult {
  index: number;
  source: string;
  description: string;
  outcome: FuzzOutcome;
  ms: number;
}

export interface CampaignResult {
  counts: Record<FuzzClass, number>;
  defects: MutantResult[];
  results: MutantResult[];
}

/**
 * Runs `mutants` seeded mutants of the sources, each in a worker thread under a time and memory
 * limit, and sorts their outcomes. The mutant k is the same for the same seed and sources.
 */
export async function runCampaign(o: CampaignOptions): Promise<CampaignResult> {
  const texts = o.sources.map((s) => fs.readFileSync(s, 'utf8'));
  const results: MutantResult[] = [];
  const workerUrl = new URL('./fuzz-worker.js', import.meta.url);
  const spawn = (): Worker =>
    new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: o.maxMemoryMb }, stdout: true, stderr: true });
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    let worker: Worker | undefined;
    while (next < o.mutants) {
      const index = next++;
      const r = new Random((o.seed * 1000003 + index) >>> 0);
      const s = r.int(o.sources.length);
      const m = mutate(texts[s], r);
      const job: FuzzJob = { id: index, text: m.text, fileName: o.sources[s], dataPaths: [...o.dataPaths], steps: o.steps };
      worker ??= spawn();
      const t0 = performance.now();
      let { outcome, broken } = await runJob(worker, job, o.timeout, o.maxMemoryMb);
      if (broken) {
        void worker.terminate();
        worker = undefined;
      }
      if (outcome.kind === 'timeout') {
        // A hang never ends; a large or slow problem does: one more try, five times as long, in a
        // fresh worker. Finishing (whatever the outcome) or stepping then makes it 'slow'.
        const second = spawn();
        const again = await runJob(second, job, o.timeout * 5, o.maxMemoryMb, true);
        void second.terminate();
        if (again.outcome.kind !== 'timeout')
          outcome = {
            kind: 'slow',
            message: `answered within ${o.timeout * 5} s on a second try: ${again.outcome.kind}${again.outcome.message ? ` (${again.outcome.message})` : ''}`,
          };
        else outcome = again.outcome;
      }
      const result: MutantResult = { index, source: o.sources[s], description: m.description, outcome, ms: performance.now() - t0 };
      results.push(result);
      if (o.out && defectClasses.includes(outcome.kind)) {
        fs.mkdirSync(o.out, { recursive: true });
        fs.writeFileSync(path.join(o.out, `mutant-${index}.scn`), m.text);
        fs.writeFileSync(path.join(o.out, `mutant-${index}.json`), JSON.stringify(result, null, 2) + '\n');
      }
      o.onProgress?.(++done);
    }
    if (worker) await worker.terminate();
  };
  await Promise.all(Array.from({ length: Math.max(1, o.jobs) }, () => lane()));
  results.sort((a, b) => a.index - b.index);
  const counts = {
    ran: 0,
    'located-error': 0,
    diverged: 0,
    slow: 0,
    'unlocated-error': 0,
    internal: 0,
    crash: 0,
    timeout: 0,
    'silent-nan': 0,
  } as Record<FuzzClass, number>;
  for (const r of results) counts[r.outcome.kind]++;
  return { counts, defects: results.filter((r) => defectClasses.includes(r.outcome.kind)), results };
}

/**
 * Runs one mutant on a worker under a time limit and sorts its outcome; `broken` when the worker
 * must be replaced (it timed out, ran out of memory or died). With `progressIsSlow`, a mutant that
 * has made any progress (loaded, or a step) when the limit strikes is 'slow'.
 */
function runJob(
  w: Worker,
  job: FuzzJob,
  timeout: number,
  maxMemoryMb: number,
  progressIsSlow = false,
): Promise<{ outcome: FuzzOutcome; broken: boolean }> {
  return new Promise((resolve) => {
    const finish = (outcome: FuzzOutcome, broken: boolean): void => {
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
      resolve({ outcome, broken });
    };
    let lastProgress = '';
    let dofs = 0;
    const timer = setTimeout(() => {
      const slow = dofs >= LARGE_PROBLEM_DOFS || (progressIsSlow && lastProgress !== '');
      finish(
        slow
          ? { kind: 'slow', message: `still stepping after ${timeout} s, ${dofs} dofs (last: ${lastProgress})` }
          : {
              kind: 'timeout',
              message: `no answer after ${timeout} s${lastProgress ? ` (last progress: ${lastProgress}, ${dofs} dofs)` : ''}`,
            },
        true,
      );
    }, timeout * 1000);
    const onMessage = (msg: { id: number; outcome?: FuzzOutcome; progress?: string; dofs?: number }): void => {
      if (msg.id !== job.id) return;
      if (msg.progress !== undefined) {
        lastProgress = msg.progress;
        if (msg.dofs !== undefined) dofs = msg.dofs;
      } else finish(msg.outcome!, false);
    };
    const onError = (e: Error & { code?: string }): void =>
      finish(
        {
          kind: 'crash',
          message:
            e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `more than ${maxMemoryMb} MB of memory` : `worker failed: ${e.message.split('\n')[0]}`,
        },
        true,
      );
    const onExit = (code: number): void => finish({ kind: 'crash', message: `worker exited (${code})` }, true);
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    w.postMessage(job);
  });
}

/** The bundled scenes (scenes/**.scn) of a repository root. */
export function bundledScenes(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.scn')) out.push(p);
    }
  };
  walk(path.join(root, 'scenes'));
  return out;
}
