import * as fs from 'node:fs';
import * as path from 'node:path';
import pc from 'picocolors';
import { StateRecorder, comparedStates, loadScene } from 'sofa-ts';
import { compareStates, listReferenceStates, readRegressionList, readStateFile, type RegressionEntry, type StateSeries } from '@sofa-ts/io';
import { oneLine } from './errors.js';

export interface RegressionOptions {
  out: string;
  dataPath: string[];
  json?: string;
  /** Only scenes whose path contains one of these strings. */
  filter?: string[];
}

/** What one scene of a regression list gave. */
export interface SceneResult {
  scene: string;
  passed: boolean;
  errorByDof?: number;
  epsilon: number;
  maxAbsError?: number;
  relativeError?: number;
  msPerStep?: number;
  steps: number;
  reason?: string;
}

/**
 * SOFA's regression-list data paths: for a list file in ROOT/examples/, ROOT/share and
 * ROOT/examples (as in a SOFA checkout).
 */
export function listDataPaths(listFile: string): string[] {
  const dir = path.dirname(path.resolve(listFile));
  if (path.basename(dir) !== 'examples') return [];
  const root = path.dirname(dir);
  return [path.join(root, 'share'), dir];
}

/** Runs one scene of the list and judges its states against the references by SOFA's rule. */
export async function runRegressionScene(entry: RegressionEntry, referenceRoot: string, o: RegressionOptions, dataPaths: string[]): Promise<SceneResult> {
  const base: SceneResult = { scene: entry.sceneRelative, passed: false, epsilon: entry.epsilon, steps: entry.steps };
  let recorder: StateRecorder | undefined;
  try {
    const refs = listReferenceStates(referenceRoot, entry.sceneRelative);
    if (refs.length === 0) return { ...base, reason: 'no reference states for this scene' };
    const scene = await loadScene(entry.scene, { dataPaths });
    const states = comparedStates(scene.root, entry.mecaInMapping);
    if (states.length !== refs.length) {
      return { ...base, reason: `${states.length} compared state(s) (${states.map((s) => s.state.getName()).join(', ')}), the references have ${refs.length}` };
    }
    for (let i = 0; i < refs.length; i++) {
      if (refs[i]!.name !== states[i]!.state.getName()) return { ...base, reason: `state ${i} is '${states[i]!.state.getName()}', the reference is '${refs[i]!.name}'` };
    }
    const outBase = path.join(o.out, entry.sceneRelative);
    recorder = new StateRecorder(states, (s) => `${outBase}.reference_${s.index}_${s.state.getName()}_mstate.txt.gz`);
    const frames: StateSeries[] = states.map((s) => ({ name: s.state.getName(), scalarsPerPoint: s.state.stateType.coordSize, derivScalarsPerPoint: s.state.stateType.derivSize, frames: [] }));
    const record = (write: boolean): void => {
      if (write) recorder!.record(scene.time);
      states.forEach((s, i) => (frames[i]!.frames as { time: number; X: Float64Array; V: Float64Array }[]).push({ time: scene.time, X: Float64Array.from(s.state.x), V: Float64Array.from(s.state.v) }));
    };
    // SOFA writes at the beginning of steps: T=0 and, for last_step_only, T=dt·(steps−1). When a
    // last_step_only reference holds more frames (DistanceMultiMapping's holds every step), every
    // step is kept for the comparison.
    const refFrames = refs.map((r) => readStateFile(r.path));
    const keepAll = !entry.lastStepOnly || refFrames.some((f) => f.length > 2);
    record(true);
    const last = entry.steps - 1;
    const t0 = performance.now();
    for (let k = 1; k <= last; k++) {
      scene.step();
      if (keepAll || k === last) record(!entry.lastStepOnly || k === last);
    }
    const msPerStep = last > 0 ? (performance.now() - t0) / last : 0;
    recorder.close();
    recorder = undefined;
    const refSeries: StateSeries[] = refs.map((r, i) => ({ name: r.name, scalarsPerPoint: frames[i]!.scalarsPerPoint, derivScalarsPerPoint: frames[i]!.derivScalarsPerPoint!, frames: refFrames[i]! }));
    const cmp = compareStates(refSeries, frames, entry.epsilon, scene.root.getDt());
    return {
      ...base,
      passed: cmp.passed,
      errorByDof: cmp.errorByDof,
      maxAbsError: cmp.maxAbsError,
      relativeError: cmp.relativeError,
      msPerStep,
      ...(cmp.failures.length > 0 ? { reason: cmp.failures[0]! } : {}),
    };
  } catch (e) {
    // The frames written so far stay: they show where the scene failed or diverged.
    try {
      recorder?.close();
    } catch {
      // The scene's failure is the reason to report.
    }
    return { ...base, reason: oneLine(e) };
  }
}

/** `sofa-ts regression`: every scene of a list, one line each, then `N passed, M failed`. */
export async function regressionCommand(listFile: string, o: RegressionOptions): Promise<number> {
  const list = readRegressionList(listFile);
  const dataPaths = [...o.dataPath, ...listDataPaths(listFile)];
  const results: SceneResult[] = [];
  const out = process.stdout;
  for (const entry of list.entries) {
    if (o.filter && o.filter.length > 0 && !o.filter.some((f) => entry.sceneRelative.includes(f))) continue;
    const r = await runRegressionScene(entry, list.referenceRoot, o, dataPaths);
    results.push(r);
    out.write(formatResult(r) + '\n');
  }
  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed;
  if (o.json) {
    fs.mkdirSync(path.dirname(path.resolve(o.json)), { recursive: true });
    fs.writeFileSync(o.json, JSON.stringify({ list: path.resolve(listFile), passed, failed, results }, null, 2) + '\n');
  }
  out.write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

function g(x: number | undefined): string {
  return x === undefined ? '-' : x.toExponential(3);
}

export function formatResult(r: SceneResult): string {
  const tag = r.passed ? pc.green('PASS') : pc.red('FAIL');
  const nums = r.errorByDof !== undefined ? `  ERRORBYDOF ${g(r.errorByDof)} (eps ${r.epsilon})  max ${g(r.maxAbsError)}  rel ${g(r.relativeError)}  ${r.msPerStep?.toFixed(3)} ms/step` : '';
  const why = r.reason ? `  ${r.passed ? '' : '— '}${r.reason}` : '';
  return `${tag} ${r.scene}${nums}${why}`;
}
