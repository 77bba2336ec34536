import {
  ComponentRegistry,
  Node,
  buildScene,
  componentModule,
  resolveSearchLinks,
  type BaseObject,
  type SceneAttribute,
  type SceneElement,
} from '@sofa-ts/core';
import { topologyComponents } from '../components.js';

/**
 * Scenes for the specs of this package: an element tree written as `el(tag, attributes, children)`,
 * built with the topology components only and initialised as the simulation does (document order).
 */
export function el(tag: string, attrs: Record<string, string> = {}, children: SceneElement[] = []): SceneElement {
  const file = 'test.scn';
  const attributes: SceneAttribute[] = Object.entries(attrs).map(([name, value]) => ({ name, value, loc: { file, line: 1, column: 1 } }));
  return { tag, attributes, children, loc: { file, line: 1, column: 1 }, file };
}

let registry: ComponentRegistry | undefined;

export function topologyRegistry(): ComponentRegistry {
  if (!registry) {
    registry = new ComponentRegistry();
    registry.load('@sofa-ts/topology', componentModule('@sofa-ts/topology', topologyComponents));
  }
  return registry;
}

/** Builds and initialises a scene (no animation loop needed: nothing steps). */
export function initScene(root: SceneElement, prepare?: (root: Node) => void): Node {
  const node = buildScene(root, topologyRegistry());
  prepare?.(node);
  const visit = (n: Node): void => {
    for (const o of n.objects) {
      resolveSearchLinks(o);
      o.init();
    }
    for (const c of n.children) visit(c);
  };
  visit(node);
  return node;
}

/** The object of a node by name. */
export function objectNamed<T extends BaseObject>(node: Node, name: string): T {
  const o = node.objects.find((x) => x.getName() === name);
  if (!o) throw new Error(`no object '${name}' in node '${node.getName()}'`);
  return o as T;
}
