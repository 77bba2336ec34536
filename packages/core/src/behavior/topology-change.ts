/**
 * Topological changes (SOFA's TopologyChange hierarchy) and the handlers that follow them.
 *
 * A dynamic topology container (PointSet…HexahedronSetTopologyContainer) changes only through its
 * modifier, which tells every registered handler what happened, in SOFA's order:
 *   - elements about to be removed (`elementsRemoved`, indices in DESCENDING order, the elements
 *     still readable in the container), then the sub-elements left isolated (triangles, edges of a
 *     removed tetrahedron that no other tetrahedron uses), then the isolated points
 *     (`pointsRemoved`, descending);
 *   - elements or points just added (`elementsAdded`, `pointsAdded`: already in the container,
 *     appended at the end of their lists).
 * SOFA's index convention for a removal: the indices are processed in descending order, and each
 * removed slot receives the last element of the list (the list shrinks by one each time). Every
 * per-element or per-point array follows a removal by doing the same (see `applyRemoval`).
 * A batch of changes ends with `endOfChanges`.
 */
import type { BaseMeshTopology } from './topology.js';

/** The element kinds a topology changes (points apart). */
export type TopologyElementKind = 'edge' | 'triangle' | 'quad' | 'tetrahedron' | 'hexahedron';

/** Points appended at the end of the point list (indices nOld … nOld + n − 1). */
export interface PointsAdded {
  readonly type: 'pointsAdded';
  /** (n) the new point indices. */
  readonly indices: Uint32Array;
  /** Per new point, the points it is interpolated from (may be empty), and their weights. */
  readonly ancestors?: readonly (readonly number[])[];
  readonly coefs?: readonly (readonly number[])[];
  /** True when the mechanical states of the topology add the points too (SOFA's addDOF). */
  readonly dofs: boolean;
}

/** Points about to be removed, in descending order (each slot receives the last point). */
export interface PointsRemoved {
  readonly type: 'pointsRemoved';
  readonly indices: Uint32Array;
  /** True when the mechanical states of the topology remove the points too (SOFA's removeDOF). */
  readonly dofs: boolean;
}

/** Elements appended at the end of their list. */
export interface ElementsAdded {
  readonly type: 'elementsAdded';
  readonly kind: TopologyElementKind;
  /** (n) the new element indices. */
  readonly indices: Uint32Array;
  /** (n × vertices per element) their vertex indices. */
  readonly elements: Uint32Array;
  /** Per new element, the elements of the same kind it derives from, and their weights (may be absent). */
  readonly ancestors?: readonly (readonly number[])[];
  readonly coefs?: readonly (readonly number[])[];
}

/** Elements about to be removed, in descending order (each slot receives the last element). */
export interface ElementsRemoved {
  readonly type: 'elementsRemoved';
  readonly kind: TopologyElementKind;
  readonly indices: Uint32Array;
}

/** The end of a batch of changes: the topology is consistent again. */
export interface EndOfChanges {
  readonly type: 'endOfChanges';
}

export type TopologyChange = PointsAdded | PointsRemoved | ElementsAdded | ElementsRemoved | EndOfChanges;

/**
 * Something that follows the changes of a topology: a per-point or per-element array, a list of
 * point indices, a mechanical state, a topological mapping. Registered with
 * `topology.addTopologyHandler(handler)`.
 */
export interface TopologyHandler {
  /**
   * 'state' handlers (mechanical states) receive each change before the others, so that the
   * positions of added points exist when element handlers read them. Default 'data'.
   */
  readonly topologyHandlerPriority?: 'state' | 'data' | 'mapping';
  handleTopologyChange(change: TopologyChange, topology: BaseMeshTopology): void;
}

/**
 * Applies a removal to a per-item array of `stride` values per item holding `count` items:
 * for each index of `removed` (descending), the last item is copied into the removed slot and the
 * count decreases. Returns the new count; the array is not shrunk.
 */
export function applyRemoval(
  values: { copyWithin(target: number, start: number, end: number): unknown },
  stride: number,
  count: number,
  removed: ArrayLike<number>,
): number {
  let last = count - 1;
  for (let r = 0; r < removed.length; r++, last--) {
    const i = removed[r];
    if (i !== last) values.copyWithin(i * stride, last * stride, (last + 1) * stride);
  }
  return last + 1;
}

/**
 * The old index of the item that ends in each slot after a removal (SOFA's swap with the last):
 * (count − removed.length) entries, identity for the slots the removal did not touch.
 */
export function removalPermutation(count: number, removed: ArrayLike<number>): Uint32Array {
  const from = new Uint32Array(count);
  for (let i = 0; i < count; i++) from[i] = i;
  const n = applyRemoval(from, 1, count, removed);
  return from.slice(0, n);
}

/**
 * The index of every item after a removal (SOFA's swap with the last; `removed`: distinct indices
 * in descending order, as the events give them): −1 for a removed item, the slot it ends in for an
 * item moved from the end of the list, its own index for the others. O(count + removed): the
 * whole removal at once, for arrays that would otherwise follow it one item at a time.
 */
export function removalIndexMap(count: number, removed: ArrayLike<number>): Int32Array {
  const left = count - removed.length;
  const map = new Int32Array(count);
  // only the last `removed.length` slots change hands before they are dropped: tail[p − left]
  // is the item in slot p ≥ left as the removal proceeds; a slot below `left` is filled once
  const tail = new Int32Array(count - left);
  for (let i = 0; i < count; i++) map[i] = i;
  for (let p = left; p < count; p++) tail[p - left] = p;
  let last = count - 1;
  for (let r = 0; r < removed.length; r++, last--) {
    const i = removed[r];
    map[i >= left ? tail[i - left] : i] = -1;
    if (i === last) continue;
    const moved = tail[last - left];
    if (i >= left) tail[i - left] = moved;
    else map[moved] = i;
  }
  return map;
}

/**
 * Renames indices (of points or elements) after a removal, as SOFA's TopologySubsetIndices (the
 * `indices` of FixedProjectiveConstraint, the triangles of a pressure…): an index of a removed item
 * is dropped (the list keeps its order), the index of the last item, moved into a removed slot,
 * takes that slot. `count` is the number of items before the removal. Indices past `count` are kept.
 */
export function renameAfterRemoval(indices: ArrayLike<number>, count: number, removed: ArrayLike<number>): Uint32Array {
  return renameWithMap(indices, removalIndexMap(count, removed));
}

/** renameAfterRemoval with the removal's index map (removalIndexMap). */
export function renameWithMap(indices: ArrayLike<number>, map: Int32Array): Uint32Array {
  const out = new Uint32Array(indices.length);
  let n = 0;
  for (let k = 0; k < indices.length; k++) {
    const v = indices[k];
    const to = v < map.length ? map[v] : v;
    if (to >= 0) out[n++] = to;
  }
  return n === out.length ? out : out.slice(0, n);
}
