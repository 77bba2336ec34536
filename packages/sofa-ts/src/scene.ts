import {
  Simulation,
  captureCheckpoint,
  getSceneFiles,
  restoreCheckpoint,
  type CaptureResult,
  type CheckpointRecord,
  type SceneCheckpoint,
  SofaError,
  SofaErrors,
  addObjectFromAttributes,
  buildScene,
  setSceneFiles,
  type BaseObject,
  type ComponentRegistry,
  type Divergence,
  type DivergencePolicy,
  type Node,
  type SceneElement,
  resolvePath,
  host,
  sha256Hex,
  sceneWarnings,
  onSceneWarning,
} from '@sofa-ts/core';
import { defaultDataPaths, loadSceneFile, loadSceneString } from '@sofa-ts/loader';
import { loadPlugins, loadRequiredPlugins } from './plugins.js';
import { createRegistry } from './registry.js';
import { ScriptController, type SceneController } from './controller.js';
import { sofaTreeDataPaths } from './sofa-tree-data-paths.js';

export interface LoadOptions {
  /** Folders searched for meshes and includes after the scene's own folder (then SOFA_DATA_PATH). */
  dataPaths?: readonly string[];
  /** Overrides the root's dt. */
  dt?: number;
  /** A registry to reuse (default: a fresh one with every standard component). */
  registry?: ComponentRegistry;
  /** Run init right away (default true). */
  init?: boolean;
  /** Every warning is an error (unused attributes, renamed Data, template fallbacks, lenient XML). */
  strict?: boolean;
  /** Unknown components are warned about and left out, as SOFA does (default: they are errors). */
  skipUnknown?: boolean;
  /**
   * Let `<RequiredPlugin pluginName="./file.js">` load a file (relative to the scene's folder):
   * its code runs when the scene is loaded. Default false: only installed npm packages that
   * declare themselves sofa-ts plugins are loaded (see plugins.ts).
   */
  allowPluginPaths?: boolean;
  /** Plugin packages loaded before the scene (the CLI's --plugin), resolved as RequiredPlugin names
   *  are: from the scene's folder, the working directory, then sofa-ts's own install. */
  plugins?: readonly string[];
  /** Every file the scene's components write goes into this folder (see SceneFiles.outputDir). */
  outputDir?: string;
  /**
   * What `step` does when a step leaves a NaN or infinite position or velocity: 'stop' (default)
   * throws a DivergenceError, 'continue' goes on and keeps the first one in `scene.divergence`.
   */
  onDivergence?: DivergencePolicy;
  /** Python scenes: folders put on sys.path after the scene's own (`--python-path`). */
  pythonPath?: readonly string[];
  /** Python scenes: the script's sys.argv[1:]. */
  argv?: readonly string[];
}

/** A loaded scene: its graph, the simulation that steps it, and the registry that built it. */
export class SofaScene {
  readonly simulation: Simulation;
  private readonly disposers: Array<() => void> = [];
  /** For a Python scene, the interpreter that serves it: its version, and where it runs. */
  python: { version: string; inProcess: boolean } | undefined;
  constructor(
    readonly root: Node,
    readonly registry: ComponentRegistry,
    readonly file: string | undefined,
  ) {
    this.simulation = new Simulation(root);
  }

  /** Runs `fn` at dispose() (a Python scene's interpreter is ended there). */
  addDisposer(fn: () => void): void {
    this.disposers.push(fn);
  }

  /** Releases what the scene holds outside this process (the python3 of a Python scene); idempotent. */
  dispose(): void {
    for (const fn of this.disposers.splice(0).reverse()) fn();
  }

  /**
   * Calls `fn` for each warning raised from now on (at init or during a step: a fallback taken, a
   * value not honoured); returns the function that stops it.
   */
  onWarning(fn: (w: SofaError) => void): () => void {
    return onSceneWarning(this.root, fn);
  }

  /**
   * What SOFA would warn about, each located: while loading (unused attributes, renamed Data,
   * template fallbacks, lenient XML, components left out under `skipUnknown`, visual components'
   * sources) and what components warn about at init and later (BaseObject.warn).
   */
  get warnings(): SofaError[] {
    return sceneWarnings(this.root);
  }

  init(): this {
    this.simulation.init();
    return this;
  }

  /**
   * Runs n steps of the root's dt (or of `dt`). Every failure is a SofaError: a ComponentError when
   * a component throws (its component, node path, scene location and step), a DivergenceError when
   * a step leaves a NaN or infinite position or velocity (unless `onDivergence` is 'continue': then
   * check `divergence`).
   */
  step(n = 1, dt?: number): this {
    for (let i = 0; i < n; i++) this.simulation.step(dt);
    return this;
  }

  /** The first divergence since init or the last reset (its step, time, state and node path), or undefined. */
  get divergence(): Divergence | undefined {
    return this.simulation.divergence;
  }

