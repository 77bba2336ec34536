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
import { removalIndexMap } from '@sofa-ts/core';
import type { ElementKind } from '../container/topology-container.js';
import { ElementStore } from './element-store.js';
import { ShellStore } from './shell-store.js';
import { TupleIndex } from './tuple-index.js';
import { isolatedSubElements, type ElementsOfKind } from './isolated-subelements.js';

export const INVALID = 0xffffffff;

const VERTICES: Readonly<Record<ElementKind, number>> = { edge: 2, triangle: 3, quad: 4, tetrahedron: 4, hexahedron: 8 };
export const MESH_KINDS: readonly ElementKind[] = ['edge', 'triangle', 'quad', 'tetrahedron', 'hexahedron'];

/** A sub-element table of an element kind: sub-element j of element i is table[i][j]. */
interface SubTable {
  readonly sub: ElementKind;
  /** (nElements × n) sub-element indices. */
  table: ElementStore;
  /** For each sub-element, the elements of the owner kind containing it. */
  around: ShellStore;
  /** Built (and then kept up to date): a table is built from the lists when first needed, as SOFA creates its arrays. */
  built: boolean;
}

/** Receives the sub-elements an addition creates, in creation order. */
export interface CreationSink {
  created(kind: ElementKind, index: number): void;
}

export interface IsolatedItems {
  /** Sub-elements left without owner, per kind (unsorted). */
  readonly subs: Map<ElementKind, ArrayLike<number>>;
  /** Points left without element (unsorted). */
  readonly points: ArrayLike<number>;
}

export class DynamicMesh {
  nPoints: number;
  readonly lists: Record<ElementKind, ElementStore>;
  /** Elements of each kind around each vertex. */
  readonly aroundVertex: Record<ElementKind, ShellStore>;
  /** Sub-element tables of each kind, in SOFA's processing order. */
  readonly subs: Record<ElementKind, SubTable[]>;

