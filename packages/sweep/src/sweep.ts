import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SofaError, host, setDataByPath, setHost } from '@sofa-ts/core';
import { loadScene } from 'sofa-ts';
import { buildCases, type SweepCase } from './cases.js';
import { caseId, type SweepKey } from './case-id.js';
import { CaseRecorder } from './case-recorder.js';
import { Journal, type JournalEntry } from './journal.js';
import { runLocally, type CaseOutcome } from './local-runner.js';
import { isLogAxis, sampleValue, type ParamAxis } from './param-spec.js';
import { runOnQueue } from './queue-coordinator.js';
import type { RecordSpec } from './record-spec.js';
import { encodeResult } from './result-codec.js';
import { resultsTable, writeAtomically, writeCsv, writeFailuresCsv, writeParquet } from './results-table.js';
import { paramLocation, type CaseJob, type CaseLoadOptions } from './run-case.js';
import { bundleHash, recordingHost, type SceneBundle } from './scene-bundle.js';
import { summarySvg } from './summary-svg.js';

/** The installed sofa-ts's version, written into sweep.json and the Parquet metadata. */
const SOFA_TS_VERSION = (createRequire(import.meta.url)('sofa-ts/package.json') as { version: string }).version;

export interface SweepOptions {
  readonly scene: string;
  readonly params: readonly ParamAxis[];
  /** Draws of the sampled parameters (rand, lhs, …). */
  readonly samples?: number;
  /** Seed of the sampled parameters (default 1). */
  readonly seed?: number;
  readonly steps: number;
  readonly records: readonly RecordSpec[];
  /** The sweep's folder: journal, results, summary. */
  readonly out: string;
  readonly dataPaths?: readonly string[];
  readonly strict?: boolean;
  readonly skipUnknown?: boolean;
  readonly plugins?: readonly string[];
  /** Local threads (default one per core). */
  readonly threads?: number;
  readonly maxMemoryMb?: number;
  readonly timeoutSec?: number;
  /** Runs after the first for a failing case (default 1). */
  readonly retries?: number;
  /** Run the cases through a BullMQ queue in Redis instead of local threads. */
  readonly queue?: { readonly url: string; readonly name?: string };
  /** Run again the cases the journal holds as failed (default: they are kept as failed). */
  readonly rerunFailed?: boolean;
}

export interface SweepPlan {
  readonly total: number;
  /** Cases the journal already holds (finished on an earlier run). */
  readonly kept: number;
  readonly toRun: number;
  /** Cases dropped because another case has the same parameter values. */
  readonly duplicates: number;
  readonly sceneHash: string;
}

export interface SweepEvents {
  onPlan?(plan: SweepPlan): void;
  onStart?(job: CaseJob): void;
  onOutcome?(job: CaseJob, outcome: CaseOutcome): void;
  onStatus?(s: { workers: number }): void;
}

export interface SweepSummary extends SweepPlan {
  readonly ok: number;
  readonly failed: number;
  /** Cases finished by this run. */
  readonly ran: number;
  readonly interrupted: boolean;
  readonly ms: number;
  readonly files: {
    readonly parquet: string;
    readonly csv: string;
    readonly failures: string;
    readonly summary: string;
    readonly journal: string;
    readonly description: string;
  };
}

/**
 * Runs a sweep: the cases of the parameters (grid and samples), each one the scene loaded, its
 * parameters set on their Data, `steps` steps, what `records` asks kept; on local worker threads
 * or through a Redis queue. The scene is loaded once first, in this thread, to record the files it
 * reads (the bundle every case reads from) and to check every parameter path and value and every
 * record before any case runs. Each case's outcome goes to the journal (DIR/cases.jsonl) as it
 * comes; a re-run keeps the finished cases and runs the others. At the end (or when `stop()` says
 * so), the results table is written as DIR/results.parquet and DIR/results.csv, the failed cases as
 * DIR/failures.csv, the plots as DIR/summary.svg, the description as DIR/sweep.json.
 */
