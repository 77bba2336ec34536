import * as fs from 'node:fs';
import * as path from 'node:path';
import pc from 'picocolors';
import { reportError, reportWarnings } from './errors.js';
import {
  DivergenceError,
  KeypressedEvent,
  KeyreleasedEvent,
  SofaError,
  StateRecorder,
  StepProbe,
  allStates,
  formatTime,
  isOdeSolver,
  integratingSolverNode,
  loadScene,
  type BaseOdeSolver,
  type DivergencePolicy,
  type StepSample,
  type VisitedState,
  io,
} from 'sofa-ts';
import { exportStatesVtk } from '@sofa-ts/io/export';
import { RunCheckpoints, readCheckpointFile, resolveResumePath, runInfoOf, type RunInfo } from './checkpoints.js';
import { EXIT_DIVERGED, EXIT_ERROR, EXIT_OK, exitCodeOfSignal } from './exit-codes.js';
import { Interruption } from './interruption.js';
import { plotSvg } from './plot-svg.js';
import { Progress } from './progress.js';
import { SOFA_TS_VERSION } from './version.js';
import { host } from '@sofa-ts/core';

export interface RunOptions {
  steps: number;
  dt?: number;
  dataPath: string[];
  writeState?: string;
  writePeriod: number;
  /** Folder every file the scene's components write goes into (default: beside the scene file). */
  out?: string;
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
  /** Folder of the checkpoints (checkpointing is on when given): every `checkpointEvery` steps,
   *  at the end of the run and when SIGINT/SIGTERM stops it. */
  checkpointDir?: string;
  /** Steps between checkpoints (0: only at the end and on interruption). */
  checkpointEvery?: number;
  /** A checkpoint file, or a folder of them (its last one), to continue from. */
  resume?: string;
  /** Python scenes: folders put on sys.path after the scene's own. */
  pythonPath?: string[];
  /** Key events injected before a step (`STEP:KEY`), as a user's key presses in the viewer. */
  keys?: string[];
}

/**
 * `sofa-ts run`: loads a scene, steps it, optionally writes its states, prints a summary. Returns
 * the exit code (exit-codes.ts): a divergence, a failing component and SIGINT/SIGTERM stop the run
 * after a complete step, with every state file ending on the same, complete frame. With
 * checkpoints on, the state of the last step is saved too; `resume` continues from one.
 */