  /**
   * The mesh of these lists: copied, or with `adopt` held as they are (the mesh's changes are then
   * made in those arrays: a container gives the lists it shows, which show the mesh's once it edits).
   */
  constructor(nPoints: number, lists: Partial<Record<ElementKind, Uint32Array>>, adopt = false) {
    this.nPoints = nPoints;
    this.lists = {
      edge: new ElementStore(2, lists.edge, adopt),
      triangle: new ElementStore(3, lists.triangle, adopt),
      quad: new ElementStore(4, lists.quad, adopt),
      tetrahedron: new ElementStore(4, lists.tetrahedron, adopt),
      hexahedron: new ElementStore(8, lists.hexahedron, adopt),
    };
    const table = (sub: ElementKind, n: number): SubTable => ({ sub, table: new ElementStore(n), around: new ShellStore(), built: false });
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
      for (let i = 0; i < l.count * k; i++) if (d[i] >= this.nPoints) this.nPoints = d[i] + 1;
    }
    // shells around vertices: element e is in the shell of each of its vertices, in element order
    const around = {} as Record<ElementKind, ShellStore>;
    for (const kind of MESH_KINDS) {
      const l = this.lists[kind];
      around[kind] = ShellStore.fromElements(this.nPoints, l.data, l.count, l.k);
    }
    this.aroundVertex = around;
    // the sub-element tables are built when first needed (ensureTable)
  }

  /** Builds the table of the sub-elements `sub` of the elements `kind` when it is not yet. */
  ensureTable(kind: ElementKind, sub: ElementKind): void {
    const st = this.subTable(kind, sub);
    if (st.built) return;
    const l = this.lists[st.sub];
    this.buildSubTable(kind, st, new TupleIndex(VERTICES[st.sub] as 2 | 3 | 4, l.data, l.count));
  }

  /** Sub-element j of every element, found by its vertices, and the shells around the sub-elements. */
  private buildSubTable(kind: ElementKind, st: SubTable, index: TupleIndex): void {
    const l = this.lists[kind];
    const k = l.k;
    const n = st.table.k;
    const count = l.count;
    const data = l.data;
    // local vertices of sub-element j: (n × subK), in SOFA's orientation
    const local = Int32Array.from(subElementVertices(kind, st.sub).flat());
    const subK = VERTICES[st.sub];
    const table = new Uint32Array(count * n);
    for (let e = 0; e < count; e++) {
      const o = e * k;
      for (let j = 0; j < n; j++) {
        const lv = j * subK;
        const s = index.find(
          data[o + local[lv]],
          data[o + local[lv + 1]],
          subK > 2 ? data[o + local[lv + 2]] : 0,
          subK > 3 ? data[o + local[lv + 3]] : 0,
        );
        table[e * n + j] = s < 0 ? INVALID : s;
      }
    }
    this.installTable(st, table, true);
  }

  /**
   * Takes the table of the sub-elements `sub` of the elements `kind` (count × n, INVALID where a
   * sub-element is missing) computed elsewhere (the container's derivation of the sub-elements
   * finds it on the way), unless built already; with `adopt` the table is held as it is (no copy).
   */
  setTable(kind: ElementKind, sub: ElementKind, table: Uint32Array, adopt = false): void {
    const st = this.subTable(kind, sub);
    if (st.built) return;
    if (table.length !== this.lists[kind].count * st.table.k)
      throw new Error(`${sub}s in ${kind}s: ${table.length} entries for ${this.lists[kind].count} ${kind}s`);
    this.installTable(st, table, adopt);
  }

  /** The table and, from it, the shells around the sub-elements (each in element order). */
  private installTable(st: SubTable, table: Uint32Array, adopt = false): void {
    const n = st.table.k;
    const nSub = this.lists[st.sub].count;
    const owners = new Uint32Array(table.length);
    const values = new Uint32Array(table.length);
    let pairs = 0;
    for (let i = 0; i < table.length; i++) {
      const s = table[i];
      if (s >= nSub) continue;
      owners[pairs] = s;
      values[pairs++] = (i / n) | 0;
    }
    st.table = new ElementStore(n, table, adopt);
    st.around = ShellStore.fromPairs(nSub, owners, values, pairs);
    st.built = true;
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
    this.ensureTable(kind, sub);
    const st = this.subTable(kind, sub);
    return st.table.data.subarray(i * st.table.k, (i + 1) * st.table.k);
  }

  /** The elements of kind `kind` around sub-element s of kind `sub` (a view, valid until the next change). */
  around(kind: ElementKind, sub: ElementKind, s: number): Uint32Array {
    this.ensureTable(kind, sub);
    return this.subTable(kind, sub).around.list(s);
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
        const p = kind === 'tetrahedron' ? EDGES_IN_TETRAHEDRON[j] : EDGES_IN_HEXAHEDRON[j];
        out[0] = l.get(e, p[0]);
        out[1] = l.get(e, p[1]);
      }
    } else if (sub === 'triangle') {
      const f = TRIANGLES_IN_TETRAHEDRON[j];
      for (let m = 0; m < 3; m++) out[m] = l.get(e, f[m]);
    } else {
      const f = QUADS_IN_HEXAHEDRON[j];
      for (let m = 0; m < 4; m++) out[m] = l.get(e, f[m]);
    }
  }

  // ---- lookups (SOFA's getEdgeIndex, getTriangleIndex, getQuadIndex) ------------------------------

  find(kind: ElementKind, v: readonly number[]): number {
    if (kind === 'edge') return this.getEdgeIndex(v[0], v[1]);
    if (kind === 'triangle') return this.getFaceIndex('triangle', v, 3);
    if (kind === 'quad') return this.getFaceIndex('quad', v, 4);
    throw new Error(`no lookup of ${kind}s`);
  }

  /** The first edge around a that joins b (either orientation), or INVALID. */
  getEdgeIndex(a: number, b: number): number {
    const shells = this.aroundVertex.edge;
    if (a >= shells.count) return INVALID;
    const { off, len, items } = shells.raw();
    const d = this.lists.edge.data;
    const o = off[a];
    const n = len[a];
    for (let r = 0; r < n; r++) {
      const e = items[o + r];
      if (d[2 * e] === b || d[2 * e + 1] === b) return e;
    }
    return INVALID;
  }

  /** The smallest-index face around v[0] made of the vertices v (any order), or INVALID. */
  private getFaceIndex(kind: 'triangle' | 'quad', v: readonly number[], k: number): number {
    const shells = this.aroundVertex[kind];
    let w = v[0];
    for (let m = 0; m < k; m++) {
      if (v[m] >= shells.count) return INVALID;
      if (shells.length(v[m]) < shells.length(w)) w = v[m];
    }
    const data = this.lists[kind].data;
    const { off, len, items } = shells.raw();
    let best = INVALID;
    const o = off[w];
    const n = len[w];
    for (let r = 0; r < n; r++) {
      const f = items[o + r];
      if (best !== INVALID && f >= best) continue;
      let all = true;
      for (let m = 0; m < k && all; m++) {
        let found = false;
        for (let c = 0; c < k && !found; c++) found = data[f * k + c] === v[m];
        all = found;
      }
      if (all) best = f;
    }
    return best;
  }

  // ---- additions ---------------------------------------------------------------------------------

  /** SOFA's addPointsProcess: n points appended. */
  addPoints(n: number): void {
    this.nPoints += n;
    for (const kind of MESH_KINDS) this.aroundVertex[kind].grow(this.nPoints);
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
    for (let j = 0; j < k; j++) if (v[j] + 1 > this.nPoints) this.addPoints(v[j] + 1 - this.nPoints);
    const shells = this.aroundVertex[kind];
    for (let j = 0; j < k; j++) shells.push(v[j], idx);
    const sv = new Array<number>(4);
    for (const st of this.subs[kind]) {
      const row = st.built ? st.table.push(undefined, 0, INVALID) : -1;
      for (let j = 0; j < st.table.k; j++) {
        subVerticesOf(kind, st.sub, v, j, sv);
        let s = this.find(st.sub, sv);
        if (s === INVALID) {
          s = this.addElement(st.sub, sv, sink);
          sink.created(st.sub, s);
        }
        if (!st.built) continue;
        st.table.set(row, j, s);
        st.around.grow(this.lists[st.sub].count);
        st.around.push(s, idx);
      }
    }
    // owners' shells around the new element (an edge added to a mesh with faces)
    for (const owner of MESH_KINDS) for (const st of this.subs[owner]) if (st.sub === kind && st.built) st.around.grow(idx + 1);
    l.push(v);
    return idx;
  }

  // ---- removals ----------------------------------------------------------------------------------

  /**
   * SOFA's remove<Element>Process for the element's own lists: the elements `indices` (descending)
   * leave the shells of their vertices and sub-elements and, one after the other, the last element
   * takes the slot of each. The whole list is done at once with the removal's index map (the same
   * lists, tables and shell orders as one element at a time): only the shells of the vertices and
   * sub-elements of the removed and moved elements change. Sub-elements of the kinds
   * `isolatedKinds` whose shell becomes empty are reported, and points when `isolatedPoints`.
   * Owners of this kind (tetrahedra of a triangle) are renamed first.
   */
  removeElements(
    kind: ElementKind,
    indices: ArrayLike<number>,
    isolatedKinds: readonly ElementKind[],
    isolatedPoints: boolean,
  ): IsolatedItems {
    const l = this.lists[kind];
    const k = l.k;
    const count = l.count;
    const subs = new Map<ElementKind, ArrayLike<number>>();
    // isolation of the sub-elements whose table is not built: found before anything changes
    for (const st of this.subs[kind]) {
      if (!isolatedKinds.includes(st.sub)) subs.set(st.sub, []);
      else if (!st.built) subs.set(st.sub, this.isolatedWithout(kind, st.sub, indices));
    }
    const map = removalIndexMap(count, indices);
    const left = count - indices.length;
    this.renameInOwners(kind, map, left);
    const changed = changedElements(indices, map, left);
    // the shells around their vertices and sub-elements, then the tables' rows and the list
    const points = remapShells(this.aroundVertex[kind], l.data, k, changed, map, isolatedPoints);
    for (const st of this.subs[kind]) {
      if (!st.built) continue;
      const emptied = remapShells(st.around, st.table.data, st.table.k, changed, map, isolatedKinds.includes(st.sub));
      if (isolatedKinds.includes(st.sub)) subs.set(st.sub, emptied);
      st.table.compact(map, left);
    }
    l.compact(map, left);
    return { subs, points };
  }

  /**
   * The sub-elements of kind `sub` of the elements `removed` that no other element of kind `kind`
   * has (what SOFA's shells report as they empty), found before anything is removed
   * (isolated-subelements.ts).
   */
  private isolatedWithout(kind: ElementKind, sub: ElementKind, removed: ArrayLike<number>): ArrayLike<number> {
    const of = (x: ElementKind): ElementsOfKind => {
      const l = this.lists[x];
      return { data: l.data, k: l.k, count: l.count, aroundVertex: this.aroundVertex[x] };
    };
    return isolatedSubElements(of(kind), removed, Int32Array.from(subElementVertices(kind, sub).flat()), of(sub), this.nPoints);
  }

  /**
   * A sub-element kind loses the elements of a removal (index map `map`, `left` remaining): in every
   * owner table the elements moved from the end are renamed to their slots, and their shells move
   * there (SOFA's Tetrahedron/Triangle/QuadSetTopologyModifier::removeEdgesProcess,
   * removeTrianglesProcess...).
   */
  private renameInOwners(sub: ElementKind, map: Int32Array, left: number): void {
    const subCount = map.length;
    for (const owner of MESH_KINDS) {
      for (const st of this.subs[owner]) {
        if (st.sub !== sub || !st.built) continue;
        st.around.grow(subCount);
        for (let s = left; s < subCount; s++) {
          const to = map[s];
          if (to < 0) continue;
          const n = st.around.length(s);
          for (let q = 0; q < n; q++) {
            const o = st.around.get(s, q);
            const j = st.table.indexIn(o, s);
            if (j >= 0) st.table.set(o, j, to);
          }
          st.around.move(to, s);
        }
        st.around.truncate(left);
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
    const sameSet = (a: readonly number[], b: readonly number[]): boolean =>
      a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);
    for (const kind of MESH_KINDS) {
      const l = this.lists[kind];
      const shells: number[][] = Array.from({ length: this.nPoints }, () => []);
      for (let e = 0; e < l.count; e++) {
        for (let j = 0; j < l.k; j++) {
          const p = l.get(e, j);
          if (p >= this.nPoints) problems.push(`${kind} ${e} uses point ${p} of ${this.nPoints}`);
          else shells[p].push(e);
        }
      }
      const vs = this.aroundVertex[kind];
      if (vs.count !== this.nPoints) problems.push(`${kind}s around vertex: ${vs.count} shells for ${this.nPoints} points`);
      for (let p = 0; p < Math.min(vs.count, this.nPoints); p++)
        if (!sameSet(Array.from(vs.list(p)), shells[p]))
          problems.push(`${kind}s around vertex ${p}: [${vs.list(p)}] instead of [${shells[p]}]`);
      for (const st of this.subs[kind]) {
        this.ensureTable(kind, st.sub);
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
            around[s].push(e);
            const n = VERTICES[st.sub];
            for (let m = 0; m < n; m++)
              if (this.lists[st.sub].indexIn(s, v[m]) < 0)
                problems.push(`${st.sub} ${s} (${st.sub} ${j} of ${kind} ${e}) lacks vertex ${v[m]}`);
          }
        }
        if (st.around.count !== count) problems.push(`${kind}s around ${st.sub}: ${st.around.count} shells for ${count} ${st.sub}s`);
        for (let s = 0; s < Math.min(count, st.around.count); s++)
          if (!sameSet(Array.from(st.around.list(s)), around[s]))
            problems.push(`${kind}s around ${st.sub} ${s}: [${st.around.list(s)}] instead of [${around[s]}]`);
      }
    }
    return problems;
  }

  /**
   * SOFA's removePointsProcess: for each point (descending) the last point takes its index in every
   * element around it, and its shells move to the slot; the point count decreases. Done at once
   * with the removal's index map: each point moved from the end is renamed to its final slot.
   */
  removePoints(indices: ArrayLike<number>): void {
    const map = removalIndexMap(this.nPoints, indices);
    const left = this.nPoints - indices.length;
    for (const kind of MESH_KINDS) {
      const l = this.lists[kind];
      const shells = this.aroundVertex[kind];
      shells.grow(this.nPoints);
      // SOFA renames the first position holding the point in volumes and edges (their vertices
      // differ), every position in triangles and quads
      const first = kind === 'tetrahedron' || kind === 'hexahedron' || kind === 'edge';
      for (let p = left; p < this.nPoints; p++) {
        const to = map[p];
        if (to < 0) continue;
        const n = shells.length(p);
        for (let q = 0; q < n; q++) {
          const e = shells.get(p, q);
          if (first) {
            const j = l.indexIn(e, p);
            if (j >= 0) l.set(e, j, to);
          } else {
            for (let j = 0; j < l.k; j++) if (l.get(e, j) === p) l.set(e, j, to);
          }
        }
        shells.move(to, p);
      }
      shells.truncate(left);
    }
    this.nPoints = left;
  }
}

