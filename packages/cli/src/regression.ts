import * as fs from 'node:fs';
import * as path from 'node:path';
import pc from 'picocolors';
import {
  StateRecorder,
  TopologyFrameRecorder,
  comparedStates,
  comparedTopologies,
  formatTime,
  loadScene,
  sofaTreeDataPaths,
} from 'sofa-ts';
import {
  CompareStateRun,
  TOPOLOGY_KINDS,
  TopologyWriter,
  compareTopologies,
  hasReferenceTopologies,
  listReferenceStates,
  readRegressionList,
  readStateFile,
  readTopologyFile,
  referenceTopologyPath,
  type RegressionEntry,
  type TopologyFrame,
} from '@sofa-ts/io';
import { oneLine } from './errors.js';
import { SOFA_TS_VERSION } from './version.js';
import { host } from '@sofa-ts/core';

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
  /** State scenes: the reference frames compared, over every state. */
  comparedFrames?: number;
  /** Topology scenes: SOFA's CompareTopology total (0 to pass) and its share per element kind. */
  topologyError?: number;
  topologyErrors?: Record<string, number>;
}

/**
 * SOFA's regression-list data paths: ROOT/share and ROOT/examples of the SOFA tree the list is in
 * (ROOT/examples/ for the example lists, ROOT/applications/plugins/ for the plugins' list), as in a
 * SOFA checkout.
 */
export function listDataPaths(listFile: string): string[] {
  return sofaTreeDataPaths(listFile);
}

/**
 * Runs one scene of the list and judges it against its references by SOFA's rule: its states
 * (CompareState), or its topologies when the scene has topology references and no state ones
 * (CompareTopology, SOFA's topology lists).
 */
