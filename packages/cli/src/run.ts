import * as path from 'node:path';
import pc from 'picocolors';
import { reportWarnings } from './errors.js';
import * as fs from 'node:fs';
import { StateRecorder, StepProbe, allStates, isOdeSolver, loadScene, type BaseOdeSolver, type StepSample } from 'sofa-ts';
import { exportStatesVtk } from '@sofa-ts/io/export';
import { plotSvg } from './plot-svg.js';
import { Progress } from './progress.js';

export interface RunOptions {
  steps: number;
  dt?: number;
  dataPath: string[];
  writeState?: string;
  writePeriod: number;
  strict?: boolean;
  skipUnknown?: boolean;
  /** Write an SVG of per-step energies, iterations, residuals, constraint forces and `plotData`. */
  plot?: string;
  /** Data plotted with --plot (`/node/object.field`). */
  plotData?: string[];
  /** Write every 3D state as VTK files (.vtu per step, .pvd per state) into this folder. */
  exportVtk?: string;
}

/** `sofa-ts run`: loads a scene, steps it, optionally writes its states, prints a summary. */
export async function runCommand(scenePath: string, o: RunOptions): Promise<number> {
  const t0 = performance.now();
  const scene = await loadScene(scenePath, { dataPaths: o.dataPath, ...(o.dt !== undefined ? { dt: o.dt } : {}), ...(o.strict ? { strict: true } : {}), ...(o.skipUnknown ? { skipUnknown: true } : {}) });
  const tLoad = performance.now() - t0;
  reportWarnings(scene.warnings);
  let recorder: StateRecorder | undefined;
  if (o.writeState) {
    const dir = o.writeState;
    recorder = new StateRecorder(allStates(scene.root), (s) => path.join(dir, `${s.index}_${s.state.getName()}.state.txt`));
    recorder.record(scene.time);
  }
  const vtk = o.exportVtk ? exportStatesVtk(scene.root, o.exportVtk) : undefined;
  vtk?.record(0, scene.time);
  const probe = o.plot ? new StepProbe(scene.root, o.plotData ?? []) : undefined;
  const samples: StepSample[] = [];
  const solvers: BaseOdeSolver[] = [];
  scene.root.visit((n) => {
    for (const obj of n.objects) if (isOdeSolver(obj)) solvers.push(obj);
  });
  const progress = new Progress(o.steps);
  const stepMs: number[] = [];
  let iterations = 0;
  let maxIterations = 0;
  try {
    for (let i = 1; i <= o.steps; i++) {
      const ts = performance.now();
      scene.step();
      stepMs.push(performance.now() - ts);
      if (probe) samples.push(probe.sample(i, stepMs[stepMs.length - 1]!));
      vtk?.record(i, scene.time);
      let stepIterations = 0;
      for (const s of solvers) stepIterations += s.lastStats?.iterations ?? 0;
      iterations += stepIterations;
      maxIterations = Math.max(maxIterations, stepIterations);
      if (recorder && i % o.writePeriod === 0) recorder.record(scene.time);
      progress.update(i);
    }
  } catch (e) {
    recorder?.abort();
    throw e;
  }
  recorder?.close();
  // SOFA's cleanup at the end of the simulation (exporters' exportAtEnd)
  scene.root.visit((n) => {
    for (const obj of n.objects) (obj as { cleanup?: () => void }).cleanup?.();
  });
  vtk?.close();
  if (o.plot) fs.writeFileSync(o.plot, plotSvg(`${path.basename(scenePath)}: ${o.steps} steps`, samples));
  const sorted = [...stepMs].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
  const total = stepMs.reduce((a, b) => a + b, 0);
  const out = process.stdout;
  out.write(`${pc.bold('scene')}        ${scenePath}\n`);
  out.write(`${pc.bold('steps')}        ${o.steps} × dt ${scene.root.getDt()} s → t = ${+scene.time.toFixed(12)} s\n`);
  out.write(`${pc.bold('time')}         load ${tLoad.toFixed(1)} ms, steps ${total.toFixed(1)} ms, ${median.toFixed(3)} ms/step (median), ${(o.steps ? total / o.steps : 0).toFixed(3)} ms/step (mean)\n`);
  if (solvers.length > 0) {
    out.write(`${pc.bold('solvers')}      ${solvers.map((s) => s.describe()).join(', ')}\n`);
    out.write(`${pc.bold('iterations')}   ${(o.steps ? iterations / o.steps : 0).toFixed(2)} per step (max ${maxIterations})${solvers.length > 1 ? `, summed over the ${solvers.length} solvers` : ''}\n`);
  }
  if (vtk) out.write(`${pc.bold('vtk')}          ${vtk.count} state(s) × ${o.steps + 1} file(s) and a .pvd each in ${o.exportVtk}\n`);
  if (o.plot) out.write(`${pc.bold('plot')}         ${o.plot}\n`);
  if (recorder) out.write(`${pc.bold('states')}       ${recorder.files.length} file(s) in ${o.writeState}\n`);
  return 0;
}