/** Vertices of sub-element j (of kind sub) of an element given by its vertices v. */
function subVerticesOf(kind: ElementKind, sub: ElementKind, v: ArrayLike<number>, j: number, out: number[]): void {
  if (sub === 'edge') {
    if (kind === 'triangle' || kind === 'quad') {
      const k = VERTICES[kind];
      out[0] = v[(j + 1) % k];
      out[1] = v[(j + 2) % k];
    } else {
      const p = kind === 'tetrahedron' ? EDGES_IN_TETRAHEDRON[j] : EDGES_IN_HEXAHEDRON[j];
      out[0] = v[p[0]];
      out[1] = v[p[1]];
    }
  } else if (sub === 'triangle') {
    const f = TRIANGLES_IN_TETRAHEDRON[j];
    for (let m = 0; m < 3; m++) out[m] = v[f[m]];
  } else {
    const f = QUADS_IN_HEXAHEDRON[j];
    for (let m = 0; m < 4; m++) out[m] = v[f[m]];
  }
}

/** Local vertices of each sub-element of kind `sub` in an element of kind `kind`, SOFA's orientation. */
function subElementVertices(kind: ElementKind, sub: ElementKind): number[][] {
  if (sub === 'edge') {
    if (kind === 'triangle' || kind === 'quad') {
      const k = VERTICES[kind];
      return Array.from({ length: k }, (_, j) => [(j + 1) % k, (j + 2) % k]);
    }
    return (kind === 'tetrahedron' ? EDGES_IN_TETRAHEDRON : EDGES_IN_HEXAHEDRON).map((p) => [p[0], p[1]]);
  }
  if (sub === 'triangle') return TRIANGLES_IN_TETRAHEDRON.map((f) => [...f]);
  return QUADS_IN_HEXAHEDRON.map((f) => [...f]);
}

