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

const listeners = new WeakMap<Node, Array<(w: SofaError) => void>>();

/**
 * Adds a warning to the scene of `root`, once per message (a warning raised at every step is
 * reported the first time), and passes it to the scene's listeners.
 */
export function addSceneWarning(root: Node, w: SofaError): void {
  const list = sceneWarnings(root);
  if (list.some((x) => x.message === w.message)) return;
  list.push(w);
  for (const fn of listeners.get(root) ?? []) fn(w);
}

/** Calls `fn` for every warning added to the scene of `root` from now on; returns the function that stops it. */
export function onSceneWarning(root: Node, fn: (w: SofaError) => void): () => void {
  let l = listeners.get(root);
  if (!l) listeners.set(root, (l = []));
  l.push(fn);
  return () => {
    const i = l!.indexOf(fn);
    if (i >= 0) l!.splice(i, 1);
  };
}
