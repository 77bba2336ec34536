/**
 * The editable mesh of a dynamic topology container: element lists and the cross-element tables
 * SOFA's containers keep up to date while elements come and go (elements around each vertex,
 * around each edge, face; sub-elements in each element).
 *
 * The operations are SOFA's "process" steps (TriangleSetTopologyModifier::removeTrianglesProcess,
 * addTetrahedronProcess, removePointsProcess...), with the same index bookkeeping, so that element
 * lists evolve exactly as SOFA's do:
 *   - removal: indices in descending order; each removed slot receives the last element of the list;
 *     tables and shells are updated the same way, and sub-elements (or points) whose shell becomes
 *     empty are reported as isolated;
 *   - addition: appended; the faces and edges an element needs and the mesh lacks are created first,
 *     in SOFA's order (faces in TRIANGLES_IN_TETRAHEDRON / QUADS_IN_HEXAHEDRON order with their
 *     orientation, each face's edges j+1→j+2), and reported to a sink so that the modifier tells
 *     the handlers.
 * No event is sent from here: the modifier (topology-modifier-ops.ts) orders warnings, propagation
 * and processes as SOFA does.
 *
 * Element kinds and their sub-elements (the "X in Y" tables and "Y around X" shells):
 *   triangle: 3 edges       quad: 4 edges
 *   tetrahedron: 4 triangles, 6 edges       hexahedron: 6 quads, 12 edges
 */
import { EDGES_IN_HEXAHEDRON, EDGES_IN_TETRAHEDRON, QUADS_IN_HEXAHEDRON, TRIANGLES_IN_TETRAHEDRON } from '../container/element-tables.js';
import type { ElementKind } from '../container/topology-container.js';
import { ElementStore, ensureShells, eraseFromShell, replaceInShell, type Shells } from './element-store.js';

export const INVALID = 0xffffffff;

const VERTICES: Readonly<Record<ElementKind, number>> = { edge: 2, triangle: 3, quad: 4, tetrahedron: 4, hexahedron: 8 };
export const MESH_KINDS: readonly ElementKind[] = ['edge', 'triangle', 'quad', 'tetrahedron', 'hexahedron'];

/** A sub-element table of an element kind: sub-element j of element i is table[i][j]. */
interface SubTable {
  readonly sub: ElementKind;
  /** (nElements × n) sub-element indices. */
  readonly table: ElementStore;
  /** For each sub-element, the elements of the owner kind containing it. */
  readonly around: Shells;
}

/** Receives the sub-elements an addition creates, in creation order. */
export interface CreationSink {
  created(kind: ElementKind, index: number): void;
}

export interface IsolatedItems {
  /** Sub-elements left without owner, per kind (unsorted). */
  readonly subs: Map<ElementKind, number[]>;
  /** Points left without element (unsorted). */
  readonly points: number[];
}

export class DynamicMesh {
  nPoints: number;
  readonly lists: Record<ElementKind, ElementStore>;
  /** Elements of each kind around each vertex. */
  readonly aroundVertex: Record<ElementKind, Shells>;
  /** Sub-element tables of each kind, in SOFA's processing order. */
  readonly subs: Record<ElementKind, SubTable[]>;

  constructor(nPoints: number, lists: Partial<Record<ElementKind, Uint32Array>>) {
    this.nPoints = nPoints;
    this.lists = {
      edge: new ElementStore(2, lists.edge),
      triangle: new ElementStore(3, lists.triangle),
      quad: new ElementStore(4, lists.quad),
      tetrahedron: new ElementStore(4, lists.tetrahedron),
      hexahedron: new ElementStore(8, lists.hexahedron),
    };
    this.aroundVertex = { edge: [], triangle: [], quad: [], tetrahedron: [], hexahedron: [] };
    const table = (sub: ElementKind, n: number): SubTable => ({ sub, table: new ElementStore(n), around: [] });
    this.subs = {
      edge: [],
      triangle: [table('edge', 3)],
      quad: [table('edge', 4)],
      tetrahedron: [table('triangle', 4), table('edge', 6)],
      hexahedron: [table('quad', 6), table('edge', 12)],
    };
    for (const kind of MESH_KINDS) {
      const l = this.lists[kind];
      const k = l.k;
      const d = l.data;
      for (let i = 0; i < l.count * k; i++) if (d[i]! >= this.nPoints) this.nPoints = d[i]! + 1;
    }
    // shells around vertices, then the sub-element tables (edges exist before faces are looked up)
    for (const kind of MESH_KINDS) {
      const shells = this.aroundVertex[kind];
      ensureShells(shells, this.nPoints);
      const l = this.lists[kind];
      for (let e = 0; e < l.count; e++) for (let j = 0; j < l.k; j++) shells[l.get(e, j)]!.push(e);
    }
    for (const kind of MESH_KINDS) {
      const l = this.lists[kind];
      for (const st of this.subs[kind]) {
        ensureShells(st.around, this.lists[st.sub].count);
        const v = new Array<number>(8);
        for (let e = 0; e < l.count; e++) {
          const row = st.table.push(undefined, 0, INVALID);
          const n = st.table.k;
          for (let j = 0; j < n; j++) {
            this.subVertices(kind, st.sub, e, j, v);
            const s = this.find(st.sub, v);
            st.table.set(row, j, s);
            if (s !== INVALID) st.around[s]!.push(e);
          }
        }
      }
    }
  }