/**
 * The elements a removal changes: the removed ones (`removed`) and those moved from the end of the
 * list (the items past `left` that the index map keeps).
 */
function changedElements(removed: ArrayLike<number>, map: Int32Array, left: number): Uint32Array {
  // the moved ones: the last slots minus the removed among them
  const out = new Uint32Array(removed.length + map.length - left - countFrom(removed, left));
  fillChanged(out, removed, map, left);
  return out;
}

/** The number of indices at or past `from` (each loop of a removal in its own small function, quick to optimise whole). */
function countFrom(indices: ArrayLike<number>, from: number): number {
  let n = 0;
  for (let r = 0; r < indices.length; r++) if (indices[r] >= from) n++;
  return n;
}

function fillChanged(out: Uint32Array, removed: ArrayLike<number>, map: Int32Array, left: number): void {
  let n = 0;
  for (let r = 0; r < removed.length; r++) out[n++] = removed[r];
  for (let e = left; e < map.length; e++) if (map[e] >= 0) out[n++] = e;
}

/**
 * The shells of the items (vertices, sub-elements) named by the rows of the changed elements in
 * `rows` (k per element) follow the removal (ShellStore.remap), each once; returns the items whose
 * shell became empty when `report` (none otherwise). Rows may hold INVALID (no item).
 */
function remapShells(
  shells: ShellStore,
  rows: Uint32Array,
  k: number,
  changed: Uint32Array,
  map: Int32Array,
  report: boolean,
): Uint32Array {
  const n = shells.count;
  const seen = new Uint8Array(n);
  const emptied = new Uint32Array(report ? changed.length * k : 0);
  let m = 0;
  for (let c = 0; c < changed.length; c++) {
    const o = changed[c] * k;
    for (let j = 0; j < k; j++) {
      const p = rows[o + j];
      if (p >= n || seen[p] === 1) continue;
      seen[p] = 1;
      if (shells.remap(p, map) === 0 && report) emptied[m++] = p;
    }
  }
  return emptied.subarray(0, m);
}
