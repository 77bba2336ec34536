// @sofa-ts/loader: SOFA XML scene files to trees of element descriptions (no component is
// created here), with includes, `Objects/<Tag>.xml` expansion, data paths and source positions.
export type { SceneAttribute, SceneElement, LoadSceneOptions, LoadSceneStringOptions } from './scene-types.js';
export { attributeValue } from './scene-types.js';
export { loadSceneFile, loadSceneString } from './load-scene.js';
export { parseXmlDocument } from './parse-xml.js';
export { resolveDataFile, dataFileCandidates, defaultDataPaths, splitPathList, type DataSearch } from './data-paths.js';