  count(kind: ElementKind): number {
    return this.lists[kind].count;
  }

  /** The elements of a kind (count × vertices), a view valid until the next change. */
  view(kind: ElementKind): Uint32Array {
    return this.lists[kind].view();
  }

  /** Vertex j of element i. */
  vertex(kind: ElementKind, i: number, j: number): number {
    return this.lists[kind].get(i, j);
  }

  /** The sub-elements of kind `sub` in element i of kind `kind` (a view). */
  subsOf(kind: ElementKind, sub: ElementKind, i: number): Uint32Array {
    const st = this.subTable(kind, sub);
    return st.table.data.subarray(i * st.table.k, (i + 1) * st.table.k);
  }

  /** The elements of kind `kind` around sub-element s of kind `sub`. */
  around(kind: ElementKind, sub: ElementKind, s: number): readonly number[] {
    return this.subTable(kind, sub).around[s] ?? [];
  }

  private subTable(kind: ElementKind, sub: ElementKind): SubTable {
    const st = this.subs[kind].find((t) => t.sub === sub);
    if (!st) throw new Error(`no ${sub} table in ${kind}s`);
    return st;
  }

  /** Vertices of sub-element j (of kind sub) of element e, in SOFA's orientation. */
  private subVertices(kind: ElementKind, sub: ElementKind, e: number, j: number, out: number[]): void {
    const l = this.lists[kind];
    if (sub === 'edge') {
      if (kind === 'triangle' || kind === 'quad') {
        const k = l.k;
        out[0] = l.get(e, (j + 1) % k);
        out[1] = l.get(e, (j + 2) % k);
      } else {
        const p = kind === 'tetrahedron' ? EDGES_IN_TETRAHEDRON[j]! : EDGES_IN_HEXAHEDRON[j]!;
        out[0] = l.get(e, p[0]);
        out[1] = l.get(e, p[1]);
      }
    } else if (sub === 'triangle') {
      const f = TRIANGLES_IN_TETRAHEDRON[j]!;
      for (let m = 0; m < 3; m++) out[m] = l.get(e, f[m]!);
    } else {
      const f = QUADS_IN_HEXAHEDRON[j]!;
      for (let m = 0; m < 4; m++) out[m] = l.get(e, f[m]!);
    }
  }

  // ---- lookups (SOFA's getEdgeIndex, getTriangleIndex, getQuadIndex) ------------------------------

  find(kind: ElementKind, v: readonly number[]): number {
    if (kind === 'edge') return this.getEdgeIndex(v[0]!, v[1]!);
    if (kind === 'triangle') return this.getFaceIndex('triangle', v, 3);
    if (kind === 'quad') return this.getFaceIndex('quad', v, 4);
    throw new Error(`no lookup of ${kind}s`);
  }

  /** The first edge around a that joins b (either orientation), or INVALID. */
  getEdgeIndex(a: number, b: number): number {
    const shell = this.aroundVertex.edge[a];
    if (!shell) return INVALID;
    const d = this.lists.edge.data;
    for (const e of shell) if (d[2 * e] === b || d[2 * e + 1] === b) return e;
    return INVALID;
  }

  /** The smallest-index face around v[0] made of the vertices v (any order), or INVALID. */
  private getFaceIndex(kind: 'triangle' | 'quad', v: readonly number[], k: number): number {
    const shell = this.aroundVertex[kind][v[0]!];
    if (!shell) return INVALID;
    const l = this.lists[kind];
    let best = INVALID;
    for (const f of shell) {
      if (f >= best && best !== INVALID) continue;
      let all = true;
      for (let m = 1; m < k && all; m++) all = l.indexIn(f, v[m]!) >= 0;
      if (all) best = f;
    }
    return best;
  }

  // ---- additions ---------------------------------------------------------------------------------

  /** SOFA's addPointsProcess: n points appended. */
  addPoints(n: number): void {
    this.nPoints += n;
    for (const kind of MESH_KINDS) ensureShells(this.aroundVertex[kind], this.nPoints);
  }

