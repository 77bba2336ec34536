import type { BaseObject } from '../base-object.js';
import { isMechanicalState } from '../behavior/mechanical-state.js';
import type { Data } from '../data.js';
import type { Node } from '../node.js';
import { isCheckpointTypedArray, isCheckpointValue, typedArrayKind, type CheckpointValue } from './checkpoint-value.js';

/** A node or a component as a checkpoint names it. */
export interface IdentityEntry {
  /** `/Liver/dofs` (a component), `/Liver/` (a node); `#2`, `#3` added when a name repeats. */
  readonly key: string;
  /** 'Node' or the component's SOFA class. */
  readonly cls: string;
  readonly template: string;
  /** A 53-bit hash of each Data's value before the first step (a linked Data: of its link). */
  readonly data: Readonly<Record<string, number>>;
}

/**
 * The scene as it was before its first step: the name of each node and component, the identity
 * a checkpoint is checked against, and the write counter of every Data (a Data whose counter moved
 * since is saved by a checkpoint). Taken by the Simulation before its first step, or by a restore.
 */
export interface SceneBaseline {
  /** Nodes and components in document order (a node, its objects, then its children). */
  readonly owners: readonly (Node | BaseObject)[];
  readonly keys: ReadonlyMap<Node | BaseObject, string>;
  readonly identity: readonly IdentityEntry[];
  readonly versions: ReadonlyMap<Data<unknown>, number>;
  /** Points of each mechanical state (a checkpoint refuses topological changes). */
  readonly stateSizes: ReadonlyMap<BaseObject, number>;
  /** Each node's topologyRevision (a checkpoint refuses topological changes, even those keeping the sizes). */
  readonly topologyRevisions: ReadonlyMap<Node, number>;
}

function isNodeOwner(o: Node | BaseObject): o is Node {
  return o.className === 'Node' && 'children' in o;
}

/** Nodes and components of the subtree in document order with their unique keys. */
export function sceneKeys(root: Node): Map<Node | BaseObject, string> {
  const keys = new Map<Node | BaseObject, string>();
  const used = new Map<string, number>();
  const unique = (k: string): string => {
    const n = (used.get(k) ?? 0) + 1;
    used.set(k, n);
    return n === 1 ? k : `${k}#${n}`;
  };
  const walk = (n: Node, prefix: string): void => {
    keys.set(n, unique(prefix));
    for (const o of n.objects) keys.set(o, unique(`${prefix}${o.getName()}`));
    // a node with several parents is keyed once, under its first parent (its path)
    for (const c of n.children) if (c.parent === n) walk(c, `${prefix}${c.getName()}/`);
  };
  walk(root, '/');
  return keys;
}

/** A Data's value as a checkpoint holds it: the value itself, or SOFA's text for other types. */
export function dataCheckpointValue(d: Data<unknown>): { v: CheckpointValue } | { t: string } {
  const raw = d.rawValue;
  if (isCheckpointValue(raw)) return { v: raw };
  return { t: d.spec.type.print(raw) };
}

export function captureBaseline(root: Node): SceneBaseline {
  const keys = sceneKeys(root);
  const owners = [...keys.keys()];
  const identity: IdentityEntry[] = [];
  const versions = new Map<Data<unknown>, number>();
  const stateSizes = new Map<BaseObject, number>();
  const topologyRevisions = new Map<Node, number>();
  for (const o of owners) {
    const data: Record<string, number> = {};
    for (const d of o.dataFields) {
      versions.set(d, d.version);
      data[d.spec.name] = hashData(d, keys);
    }
    const node = isNodeOwner(o);
    identity.push({ key: keys.get(o)!, cls: node ? 'Node' : o.className, template: node ? '' : (o as BaseObject).template, data });
    if (!node && isMechanicalState(o)) stateSizes.set(o, o.size);
    if (node) topologyRevisions.set(o, o.topologyRevision);
  }
  return { owners, keys, identity, versions, stateSizes, topologyRevisions };
}

/** A follower is identified by its link (its value comes from elsewhere); others by their value. */
function hashData(d: Data<unknown>, keys: ReadonlyMap<Node | BaseObject, string>): number {
  const p = d.parent;
  if (p !== undefined) {
    const owner = keys.get(p.owner as Node | BaseObject) ?? p.owner.getName();
    return hashString(`link ${owner}.${p.name}`);
  }
  const dv = dataCheckpointValue(d);
  return 't' in dv ? hashString(`text ${dv.t}`) : hashValue(dv.v, 0x5f3759df);
}

// cyrb53 (a public-domain 53-bit string hash), applied to 32-bit words of values.
function mix(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const NUMBER = new Float64Array(1);
const NUMBER_WORDS = new Uint32Array(NUMBER.buffer);

class Hasher {
  h1: number;
  h2: number;
  constructor(seed: number) {
    this.h1 = 0xdeadbeef ^ seed;
    this.h2 = 0x41c6ce57 ^ seed;
  }
  word(w: number): void {
    this.h1 = Math.imul(this.h1 ^ w, 2654435761);
    this.h2 = Math.imul(this.h2 ^ w, 1597334677);
  }
  string(s: string): void {
    this.word(s.length);
    for (let i = 0; i < s.length; i++) this.word(s.charCodeAt(i));
  }
  bytes(b: Uint8Array): void {
    this.word(b.length);
    const n4 = b.length & ~3;
    if ((b.byteOffset & 3) === 0) {
      const w = new Uint32Array(b.buffer, b.byteOffset, n4 >> 2);
      for (let i = 0; i < w.length; i++) this.word(w[i]);
    } else {
      for (let i = 0; i < n4; i += 4) this.word(b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24));
    }
    for (let i = n4; i < b.length; i++) this.word(b[i]);
  }
  value(v: CheckpointValue | undefined): void {
    if (v === undefined || v === null) this.word(0);
    else if (typeof v === 'boolean') this.word(v ? 2 : 1);
    else if (typeof v === 'number') {
      // the number's 64 bits, through a shared scratch (no allocation per number)
      NUMBER[0] = v;
      this.word(3);
      this.word(NUMBER_WORDS[0]);
      this.word(NUMBER_WORDS[1]);
    } else if (typeof v === 'string') {
      this.word(4);
      this.string(v);
    } else if (isCheckpointTypedArray(v)) {
      this.word(5);
      this.word(typedArrayKind(v));
      this.bytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    } else if (Array.isArray(v)) {
      this.word(6);
      this.word(v.length);
      for (const x of v) this.value(x as CheckpointValue);
    } else {
      this.word(7);
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined) continue;
        this.string(k);
        this.value(x);
      }
    }
  }
  digest(): number {
    return mix(this.h1, this.h2);
  }
}

export function hashString(s: string, seed = 0): number {
  const h = new Hasher(seed);
  h.string(s);
  return h.digest();
}

/** A 53-bit hash of a checkpoint value (bitwise: numbers by their bytes). */
export function hashValue(v: CheckpointValue, seed = 0): number {
  const h = new Hasher(seed);
  h.value(v);
  return h.digest();
}
