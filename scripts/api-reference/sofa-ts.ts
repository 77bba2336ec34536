/**
 * The scripting API: load a scene (file or XML text) with every standard component and the
 * plugins it requires, step it, read its objects; build one in code; load plugins by name.
 *
 * @module sofa-ts
 */
export {
  loadScene,
  loadSceneFromString,
  createScene,
  addObject,
  SofaScene,
  type LoadOptions,
  createRegistry,
  standardModules,
  loadPlugin,
  loadPlugins,
  loadRequiredPlugins,
  pluginSearchFolders,
} from 'sofa-ts';