  /**
   * SOFA's add<Element>Process: appends an element, creating first the faces and edges it needs
   * (each reported to the sink right after its creation). Returns the new element's index.
   */
  addElement(kind: ElementKind, v: ArrayLike<number>, sink: CreationSink): number {
    const l = this.lists[kind];
    const k = l.k;
    const idx = l.count;
    // a vertex past the known points grows the point count (SOFA's setNbPoints)
    for (let j = 0; j < k; j++) if (v[j]! + 1 > this.nPoints) this.addPoints(v[j]! + 1 - this.nPoints);
    const shells = this.aroundVertex[kind];
    for (let j = 0; j < k; j++) shells[v[j]!]!.push(idx);
    const sv = new Array<number>(4);
    for (const st of this.subs[kind]) {
      const row = st.table.push(undefined, 0, INVALID);
      for (let j = 0; j < st.table.k; j++) {
        subVerticesOf(kind, st.sub, v, j, sv);
        let s = this.find(st.sub, sv);
        if (s === INVALID) {
          s = this.addElement(st.sub, sv, sink);
          sink.created(st.sub, s);
        }
        st.table.set(row, j, s);
        ensureShells(st.around, this.lists[st.sub].count);
        st.around[s]!.push(idx);
      }
    }
    // owners' shells around the new element (an edge added to a mesh with faces)
    for (const owner of MESH_KINDS) for (const st of this.subs[owner]) if (st.sub === kind) ensureShells(st.around, idx + 1);
    l.push(v);
    return idx;
  }

  // ---- removals ----------------------------------------------------------------------------------

  /**
   * SOFA's remove<Element>Process for the element's own lists: for each index (descending), the
   * element leaves the shells of its vertices and sub-elements, the last element takes its slot.
   * Sub-elements whose shell becomes empty are reported when `isolated(sub)` is true, points when
   * `isolatedPoints` is. Owners of this kind (tetrahedra of a triangle) are renamed first.
   */
  removeElements(kind: ElementKind, indices: readonly number[], isolated: (sub: ElementKind) => boolean, isolatedPoints: boolean): IsolatedItems {
    this.renameInOwners(kind, indices);
    const l = this.lists[kind];
    const k = l.k;
    const vshells = this.aroundVertex[kind];
    const subs = new Map<ElementKind, number[]>();
    const points: number[] = [];
    const subTables = this.subs[kind];
    for (const st of subTables) subs.set(st.sub, []);
    let last = l.count - 1;
    for (let r = 0; r < indices.length; r++, last--) {
      const idx = indices[r]!;
      for (let j = 0; j < k; j++) {
        const p = l.get(idx, j);
        const shell = vshells[p]!;
        eraseFromShell(shell, idx);
        if (isolatedPoints && shell.length === 0) points.push(p);
      }
      for (const st of subTables) {
        const iso = isolated(st.sub);
        const out = subs.get(st.sub)!;
        for (let j = 0; j < st.table.k; j++) {
          const s = st.table.get(idx, j);
          const shell = st.around[s];
          if (!shell) continue;
          eraseFromShell(shell, idx);
          if (iso && shell.length === 0) out.push(s);
        }
      }
      if (idx < last) {
        for (let j = 0; j < k; j++) replaceInShell(vshells[l.get(last, j)]!, last, idx);
        for (const st of subTables) for (let j = 0; j < st.table.k; j++) {
          const shell = st.around[st.table.get(last, j)];
          if (shell) replaceInShell(shell, last, idx);
        }
      }
      for (const st of subTables) st.table.removeSwapLast(idx);
      l.removeSwapLast(idx);
    }
    return { subs, points };
  }

  /**
   * A sub-element kind loses the given indices (descending): in every owner table the last
   * sub-element's index is renamed to the removed slot, and its shell moves there (SOFA's
   * Tetrahedron/Triangle/QuadSetTopologyModifier::removeEdgesProcess, removeTrianglesProcess...).
   */
  private renameInOwners(sub: ElementKind, indices: readonly number[]): void {
    const subCount = this.lists[sub].count;
    for (const owner of MESH_KINDS) {
      for (const st of this.subs[owner]) {
        if (st.sub !== sub) continue;
        ensureShells(st.around, subCount);
        let last = subCount - 1;
        for (let r = 0; r < indices.length; r++, last--) {
          const idx = indices[r]!;
          for (const o of st.around[last]!) {
            const j = st.table.indexIn(o, last);
            if (j >= 0) st.table.set(o, j, idx);
          }
          st.around[idx] = st.around[last]!;
        }
        st.around.length = Math.max(0, subCount - indices.length);
      }
    }
  }

