import { ContainerModule } from 'inversify';
import { SofaError, SofaErrors, host, isBuiltinPluginName, tokens, type ComponentRegistry, type SceneElement } from '@sofa-ts/core';

/**
 * What loading a scene may execute. A plugin is code run with the rights of the process, so a
 * scene (which may come from anywhere) can only name installed npm packages that declare
 * themselves sofa-ts plugins in their package.json:
 *
 *     "sofa-ts": { "plugin": true }
 *
 * A file path (`./my-plugin.js`, `/abs/plugin.mjs`) is loaded only when the user allows it
 * (`allowPaths`: the CLI's --allow-plugin-path, loadScene's allowPluginPaths).
 */
export interface PluginPolicy {
  /** Load plugins named by a file path (relative to the scene's folder). Default false. */
  readonly allowPaths?: boolean;
}

/** The field of package.json by which a package declares itself a sofa-ts plugin. */
export const PLUGIN_DECLARATION = '"sofa-ts": { "plugin": true }';

let allowPathsByDefault = false;

/**
 * Sets whether plugin file paths are loaded when a load does not say (the CLI's
 * --allow-plugin-path sets it for the whole run). Returns the previous setting.
 */
export function setAllowPluginPathsByDefault(on: boolean): boolean {
  const was = allowPathsByDefault;
  allowPathsByDefault = on;
  return was;
}

/** The plugin names an element `<RequiredPlugin>` asks for: pluginName, else name. */
export function requestedPlugins(el: SceneElement): string[] {
  const pn = el.attributes.find((a) => a.name === 'pluginName');
  if (pn && pn.value.trim() !== '') return tokens(pn.value);
  const n = el.attributes.find((a) => a.name === 'name');
  return n && n.value.trim() !== '' ? [n.value.trim()] : [];
}

/**
 * Loads the plugins a scene requires, before any component is created. SOFA module names are built
 * in; any other name must be an installed sofa-ts plugin package (looked for from the scene's
 * folder, then the working directory, then sofa-ts itself), or, when the policy allows it, a file.
 */
export async function loadRequiredPlugins(root: SceneElement, registry: ComponentRegistry, policy: PluginPolicy = {}): Promise<void> {
  const errors: SofaError[] = [];
  const visit = async (el: SceneElement): Promise<void> => {
    if (el.tag === 'RequiredPlugin') {
      for (const name of requestedPlugins(el)) {
        if (isBuiltinPluginName(name) || registry.hasPlugin(name)) continue;
        try {
          await loadPlugin(name, registry, pluginSearchFolders(el.file), policy);
        } catch (e) {
          const loc = el.attributes.find((a) => a.name === 'pluginName' || a.name === 'name')?.loc ?? el.loc;
          errors.push(
            new SofaError(`cannot load plugin '${name}': ${(e as Error).message}`, {
              loc,
              component: `RequiredPlugin '${name}'`,
              code: 'missing-plugin',
            }),
          );
        }
      }
    }
    for (const c of el.children) await visit(c);
  };
  await visit(root);
  if (errors.length > 0) throw errors.length === 1 ? errors[0] : new SofaErrors(errors);
}

/**
 * The folders a plugin's package name is resolved from, in order (npm's resolution from each, so
 * their node_modules and those of their parents): the scene's folder when there is a scene, then
 * the working directory; `loadPlugin` then tries sofa-ts's own install. RequiredPlugin and the
 * CLI's `--plugin` (components, docs, run, check) all use this order; a relative file path is
 * taken from the first folder.
 */
export function pluginSearchFolders(sceneFile?: string): string[] {
  const h = host();
  const cwd = h.cwd();
  const sceneDir = sceneFile && !sceneFile.startsWith('<') ? h.path.dirname(h.path.resolve(sceneFile)) : undefined;
  return sceneDir && sceneDir !== cwd ? [sceneDir, cwd] : [cwd];
}

/**
 * Loads the plugins named on a command line (`--plugin NAME`), resolved as RequiredPlugin names
 * are. The user names them, so a file path is loaded too (policy `allowPaths`).
 */
export async function loadPlugins(names: readonly string[], registry: ComponentRegistry, sceneFile?: string): Promise<void> {
  for (const name of names) {
    if (isBuiltinPluginName(name) || registry.hasPlugin(name)) continue;
    try {
      await loadPlugin(name, registry, pluginSearchFolders(sceneFile), { allowPaths: true });
    } catch (e) {
      throw new SofaError(`cannot load plugin '${name}': ${(e as Error).message}`, { code: 'missing-plugin' });
    }
  }
}

