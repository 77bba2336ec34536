// A worker of the fuzzer: loads the mutants it is sent, steps them and sorts the outcome.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { ComponentError, DivergenceError, SofaError, SofaErrors, allStates, loadSceneFromString } from 'sofa-ts';
import type { FuzzJob, FuzzOutcome } from './classes.js';

function located(e: SofaError): boolean {
  return e instanceof SofaErrors ? e.errors.every((x) => x.loc !== undefined) : e.loc !== undefined;
}

async function run(job: FuzzJob): Promise<FuzzOutcome> {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-fuzz-out-'));
  try {
    const scene = await loadSceneFromString(job.text, {
      fileName: job.fileName,
      dataPaths: job.dataPaths,
      outputDir,
      onDivergence: 'stop',
    });
    // Heartbeats: the campaign tells a large problem that progresses from a hang.
    let dofs = 0;
    for (const { state } of allStates(scene.root)) dofs += state.v.length;
    parentPort!.postMessage({ id: job.id, progress: 'loaded', dofs });
    for (let i = 0; i < job.steps; i++) {
      scene.step();
      parentPort!.postMessage({ id: job.id, progress: `step ${i + 1}` });
    }
    for (const { state } of allStates(scene.root)) {
      for (const arr of [state.x, state.v])
        for (let i = 0; i < arr.length; i++)
          if (!Number.isFinite(arr[i]))
            return { kind: 'silent-nan', message: `${state.describe()} is not finite after ${job.steps} steps` };
    }
    return { kind: 'ran' };
  } catch (e) {
    if (e instanceof DivergenceError) return { kind: 'diverged', message: e.message.split('\n')[0] };
    if (e instanceof ComponentError && e.isInternal)
      return { kind: 'internal', message: e.message.split('\n')[0], stack: e.cause instanceof Error ? e.cause.stack : undefined };
    if (e instanceof SofaError) return { kind: located(e) ? 'located-error' : 'unlocated-error', message: e.message.split('\n')[0] };
    return {
      kind: 'internal',
      message: e instanceof Error ? `${e.name}: ${e.message}`.split('\n')[0] : String(e),
      stack: e instanceof Error ? e.stack : undefined,
    };
  } finally {
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
}

parentPort!.on('message', (job: FuzzJob) => {
  void run(job).then((outcome) => parentPort!.postMessage({ id: job.id, outcome }));
});
