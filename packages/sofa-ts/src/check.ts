import { SofaError, SofaErrors } from '@sofa-ts/core';
import { verifyCheckpoint } from './checkpoint-verify.js';
import { loadScene, type LoadOptions } from './scene.js';
export { sofaTreeDataPaths } from './sofa-tree-data-paths.js';

/** What `sofa-ts check` found for one scene. */
export interface SceneCheck {
  scene: string;
  /** runs: loaded and stepped; missing: unknown components or plugins; error: any other stop. */
  status: 'runs' | 'missing' | 'error';
  /** Unknown component names (each once), for status 'missing'. */
  missingComponents: string[];
  /** SOFA plugins the scene requires that sofa-ts does not provide, for status 'missing'. */
  missingPlugins: string[];
  /** The first error, on one line and located, for status 'error'. */
  error?: string;
  /** The unknown components with their locations and suggestions (one line each). */
  details: string[];
  warnings: number;
  /** The warnings, one line each (what SOFA would also warn about while loading). */
  warningMessages: string[];
  steps: number;
  loadMs?: number;
  msPerStep?: number;
  /**
   * With a checkpoint step (check --checkpoint-at): 'exact' when a run resumed from a checkpoint
   * taken there went on bitwise as the uninterrupted one, else where they first differ (or why the
   * checkpoint failed).
   */
  checkpoint?: string;
}

/**
 * Loads a scene, runs `steps` steps and sorts the outcome (never throws). With `checkpointAt`
 * (0 < k < steps) a scene that runs is also checked to resume bitwise from a checkpoint of step k.
 */
export async function checkScene(scene: string, steps: number, options: LoadOptions = {}, checkpointAt = 0): Promise<SceneCheck> {
  const base: SceneCheck = {
    scene,
    status: 'runs',
    missingComponents: [],
    missingPlugins: [],
    details: [],
    warnings: 0,
    warningMessages: [],
    steps: 0,
  };
  const t0 = performance.now();
  let loaded;
  try {
    loaded = await loadScene(scene, options);
  } catch (e) {
    return { ...base, ...classifyLoadError(e) };
  }
  const loadMs = performance.now() - t0;
  const t1 = performance.now();
  let done = 0;
  try {
    for (; done < steps; done++) loaded.step();
  } catch (e) {
    return { ...base, status: 'error', error: `step ${done + 1}: ${firstLine(e)}`, ...warningsOf(loaded.warnings), steps: done, loadMs };
  }
  const result: SceneCheck = {
    ...base,
    ...warningsOf(loaded.warnings),
    steps: done,
    loadMs,
    msPerStep: done > 0 ? (performance.now() - t1) / done : 0,
  };
  if (checkpointAt > 0 && checkpointAt < steps) result.checkpoint = await checkpointOutcome(scene, steps, checkpointAt, options);
  return result;
}

async function checkpointOutcome(scene: string, steps: number, at: number, options: LoadOptions): Promise<string> {
  try {
    const v = await verifyCheckpoint(() => loadScene(scene, options), steps, at);
    const m = v.mismatch;
    if (!m) return 'exact';
    return `differs after step ${m.step}: ${m.state} ${m.vector}[${m.index}] = ${m.resumed}, ${m.uninterrupted} uninterrupted${v.warnings.length > 0 ? ` (${firstLine(v.warnings[0])})` : ''}`;
  } catch (e) {
    return `failed: ${firstLine(e)}`;
  }
}

function warningsOf(w: readonly SofaError[]): Pick<SceneCheck, 'warnings' | 'warningMessages'> {
  return { warnings: w.length, warningMessages: w.map((x) => x.message.split('\n')[0]) };
}

/** Missing components and plugins are what a scene needs from us; anything else is an error. */
export function classifyLoadError(e: unknown): Pick<SceneCheck, 'status' | 'missingComponents' | 'missingPlugins' | 'details' | 'error'> {
  const all = e instanceof SofaErrors ? e.errors : e instanceof SofaError ? [e] : [];
  const unknown = all.filter((x) => x.code === 'unknown-component');
  const plugins = all.filter((x) => x.code === 'missing-plugin');
  if (unknown.length > 0 || plugins.length > 0) {
    const names = [...new Set(unknown.map((x) => /'([^']+)'/.exec(x.detail)?.[1] ?? x.detail))];
    const pluginNames = [...new Set(plugins.map((x) => /plugin '([^']+)'/.exec(x.detail)?.[1] ?? x.detail))];
    return {
      status: 'missing',
      missingComponents: names,
      missingPlugins: pluginNames,
      details: [...plugins, ...unknown].map((x) => x.message),
    };
  }
  return { status: 'error', missingComponents: [], missingPlugins: [], details: [], error: firstLine(e) };
}

function firstLine(e: unknown): string {
  const msg =
    e instanceof SofaErrors
      ? e.errors[0].message + (e.errors.length > 1 ? ` (and ${e.errors.length - 1} other error${e.errors.length > 2 ? 's' : ''})` : '')
      : e instanceof Error
        ? e.message
        : String(e);
  return msg.split('\n')[0];
}
