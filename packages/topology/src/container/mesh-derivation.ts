/**
 * Sub-elements derived from higher-dimensional elements, in SOFA's orders and orientations.
 *
 * SOFA builds them with an ordered map keyed by sorted vertices: an element is appended the first time
 * it is met while walking the parent elements in order, and its local sub-elements in the order of
 * element-tables.ts. The same walk is done here with hash maps (the output order only depends on the
 * walk, not on the map).
 *
 * Element arrays are flat: edges (nE × 2), triangles (nT × 3), quads (nQ × 4), tetrahedra (nTet × 4),
 * hexahedra (nH × 8).
 */
import { TupleSet } from '../dynamic/tuple-set.js';
import { EDGES_IN_HEXAHEDRON, EDGES_IN_TETRAHEDRON, QUADS_IN_HEXAHEDRON, TRIANGLES_IN_TETRAHEDRON } from './element-tables.js';

/** A key for an ordered pair of point indices (indices below 2^21). */
export function pairKey(a: number, b: number): number {
  return a * 4294967296 + b;
}

/** A growable list of indices, turned into a Uint32Array at the end. */
class IndexList {
  private buf: Uint32Array;
  length = 0;
  constructor(capacity: number) {
    this.buf = new Uint32Array(Math.max(4, capacity));
  }
  push(v: number): void {
    if (this.length === this.buf.length) {
      const b = new Uint32Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[this.length++] = v;
  }
  toArray(): Uint32Array {
    return this.buf.slice(0, this.length);
  }
}

/**
 * Edges of a volume mesh (SOFA MeshTopology from volumes, Tetrahedron/HexahedronSetTopologyContainer):
 * the edges of the tetrahedra, then those of the hexahedra, each stored with its smaller index first.
 */
export function volumeEdges(tetrahedra: Uint32Array, hexahedra: Uint32Array): Uint32Array {
  return volumeEdgesWithTables(tetrahedra, hexahedra).edges;
}

/**
 * volumeEdges and, found on the way, the index of each edge of each tetrahedron (nTet × 6, in
 * EDGES_IN_TETRAHEDRON order) and hexahedron (nH × 12): SOFA's edgesInTetrahedron and
 * edgesInHexahedron arrays.
 */
export function volumeEdgesWithTables(
  tetrahedra: Uint32Array,
  hexahedra: Uint32Array,
): { edges: Uint32Array; inTetrahedron: Uint32Array; inHexahedron: Uint32Array } {
  const nTet = tetrahedra.length / 4;
  const nHex = hexahedra.length / 8;
  const set = new TupleSet(2, (nTet * 6 + nHex * 12) / 4);
  const out = new IndexList((nTet * 6 + nHex * 12) / 2);
  const inTetrahedron = edgesOfVolumes(tetrahedra, 4, localPairs(EDGES_IN_TETRAHEDRON), set, out);
  const inHexahedron = edgesOfVolumes(hexahedra, 8, localPairs(EDGES_IN_HEXAHEDRON), set, out);
  return { edges: out.toArray(), inTetrahedron, inHexahedron };
}

function localPairs(table: readonly (readonly [number, number])[]): Int32Array {
  return Int32Array.from(table.flat());
}

/** Walks the volumes (k vertices each) in order, appending their new edges to `out`; returns the edge index of each local edge. */
function edgesOfVolumes(volumes: Uint32Array, k: number, local: Int32Array, set: TupleSet, out: IndexList): Uint32Array {
  const n = volumes.length / k;
  const m = local.length / 2;
  const table = new Uint32Array(n * m);
  for (let e = 0; e < n; e++) {
    for (let j = 0; j < m; j++) {
      const a = volumes[e * k + local[2 * j]];
      const b = volumes[e * k + local[2 * j + 1]];
      const s = set.add(a, b);
      if (set.values[s] < 0) {
        set.values[s] = out.length / 2;
        out.push(a < b ? a : b);
        out.push(a < b ? b : a);
      }
      table[e * m + j] = set.values[s];
    }
  }
  return table;
}

/**
 * Edges of a surface mesh (SOFA MeshTopology from surfaces, Triangle/QuadSetTopologyContainer).
 * Triangle (a, b, c) gives (b, c), (c, a), (a, b) kept in that orientation (so boundary edges follow
 * the triangles); quad (a, b, c, d) gives (b, c), (c, d), (d, a), (a, b) stored smaller index first.
 */
export function surfaceEdges(triangles: Uint32Array, quads: Uint32Array): Uint32Array {
  const seen = new Set<number>();
  const out = new IndexList((triangles.length + quads.length) / 2 + 8);
  for (let t = 0; t < triangles.length; t += 3) {
    for (let j = 0; j < 3; j++) {
      const v1 = triangles[t + ((j + 1) % 3)];
      const v2 = triangles[t + ((j + 2) % 3)];
      const k = v1 < v2 ? pairKey(v1, v2) : pairKey(v2, v1);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(v1);
      out.push(v2);
    }
  }
  for (let q = 0; q < quads.length; q += 4) {
    for (let j = 0; j < 4; j++) {
      const v1 = quads[q + ((j + 1) % 4)];
      const v2 = quads[q + ((j + 2) % 4)];
      const lo = v1 < v2 ? v1 : v2;
      const hi = v1 < v2 ? v2 : v1;
      const k = pairKey(lo, hi);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(lo);
      out.push(hi);
    }
  }
  return out.toArray();
}

/**
 * The faces of tetrahedra (SOFA's triangles of a tetrahedral mesh). Face j of a tetrahedron is
 * TRIANGLES_IN_TETRAHEDRON[j], rotated so that its smallest index comes first; a face is new unless
 * the same triangle with the opposite orientation was already met (a face shared by two
 * tetrahedra). With `keepSameOrientation`, a face met twice with the same orientation (an invalid
 * mesh) is listed twice, as SOFA's MeshTopology does; otherwise once (TetrahedronSetTopologyContainer).
 */
export function tetrahedronFaces(tetrahedra: Uint32Array, keepSameOrientation: boolean): Uint32Array {
  if (!keepSameOrientation) return tetrahedronFacesWithTable(tetrahedra).faces;
  const seen = new Set<string>();
  const out = new IndexList((tetrahedra.length / 4) * 2 * 3);
  const v = [0, 0, 0];
  for (let t = 0; t < tetrahedra.length; t += 4) {
    for (const face of TRIANGLES_IN_TETRAHEDRON) {
      for (let k = 0; k < 3; k++) v[k] = tetrahedra[t + face[k]];
      rotateToSmallest(v);
      if (seen.has(`${v[0]},${v[2]},${v[1]}`)) continue;
      seen.add(`${v[0]},${v[1]},${v[2]}`);
      out.push(v[0]);
      out.push(v[1]);
      out.push(v[2]);
    }
  }
  return out.toArray();
}

/**
 * The faces of tetrahedra, each once whatever its orientation (TetrahedronSetTopologyContainer),
 * and, found on the way, the index of each face of each tetrahedron (nTet × 4, face j opposite
 * vertex j): SOFA's trianglesInTetrahedron array.
 */
export function tetrahedronFacesWithTable(tetrahedra: Uint32Array): { faces: Uint32Array; inTetrahedron: Uint32Array } {
  const n = tetrahedra.length / 4;
  const set = new TupleSet(3, 2 * n + 4);
  const out = new IndexList(n * 2 * 3);
  const inTetrahedron = new Uint32Array(4 * n);
  const local = Int32Array.from(TRIANGLES_IN_TETRAHEDRON.flat());
  const v = [0, 0, 0];
  for (let t = 0; t < n; t++) {
    for (let j = 0; j < 4; j++) {
      for (let k = 0; k < 3; k++) v[k] = tetrahedra[4 * t + local[3 * j + k]];
      const s = set.add(v[0], v[1], v[2]);
      if (set.values[s] < 0) {
        set.values[s] = out.length / 3;
        rotateToSmallest(v);
        out.push(v[0]);
        out.push(v[1]);
        out.push(v[2]);
      }
      inTetrahedron[4 * t + j] = set.values[s];
    }
  }
  return { faces: out.toArray(), inTetrahedron };
}

/** Rotates (a, b, c) so that its smallest index comes first, keeping the orientation. */
function rotateToSmallest(v: number[]): void {
  while (v[0] > v[1] || v[0] > v[2]) {
    const x = v[0];
    v[0] = v[1];
    v[1] = v[2];
    v[2] = x;
  }
}

/**
 * The faces of hexahedra (SOFA's quads of a hexahedral mesh). Face j of a hexahedron is
 * QUADS_IN_HEXAHEDRON[j], rotated so that its smallest index comes first; a face already met in
 * either orientation is not repeated.
 */
export function hexahedronFaces(hexahedra: Uint32Array): Uint32Array {
  const seen = new Set<string>();
  const out = new IndexList((hexahedra.length / 8) * 3 * 4);
  const v = [0, 0, 0, 0];
  for (let h = 0; h < hexahedra.length; h += 8) {
    for (const face of QUADS_IN_HEXAHEDRON) {
      for (let k = 0; k < 4; k++) v[k] = hexahedra[h + face[k]];
      while (v[0] > v[1] || v[0] > v[2] || v[0] > v[3]) {
        const x = v[0];
        v[0] = v[1];
        v[1] = v[2];
        v[2] = v[3];
        v[3] = x;
      }
      const reversed = `${v[0]},${v[3]},${v[2]},${v[1]}`;
      if (seen.has(reversed)) continue;
      seen.add(reversed);
      seen.add(`${v[0]},${v[1]},${v[2]},${v[3]}`);
      for (let k = 0; k < 4; k++) out.push(v[k]);
    }
  }
  return out.toArray();
}

/** The largest point index used by some elements, plus one (0 when there are none). */
export function pointCountOf(...elementArrays: readonly Uint32Array[]): number {
  let n = 0;
  for (const a of elementArrays) for (let i = 0; i < a.length; i++) if (a[i] >= n) n = a[i] + 1;
  return n;
}