/** An npm package name (lower case, optionally scoped): the only names a scene may load by default. */
const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** Whether a plugin name is a file path rather than a package name. */
export function isPluginPath(name: string): boolean {
  return (
    name.startsWith('.') ||
    name.startsWith('~') ||
    name.startsWith('file:') ||
    host().path.isAbsolute(name) ||
    /^[a-zA-Z]:/.test(name) ||
    name.includes('\\') ||
    /\.[cm]?js$/i.test(name)
  );
}

/**
 * Loads the plugin `name` into the registry: a sofa-ts plugin package, or (policy.allowPaths) a
 * JavaScript file. Throws an Error saying why it was refused: a path without permission, a SOFA
 * plugin sofa-ts does not provide, a package that is not installed or does not declare itself a
 * sofa-ts plugin, a module without a ContainerModule.
 */
export async function loadPlugin(
  name: string,
  registry: ComponentRegistry,
  searchFrom: readonly string[] = [host().cwd()],
  policy: PluginPolicy = {},
): Promise<void> {
  const h = host();
  if (!h.resolvePackage || !h.importFile)
    throw new Error('this host cannot import JavaScript (plugins run in the server process: sofa-ts view --server)');
  if (isPluginPath(name)) {
    if (!(policy.allowPaths ?? allowPathsByDefault)) {
      throw new Error(
        'it is a file path, and loading a file runs its code: a scene may only name installed npm packages that declare themselves sofa-ts plugins; to load this file, allow it with --allow-plugin-path (loadScene option allowPluginPaths)',
      );
    }
    const file = h.path.resolve(
      searchFrom[0] ?? h.cwd(),
      name.startsWith('file:') ? decodeURIComponent(name.replace(/^file:(\/\/)?/, '')) : name,
    );
    if (!h.isFile(file)) throw new Error(`no file ${file}`);
    registry.load(file, await containerModuleOf(file, 'the file'));
    return;
  }
  if (!NPM_NAME.test(name)) {
    // Upper-case letters and dots are SOFA plugin names (SofaCUDA, Geomagic): npm names are lower case.
    throw new Error(
      `'${name}' is a SOFA plugin that sofa-ts does not provide (sofa-ts provides SOFA's Sofa.* modules, MultiThreading, SoftRobots, Compliant, BeamAdapter, CollisionOBBCapsule, SofaDistanceGrid and image; other plugins are npm packages, see docs/plugins.md)`,
    );
  }
  const pkg = findPackage(name, searchFrom);
  if (!pkg) throw new Error(`no npm package of that name is installed (npm install ${name}), and it is not a SOFA module`);
  const declared = (pkg.json['sofa-ts'] as { plugin?: unknown } | undefined)?.plugin === true;
  if (!declared)
    throw new Error(
      `the package ${pkg.dir} is not a sofa-ts plugin: its package.json does not declare ${PLUGIN_DECLARATION} (see docs/plugins.md)`,
    );
  registry.load(name, await containerModuleOf(pkg.entry, 'the package'));
}

/** The package `name` as the host resolves it from one of the folders: its entry, folder and package.json. */
function findPackage(
  name: string,
  searchFrom: readonly string[],
): { entry: string; dir: string; json: Record<string, unknown> } | undefined {
  const h = host();
  const entry = h.resolvePackage!(name, searchFrom);
  if (!entry) return undefined;
  // The package.json of the package is the nearest one above its entry that names it.
  for (let d = h.path.dirname(entry); ; d = h.path.dirname(d)) {
    const file = h.path.join(d, 'package.json');
    if (h.isFile(file)) {
      try {
        const json = JSON.parse(h.readText(file, 'utf8')) as Record<string, unknown>;
        if (json['name'] === name) return { entry, dir: d, json };
      } catch {
        // not a readable package.json: keep looking above
      }
    }
    if (h.path.dirname(d) === d) return undefined;
  }
}

/** Imports `file` and returns its default export, which must be a ContainerModule. */
async function containerModuleOf(file: string, what: string): Promise<ContainerModule> {
  let mod: Record<string, unknown>;
  try {
    mod = await host().importFile!(file);
  } catch (e) {
    throw new Error(`importing ${what} failed: ${(e as Error).message}`, { cause: e });
  }
  const module = mod['default'] ?? mod['plugin'];
  if (!(module instanceof ContainerModule) && !looksLikeContainerModule(module)) {
    throw new Error(`${what} does not export a ContainerModule as its default export (see docs/plugins.md)`);
  }
  return module as ContainerModule;
}

function looksLikeContainerModule(m: unknown): boolean {
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof (m as { load?: unknown }).load === 'function' &&
    typeof (m as { id?: unknown }).id === 'number'
  );
}
