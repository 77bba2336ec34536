import type { BaseObject } from './base-object.js';
import type { Data } from './data.js';
import type { Node } from './node.js';

/** The target of a scene path: a node, or an object of a node. */
export type PathTarget = { kind: 'node'; node: Node } | { kind: 'object'; object: BaseObject };

/** Splits `@../loader.position` into the object path `../loader` and the field `position`. */
export function splitDataPath(path: string): { objectPath: string; field: string } | undefined {
  const p = path.startsWith('@') ? path.slice(1) : path;
  const slash = p.lastIndexOf('/');
  const last = p.slice(slash + 1);
  const dot = last.lastIndexOf('.');
  if (dot < 0 || last === '.' || last === '..') return undefined;
  const field = last.slice(dot + 1);
  if (field === '') return undefined;
  return { objectPath: p.slice(0, slash + 1) + last.slice(0, dot), field };
}

/**
 * Resolves a SOFA scene path (without its '@') from `owner`, as SOFA's Node::findLinkDestClass:
 *   `/a/b/obj` from the root (the root's own name may be given first), `../x` the parent node,
 *   `./x` this node, `[-1]` the object just before the owner in its node, `[k]` the object at
 *   index k. Each name is a child node (preferred) or an object of the current node; the first
 *   name of a path that starts with neither `/`, `.` nor `..` is also searched in the ancestors,
 *   nearest first (`@Loader.position`, `@Sibling/obj` from deep inside a subtree). An empty
 *   object path designates the owner's node.
 */
export function resolvePath(owner: BaseObject | Node, path: string): PathTarget | undefined {
  const ownerObject = isNode(owner) ? undefined : owner;
  const start: Node = isNode(owner) ? owner : owner.context;
  let p = path.startsWith('@') ? path.slice(1) : path;
  let node: Node = start;
  /** Whether the path is anchored (absolute, or after a first step): no more ancestor search. */
  let based = false;
  if (p.startsWith('/')) {
    node = start.root;
    based = true;
    p = p.slice(1);
    const first = p.split('/')[0];
    if (first && first === node.getName() && !node.getChild(first) && !node.getObjectByName(first)) p = p.slice(first.length + 1);
  }
  const segments = p.split('/').filter((s) => s.length > 0);
  if (segments.length === 0) return { kind: 'node', node };

  let object: BaseObject | undefined;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    if (object) return undefined; // below an object: SOFA's slaves, which sofa-ts components do not have
    if (seg === '.') {
      based = true;
      continue;
    }
    if (seg === '..') {
      if (!node.parent) return undefined;
      node = node.parent;
      based = true;
      continue;
    }
    const indexed = /^\[(-?\d+)\]$/.exec(seg);
    if (indexed) {
      if (i !== segments.length - 1) return undefined;
      const k = Number(indexed[1]);
      const base = k < 0 && ownerObject && ownerObject.hasContext && ownerObject.context === node ? node.objects.indexOf(ownerObject) : 0;
      const obj = node.objects[base + k];
      return obj ? { kind: 'object', object: obj } : undefined;
    }
    for (let n: Node | undefined = node; ; n = n.parent) {
      if (!n) return undefined;
      const child = n.getChild(seg);
      if (child) {
        node = child;
        break;
      }
      const obj = n.getObjectByName(seg);
      if (obj) {
        object = obj;
        break;
      }
      if (based) return undefined;
    }
    based = true;
  }
  return object ? { kind: 'object', object } : { kind: 'node', node };
}

/** Resolves `@path.field` to a Data of an object or node. */
export function resolveDataPath(owner: BaseObject | Node, path: string): Data<unknown> | undefined {
  const split = splitDataPath(path);
  if (!split) return undefined;
  const target = resolvePath(owner, split.objectPath);
  if (!target) return undefined;
  return target.kind === 'object' ? target.object.findData(split.field) : target.node.findData(split.field);
}

export function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && (x as { className?: unknown }).className === 'Node' && Array.isArray((x as Node).children);
}
