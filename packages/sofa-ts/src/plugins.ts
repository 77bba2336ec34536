import { ContainerModule } from 'inversify';
import { SofaError, SofaErrors, host, isBuiltinPluginName, tokens, type ComponentRegistry, type SceneElement } from '@sofa-ts/core';

/** The plugin names an element `<RequiredPlugin>` asks for: pluginName, else name. */
export function requestedPlugins(el: SceneElement): string[] {
  const pn = el.attributes.find((a) => a.name === 'pluginName');
  if (pn && pn.value.trim() !== '') return tokens(pn.value);
  const n = el.attributes.find((a) => a.name === 'name');
  return n && n.value.trim() !== '' ? [n.value.trim()] : [];
}

/**
 * Loads the plugins a scene requires, before any component is created. SOFA module names are built
 * in; any other name is resolved as an npm package (from the scene's folder, then the working
 * directory, then sofa-ts itself) whose default export is an inversify ContainerModule.
 */
export async function loadRequiredPlugins(root: SceneElement, registry: ComponentRegistry): Promise<void> {
  const errors: SofaError[] = [];
  const visit = async (el: SceneElement): Promise<void> => {
    if (el.tag === 'RequiredPlugin') {
      for (const name of requestedPlugins(el)) {
        if (isBuiltinPluginName(name) || registry.hasPlugin(name)) continue;
        try {
          await loadPlugin(name, registry, pluginSearchFolders(el.file));
        } catch (e) {
          const loc = el.attributes.find((a) => a.name === 'pluginName' || a.name === 'name')?.loc ?? el.loc;
          errors.push(new SofaError(`cannot load plugin '${name}': ${(e as Error).message}`, { loc, component: `RequiredPlugin '${name}'`, code: 'missing-plugin' }));
        }
      }
    }
    for (const c of el.children) await visit(c);
  };
  await visit(root);
  if (errors.length > 0) throw errors.length === 1 ? errors[0]! : new SofaErrors(errors);
}

/**
 * The folders a plugin's package name is resolved from, in order (npm's resolution from each, so
 * their node_modules and those of their parents): the scene's folder when there is a scene, then
 * the working directory; `loadPlugin` then tries sofa-ts's own install. RequiredPlugin and the
 * CLI's `--plugin` (components, docs, run, check) all use this order.
 */
export function pluginSearchFolders(sceneFile?: string): string[] {
  const h = host();
  const cwd = h.cwd();
  const sceneDir = sceneFile && !sceneFile.startsWith('<') ? h.path.dirname(h.path.resolve(sceneFile)) : undefined;
  return sceneDir && sceneDir !== cwd ? [sceneDir, cwd] : [cwd];
}

/** Loads the plugins named on a command line (`--plugin NAME`), resolved as RequiredPlugin names are. */
export async function loadPlugins(names: readonly string[], registry: ComponentRegistry, sceneFile?: string): Promise<void> {
  for (const name of names) {
    if (isBuiltinPluginName(name) || registry.hasPlugin(name)) continue;
    try {
      await loadPlugin(name, registry, pluginSearchFolders(sceneFile));
    } catch (e) {
      throw new SofaError(`cannot load plugin '${name}': ${(e as Error).message}`, { code: 'missing-plugin' });
    }
  }
}

/** Imports the npm package `name` and loads its ContainerModule into the registry. */
export async function loadPlugin(name: string, registry: ComponentRegistry, searchFrom: readonly string[] = [host().cwd()]): Promise<void> {
  const h = host();
  if (!h.importPackage) throw new Error('this host cannot import npm packages (plugins run in the server process: sofa-ts view --server)');
  let mod: Record<string, unknown>;
  try {
    mod = await h.importPackage(name, searchFrom);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new Error(`no npm package of that name is installed (npm install ${name}), and it is not a SOFA module`);
    }
    throw new Error(`importing the package failed: ${(e as Error).message}`);
  }
  const module = mod['default'] ?? mod['plugin'];
  if (!(module instanceof ContainerModule) && !looksLikeContainerModule(module)) {
    throw new Error('the package does not export a ContainerModule as its default export (see docs/plugins.md)');
  }
  registry.load(name, module as ContainerModule);
}

function looksLikeContainerModule(m: unknown): boolean {
  return typeof m === 'object' && m !== null && typeof (m as { load?: unknown }).load === 'function' && typeof (m as { id?: unknown }).id === 'number';
}
