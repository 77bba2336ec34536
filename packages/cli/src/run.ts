import * as fs from 'node:fs';
import * as path from 'node:path';
import pc from 'picocolors';
import { reportError, reportWarnings } from './errors.js';
import { DivergenceError, StateRecorder, StepProbe, allStates, formatTime, isOdeSolver, loadScene, type BaseOdeSolver, type DivergencePolicy, type StepSample } from 'sofa-ts';
import { exportStatesVtk } from '@sofa-ts/io/export';
import { EXIT_DIVERGED, EXIT_ERROR, EXIT_OK, exitCodeOfSignal } from './exit-codes.js';
import { Interruption } from './interruption.js';
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
  /** What a step that leaves a NaN or infinite state does (default 'stop'). */
  onDivergence?: DivergencePolicy;
  /** Plugin packages loaded before the scene (resolved as its RequiredPlugin names are). */
  plugins?: string[];
  /** Write an SVG of per-step energies, iterations, residuals, constraint forces and `plotData`. */
  plot?: string;
  /** Data plotted with --plot (`/node/object.field`). */
  plotData?: string[];
  /** Write every 3D state as VTK files (.vtu per step, .pvd per state) into this folder. */
  exportVtk?: string;
}

/**
 * `sofa-ts run`: loads a scene, steps it, optionally writes its states, prints a summary. Returns
 * the exit code (exit-codes.ts): a divergence, a failing component and SIGINT/SIGTERM stop the run
 * after a complete step, with every state file ending on the same, complete frame.
 */
export async function runCommand(scenePath: string, o: RunOptions): Promise<number> {
  const t0 = performance.now();
  const scene = await loadScene(scenePath, { dataPaths: o.dataPath, ...(o.dt !== undefined ? { dt: o.dt } : {}), ...(o.strict ? { strict: true } : {}), ...(o.skipUnknown ? { skipUnknown: true } : {}), ...(o.plugins?.length ? { plugins: o.plugins } : {}), onDivergence: o.onDivergence ?? 'stop' });
  const tLoad = performance.now() - t0;
  reportWarnings(scene.warnings);
  // What components warn about during the steps (a solver that did not converge, a fallback) too.
  scene.onWarning((w) => reportWarnings([w]));
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
  let done = 0;
  let failure: unknown;
  const interruption = new Interruption();
  try {
    for (let i = 1; i <= o.steps && interruption.signal === undefined; i++) {
      const ts = performance.now();
      scene.step();
      stepMs.push(performance.now() - ts);
      done = i;
      if (probe) samples.push(probe.sample(i, stepMs[stepMs.length - 1]!));
      vtk?.record(i, scene.time);
      let stepIterations = 0;
      for (const s of solvers) stepIterations += s.lastStats?.iterations ?? 0;
      iterations += stepIterations;
      maxIterations = Math.max(maxIterations, stepIterations);
      if (recorder && i % o.writePeriod === 0) recorder.record(scene.time);
      if (scene.divergence && scene.divergence.step === i) {
        progress.stop();
        process.stderr.write(`${pc.yellow('warning')}: ${new DivergenceError(scene.divergence).message}; going on (--on-divergence continue), no further warning\n`);
      }
      progress.update(i);
      await interruption.poll();
    }
  } catch (e) {
    failure = e;
  } finally {
    interruption.dispose();
    progress.stop();
  }
  try {
    recorder?.close();
    // SOFA's cleanup at the end of the simulation (exporters' exportAtEnd), then the series and the plot
    scene.root.visit((n) => {
      for (const obj of n.objects) (obj as { cleanup?: () => void }).cleanup?.();
    });
    vtk?.close();
    if (o.plot) fs.writeFileSync(o.plot, plotSvg(`${path.basename(scenePath)}: ${done} steps`, samples));
  } catch (e) {
    failure ??= e;
  }
  const kept = recorder ? `${recorder.frameCount} frame(s) of ${recorder.files.length} state(s) in ${o.writeState}, up to t = ${formatTime(recorder.lastFrameTime)} s` : '';
  if (failure !== undefined) {
    reportError(failure);
    if (recorder) process.stderr.write(`states kept: ${kept}\n`);
    return failure instanceof DivergenceError ? EXIT_DIVERGED : EXIT_ERROR;
  }
  const sorted = [...stepMs].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
  const total = stepMs.reduce((a, b) => a + b, 0);
  const out = process.stdout;
  out.write(`${pc.bold('scene')}        ${scenePath}\n`);
  out.write(`${pc.bold('steps')}        ${done}${done < o.steps ? ` of ${o.steps}` : ''} × dt ${scene.root.getDt()} s → t = ${formatTime(scene.time)} s\n`);
  out.write(`${pc.bold('time')}         load ${tLoad.toFixed(1)} ms, steps ${total.toFixed(1)} ms, ${median.toFixed(3)} ms/step (median), ${(done ? total / done : 0).toFixed(3)} ms/step (mean)\n`);
  if (solvers.length > 0) {
    out.write(`${pc.bold('solvers')}      ${solvers.map((s) => s.describe()).join(', ')}\n`);
    out.write(`${pc.bold('iterations')}   ${(done ? iterations / done : 0).toFixed(2)} per step (max ${maxIterations})${solvers.length > 1 ? `, summed over the ${solvers.length} solvers` : ''}\n`);
  }
  if (vtk) out.write(`${pc.bold('vtk')}          ${vtk.count} state(s) × ${done + 1} file(s) and a .pvd each in ${o.exportVtk}\n`);
  if (o.plot) out.write(`${pc.bold('plot')}         ${o.plot}\n`);
  if (recorder) out.write(`${pc.bold('states')}       ${kept}\n`);
  if (interruption.signal !== undefined) {
    process.stderr.write(`interrupted by ${interruption.signal} after step ${done} (t = ${formatTime(scene.time)} s)${recorder ? `; states written: ${kept}` : ''}\n`);
    return exitCodeOfSignal(interruption.signal);
  }
  if (scene.divergence) {
    process.stderr.write(`${pc.red('error')}: the run diverged at step ${scene.divergence.step} (t = ${formatTime(scene.divergence.time)} s) and went on (--on-divergence continue)\n`);
    return EXIT_DIVERGED;
  }
  return EXIT_OK;
}