  /** See LoadOptions.onDivergence. */
  get onDivergence(): DivergencePolicy {
    return this.simulation.onDivergence;
  }

  set onDivergence(policy: DivergencePolicy) {
    this.simulation.onDivergence = policy;
  }

  reset(): this {
    this.simulation.reset();
    return this;
  }

  get time(): number {
    return this.simulation.time;
  }

  /**
   * Adds a controller: its onAnimateBeginEvent / onAnimateEndEvent are called inside every step at
   * SOFA's event points (see SceneController). It goes in the root (or the given node) as a
   * ScriptController component, after the node's objects, so it gets the events after them.
   */
  addController(controller: SceneController, options: { node?: Node | string; name?: string } = {}): ScriptController {
    const node = typeof options.node === 'string' ? this.getNode(options.node) : (options.node ?? this.root);
    if (!node) throw new SofaError(`addController: no node '${String(options.node)}' in the scene`);
    const c = new ScriptController(this, controller);
    c.name.value = options.name ?? `controller${node.objects.filter((o) => o instanceof ScriptController).length + 1}`;
    node.addObject(c);
    return c;
  }

  /** Removes a controller added with addController. */
  removeController(c: ScriptController): void {
    if (c.hasContext) c.context.removeObject(c);
  }

  /**
   * The whole state of the simulation after the last step (see docs/checkpoints.md): every Data
   * changed since the first step, every state vector, solvers' warm starts and histories, contacts,
   * the step count, and the scene's identity. `extra` is stored with it. Write it with
   * writeCheckpointFile; warnings name what could not be saved (components created during the run
   * that no component saves).
   */
  checkpoint(extra: CheckpointRecord = {}): CaptureResult {
    const file = this.file ?? getSceneFiles(this.root)?.sceneFile;
    const scene: CheckpointRecord = file ? { file: host().path.basename(file), sha256: fileSha256(file) } : {};
    return captureCheckpoint(this.simulation, { ...extra, scene });
  }

  /**
   * Continues from a checkpoint of this scene: the scene must be freshly loaded (no step yet) and
   * the same as the checkpoint's (same components, classes, templates and values before the first
   * step), else a SofaError lists the differences. Steps then go on exactly as the checkpointed run
   * would have (bitwise). Returns the warnings (the scene file changed without changing the scene).
   */
  restore(checkpoint: SceneCheckpoint, source = 'the checkpoint'): SofaError[] {
    const warnings = restoreCheckpoint(this.simulation, checkpoint, source);
    const saved = checkpoint.extra['scene'];
    const file = this.file ?? getSceneFiles(this.root)?.sceneFile;
    if (saved && typeof saved === 'object' && !Array.isArray(saved) && 'sha256' in saved && file) {
      const now = fileSha256(file);
      if (now !== saved['sha256'])
        warnings.push(
          new SofaError(
            `${source}: the scene file ${file} changed since the checkpoint (its SHA-256 differs), but not its components nor their values: restored`,
            { hint: 'comments or formatting changed' },
          ),
        );
    }
    this.warnings.push(...warnings);
    return warnings;
  }

  /** The object at a scene path (`/child/dofs`, `dofs`), or undefined. */
  get<T extends BaseObject = BaseObject>(p: string): T | undefined {
    const t = resolvePath(this.root, p);
    return t?.kind === 'object' ? (t.object as T) : undefined;
  }

  /** The node at a scene path (`/child`), or undefined. */
  getNode(p: string): Node | undefined {
    const t = resolvePath(this.root, p);
    return t?.kind === 'node' ? t.node : undefined;
  }
}