export async function runCommand(scenePath: string, o: RunOptions): Promise<number> {
  const t0 = performance.now();
  const keysAt = parseKeyEvents(o.keys ?? []);
  const scene = await loadScene(scenePath, {
    ...(o.pythonPath?.length ? { pythonPath: o.pythonPath } : {}),
    dataPaths: o.dataPath,
    ...(o.dt !== undefined ? { dt: o.dt } : {}),
    ...(o.strict ? { strict: true } : {}),
    ...(o.skipUnknown ? { skipUnknown: true } : {}),
    ...(o.plugins?.length ? { plugins: o.plugins } : {}),
    ...(o.out ? { outputDir: o.out } : {}),
    onDivergence: o.onDivergence ?? 'stop',
  });
  let start = 0;
  let runInfo: RunInfo | undefined;
  let resumedFrom = '';
  if (o.resume) {
    resumedFrom = resolveResumePath(o.resume);
    const checkpoint = readCheckpointFile(resumedFrom);
    scene.restore(checkpoint, resumedFrom);
    start = scene.simulation.stepCount;
    runInfo = runInfoOf(checkpoint, resumedFrom);
  }
  const tLoad = performance.now() - t0;
  reportWarnings(scene.warnings);
  // What components warn about during the steps (a solver that did not converge, a fallback) too.
  scene.onWarning((w) => reportWarnings([w]));
  if (o.resume) process.stderr.write(`resumed from ${resumedFrom}: step ${start}, t = ${formatTime(scene.time)} s\n`);
  let recorder: StateRecorder | undefined;
  if (o.writeState) {
    const dir = o.writeState;
    const states = allStates(scene.root);
    const fileOf = (s: VisitedState): string => path.join(dir, `${s.index}_${s.state.getName()}.state.txt`);
    const continueAt = o.resume ? stateFilesToContinue(states.map(fileOf), runInfo, o.writePeriod, resumedFrom) : undefined;
    recorder = new StateRecorder(states, fileOf, true, continueAt);
    // A new run records its initial frame; a resumed one, in new files, the checkpoint's frame when
    // the uninterrupted run has it too (so that the files are the tail of that run's).
    if (!o.resume || (!continueAt && start % o.writePeriod === 0)) recorder.record(scene.time);
  }
  const checkpoints = o.checkpointDir
    ? new RunCheckpoints(scene, o.checkpointDir, o.writePeriod, recorder, (w) => reportWarnings([w]))
    : undefined;
  const every = o.checkpointEvery ?? 0;
  const vtk = o.exportVtk ? exportStatesVtk(scene.root, o.exportVtk) : undefined;
  vtk?.record(start, scene.time);
  const probe = o.plot ? new StepProbe(scene.root, o.plotData ?? []) : undefined;
  const samples: StepSample[] = [];
  const solvers: BaseOdeSolver[] = [];
  scene.root.visit((n) => {
    // the solvers that run: a solver below another one is not (integratingSolverNode)
    if (integratingSolverNode(n) === n) for (const obj of n.objects) if (isOdeSolver(obj)) solvers.push(obj);
  });
  const progress = new Progress(o.steps);
  const stepMs: number[] = [];
  let iterations = 0;
  let maxIterations = 0;
  let done = start;
  let failure: unknown;
  const interruption = new Interruption();
  try {
    for (let i = start + 1; i <= o.steps && interruption.signal === undefined; i++) {
      for (const key of keysAt.get(i) ?? []) {
        // a press and its release, between two steps, as the viewer sends them
        scene.root.propagateEvent(new KeypressedEvent(key));
        scene.root.propagateEvent(new KeyreleasedEvent(key));
      }
      const ts = performance.now();
      scene.step();
      stepMs.push(performance.now() - ts);
      done = i;
      if (probe) samples.push(probe.sample(i, stepMs[stepMs.length - 1]));
      vtk?.record(i, scene.time);
      let stepIterations = 0;
      for (const s of solvers) stepIterations += s.lastStats?.iterations ?? 0;
      iterations += stepIterations;
      maxIterations = Math.max(maxIterations, stepIterations);
      if (recorder && i % o.writePeriod === 0) recorder.record(scene.time);
      if (checkpoints && every > 0 && i % every === 0) checkpoints.write();
      if (scene.divergence && scene.divergence.step === i) {
        progress.stop();
        process.stderr.write(
          `${pc.yellow('warning')}: ${new DivergenceError(scene.divergence).message}; going on (--on-divergence continue), no further warning\n`,
        );
      }
      progress.update(i);
      await interruption.poll();
    }
    // The last step's state: at the end of the run or when a signal stopped it.
    if (checkpoints && done > start) checkpoints.write();
  } catch (e) {
    failure = e;
    // Ctrl-C in a Python handler that did not return (the in-process interpreter raised
    // KeyboardInterrupt in it): the signal, recorded meanwhile, is seen once the loop runs
    if (raisedByInterrupt(e)) {
      for (let k = 0; k < 20 && interruption.signal === undefined; k++) await new Promise<void>((resolve) => setTimeout(resolve, 5));
      if (interruption.signal !== undefined) failure = undefined;
    }
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
    if (o.plot) host().writeFile(o.plot, plotSvg(`${path.basename(scenePath)}: ${done} steps`, samples));
  } catch (e) {
    failure ??= e;
  }
  scene.dispose();
  const kept = recorder
    ? `${recorder.frameCount} frame(s) of ${recorder.files.length} state(s) in ${o.writeState}, up to t = ${formatTime(recorder.lastFrameTime)} s`
    : '';
  const saved = checkpoints && checkpoints.lastStep >= 0 ? `step ${checkpoints.lastStep} in ${checkpoints.lastFile}` : '';
  if (failure !== undefined) {
    reportError(failure);
    if (recorder) process.stderr.write(`states kept: ${kept}\n`);
    if (saved) process.stderr.write(`last checkpoint: ${saved}\n`);
    return failure instanceof DivergenceError ? EXIT_DIVERGED : EXIT_ERROR;
  }
  const sorted = [...stepMs].sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
  const total = stepMs.reduce((a, b) => a + b, 0);
  const out = process.stdout;
  out.write(`${pc.bold('scene')}        ${scenePath}\n`);
  out.write(`${pc.bold('sofa-ts')}      ${SOFA_TS_VERSION} (Node ${process.version})\n`);
  if (scene.python)
    out.write(
      `${pc.bold('python')}       ${scene.python.version}, ${scene.python.inProcess ? "in the engine's process" : 'a separate python3 process'}\n`,
    );
  const ran = done - start;
  out.write(
    `${pc.bold('steps')}        ${o.resume ? `${start} + ${ran} = ${done}` : done}${done < o.steps ? ` of ${o.steps}` : ''} × dt ${scene.root.getDt()} s → t = ${formatTime(scene.time)} s\n`,
  );
  out.write(
    `${pc.bold('time')}         load ${tLoad.toFixed(1)} ms, steps ${total.toFixed(1)} ms, ${median.toFixed(3)} ms/step (median), ${(ran ? total / ran : 0).toFixed(3)} ms/step (mean)\n`,
  );
  if (solvers.length > 0) {
    out.write(`${pc.bold('solvers')}      ${solvers.map((s) => s.describe()).join(', ')}\n`);
    out.write(
      `${pc.bold('iterations')}   ${(ran ? iterations / ran : 0).toFixed(2)} per step (max ${maxIterations})${solvers.length > 1 ? `, summed over the ${solvers.length} solvers` : ''}\n`,
    );
  }
  if (vtk) out.write(`${pc.bold('vtk')}          ${vtk.count} state(s) × ${ran + 1} file(s) and a .pvd each in ${o.exportVtk}\n`);
  if (o.plot) out.write(`${pc.bold('plot')}         ${o.plot}\n`);
  if (recorder) out.write(`${pc.bold('states')}       ${kept}\n`);
  if (saved) out.write(`${pc.bold('checkpoint')}   ${saved}\n`);
  if (interruption.signal !== undefined) {
    process.stderr.write(
      `interrupted by ${interruption.signal} after step ${done} (t = ${formatTime(scene.time)} s)${recorder ? `; states written: ${kept}` : ''}${saved ? `; checkpoint: ${saved}` : ''}\n`,
    );
    return exitCodeOfSignal(interruption.signal);
  }
  if (scene.divergence) {
    process.stderr.write(
      `${pc.red('error')}: the run diverged at step ${scene.divergence.step} (t = ${formatTime(scene.divergence.time)} s) and went on (--on-divergence continue)\n`,
    );
    return EXIT_DIVERGED;
  }
  return EXIT_OK;
}

