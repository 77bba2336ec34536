/**
 * Cross-element tables of a mesh, built as SOFA's topology containers build them:
 *  - "X in Y" tables: for each element Y, the indices of its sub-elements X in the order of
 *    element-tables.ts (edge j of triangle (a, b, c) joins its vertices j+1 and j+2, quad likewise);
 *  - "Y around X" lists: for each X, the elements Y that contain it, in increasing Y order, except
 *    triangles around an edge, where a triangle that runs along the edge in the edge's direction
 *    (the triangle on the edge's left) is put first.
 * Lookups of a sub-element ignore its orientation; an element missing from the list is INVALID_INDEX.
 */
import { EDGES_IN_HEXAHEDRON, EDGES_IN_TETRAHEDRON, QUADS_IN_HEXAHEDRON } from './element-tables.js';
import { pairKey } from './mesh-derivation.js';

/** SOFA's InvalidID: the index of a sub-element that is not in the topology. */
export const INVALID_INDEX = 0xffffffff;

/** Variable-length lists of indices: list i is items[offsets[i] .. offsets[i + 1]). */
export interface IndexLists {
  /** (n + 1) offsets into items. */
  readonly offsets: Uint32Array;
  readonly items: Uint32Array;
}

/** List i of `lists` (a view, not a copy). */
export function listAt(lists: IndexLists, i: number): Uint32Array {
  return lists.items.subarray(lists.offsets[i], lists.offsets[i + 1]);
}

/** Lists from `count` owners given (owner, item) pairs in the order they must appear in each list. */
function listsFromPairs(count: number, owners: Uint32Array, items: Uint32Array): IndexLists {
  const offsets = new Uint32Array(count + 1);
  for (let i = 0; i < owners.length; i++) offsets[owners[i] + 1]++;
  for (let i = 0; i < count; i++) offsets[i + 1] += offsets[i];
  const fill = offsets.slice(0, count);
  const out = new Uint32Array(owners.length);
  for (let i = 0; i < owners.length; i++) out[fill[owners[i]]++] = items[i];
  return { offsets, items: out };
}

/** For each point, the elements (of k vertices each) that use it, in increasing element order. */
export function elementsAroundVertex(elements: Uint32Array, k: number, nPoints: number): IndexLists {
  const n = elements.length / k;
  const items = new Uint32Array(elements.length);
  for (let e = 0; e < n; e++) for (let j = 0; j < k; j++) items[e * k + j] = e;
  return listsFromPairs(nPoints, elements, items);
}

/** For each sub-element, the elements whose table `inElement` (k sub-elements each) names it. */
export function elementsAroundSubElement(inElement: Uint32Array, k: number, nSub: number): IndexLists {
  const n = inElement.length / k;
  const owners: number[] = [];
  const items: number[] = [];
  for (let e = 0; e < n; e++) {
    for (let j = 0; j < k; j++) {
      const s = inElement[e * k + j];
      if (s === INVALID_INDEX) continue;
      owners.push(s);
      items.push(e);
    }
  }
  return listsFromPairs(nSub, Uint32Array.from(owners), Uint32Array.from(items));
}

/**
 * Triangles around each edge: a triangle in which the edge appears with the same direction as
 * stored (edge[0] is the triangle's vertex j+1 for its edge j) is inserted at the front of the list,
 * other triangles are appended (SOFA's "triangle on the left / on the right of the edge").
 */
export function trianglesAroundEdge(triangles: Uint32Array, edgesInTriangle: Uint32Array, edges: Uint32Array, nEdges: number): IndexLists {
  const lists: number[][] = Array.from({ length: nEdges }, () => []);
  const nT = triangles.length / 3;
  for (let t = 0; t < nT; t++) {
    for (let j = 0; j < 3; j++) {
      const e = edgesInTriangle[t * 3 + j];
      if (e === INVALID_INDEX) continue;
      if (edges[e * 2] === triangles[t * 3 + ((j + 1) % 3)]) lists[e].unshift(t);
      else lists[e].push(t);
    }
  }
  const offsets = new Uint32Array(nEdges + 1);
  for (let e = 0; e < nEdges; e++) offsets[e + 1] = offsets[e] + lists[e].length;
  const items = new Uint32Array(offsets[nEdges]);
  for (let e = 0; e < nEdges; e++) items.set(lists[e], offsets[e]);
  return { offsets, items };
}

