// A worker thread of a sweep: runs the cases it is sent, one at a time, reading the scene's files
// from the bundle it was given (scene-bundle.ts), and answers each with its result or failure.
import { parentPort } from 'node:worker_threads';
import { host, setHost, type Host } from '@sofa-ts/core';
import { bundleHost, type SceneBundle } from './scene-bundle.js';
import { CaseFailure, runCase, type CaseJob, type CaseResult } from './run-case.js';

export type ToThread = { kind: 'bundle'; hash: string; bundle: SceneBundle } | { kind: 'case'; bundle: string; job: CaseJob };
export type FromThread =
  | { kind: 'started'; id: string }
  | { kind: 'done'; id: string; result: CaseResult }
  | { kind: 'failed'; id: string; message: string; step: number };

const machine: Host = host();
const bundles = new Map<string, SceneBundle>();

parentPort!.on('message', (m: ToThread) => {
  if (m.kind === 'bundle') {
    // a thread serves one sweep at a time; keep the latest few
    bundles.set(m.hash, m.bundle);
    while (bundles.size > 2) bundles.delete(bundles.keys().next().value!);
    return;
  }
  const b = bundles.get(m.bundle);
  const id = m.job.id;
  if (!b) {
    parentPort!.postMessage({
      kind: 'failed',
      id,
      message: `internal error: the scene bundle ${m.bundle} was not sent to the thread`,
      step: 0,
    } satisfies FromThread);
    return;
  }
  setHost(bundleHost(b, machine));
  parentPort!.postMessage({ kind: 'started', id } satisfies FromThread);
  runCase(m.job).then(
    (result) => parentPort!.postMessage({ kind: 'done', id, result } satisfies FromThread),
    (e: unknown) =>
      parentPort!.postMessage({
        kind: 'failed',
        id,
        message: e instanceof Error ? e.message : String(e),
        step: e instanceof CaseFailure ? e.step : 0,
      } satisfies FromThread),
  );
});