export async function runRegressionScene(
  entry: RegressionEntry,
  referenceRoot: string,
  o: RegressionOptions,
  dataPaths: string[],
): Promise<SceneResult> {
  const base: SceneResult = { scene: entry.sceneRelative, passed: false, epsilon: entry.epsilon, steps: entry.steps };
  let recorder: StateRecorder | undefined;
  try {
    const refs = listReferenceStates(referenceRoot, entry.sceneRelative);
    if (refs.length === 0 && hasReferenceTopologies(referenceRoot, entry.sceneRelative))
      return await runTopologyScene(entry, referenceRoot, o, dataPaths, base);
    if (refs.length === 0) return { ...base, reason: 'no reference states for this scene' };
    const scene = await loadScene(entry.scene, { dataPaths });
    const states = comparedStates(scene.root, entry.mecaInMapping);
    if (states.length !== refs.length) {
      return {
        ...base,
        reason: `${states.length} compared state(s) (${states.map((s) => s.state.getName()).join(', ')}), the references have ${refs.length}`,
      };
    }
    for (let i = 0; i < refs.length; i++) {
      if (refs[i].name !== states[i].state.getName())
        return { ...base, reason: `state ${i} is '${states[i].state.getName()}', the reference is '${refs[i].name}'` };
    }
    const outBase = path.join(o.out, entry.sceneRelative);
    recorder = new StateRecorder(states, (s) => `${outBase}.reference_${s.index}_${s.state.getName()}_mstate.txt.gz`);
    // SOFA's CompareState at the beginning of every step (T = 0 … (steps − 1)·dt): every reference
    // frame the run reaches is compared, whatever the dump writes (last_step_only: T=0 and the last).
    const layouts = states.map((s) => ({
      name: s.state.getName(),
      scalarsPerPoint: s.state.stateType.coordSize,
      derivScalarsPerPoint: s.state.stateType.derivSize,
    }));
    const refSeries = refs.map((r, i) => ({
      name: r.name,
      scalarsPerPoint: layouts[i].scalarsPerPoint,
      derivScalarsPerPoint: layouts[i].derivScalarsPerPoint,
      frames: readStateFile(r.path),
    }));
    const compare = new CompareStateRun(refSeries, layouts, entry.epsilon, scene.root.getDt());
    const current = states.map((s) => ({
      get X() {
        return s.state.x;
      },
      get V() {
        return s.state.v;
      },
    }));
    const last = entry.steps - 1;
    const atStepBegin = (k: number): void => {
      if (!entry.lastStepOnly || k === 0 || k === last) recorder!.record(scene.time);
      compare.atStepBegin(k, scene.time, current);
    };
    atStepBegin(0);
    const t0 = performance.now();
    for (let k = 1; k <= last; k++) {
      scene.step();
      atStepBegin(k);
    }
    const msPerStep = last > 0 ? (performance.now() - t0) / last : 0;
    recorder.close();
    recorder = undefined;
    const cmp = compare.result();
    const notes = [
      ...(cmp.notReached > 0
        ? [
            `${cmp.notReached} reference frame(s) after the run's last step (T = ${formatTime(last * scene.root.getDt())} s), not compared, as SOFA`,
          ]
        : []),
      ...(cmp.passedOver > 0 ? [`${cmp.passedOver} reference frame(s) passed over for a later one in the same step, as SOFA`] : []),
    ];
    const reason = cmp.failures.length > 0 ? cmp.failures[0] : notes.length > 0 ? notes.join('; ') : undefined;
    return {
      ...base,
      passed: cmp.passed,
      errorByDof: cmp.errorByDof,
      maxAbsError: cmp.maxAbsError,
      relativeError: cmp.relativeError,
      msPerStep,
      comparedFrames: cmp.states.reduce((n, s) => n + s.frames.length, 0),
      ...(reason ? { reason } : {}),
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

/**
 * A topology scene (SOFA's TopologyRegression_test): the first topology of every node is dumped at
 * the beginning of each of the `steps` steps (frames T = 0 … (steps − 1)·dt) into
 * OUT/<scene>.reference_<i>_<name>_topology.txt.gz, and compared with the reference of the same
 * index and name by SOFA's CompareTopology rule; the scene passes only with a total error of 0.
 */
async function runTopologyScene(
  entry: RegressionEntry,
  referenceRoot: string,
  o: RegressionOptions,
  dataPaths: string[],
  base: SceneResult,
): Promise<SceneResult> {
  const scene = await loadScene(entry.scene, { dataPaths });
  const topologies = comparedTopologies(scene.root, entry.mecaInMapping);
  const missing = topologies.filter(
    (t) => !fs.existsSync(referenceTopologyPath(referenceRoot, entry.sceneRelative, t.index, t.topology.getName())),
  );
  if (topologies.length === 0) return { ...base, reason: 'no topology to compare in this scene' };
  if (missing.length > 0) {
    return {
      ...base,
      reason: `no reference for topology ${missing.map((t) => `${t.index} '${t.topology.getName()}'`).join(', ')} (expected ${path.basename(referenceTopologyPath(referenceRoot, entry.sceneRelative, missing[0].index, missing[0].topology.getName()))})`,
    };
  }
  const outBase = path.join(o.out, entry.sceneRelative);
  const frames: TopologyFrame[][] = topologies.map(() => []);
  const writers = topologies.map((t) => new TopologyWriter(`${outBase}.reference_${t.index}_${t.topology.getName()}_topology.txt.gz`));
  try {
    // a recorder last in each node sees the changes made at the beginning of the step before it
    topologies.forEach((t, i) => {
      t.node.addObject(
        new TopologyFrameRecorder(t.topology, (time, lists) => {
          writers[i].writeFrame(time, lists);
          frames[i].push({ time, counts: lists.map((l, k) => l.length / TOPOLOGY_KINDS[k].size), lists });
        }),
      );
    });
    const t0 = performance.now();
    for (let k = 0; k < entry.steps; k++) scene.step();
    const msPerStep = entry.steps > 0 ? (performance.now() - t0) / entry.steps : 0;
    const perKind = TOPOLOGY_KINDS.map(() => 0);
    let firstDifference: string | undefined;
    topologies.forEach((t, i) => {
      const ref = readTopologyFile(referenceTopologyPath(referenceRoot, entry.sceneRelative, t.index, t.topology.getName()));
      const cmp = compareTopologies(ref, frames[i]);
      cmp.perKind.forEach((e, k) => (perKind[k] += e));
      if (cmp.firstDifference) firstDifference ??= `topology ${t.index} '${t.topology.getName()}', ${cmp.firstDifference}`;
    });
    const total = perKind.reduce((a, b) => a + b, 0);
    const topologyErrors = Object.fromEntries(TOPOLOGY_KINDS.map((k, i) => [k.key.toLowerCase(), perKind[i]]));
    return {
      ...base,
      passed: total === 0,
      topologyError: total,
      topologyErrors,
      msPerStep,
      ...(firstDifference ? { reason: firstDifference } : {}),
    };
  } finally {
    for (const w of writers) w.close();
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
    host().writeFile(
      o.json,
      JSON.stringify({ sofaTs: SOFA_TS_VERSION, list: path.resolve(listFile), passed, failed, results }, null, 2) + '\n',
    );
  }
  out.write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

function g(x: number | undefined): string {
  return x === undefined ? '-' : x.toExponential(3);
}

export function formatResult(r: SceneResult): string {
  const tag = r.passed ? pc.green('PASS') : pc.red('FAIL');
  const nums =
    r.topologyError !== undefined
      ? `  TOPOLOGY ERROR ${r.topologyError} (${
          Object.entries(r.topologyErrors ?? {})
            .filter(([, e]) => e > 0)
            .map(([k, e]) => `${k} ${e}`)
            .join(', ') || 'every frame identical'
        })  ${r.msPerStep?.toFixed(3)} ms/step`
      : r.errorByDof !== undefined
        ? `  ERRORBYDOF ${g(r.errorByDof)} (eps ${r.epsilon})  max ${g(r.maxAbsError)}  rel ${g(r.relativeError)}  ${r.msPerStep?.toFixed(3)} ms/step`
        : '';
  const why = r.reason ? `  ${r.passed ? '' : '— '}${r.reason}` : '';
  return `${tag} ${r.scene}${nums}${why}`;
}
