export { main } from './main.js';
export { runCommand } from './run.js';
export { regressionCommand, runRegressionScene, listDataPaths, type SceneResult } from './regression.js';
export { componentsCommand, describeComponent } from './components.js';
export { checkCommand, collectScenes, neededComponents, formatCheck, type CheckOptions } from './check.js';
export { reportError, reporting } from './errors.js';
export * from './exit-codes.js';
export { docsCommand, referencePages, componentPage, indexPage, type DocsOptions } from './docs.js';
export {
  newPluginCommand,
  scaffoldPlugin,
  pluginPackageJson,
  tarballsIn,
  PLUGIN_KINDS,
  PLUGIN_DEV_DEPENDENCIES,
  type PluginKind,
  type NewPluginOptions,
} from './new-plugin.js';
