import { SofaError, type SceneElement, host } from '@sofa-ts/core';
import { SceneExpander } from './expand.js';
import { readSceneText } from './read-scene-file.js';
import { parseXmlDocument } from './parse-xml.js';
import type { LoadSceneOptions, LoadSceneStringOptions } from './scene-types.js';

/** Reads a SOFA XML scene file into its root `<Node>` element, includes and `Objects/<Tag>.xml`
 *  elements expanded. Raises a SofaError (with file:line:column) on malformed XML, a missing
 *  include, an include cycle or a root that is not a `<Node>`. */
export function loadSceneFile(file: string, options: LoadSceneOptions = {}): SceneElement {
  const absolute = host().path.resolve(file);
  return loadScene(readSceneText(absolute, 'scene file'), absolute, options);
}

/** As loadSceneFile, for a scene given as text. `fileName` (made absolute) names it in positions
 *  and its folder resolves relative includes; without it, or for a pseudo-name such as
 *  `<string>` (kept as is), includes are resolved from the current directory. */
export function loadSceneString(xml: string, options: LoadSceneStringOptions = {}): SceneElement {
  const name = options.fileName ?? '<string>';
  const file = /^<.*>$/.test(name) ? name : host().path.resolve(name);
  return loadScene(xml, file, options);
}

function loadScene(text: string, file: string, options: LoadSceneOptions): SceneElement {
  const expander = new SceneExpander({
    dataPaths: (options.dataPaths ?? []).map((p) => host().path.resolve(p)),
    isKnownTag: options.isKnownTag ?? (() => false),
    baseDir: host().cwd(),
    ...(options.warnings ? { warnings: options.warnings } : {}),
  });
  const root = expander.expandDocument(parseXmlDocument(text, file, options.warnings));
  if (root.tag !== 'Node') {
    throw new SofaError(`the root of a scene must be a <Node> element, not <${root.tag}>`, { loc: root.loc });
  }
  return root;
}