export async function runSweep(o: SweepOptions, events: SweepEvents = {}, stop: () => boolean = () => false): Promise<SweepSummary> {
  const t0 = performance.now();
  const scene = path.resolve(o.scene);
  if (!fs.existsSync(scene)) throw new SofaError(`no such scene file: ${o.scene}`);
  if (!Number.isSafeInteger(o.steps) || o.steps < 0) throw new SofaError(`-n: expected a number of steps, got ${o.steps}`);
  const cases = buildCases(o.params, o.samples, o.seed ?? 1);
  const load: CaseLoadOptions = {
    dataPaths: (o.dataPaths ?? []).map((p) => path.resolve(p)),
    ...(o.strict ? { strict: true } : {}),
    ...(o.skipUnknown ? { skipUnknown: true } : {}),
    ...(o.plugins?.length ? { plugins: [...o.plugins] } : {}),
  };
  const bundle = await probeScene(scene, o, load, cases[0]);
  const key: SweepKey = { sceneHash: bundleHash(bundle), steps: o.steps, records: o.records, load };
  const paramPaths = o.params.map((a) => a.path);

  // identities; a case with the same values as an earlier one is the same case
  const jobs: CaseJob[] = [];
  const paramsOf = new Map<string, Record<string, number | string>>();
  let duplicates = 0;
  for (const c of cases) {
    const params = c.params.map((p) => ({ path: p.path, text: p.value.text }));
    const id = caseId(key, params);
    if (paramsOf.has(id)) {
      duplicates++;
      continue;
    }
    paramsOf.set(id, Object.fromEntries(c.params.map((p) => [p.path, p.value.value])));
    jobs.push({ id, index: c.index, scene, params, steps: o.steps, records: o.records, load });
  }

  fs.mkdirSync(o.out, { recursive: true });
  const files = {
    parquet: path.join(o.out, 'results.parquet'),
    csv: path.join(o.out, 'results.csv'),
    failures: path.join(o.out, 'failures.csv'),
    summary: path.join(o.out, 'summary.svg'),
    journal: path.join(o.out, 'cases.jsonl'),
    description: path.join(o.out, 'sweep.json'),
  };
  const known = Journal.read(files.journal);
  const outcomes = new Map<string, JournalEntry>();
  for (const j of jobs) {
    const e = known.get(j.id);
    if (e && (e.status === 'ok' || !o.rerunFailed)) outcomes.set(j.id, e);
  }
  const toRun = jobs.filter((j) => !outcomes.has(j.id));
  const plan: SweepPlan = { total: jobs.length, kept: outcomes.size, toRun: toRun.length, duplicates, sceneHash: key.sceneHash };
  events.onPlan?.(plan);
  const writeDescription = (extra: Record<string, unknown>): void => {
    const d = {
      sofaTs: SOFA_TS_VERSION,
      scene: o.scene,
      sceneHash: key.sceneHash,
      files: Object.keys(bundle.files).map((f) => path.relative(path.dirname(scene), f).split(path.sep).join('/')),
      params: o.params.map((a) => ({ path: a.path, spec: a.spec })),
      samples: o.samples ?? null,
      seed: o.seed ?? 1,
      steps: o.steps,
      records: o.records.map((r) => r.text + (r.every > 0 ? `:${r.every}` : '')),
      mode: o.queue ? `queue ${o.queue.url} (${o.queue.name ?? 'sofa-ts-sweep'})` : 'local threads',
      ...extra,
    };
    writeAtomically(files.description, JSON.stringify(d, null, 2) + '\n');
  };
  writeDescription({ cases: plan });

  const journal = new Journal(files.journal);
  let ran = 0;
  const onOutcome = (job: CaseJob, out: CaseOutcome): void => {
    if (outcomes.has(job.id)) return; // a case counts once
    const e: JournalEntry = out.ok
      ? {
          id: job.id,
          index: job.index,
          params: paramsOf.get(job.id)!,
          status: 'ok',
          attempts: out.attempts,
          result: encodeResult(out.result),
          ranOn: out.ranOn,
        }
      : {
          id: job.id,
          index: job.index,
          params: paramsOf.get(job.id)!,
          status: 'failed',
          attempts: out.attempts,
          error: out.error,
          step: out.step,
          ranOn: out.ranOn,
        };
    journal.append(e);
    outcomes.set(job.id, e);
    ran++;
    events.onOutcome?.(job, out);
  };
  const hash = key.sceneHash;
  try {
    if (toRun.length > 0) {
      if (o.queue) {
        const tag = createHash('sha256')
          .update(`${os.hostname()}\0${path.resolve(o.out)}`)
          .digest('hex')
          .slice(0, 12);
        await runOnQueue(
          { url: o.queue.url, ...(o.queue.name ? { queueName: o.queue.name } : {}), retries: o.retries ?? 1, tag },
          hash,
          bundle,
          toRun,
          onOutcome,
          stop,
          events.onStatus,
        );
      } else {
        await runLocally(
          {
            ...(o.threads ? { threads: o.threads } : {}),
            ...(o.maxMemoryMb ? { maxMemoryMb: o.maxMemoryMb } : {}),
            ...(o.timeoutSec ? { timeoutSec: o.timeoutSec } : {}),
            retries: o.retries ?? 1,
          },
          hash,
          bundle,
          toRun,
          onOutcome,
          stop,
          events.onStart,
        );
      }
    }
  } finally {
    journal.close();
  }

  const entries = jobs.map((j) => outcomes.get(j.id)).filter((e): e is JournalEntry => e !== undefined);
  const table = resultsTable(entries, paramPaths);
  writeParquet(files.parquet, table, {
    'sofa-ts.sweep': JSON.stringify({
      sofaTs: SOFA_TS_VERSION,
      scene: o.scene,
      sceneHash: key.sceneHash,
      steps: o.steps,
      params: o.params.map((a) => `${a.path}=${a.spec}`),
    }),
  });
  writeCsv(files.csv, table);
  writeFailuresCsv(files.failures, entries, paramPaths);
  writeAtomically(
    files.summary,
    summarySvg(
      `${path.basename(o.scene)}: ${jobs.length} cases, ${o.steps} steps`,
      entries,
      o.params.map((a) => ({ path: a.path, log: isLogAxis(a) })),
    ),
  );
  const ok = entries.filter((e) => e.status === 'ok').length;
  const failed = entries.length - ok;
  const interrupted = entries.length < jobs.length;
  const ms = performance.now() - t0;
  writeDescription({ cases: { ...plan, ok, failed, ranNow: ran, unfinished: jobs.length - entries.length }, wallMs: Math.round(ms) });
  return { ...plan, ok, failed, ran, interrupted, ms, files };
}

