import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ComponentError, DivergenceError, SofaError, SofaErrors, setDataByPath } from '@sofa-ts/core';
import { loadScene, type SofaScene } from 'sofa-ts';
import { CaseRecorder, type CaseRecords } from './case-recorder.js';
import type { RecordSpec } from './record-spec.js';

/** How a case's scene is loaded: what `sofa-ts run` takes from its options. */
export interface CaseLoadOptions {
  /** Folders searched for meshes and includes (absolute). */
  readonly dataPaths: readonly string[];
  readonly strict?: boolean;
  readonly skipUnknown?: boolean;
  /** Plugin packages loaded first (installed where the case runs). */
  readonly plugins?: readonly string[];
}

/** Everything a worker needs to run one case (the scene's files come from its bundle). */
export interface CaseJob {
  /** The case's identity (case-id.ts). */
  readonly id: string;
  readonly index: number;
  /** The scene file, absolute (a path of the bundle). */
  readonly scene: string;
  /** Attribute texts set on the Data at these paths, after the scene is built and before init. */
  readonly params: readonly { readonly path: string; readonly text: string }[];
  readonly steps: number;
  readonly records: readonly RecordSpec[];
  readonly load: CaseLoadOptions;
}

/** A finished case: what was recorded, the wall times, the warnings its scene gave. */
export interface CaseResult extends CaseRecords {
  readonly loadMs: number;
  readonly stepsMs: number;
  readonly warnings: string[];
}

/** Why a case failed: the message (located when the scene's), and the step reached (0: at load or init). */
export class CaseFailure extends Error {
  constructor(
    message: string,
    readonly step: number,
  ) {
    super(message);
    this.name = 'CaseFailure';
  }
}

/** Where a parameter's value comes from, for the messages of its Data (bad value, out of range). */
export function paramLocation(p: string): { file: string; line: number; column: number } {
  return { file: `--param ${p}`, line: 1, column: 1 };
}

/**
 * Runs one case as `sofa-ts run` runs a scene: load, the parameters set on their Data by the rules
 * of a scene attribute (core's setDataByPath), init, `steps` steps with the divergence guard
 * stopping at a NaN or infinite state; what the records ask is sampled along. Files the scene
 * writes go into a temporary folder, removed after. Throws a CaseFailure with the scene's message.
 */
export async function runCase(job: CaseJob): Promise<CaseResult> {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-case-'));
  let step = 0;
  try {
    const t0 = performance.now();
    const scene = await loadScene(job.scene, {
      dataPaths: job.load.dataPaths,
      ...(job.load.strict ? { strict: true } : {}),
      ...(job.load.skipUnknown ? { skipUnknown: true } : {}),
      ...(job.load.plugins?.length ? { plugins: job.load.plugins } : {}),
      outputDir,
      init: false,
      onDivergence: 'stop',
    });
    setParams(scene, job.params, Boolean(job.load.strict));
    const recorder = new CaseRecorder(scene, job.records, job.steps);
    const loadMs = performance.now() - t0;
    recorder.sample(0, Number.NaN);
    let stepsMs = 0;
    for (step = 1; step <= job.steps; step++) {
      const ts = performance.now();
      scene.step();
      const ms = performance.now() - ts;
      stepsMs += ms;
      recorder.sample(step, ms);
    }
    step = job.steps;
    recorder.finish(loadMs, stepsMs);
    // SOFA's cleanup at the end of a simulation (exporters' exportAtEnd), as run does
    scene.root.visit((n) => {
      for (const obj of n.objects) (obj as { cleanup?: () => void }).cleanup?.();
    });
    return {
      steps: recorder.steps,
      times: recorder.times,
      columns: recorder.columns,
      loadMs,
      stepsMs,
      warnings: scene.warnings.map((w) => w.message),
    };
  } catch (e) {
    throw new CaseFailure(failureMessage(e, step), step);
  } finally {
    fs.rmSync(outputDir, { recursive: true, force: true });
  }
}

/** Sets the case's parameters and runs init; under `strict`, what init warns about is an error. */
export function setParams(scene: SofaScene, params: CaseJob['params'], strict: boolean): void {
  const warnings: SofaError[] = [];
  for (const p of params) setDataByPath(scene.root, p.path, p.text, paramLocation(p.path), warnings);
  scene.warnings.push(...warnings);
  const before = scene.warnings.length;
  if (strict && warnings.length > 0) throw warnings.length === 1 ? warnings[0] : new SofaErrors(warnings);
  scene.init();
  const late = scene.warnings.slice(before);
  if (strict && late.length > 0) throw late.length === 1 ? late[0] : new SofaErrors(late);
}

/** One message for a failure: the scene's errors (located), or an internal error's message. */
export function failureMessage(e: unknown, step: number): string {
  if (e instanceof SofaErrors) return e.errors.map((x) => x.message).join('\n');
  if (e instanceof DivergenceError || e instanceof SofaError) {
    const internal = e instanceof ComponentError && e.isInternal;
    return internal ? `${e.message} (an internal error)` : e.message;
  }
  const msg = e instanceof Error ? e.message : String(e);
  return `internal error at step ${step}: ${msg}`;
}
