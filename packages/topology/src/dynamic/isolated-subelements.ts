/**
 * The sub-elements (faces, edges) that a removal of elements leaves without owner, found without
 * the "sub-elements in element" tables (a container builds those only when something asks for
 * them), before anything is removed:
 *   1. the sub-elements of the removed elements go into a set of vertex tuples;
 *   2. those of the kept elements around the removed elements' vertices are marked (a kept element
 *      sharing a sub-element with a removed one has all its vertices, so it is around them);
 *   3. the unmarked tuples are looked up among the sub-elements around the same vertices (the
 *      smallest index of the sub-elements with these vertices, as SOFA's getTriangleIndex...).
 * Work proportional to the removed elements and their neighbourhood, each step a small loop over
 * typed arrays.
 */
import type { ShellStore } from './shell-store.js';
import { TupleSet } from './tuple-set.js';

/** One kind of element: its vertex list (count × k) and the elements around each vertex. */
export interface ElementsOfKind {
  readonly data: Uint32Array;
  readonly k: number;
  readonly count: number;
  readonly aroundVertex: ShellStore;
}

/**
 * The sub-elements (indices in `sub`) of the elements `removed` of `owner` that no kept element of
 * `owner` has; `local` gives the local vertices of each sub-element in an element (nSub × subK).
 * Sub-elements absent from the list of `sub` are not reported. Unsorted, each once.
 */
export function isolatedSubElements(
  owner: ElementsOfKind,
  removed: ArrayLike<number>,
  local: Int32Array,
  sub: ElementsOfKind,
  nPoints: number,
): Int32Array {
  const subK = sub.k as 2 | 3 | 4;
  const nSub = local.length / subK;
  const vertices = distinctVertices(owner.data, owner.k, removed, nPoints);
  const set = new TupleSet(subK, removed.length * nSub);
  // 0: kept, 1: removed, 2: kept and already listed
  const mark = new Uint8Array(owner.count);
  for (let r = 0; r < removed.length; r++) mark[removed[r]] = 1;
  addTuples(set, owner.data, owner.k, removed, removed.length, local, subK);
  const kept = elementsAround(owner.aroundVertex, vertices, mark);
  flagTuples(set, owner.data, owner.k, kept, kept.length, local, subK);
  const candidates = elementsAround(sub.aroundVertex, vertices, new Uint8Array(sub.count));
  smallestIndexOfUnflagged(set, sub.data, candidates);
  return collect(set.values);
}

/** The distinct vertices of the given elements. */
function distinctVertices(data: Uint32Array, k: number, elements: ArrayLike<number>, nPoints: number): Uint32Array {
  const seen = new Uint8Array(nPoints);
  const out = new Uint32Array(Math.min(nPoints, elements.length * k));
  let n = 0;
  for (let r = 0; r < elements.length; r++) {
    const o = elements[r] * k;
    for (let j = 0; j < k; j++) {
      const p = data[o + j];
      if (seen[p] === 0) {
        seen[p] = 1;
        out[n++] = p;
      }
    }
  }
  return out.subarray(0, n);
}

/** The elements around the vertices whose mark is 0, each once (their mark becomes 2). */
function elementsAround(shells: ShellStore, vertices: Uint32Array, mark: Uint8Array): Uint32Array {
  const { off, len, items } = shells.raw();
  let total = 0;
  for (let i = 0; i < vertices.length; i++) if (vertices[i] < shells.count) total += len[vertices[i]];
  const out = new Uint32Array(total);
  let n = 0;
  for (let i = 0; i < vertices.length; i++) {
    const p = vertices[i];
    if (p >= shells.count) continue;
    for (let q = off[p], end = off[p] + len[p]; q < end; q++) {
      const e = items[q];
      if (mark[e] === 0) {
        mark[e] = 2;
        out[n++] = e;
      }
    }
  }
  return out.subarray(0, n);
}

/** Adds the sub-element tuples of the elements `list` (n of them) to the set. */
function addTuples(set: TupleSet, data: Uint32Array, k: number, list: ArrayLike<number>, n: number, local: Int32Array, subK: number): void {
  for (let r = 0; r < n; r++) {
    const o = list[r] * k;
    for (let lv = 0; lv < local.length; lv += subK) {
      set.add(data[o + local[lv]], data[o + local[lv + 1]], subK > 2 ? data[o + local[lv + 2]] : 0, subK > 3 ? data[o + local[lv + 3]] : 0);
    }
  }
}

/** Flags the tuples of the set that are sub-elements of the elements `list` (n of them). */
function flagTuples(set: TupleSet, data: Uint32Array, k: number, list: Uint32Array, n: number, local: Int32Array, subK: number): void {
  const flags = set.flags;
  for (let r = 0; r < n; r++) {
    const o = list[r] * k;
    for (let lv = 0; lv < local.length; lv += subK) {
      const s = set.find(
        data[o + local[lv]],
        data[o + local[lv + 1]],
        subK > 2 ? data[o + local[lv + 2]] : 0,
        subK > 3 ? data[o + local[lv + 3]] : 0,
      );
      if (s >= 0) flags[s] = 1;
    }
  }
}

/** The value of each slot of the set: the smallest of the candidate sub-elements with its vertices when unflagged (−1 otherwise). */
function smallestIndexOfUnflagged(set: TupleSet, subData: Uint32Array, candidates: Uint32Array): void {
  const subK = set.k;
  const flags = set.flags;
  const index = set.values;
  for (let i = 0; i < candidates.length; i++) {
    const e = candidates[i];
    const o = e * subK;
    const s = set.find(subData[o], subData[o + 1], subK > 2 ? subData[o + 2] : 0, subK > 3 ? subData[o + 3] : 0);
    if (s >= 0 && flags[s] === 0 && (index[s] < 0 || e < index[s])) index[s] = e;
  }
}

/** The non-negative entries. */
function collect(index: Int32Array): Int32Array {
  let n = 0;
  for (let s = 0; s < index.length; s++) if (index[s] >= 0) n++;
  const out = new Int32Array(n);
  n = 0;
  for (let s = 0; s < index.length; s++) if (index[s] >= 0) out[n++] = index[s];
  return out;
}