/**
 * Loads the scene once in this thread while recording every file it reads (the bundle), checks
 * that every parameter value parses on its Data and that every record names something, then runs
 * init with the first case's values. A failing init is left to that case (its values may be the
 * cause); a scene that does not load, a bad path or value stop the sweep before it starts.
 */
async function probeScene(scene: string, o: SweepOptions, load: CaseLoadOptions, first: SweepCase | undefined): Promise<SceneBundle> {
  const machine = host();
  const rec = recordingHost(machine, scene);
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-sweep-probe-'));
  setHost(rec.host);
  try {
    const s = await loadScene(scene, {
      dataPaths: load.dataPaths,
      ...(load.strict ? { strict: true } : {}),
      ...(load.skipUnknown ? { skipUnknown: true } : {}),
      ...(load.plugins ? { plugins: load.plugins } : {}),
      outputDir,
      init: false,
      onDivergence: 'stop',
    });
    for (const a of o.params) {
      const values = a.kind === 'grid' ? a.values : [sampleValue(a, 0.5)];
      for (const v of values) setDataByPath(s.root, a.path, v.text, paramLocation(a.path));
    }
    for (const p of first?.params ?? []) setDataByPath(s.root, p.path, p.value.text, paramLocation(p.path));
    let initialised = false;
    try {
      s.init();
      initialised = true;
    } catch {
      // the first case's failure, reported with it
    }
    new CaseRecorder(s, o.records, o.steps, initialised);
    return rec.bundle();
  } finally {
    setHost(machine);
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
}