/**
 * State files of a resumed run (--resume with --write-state): the checkpointed run's files when the
 * folder holds them (each cut back to its length at the checkpoint, then continued; the period must
 * be the same), or new files when it holds none of them. A folder holding some of them, files the
 * checkpoint does not know, or files that differ from what was written is refused.
 */
function stateFilesToContinue(
  files: readonly string[],
  info: RunInfo | undefined,
  writePeriod: number,
  source: string,
): io.StateFileMark[] | undefined {
  const present = files.filter((f) => fs.existsSync(f));
  if (present.length === 0) return undefined;
  const saved = info?.states;
  const hint = 'give --write-state a new folder: the resumed run then writes new files, from the checkpoint on';
  if (!saved)
    throw new SofaError(
      `--write-state: ${path.dirname(files[0])} holds state files, but ${source} was taken by a run that wrote none; they are not overwritten`,
      { hint },
    );
  if (present.length !== files.length || saved.length !== files.length || saved.some((m, i) => m.file !== path.basename(files[i]))) {
    throw new SofaError(
      `--write-state: the state files in ${path.dirname(files[0])} are not those of the checkpointed run (${saved.map((m) => m.file).join(', ')})`,
      { hint },
    );
  }
  if (info.writePeriod !== writePeriod)
    throw new SofaError(
      `--write-period ${writePeriod}: the checkpointed run wrote its states every ${info.writePeriod} step(s); continue its files with --write-period ${info.writePeriod}`,
      { hint },
    );
  return saved.map((m) => ({ bytes: m.bytes, sha256: m.sha256, frames: m.frames, time: m.time }));
}

/** Named keys of --key: SOFA's characters for them (arrows are ASCII 18-21, as runSofa sends). */
const namedKeys: Record<string, string> = {
  left: String.fromCharCode(18),
  up: String.fromCharCode(19),
  right: String.fromCharCode(20),
  down: String.fromCharCode(21),
  space: ' ',
  plus: '+',
  minus: '-',
};

/**
 * `--key STEP:KEY`: KEY before step STEP (1-based). KEY is one character (a letter is sent upper
 * case, as runSofa's Ctrl+letter) or a name: left, right, up, down, space, plus, minus.
 */
export function parseKeyEvents(specs: readonly string[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const spec of specs) {
    const m = /^(\d+):(.+)$/.exec(spec);
    const step = m ? Number(m[1]) : NaN;
    const name = m ? m[2] : '';
    const key = namedKeys[name.toLowerCase()] ?? (name.length === 1 ? name.toUpperCase() : undefined);
    if (!m || !(step >= 1) || key === undefined)
      throw new SofaError(
        `--key '${spec}': expected STEP:KEY with STEP >= 1 and KEY one character or one of ${Object.keys(namedKeys).join(', ')}`,
      );
    out.set(step, [...(out.get(step) ?? []), key]);
  }
  return out;
}

/** Whether an error is a Python KeyboardInterrupt (itself, or the cause of a component's failure). */
function raisedByInterrupt(e: unknown): boolean {
  for (let x: unknown = e, k = 0; x instanceof Error && k < 8; x = x.cause, k++)
    if ((x as { pythonType?: string }).pythonType === 'KeyboardInterrupt' || /\bPython KeyboardInterrupt\b/.test(x.message)) return true;
  return false;
}