/** Finds an edge by its two vertices in either order (the first such edge, as SOFA's getEdgeIndex). */
export class EdgeLookup {
  private readonly map = new Map<number, number>();
  constructor(edges: Uint32Array) {
    for (let e = edges.length / 2 - 1; e >= 0; e--) {
      const a = edges[2 * e];
      const b = edges[2 * e + 1];
      this.map.set(a < b ? pairKey(a, b) : pairKey(b, a), e);
    }
  }
  get(a: number, b: number): number {
    return this.map.get(a < b ? pairKey(a, b) : pairKey(b, a)) ?? INVALID_INDEX;
  }
}

/** Finds a triangle or quad by its vertices in any order (the first such face). */
export class FaceLookup {
  private readonly map = new Map<string, number>();
  constructor(faces: Uint32Array, k: number) {
    const v = new Array<number>(k);
    for (let f = faces.length / k - 1; f >= 0; f--) {
      for (let j = 0; j < k; j++) v[j] = faces[f * k + j];
      this.map.set(FaceLookup.key(v), f);
    }
  }
  private static key(v: number[]): string {
    return v
      .slice()
      .sort((x, y) => x - y)
      .join(',');
  }
  get(...v: number[]): number {
    return this.map.get(FaceLookup.key(v)) ?? INVALID_INDEX;
  }
}

/** Edge j of each triangle (j+1, j+2) or quad (j+1, j+2 modulo 4), as indices into the edge list. */
export function edgesInPolygons(polygons: Uint32Array, k: number, lookup: EdgeLookup): Uint32Array {
  const out = new Uint32Array(polygons.length);
  for (let p = 0; p < polygons.length; p += k) {
    for (let j = 0; j < k; j++) out[p + j] = lookup.get(polygons[p + ((j + 1) % k)], polygons[p + ((j + 2) % k)]);
  }
  return out;
}

/** The 6 edges of each tetrahedron (nTet × 6) or 12 of each hexahedron (nH × 12). */
export function edgesInVolumes(volumes: Uint32Array, kind: 'tetrahedron' | 'hexahedron', lookup: EdgeLookup): Uint32Array {
  const table = kind === 'tetrahedron' ? EDGES_IN_TETRAHEDRON : EDGES_IN_HEXAHEDRON;
  const k = kind === 'tetrahedron' ? 4 : 8;
  const n = volumes.length / k;
  const out = new Uint32Array(n * table.length);
  for (let e = 0; e < n; e++) {
    for (let j = 0; j < table.length; j++)
      out[e * table.length + j] = lookup.get(volumes[e * k + table[j][0]], volumes[e * k + table[j][1]]);
  }
  return out;
}

/** The 4 faces of each tetrahedron (nTet × 4): face j is made of the vertices other than j. */
export function trianglesInTetrahedra(tetrahedra: Uint32Array, lookup: FaceLookup): Uint32Array {
  const out = new Uint32Array(tetrahedra.length);
  for (let t = 0; t < tetrahedra.length; t += 4) {
    for (let j = 0; j < 4; j++)
      out[t + j] = lookup.get(tetrahedra[t + ((j + 1) % 4)], tetrahedra[t + ((j + 2) % 4)], tetrahedra[t + ((j + 3) % 4)]);
  }
  return out;
}

/** The 6 faces of each hexahedron (nH × 6) in QUADS_IN_HEXAHEDRON order. */
export function quadsInHexahedra(hexahedra: Uint32Array, lookup: FaceLookup): Uint32Array {
  const n = hexahedra.length / 8;
  const out = new Uint32Array(n * 6);
  for (let h = 0; h < n; h++) {
    for (let j = 0; j < 6; j++) {
      const f = QUADS_IN_HEXAHEDRON[j];
      out[h * 6 + j] = lookup.get(hexahedra[h * 8 + f[0]], hexahedra[h * 8 + f[1]], hexahedra[h * 8 + f[2]], hexahedra[h * 8 + f[3]]);
    }
  }
  return out;
}
