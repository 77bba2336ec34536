import * as path from 'node:path';
import {
  Simulation,
  SofaError,
  SofaErrors,
  addObjectFromAttributes,
  buildScene,
  setSceneFiles,
  type BaseObject,
  type ComponentRegistry,
  type Node,
  type SceneElement,
  resolvePath,
} from '@sofa-ts/core';
import { defaultDataPaths, loadSceneFile, loadSceneString } from '@sofa-ts/loader';
import { loadRequiredPlugins } from './plugins.js';
import { createRegistry } from './registry.js';

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
}

/** A loaded scene: its graph, the simulation that steps it, and the registry that built it. */
export class SofaScene {
  readonly simulation: Simulation;
  /**
   * Warnings, in the order they came: what SOFA would warn about while loading (unused attributes,
   * renamed Data, template fallbacks, lenient XML, components left out under `skipUnknown`), then
   * those of its components (values reset as SOFA resets them, settings not honoured) at init and
   * during steps; each located.
   */
  readonly warnings: SofaError[] = [];

  constructor(readonly root: Node, readonly registry: ComponentRegistry, readonly file: string | undefined) {
    this.simulation = new Simulation(root);
    root.messages.onWarning((w) => this.warnings.push(w));
  }

  /** Calls `fn` for each warning raised from now on (at init or during a step); returns the function that stops it. */
  onWarning(fn: (w: SofaError) => void): () => void {
    return this.root.messages.onWarning(fn);
  }

  init(): this {
    this.simulation.init();
    return this;
  }

  /** Runs n steps of the root's dt (or of `dt`). */
  step(n = 1, dt?: number): this {
    for (let i = 0; i < n; i++) this.simulation.step(dt);
    return this;
  }

  reset(): this {
    this.simulation.reset();
    return this;
  }

  get time(): number {
    return this.simulation.time;
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

function dataPathsOf(options: LoadOptions): string[] {
  return [...(options.dataPaths ?? []), ...defaultDataPaths(process.env)];
}

async function fromElement(root: SceneElement, registry: ComponentRegistry, options: LoadOptions, file: string | undefined, readerWarnings: SofaError[]): Promise<SofaScene> {
  if (options.strict && readerWarnings.length > 0) throw readerWarnings.length === 1 ? readerWarnings[0]! : new SofaErrors(readerWarnings);
  await loadRequiredPlugins(root, registry, options.allowPluginPaths !== undefined ? { allowPaths: options.allowPluginPaths } : {});
  const warnings: SofaError[] = [...readerWarnings];
  const node = buildScene(root, registry, warnings, { ...(options.strict ? { strict: true } : {}), ...(options.skipUnknown ? { skipUnknown: true } : {}) });
  setSceneFiles(node, { ...(file ? { sceneFile: file } : {}), dataPaths: dataPathsOf(options).map((p) => path.resolve(p)) });
  if (options.dt !== undefined) node.dt.value = options.dt;
  const scene = new SofaScene(node, registry, file);
  scene.warnings.push(...warnings);
  if (options.init ?? true) scene.init();
  return scene;
}

/** Loads a `.scn`/`.xml` scene file, builds and (by default) initialises it. Errors are SofaErrors. */
export async function loadScene(file: string, options: LoadOptions = {}): Promise<SofaScene> {
  const registry = options.registry ?? createRegistry();
  const abs = path.resolve(file);
  const readerWarnings: SofaError[] = [];
  const root = loadSceneFile(abs, { dataPaths: dataPathsOf(options), isKnownTag: (t: string) => registry.find(t) !== undefined, warnings: readerWarnings });
  return fromElement(root, registry, options, abs, readerWarnings);
}

/** Loads a scene given as XML text (file names in errors are `fileName`, default `<string>`). */
export async function loadSceneFromString(xml: string, options: LoadOptions & { fileName?: string } = {}): Promise<SofaScene> {
  const registry = options.registry ?? createRegistry();
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
