import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import pc from 'picocolors';
import type { SceneCheck } from 'sofa-ts';
import type { CheckJob } from './check-worker.js';
import { SOFA_TS_VERSION } from './version.js';
import { host } from '@sofa-ts/core';

export interface CheckOptions {
  steps: number;
  dataPath: string[];
  json?: string;
  strict?: boolean;
  skipUnknown?: boolean;
  /** Seconds a scene may take (load and steps) before it is stopped and reported as an error. */
  timeout: number;
  /** Scenes checked at once, each in its own worker thread. */
  jobs: number;
  /** Memory a scene's worker may use (MB) before it is stopped and reported as an error. */
  maxMemoryMb: number;
  /** Plugin packages loaded before each scene (resolved as its RequiredPlugin names are). */
  plugins?: string[];
  /** RequiredPlugin may load JavaScript files by path (--allow-plugin-path). */
  allowPluginPath?: boolean;
  /** Also check that a run resumed from a checkpoint of this step is bitwise the uninterrupted one (0: no). */
  checkpointAt?: number;
}

/** The scenes under the given files and folders: files as given, `.scn` files of folders (sorted). */
export function collectScenes(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.scn')) out.push(p);
    }
  };
  for (const p of paths) {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      throw new Error(`no such file or folder: ${p}`);
    }
    if (st.isDirectory()) walk(p);
    else out.push(p);
  }
  return out;
}

/**
 * `sofa-ts check`: loads and runs every scene, each in a worker thread (a scene that hangs or
 * exhausts memory is stopped and reported, the others go on), prints one line per scene in order,
 * a closing count and the most needed missing components.
 */
export async function checkCommand(paths: readonly string[], o: CheckOptions): Promise<number> {
  const scenes = collectScenes(paths);
  const results: SceneCheck[] = new Array(scenes.length);
  const out = process.stdout;
  let printed = 0;
  const flush = (): void => {
    while (printed < scenes.length && results[printed]) out.write(formatCheck(results[printed++]) + '\n');
  };
  const workerUrl = new URL('./check-worker.js', import.meta.url);
  const spawn = (): Worker =>
    new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: o.maxMemoryMb }, stdout: true, stderr: true });
  let next = 0;
  const runLane = async (): Promise<void> => {
    let worker: Worker | undefined;
    while (next < scenes.length) {
      const id = next++;
      const scene = scenes[id];
      worker ??= spawn();
      const job: CheckJob = {
        id,
        scene,
        steps: o.steps,
        checkpointAt: o.checkpointAt ?? 0,
        outputDir: fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-check-out-')),
        options: {
          dataPaths: o.dataPath,
          ...(o.strict ? { strict: true } : {}),
          ...(o.skipUnknown ? { skipUnknown: true } : {}),
          ...(o.plugins?.length ? { plugins: o.plugins } : {}),
          ...(o.allowPluginPath ? { allowPluginPaths: true } : {}),
        },
      };
      const w = worker;
      const r = await new Promise<{ result: SceneCheck; broken: boolean }>((resolve) => {
        const fail = (why: string): void => {
          cleanup();
          resolve({
            result: {
              scene,
              status: 'error',
              error: why,
              missingComponents: [],
              missingPlugins: [],
              details: [],
              warnings: 0,
              warningMessages: [],
              steps: 0,
            },
            broken: true,
          });
        };
        const timer = setTimeout(() => fail(`stopped after ${o.timeout} s (hang or too slow)`), o.timeout * 1000);
        const onMessage = (m: { id: number; result: SceneCheck }): void => {
          if (m.id !== id) return;
          cleanup();
          resolve({ result: m.result, broken: false });
        };
        const onError = (e: Error & { code?: string }): void =>
          fail(
            e.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `stopped: more than ${o.maxMemoryMb} MB of memory`
              : `the scene's worker failed: ${e.message.split('\n')[0]}`,
          );
        const onExit = (code: number): void => fail(`the scene's worker exited (code ${code})`);
        const cleanup = (): void => {
          clearTimeout(timer);
          w.off('message', onMessage);
          w.off('error', onError);
          w.off('exit', onExit);
        };
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', onExit);
        w.postMessage(job);
      });
      results[id] = r.result;
      if (r.broken) {
        // stopped before the folder is removed: a hanging scene may still be writing into it
        await w.terminate();
        worker = undefined;
      }
      fs.rmSync(job.outputDir, { recursive: true, force: true });
      flush();
    }
    if (worker) await worker.terminate();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.jobs, scenes.length)) }, () => runLane()));
  flush();

  const runs = results.filter((r) => r.status === 'runs').length;
  const missing = results.filter((r) => r.status === 'missing').length;
  const errors = results.length - runs - missing;
  const inexact = results.filter((r) => r.checkpoint !== undefined && r.checkpoint !== 'exact').length;
  const needed = neededComponents(results);
  if (needed.length > 0) {
    out.write(`${pc.bold('most needed missing components')} (scenes that need each):\n`);
    for (const [name, n] of needed.slice(0, 20)) out.write(`  ${String(n).padStart(4)}  ${name}\n`);
    if (needed.length > 20) out.write(`  … ${needed.length - 20} more (see --json)\n`);
  }
  if (o.json) {
    fs.mkdirSync(path.dirname(path.resolve(o.json)), { recursive: true });
    host().writeFile(
      o.json,
      JSON.stringify(
        { sofaTs: SOFA_TS_VERSION, scenes: results.length, runs, missing, errors, neededComponents: Object.fromEntries(needed), results },
        null,
        2,
      ) + '\n',
    );
  }
  out.write(
    `${results.length} scenes: ${runs} run, ${missing} missing components, ${errors} errors${o.checkpointAt ? `; ${runs - inexact} resume exactly from a checkpoint of step ${o.checkpointAt}, ${inexact} do not` : ''}\n`,
  );
  return runs === results.length && inexact === 0 ? 0 : 1;
}

/** Missing component (and plugin) names with the number of scenes that need each, most needed first. */
export function neededComponents(results: readonly SceneCheck[]): Array<[string, number]> {
  const count = new Map<string, number>();
  for (const r of results) {
    for (const c of r.missingComponents) count.set(c, (count.get(c) ?? 0) + 1);
    for (const p of r.missingPlugins) count.set(`plugin ${p}`, (count.get(`plugin ${p}`) ?? 0) + 1);
  }
  return [...count].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export function formatCheck(r: SceneCheck): string {
  const warn = r.warnings > 0 ? pc.dim(`, ${r.warnings} warning${r.warnings > 1 ? 's' : ''}`) : '';
  const ckpt =
    r.checkpoint === undefined
      ? ''
      : r.checkpoint === 'exact'
        ? pc.dim(', checkpoint exact')
        : `\n        ${pc.red('checkpoint')}: ${r.checkpoint}`;
  if (r.status === 'runs')
    return `${pc.green('RUNS   ')} ${r.scene}  ${pc.dim(`${r.steps} steps, ${(r.msPerStep ?? 0).toFixed(2)} ms/step`)}${warn}${ckpt}`;
  if (r.status === 'missing') {
    const what = [...r.missingPlugins.map((p) => `plugin ${p}`), ...r.missingComponents].join(', ');
    return `${pc.yellow('MISSING')} ${r.scene}  — ${what}`;
  }
  return `${pc.red('ERROR  ')} ${r.scene}  — ${r.error}`;
}

export const defaultJobs = (): number => Math.max(1, os.availableParallelism());
