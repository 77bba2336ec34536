import type { SofaError } from './errors.js';
import type { Node } from './node.js';

/**
 * The warnings of a scene (SOFA's msg_warning): problems the simulation can live with, each located
 * at the component that noticed it. Kept per root node, so that components warning during init
 * reach the loader's `SofaScene.warnings` and the CLI prints them.
 */
const lists = new WeakMap<Node, SofaError[]>();

/** The warning list of the scene whose root is `root` (created empty on first use). */
export function sceneWarnings(root: Node): SofaError[] {
  let l = lists.get(root);
  if (!l) {
    l = [];
    lists.set(root, l);
  }
  return l;
}
