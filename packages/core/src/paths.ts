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
 * Resolves a SOFA scene path (without its '@') from `owner`:
 *   `/a/b/obj` from the root (the root's own name may be given first), `../obj` the parent node,
 *   `./obj` or `obj` this node, `child/obj` a child node, `[-1]` the object just before the owner
 *   in its node, `[k]` the object at index k. A bare name not found in the owner's node is looked
 *   up in the ancestors, nearest first. An empty object path designates the owner's node.
 */
export function resolvePath(owner: BaseObject | Node, path: string): PathTarget | undefined {
  const ownerObject = isNode(owner) ? undefined : owner;
  const start: Node = isNode(owner) ? owner : owner.context;
  let p = path.startsWith('@') ? path.slice(1) : path;
  let node: Node = start;
  if (p.startsWith('/')) {
    node = start.root;
    p = p.slice(1);
    const first = p.split('/')[0];
    if (first && first === node.getName() && !node.getChild(first) && !node.getObjectByName(first)) p = p.slice(first.length + 1);
  }
  const segments = p.split('/').filter((s) => s.length > 0);
  if (segments.length === 0) return { kind: 'node', node };

  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const isLast = i === segments.length - 1;
    if (seg === '.') continue;
    if (seg === '..') {
      if (!node.parent) return undefined;
      node = node.parent;
      continue;
    }
    const indexed = /^\[(-?\d+)\]$/.exec(seg);
    if (indexed) {
      if (!isLast) return undefined;
      const k = Number(indexed[1]);
      const base = k < 0 && ownerObject && ownerObject.hasContext && ownerObject.context === node ? node.objects.indexOf(ownerObject) : 0;
      const obj = node.objects[base + k];
      return obj ? { kind: 'object', object: obj } : undefined;
    }
    const child = node.getChild(seg);
    if (!isLast) {
      if (!child) return undefined;
      node = child;
      continue;
    }
    const obj = node.getObjectByName(seg);
    if (obj) return { kind: 'object', object: obj };
    if (child) return { kind: 'node', node: child };
    // A bare name: SOFA-style lookup up the context.
    if (segments.length === 1 && !path.replace(/^@/, '').startsWith('/')) {
      for (let n = node.parent; n; n = n.parent) {
        const o = n.getObjectByName(seg);
        if (o) return { kind: 'object', object: o };
      }
    }
    return undefined;
  }
  return { kind: 'node', node };
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