  /**
   * Consistency of the tables with the lists (SOFA's checkTopology): every vertex index is a point,
   * every shell lists exactly the elements that contain its item, every sub-element table names
   * sub-elements made of the element's vertices. Returns the problems found (empty: consistent).
   */
  check(): string[] {
    const problems: string[] = [];
    const sameSet = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);
    for (const kind of MESH_KINDS) {
      const l = this.lists[kind];
      const shells: number[][] = Array.from({ length: this.nPoints }, () => []);
      for (let e = 0; e < l.count; e++) {
        for (let j = 0; j < l.k; j++) {
          const p = l.get(e, j);
          if (p >= this.nPoints) problems.push(`${kind} ${e} uses point ${p} of ${this.nPoints}`);
          else shells[p]!.push(e);
        }
      }
      const vs = this.aroundVertex[kind];
      if (vs.length !== this.nPoints) problems.push(`${kind}s around vertex: ${vs.length} shells for ${this.nPoints} points`);
      for (let p = 0; p < Math.min(vs.length, this.nPoints); p++) if (!sameSet(vs[p]!, shells[p]!)) problems.push(`${kind}s around vertex ${p}: [${vs[p]}] instead of [${shells[p]}]`);
      for (const st of this.subs[kind]) {
        const count = this.lists[st.sub].count;
        const around: number[][] = Array.from({ length: count }, () => []);
        if (st.table.count !== l.count) problems.push(`${st.sub}s in ${kind}: ${st.table.count} rows for ${l.count} ${kind}s`);
        const v = new Array<number>(4);
        for (let e = 0; e < l.count; e++) {
          for (let j = 0; j < st.table.k; j++) {
            const s = st.table.get(e, j);
            this.subVertices(kind, st.sub, e, j, v);
            if (s === INVALID || s >= count) {
              problems.push(`${st.sub} ${j} of ${kind} ${e} is ${s === INVALID ? 'missing' : s}`);
              continue;
            }
            around[s]!.push(e);
            const n = VERTICES[st.sub];
            for (let m = 0; m < n; m++) if (this.lists[st.sub].indexIn(s, v[m]!) < 0) problems.push(`${st.sub} ${s} (${st.sub} ${j} of ${kind} ${e}) lacks vertex ${v[m]}`);
          }
        }
        if (st.around.length !== count) problems.push(`${kind}s around ${st.sub}: ${st.around.length} shells for ${count} ${st.sub}s`);
        for (let s = 0; s < Math.min(count, st.around.length); s++) if (!sameSet(st.around[s]!, around[s]!)) problems.push(`${kind}s around ${st.sub} ${s}: [${st.around[s]}] instead of [${around[s]}]`);
      }
    }
    return problems;
  }

  /**
   * SOFA's removePointsProcess: for each point (descending) the last point takes its index in every
   * element around it, and its shells move to the slot; the point count decreases.
   */
  removePoints(indices: readonly number[]): void {
    for (const kind of MESH_KINDS) {
      const l = this.lists[kind];
      const shells = this.aroundVertex[kind];
      ensureShells(shells, this.nPoints);
      let last = this.nPoints - 1;
      for (let r = 0; r < indices.length; r++, last--) {
        const idx = indices[r]!;
        for (const e of shells[last]!) {
          if (kind === 'tetrahedron' || kind === 'hexahedron' || kind === 'edge') {
            // SOFA renames the first position holding the point (the vertices of an element differ)
            const j = l.indexIn(e, last);
            if (j >= 0) l.set(e, j, idx);
          } else {
            for (let j = 0; j < l.k; j++) if (l.get(e, j) === last) l.set(e, j, idx);
          }
        }
        shells[idx] = shells[last]!;
      }
      shells.length = Math.max(0, this.nPoints - indices.length);
    }
    this.nPoints -= indices.length;
  }
}

/** Vertices of sub-element j (of kind sub) of an element given by its vertices v. */
function subVerticesOf(kind: ElementKind, sub: ElementKind, v: ArrayLike<number>, j: number, out: number[]): void {
  if (sub === 'edge') {
    if (kind === 'triangle' || kind === 'quad') {
      const k = VERTICES[kind];
      out[0] = v[(j + 1) % k]!;
      out[1] = v[(j + 2) % k]!;
    } else {
      const p = kind === 'tetrahedron' ? EDGES_IN_TETRAHEDRON[j]! : EDGES_IN_HEXAHEDRON[j]!;
      out[0] = v[p[0]]!;
      out[1] = v[p[1]]!;
    }
  } else if (sub === 'triangle') {
    const f = TRIANGLES_IN_TETRAHEDRON[j]!;
    for (let m = 0; m < 3; m++) out[m] = v[f[m]!]!;
  } else {
    const f = QUADS_IN_HEXAHEDRON[j]!;
    for (let m = 0; m < 4; m++) out[m] = v[f[m]!]!;
  }
}