function fileSha256(file: string): string {
  try {
    return sha256Hex(host().readBytes(file));
  } catch (cause) {
    throw new SofaError(`cannot read scene file ${file} to identify it: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** The data paths of a scene: the user's, SOFA_DATA_PATH's, then those of the SOFA tree its file is in. */
function dataPathsOf(options: LoadOptions, file?: string): string[] {
  return [...(options.dataPaths ?? []), ...defaultDataPaths(), ...(file !== undefined ? sofaTreeDataPaths(file) : [])];
}

async function fromElement(
  root: SceneElement,
  registry: ComponentRegistry,
  options: LoadOptions,
  file: string | undefined,
  readerWarnings: SofaError[],
): Promise<SofaScene> {
  if (options.strict && readerWarnings.length > 0) throw readerWarnings.length === 1 ? readerWarnings[0] : new SofaErrors(readerWarnings);
  await loadRequiredPlugins(root, registry, options.allowPluginPaths !== undefined ? { allowPaths: options.allowPluginPaths } : {});
  const warnings: SofaError[] = [...readerWarnings];
  const node = buildScene(root, registry, warnings, {
    ...(options.strict ? { strict: true } : {}),
    ...(options.skipUnknown ? { skipUnknown: true } : {}),
  });
  setSceneFiles(node, {
    ...(file ? { sceneFile: file } : {}),
    dataPaths: dataPathsOf(options, file).map((p) => host().path.resolve(p)),
    ...(options.outputDir ? { outputDir: host().path.resolve(options.outputDir) } : {}),
  });
  if (options.dt !== undefined) node.dt.value = options.dt;
  const scene = new SofaScene(node, registry, file);
  if (options.onDivergence) scene.onDivergence = options.onDivergence;
  scene.warnings.push(...warnings);
  if (options.init ?? true) {
    scene.init();
    // Under strict, what components warn about at init is an error too.
    const late = scene.warnings.slice(warnings.length);
    if (options.strict && late.length > 0) throw late.length === 1 ? late[0] : new SofaErrors(late);
  }
  return scene;
}

/** Loads a scene file of another language (a Python scene: `@sofa-ts/python` registers `.py`). */
export type SceneFileLoader = (file: string, options: LoadOptions) => Promise<SofaScene>;

const sceneFileLoaders = new Map<string, SceneFileLoader>();

/** Makes loadScene load files of this extension (`.py`) with `loader`. */
export function registerSceneFileLoader(extension: string, loader: SceneFileLoader): void {
  sceneFileLoaders.set(extension.toLowerCase(), loader);
}

/** The packages that provide loaders for extensions, loaded on first use. */
const loaderPackages: Record<string, string> = { '.py': '@sofa-ts/python' };

async function sceneFileLoaderOf(file: string): Promise<SceneFileLoader | undefined> {
  const ext = host().path.extname(file).toLowerCase();
  if (!sceneFileLoaders.has(ext) && loaderPackages[ext]) {
    const name = loaderPackages[ext];
    try {
      await import(name);
    } catch (e) {
      throw new SofaError(`${file}: ${ext} scenes need the package ${name}, which cannot be loaded: ${(e as Error).message}`);
    }
  }
  return sceneFileLoaders.get(ext);
}

/** Loads a `.scn`/`.xml` scene file (or a `.py` SofaPython3 scene), builds and (by default) initialises it. Errors are SofaErrors. */
export async function loadScene(file: string, options: LoadOptions = {}): Promise<SofaScene> {
  const other = await sceneFileLoaderOf(file);
  if (other) return other(file, options);
  const registry = options.registry ?? createRegistry();
  const abs = host().path.resolve(file);
  if (options.plugins?.length) await loadPlugins(options.plugins, registry, abs);
  const readerWarnings: SofaError[] = [];
  const root = loadSceneFile(abs, {
    dataPaths: dataPathsOf(options, abs),
    isKnownTag: (t: string) => registry.find(t) !== undefined,
    warnings: readerWarnings,
  });
  return fromElement(root, registry, options, abs, readerWarnings);
}

/** Loads a scene given as XML text (file names in errors are `fileName`, default `<string>`). */
export async function loadSceneFromString(xml: string, options: LoadOptions & { fileName?: string } = {}): Promise<SofaScene> {
  const registry = options.registry ?? createRegistry();
  if (options.plugins?.length) await loadPlugins(options.plugins, registry);
  const readerWarnings: SofaError[] = [];
  const root = loadSceneString(xml, {
    fileName: options.fileName ?? '<string>',
    dataPaths: dataPathsOf(options),
    isKnownTag: (t: string) => registry.find(t) !== undefined,
    warnings: readerWarnings,
  });
  return fromElement(root, registry, options, undefined, readerWarnings);
}

/**
 * Builds a scene in code: `addObject(scene.root, 'MechanicalObject', { position: '0 0 0' })` goes
 * through the same parsing and checks as XML attributes.
 */
export function createScene(options: { registry?: ComponentRegistry; dt?: number; gravity?: string } = {}): SofaScene {
  const registry = options.registry ?? createRegistry();
  const attrs: Record<string, string> = { name: 'root' };
  if (options.dt !== undefined) attrs['dt'] = String(options.dt);
  if (options.gravity !== undefined) attrs['gravity'] = options.gravity;
  const root = buildScene(element('Node', attrs, []), registry);
  return new SofaScene(root, registry, undefined);
}

/** Adds a component to a node from SOFA attribute strings (links resolved against the scene). */
export function addObject(scene: SofaScene, node: Node, type: string, attributes: Record<string, string> = {}): BaseObject {
  return addObjectFromAttributes(scene.registry, node, type, attributes);
}

function element(tag: string, attrs: Record<string, string>, children: SceneElement[]): SceneElement {
  const loc = { file: '<code>', line: 1, column: 1 };
  return { tag, attributes: Object.entries(attrs).map(([name, value]) => ({ name, value, loc })), children, loc, file: '<code>' };
}
