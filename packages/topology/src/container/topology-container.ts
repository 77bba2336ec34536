import { BaseMeshTopology, type Data, type TopologyChange } from '@sofa-ts/core';
import { DynamicMesh } from '../dynamic/dynamic-mesh.js';
import { replayLeanChanges, type DeferredSubElements, type LeanChange } from '../dynamic/deferred-sub-elements.js';
import {
  EdgeLookup,
  FaceLookup,
  INVALID_INDEX,
  edgesInPolygons,
  edgesInVolumes,
  elementsAroundSubElement,
  elementsAroundVertex,
  quadsInHexahedra,
  trianglesAroundEdge,
  trianglesInTetrahedra,
  type IndexLists,
} from './adjacency.js';

/** A mesh of volumes alone (deferred-sub-elements.ts): the volume kind and the kinds left for their first reader. */
interface LeanStart {
  readonly mesh: DynamicMesh;
  readonly top: 'tetrahedron' | 'hexahedron';
  readonly kinds: readonly ElementKind[];
}

/** The element kinds a mesh topology stores, with their number of vertices. */
export type ElementKind = 'edge' | 'triangle' | 'quad' | 'tetrahedron' | 'hexahedron';
export const VERTICES_OF: Readonly<Record<ElementKind, number>> = { edge: 2, triangle: 3, quad: 4, tetrahedron: 4, hexahedron: 8 };
export const ELEMENT_KINDS: readonly ElementKind[] = ['edge', 'triangle', 'quad', 'tetrahedron', 'hexahedron'];

/** SOFA's topology types (the highest element kind present). */
export type TopologyType = 'point' | ElementKind;

/** A complete set of elements, as a topological mapping writes it into its output container. */
export interface ElementSet {
  readonly nbPoints?: number;
  /** Positions of the points (nPoints × 3), for containers that hold positions (otherwise cleared). */
  readonly positions?: Float64Array;
  readonly edges?: Uint32Array;
  readonly triangles?: Uint32Array;
  readonly quads?: Uint32Array;
  readonly tetrahedra?: Uint32Array;
  readonly hexahedra?: Uint32Array;
}

const FIELD_OF: Readonly<Record<ElementKind, keyof ElementSet>> = {
  edge: 'edges',
  triangle: 'triangles',
  quad: 'quads',
  tetrahedron: 'tetrahedra',
  hexahedron: 'hexahedra',
};

export const NO_ELEMENTS = new Uint32Array(0);

/**
 * What every topology of this package shares (SOFA's MeshTopology and TopologyContainer behaviour):
 * element lists held in Data (set by the scene, a `src` loader link or a topological mapping), the
 * lists a container derives when the Data gives none (edges of tetrahedra, faces of hexahedra...),
 * computed on demand in SOFA's order and cached, and the cross-element tables (edges in a triangle,
 * triangles around an edge...) built on demand too.
 *
 * A derived list is written back into its Data, so that `@container.edges` links see it, and is
 * recomputed when an input Data changes (any change bumps `revision`). Everything here runs at init
 * or on first use; nothing is recomputed while stepping unless the topology changes.
 *
 * Topological changes: a modifier turns the container dynamic (`dynamicMesh()`): from then on the
 * element lists live in an editable DynamicMesh, the Data show views of them, and the modifier
 * queues the changes (`queueChange`) and delivers them to the handlers (`propagateChanges`).
 */
export abstract class TopologyContainer extends BaseMeshTopology {
  /** The Data holding an element kind, when this container stores that kind. */
  protected abstract elementData(kind: ElementKind): Data<Uint32Array> | undefined;
  /** Positions of the points (nPoints × 3), when the container has a position Data. */
  protected abstract positionData(): Data<Float64Array> | undefined;

  /** Data besides the element lists whose change alters the topology (grid resolution, ...). */
  protected extraInputs(): readonly Data<unknown>[] {
    return [];
  }
  /** The list of a kind the Data does not give, derived from other elements (empty by default). */
  protected deriveElements(_kind: ElementKind): Uint32Array {
    return NO_ELEMENTS;
  }
  /** True when this kind is always computed by the container, whatever its Data holds (grids). */
  protected alwaysDerived(_kind: ElementKind): boolean {
    return false;
  }
  /** The number of points, from the Data (called once per topology revision). */
  protected abstract countPoints(): number;

  private stamp: number[] | undefined;
  private readonly derivedAt = new Map<ElementKind, number>();
  private readonly fresh = new Set<ElementKind>();
  private readonly tables = new Map<string, unknown>();

  private inputList: Data<unknown>[] | undefined;

  /** The Data whose changes alter the topology (fixed once the component is constructed). */
  private inputs(): Data<unknown>[] {
    if (this.inputList) return this.inputList;
    const out: Data<unknown>[] = [];
    for (const k of ELEMENT_KINDS) {
      const d = this.elementData(k);
      if (d) out.push(d as Data<unknown>);
    }
    const p = this.positionData();
    if (p) out.push(p as Data<unknown>);
    out.push(...this.extraInputs());
    this.inputList = out;
    return out;
  }

  /** Drops the cached tables when an input Data changed since the last call. */
  protected refresh(): void {
    this.ownReads++;
    try {
      this.refreshTables();
    } finally {
      this.ownReads--;
    }
  }

  private refreshTables(): void {
    if (this.mesh) {
      if (this.meshStamp === this.meshVersion) return;
      this.tables.clear();
      this.meshStamp = this.meshVersion;
      this.revision++;
      return;
    }
    const ins = this.inputs();
    const s = this.stamp;
    let changed = s === undefined;
    for (let i = 0; !changed && i < ins.length; i++) if (ins[i].counter !== s![i]) changed = true;
    if (!changed) return;
    this.tables.clear();
    this.fresh.clear();
    this.stamp = ins.map((d) => d.counter);
    this.revision++;
  }

  /** Keeps a table found while deriving a list (a by-product of the derivation) for this revision. */
  protected keepTable(key: string, table: unknown): void {
    this.tables.set(key, table);
  }

  /** A table computed once per revision. */
  protected cached<T>(key: string, compute: () => T): T {
    this.refresh();
    if (this.tables.has(key)) return this.tables.get(key) as T;
    this.ownReads++;
    try {
      const v = compute();
      this.tables.set(key, v);
      return v;
    } finally {
      this.ownReads--;
    }
  }

  /** The element list of a kind: given by its Data, else derived (and stored in the Data). */
  protected elements(kind: ElementKind): Uint32Array {
    this.ownReads++;
    try {
      return this.elementsOf(kind);
    } finally {
      this.ownReads--;
    }
  }

  private elementsOf(kind: ElementKind): Uint32Array {
    if (this.sourceLists) return this.sourceLists[kind] ?? NO_ELEMENTS;
    if (this.deferred?.kinds.includes(kind)) this.materialize();
    this.refresh();
    const d = this.elementData(kind);
    if (!d) return NO_ELEMENTS;
    const holdsDerived = this.derivedAt.get(kind) === d.counter;
    if (holdsDerived && this.fresh.has(kind)) return d.value;
    if (!holdsDerived && !this.alwaysDerived(kind) && d.value.length > 0) return d.value;
    const v = this.deriveElements(kind);
    d.value = v;
    this.derivedAt.set(kind, d.counter);
    this.fresh.add(kind);
    // writing a derived list is not a change of the inputs
    const i = this.inputs().indexOf(d as Data<unknown>);
    if (this.stamp && i >= 0) this.stamp[i] = d.counter;
    return v;
  }

  getNbPoints(): number {
    if (this.mesh) return this.mesh.nPoints;
    return this.cached('nbPoints', () => this.countPoints());
  }
  getPositions(): Float64Array | undefined {
    const p = this.positionData()?.value;
    return p && p.length > 0 ? p : undefined;
  }
  getEdges(): Uint32Array {
    return this.elements('edge');
  }
  getTriangles(): Uint32Array {
    return this.elements('triangle');
  }
  getQuads(): Uint32Array {
    return this.elements('quad');
  }
  getTetrahedra(): Uint32Array {
    return this.elements('tetrahedron');
  }
  getHexahedra(): Uint32Array {
    return this.elements('hexahedron');
  }

  /** SOFA's topology type: the highest element kind present. */
  getTopologyType(): TopologyType {
    if (this.getHexahedra().length > 0) return 'hexahedron';
    if (this.getTetrahedra().length > 0) return 'tetrahedron';
    if (this.getQuads().length > 0) return 'quad';
    if (this.getTriangles().length > 0) return 'triangle';
    if (this.getEdges().length > 0) return 'edge';
    return 'point';
  }

  /**
   * Replaces every element list (SOFA's clear() then addX() of a topological mapping, then init()):
   * kinds not given become empty, the point count is at least `nbPoints` and covers every index.
   */
  setElements(set: ElementSet): void {
    this.mesh = undefined;
    for (const k of ELEMENT_KINDS) {
      const d = this.elementData(k);
      if (d) d.value = (set[FIELD_OF[k]] as Uint32Array | undefined) ?? NO_ELEMENTS;
      this.derivedAt.delete(k);
    }
    const p = this.positionData();
    if (p && (set.positions !== undefined || p.value.length > 0)) p.value = set.positions ?? new Float64Array(0);
    this.setPointCountHint(set.nbPoints ?? (set.positions ? set.positions.length / 3 : 0));
    this.initContainer();
  }

  /** Keeps the number of points a mapping imposed (containers store it in their nbPoints Data). */
  protected abstract setPointCountHint(n: number): void;

  /** What init computes (overridden per container); the derived lists wait for their first reader. */
  protected initContainer(): void {
    this.refresh();
    this.armDerivedLists();
  }

  /** Above 0 while the container reads its own Data: their read hooks stay quiet. */
  private ownReads = 0;
  private listsArmed = false;

  /**
   * The lists a container derives (the edges and faces of its elements, a grid's lists) are made
   * when first read, not at init (SOFA's containers create them at init): a read hook on each
   * element Data derives its list before a reader outside the container sees it — a component's
   * getter, a link such as `@topology.edges`, a printed Data — so every reader sees what init would
   * have made, and a list nobody reads (the triangles and edges of a beam of tetrahedra whose
   * force field reads the tetrahedra) takes no memory. The container's own reads (its derivations,
   * its point count) go around the hooks.
   */
  private armDerivedLists(): void {
    if (this.listsArmed) return;
    this.listsArmed = true;
    for (const k of ELEMENT_KINDS) {
      const d = this.elementData(k);
      if (d)
        d.setReadHook(() => {
          if (this.ownReads !== 0) return;
          if (this.mesh === undefined) this.elements(k);
          else if (this.deferred?.kinds.includes(k)) this.materialize();
        });
    }
  }

  override init(): void {
    this.initContainer();
  }

  // ---- topological changes ----------------------------------------------------------------------

  private mesh: DynamicMesh | undefined;
  /** Bumped by every change of the mesh; the cached tables and `revision` follow it. */
  private meshVersion = 0;
  private meshStamp = -1;
  private readonly pending: TopologyChange[] = [];

  /** While the mesh holds the volumes alone: what the faces and edges nobody read are made from (deferred-sub-elements.ts). */
  private deferred: DeferredSubElements | undefined;
  /** During that derivation: the lists the container's getters give (the volumes at the first change). */
  private sourceLists: Partial<Record<ElementKind, Uint32Array>> | undefined;

  /** An editable mesh built ahead of the first change (prepareChanges), valid for the revision it was built at. */
  private prepared: { mesh: DynamicMesh; revision: number; lean?: LeanStart } | undefined;

  /** True once a modifier changed this container. */
  get isDynamic(): boolean {
    return this.mesh !== undefined;
  }

  /** The kinds a change left for their first reader (the faces and edges of a lean mesh); empty otherwise. */
  get waitingKinds(): readonly ElementKind[] {
    return this.deferred?.kinds ?? [];
  }

  /** True while an editable mesh built ahead of the first change waits for it. */
  get isPrepared(): boolean {
    return this.prepared !== undefined;
  }

  /** Which mesh waits for the first change: 'full' (prepareChanges), 'lean' (prepareLeanChanges), or none. */
  get preparedMesh(): 'full' | 'lean' | undefined {
    return this.prepared ? (this.prepared.lean ? 'lean' : 'full') : undefined;
  }

  /**
   * Builds the editable mesh now, for a component that will change this container from its first
   * steps (TopologicalChangeProcessor, TopologyBoundingTrasher, at their bwdInit): its first change
   * then does not pay for the faces, edges and shells (as in SOFA, whose containers build them at
   * init), and the memory they take is taken from now on. The mesh holds the container's lists
   * without changing them; it is dropped if the lists change before the first change. It replaces
   * a lean mesh prepared by a modifier (prepareLeanChanges).
   */
  prepareChanges(): void {
    if (this.mesh || (this.prepared && !this.prepared.lean)) return;
    this.refresh();
    this.prepared = { mesh: this.buildMesh(), revision: this.revision };
  }

  /**
   * Builds now, for a modifier of volumes (at its bwdInit), the mesh its removals edit when the
   * faces and edges are never read (the volumes and the shells around their vertices: a few bytes
   * per volume, against the faces, edges and their shells of the full mesh), so that the first
   * removal does not pay for it either. Nothing when the container cannot defer its faces and
   * edges or is prepared already.
   */
  prepareLeanChanges(): void {
    if (this.mesh || this.prepared) return;
    this.refresh();
    const lean = this.leanMesh();
    if (lean) this.prepared = { mesh: lean.mesh, revision: this.revision, lean };
  }

  /** The mesh of the volumes alone, and the kinds it leaves for later, when the container can defer them. */
  private leanMesh(): LeanStart | undefined {
    const deferrable = this.deferrableKinds();
    if (!deferrable) return undefined;
    return { ...deferrable, mesh: new DynamicMesh(this.getNbPoints(), { [deferrable.top]: this.elements(deferrable.top) }, true) };
  }

  /**
   * The editable mesh of the current lists, with the sub-element tables of its highest kind (the
   * faces and edges of each volume, the edges of each face), which SOFA's containers create at
   * init and this one with the mesh: a removal then finds the faces and edges it leaves alone
   * from their shells. A table the derivation of the faces or edges found on the way is taken as
   * it is. The mesh holds the lists and tables themselves, not copies (the Data show its lists
   * from then on, dynamicMesh).
   */
  private buildMesh(): DynamicMesh {
    const lists: Partial<Record<ElementKind, Uint32Array>> = {};
    for (const k of ELEMENT_KINDS) {
      const d = this.elementData(k);
      if (d) lists[k] = this.elements(k);
    }
    return this.meshOf(this.getNbPoints(), lists);
  }

  /** The editable mesh of these lists (held, not copied) with the sub-element tables of its highest kind. */
  private meshOf(nPoints: number, lists: Partial<Record<ElementKind, Uint32Array>>): DynamicMesh {
    const mesh = new DynamicMesh(nPoints, lists, true);
    const top = (['hexahedron', 'tetrahedron', 'quad', 'triangle'] as const).find((k) => mesh.count(k) > 0);
    if (top) {
      for (const st of mesh.subs[top]) {
        if (mesh.count(st.sub) === 0) continue;
        const found = this.tables.get(`${st.sub}sIn${top[0].toUpperCase()}${top.slice(1)}`);
        if (found instanceof Uint32Array && found.length === mesh.count(top) * st.table.k) mesh.setTable(top, st.sub, found, true);
        else mesh.ensureTable(top, st.sub);
      }
    }
    return mesh;
  }

  /**
   * The volume kind and the kinds a lean mesh leaves for later: a container of tetrahedra or
   * hexahedra whose other lists are all derived and not read yet (none given, none derived, none a
   * grid's); undefined otherwise.
   */
  private deferrableKinds(): { top: 'tetrahedron' | 'hexahedron'; kinds: ElementKind[] } | undefined {
    this.ownReads++;
    try {
      const top = (['hexahedron', 'tetrahedron'] as const).find((k) => (this.elementData(k)?.value.length ?? 0) > 0);
      if (!top || this.alwaysDerived(top)) return undefined;
      // the faces and edges of the volumes wait; any other list must be empty (a mesh of volumes alone)
      const subKinds: readonly ElementKind[] = top === 'tetrahedron' ? ['edge', 'triangle'] : ['edge', 'quad'];
      const kinds: ElementKind[] = [];
      for (const k of ELEMENT_KINDS) {
        const d = this.elementData(k);
        if (k === top || !d) continue;
        if (d.value.length > 0 || this.derivedAt.has(k) || this.alwaysDerived(k)) return undefined;
        if (subKinds.includes(k)) kinds.push(k);
      }
      return { top, kinds };
    } finally {
      this.ownReads--;
    }
  }

  /**
   * The full mesh, from the lean one: the faces and edges derived from the volumes of the first
   * change, as they would have been then, and the lean mesh's changes replayed on it
   * (deferred-sub-elements.ts). The Data show its lists; nothing else changes (the volumes and
   * points are the same), so no handler is told and no solver compiles again.
   */
  private materialize(): void {
    const d = this.deferred;
    const lean = this.mesh;
    if (!d || !lean) return;
    this.deferred = undefined;
    this.ownReads++;
    let full: DynamicMesh;
    try {
      const lists: Partial<Record<ElementKind, Uint32Array>> = { [d.top]: d.initial };
      this.sourceLists = lists;
      const derived = d.kinds.map((k) => [k, this.deriveElements(k)] as const);
      this.sourceLists = undefined;
      for (const [k, v] of derived) lists[k] = v;
      full = this.meshOf(d.nPoints, lists);
      replayLeanChanges(full, d.log);
    } finally {
      this.sourceLists = undefined;
      this.ownReads--;
    }
    const same = (a: Uint32Array, b: Uint32Array) => a.length === b.length && a.every((v, i) => v === b[i]);
    if (full.nPoints !== lean.nPoints || !same(full.view(d.top), lean.view(d.top)))
      throw new Error(`${this.describe()}: the faces and edges made after a change do not match its ${d.top} (internal error)`);
    this.mesh = full;
    for (const k of ELEMENT_KINDS) {
      const data = this.elementData(k);
      if (data) data.value = full.view(k);
    }
    this.meshVersion++;
    this.refresh();
  }

  /** A change the modifier made on the mesh `mesh`: recorded while it is the lean mesh. */
  noteLeanChange(mesh: DynamicMesh, change: LeanChange): void {
    if (this.deferred && mesh === this.mesh) this.deferred.log.push(change);
  }

  /**
   * The editable mesh, built from the current lists on first use (the first change pays for it, as
   * SOFA's containers create an around-array when it is first asked for: a container no modifier
   * changes, or one not changed yet, keeps no shells a step never reads): the element Data stop
   * following their links (a loader's lists) and show the mesh's lists from now on. With `lean` (a
   * removal of volumes), the mesh of the volumes alone when nobody read their faces and edges
   * (deferred-sub-elements.ts); without, the full mesh, made from the lean one if need be.
   */
  dynamicMesh(lean = false): DynamicMesh {
    if (!this.mesh) this.startEditing(lean);
    if (!lean) this.materialize();
    return this.mesh!;
  }

  /**
   * The first change: the mesh prepared at bwdInit when the lists are still those, else the lean
   * mesh when `lean` (a removal of volumes) and the faces and edges can wait, else the full mesh.
   */
  private startEditing(lean: boolean): void {
    this.refresh();
    // a prepared lean mesh whose faces or edges were read since is dropped (they are in the lists now)
    const p =
      this.prepared && this.prepared.revision === this.revision && (!this.prepared.lean || this.deferrableKinds())
        ? this.prepared
        : undefined;
    this.prepared = undefined;
    const start = p ? p.lean : lean ? this.leanMesh() : undefined;
    const mesh = p?.mesh ?? start?.mesh ?? this.buildMesh();
    // the lean mesh edits the list it holds: a copy of the volumes as they are at the first change
    this.deferred = start && { top: start.top, kinds: start.kinds, initial: mesh.view(start.top).slice(), nPoints: mesh.nPoints, log: [] };
    for (const k of ELEMENT_KINDS) this.elementData(k)?.setParent(undefined);
    this.mesh = mesh;
    this.meshChanged();
  }

  /**
   * The modifier changed the mesh: the Data show the new lists, cached tables are dropped,
   * `revision` moves and the solvers above this node compile their systems again.
   */
  meshChanged(): void {
    const mesh = this.mesh;
    if (!mesh) return;
    for (const k of ELEMENT_KINDS) {
      const d = this.elementData(k);
      if (d) d.value = mesh.view(k);
    }
    this.setPointCountHint(mesh.nPoints);
    this.meshVersion++;
    this.changeRevision++;
    this.refresh();
    if (this.hasContext) this.context.topologyChanged();
  }

  /** SOFA's addTopologyChange: a change for the next propagation. */
  queueChange(change: TopologyChange): void {
    this.pending.push(change);
  }

  /**
   * SOFA's propagateTopologicalChanges: the queued changes, closed by an end of changes, go to the
   * handlers (states, data, then topological mappings); nothing happens when none is queued.
   */
  propagateChanges(): void {
    if (this.pending.length === 0) return;
    this.pending.push({ type: 'endOfChanges' });
    const batch = this.pending.splice(0);
    this.notifyTopologyChanges(batch);
  }

  // ---- lookups and cross-element tables (SOFA's createXArray), built on first use --------------

  private edgeLookup(): EdgeLookup {
    return this.cached('edgeLookup', () => new EdgeLookup(this.getEdges()));
  }
  private triangleLookup(): FaceLookup {
    return this.cached('triangleLookup', () => new FaceLookup(this.getTriangles(), 3));
  }
  private quadLookup(): FaceLookup {
    return this.cached('quadLookup', () => new FaceLookup(this.getQuads(), 4));
  }

  /** Index of the edge joining a and b (either orientation), or INVALID_INDEX. */
  getEdgeIndex(a: number, b: number): number {
    return this.edgeLookup().get(a, b);
  }
  /** Index of the triangle with these vertices (any order), or INVALID_INDEX. */
  getTriangleIndex(a: number, b: number, c: number): number {
    return this.triangleLookup().get(a, b, c);
  }
  /** Index of the quad with these vertices (any order), or INVALID_INDEX. */
  getQuadIndex(a: number, b: number, c: number, d: number): number {
    return this.quadLookup().get(a, b, c, d);
  }

  /** (nT × 3) edge j of triangle (a, b, c) joins its vertices j+1 and j+2. */
  getEdgesInTriangle(): Uint32Array {
    return this.cached('edgesInTriangle', () => edgesInPolygons(this.getTriangles(), 3, this.edgeLookup()));
  }
  /** (nQ × 4) edge j of a quad joins its vertices j+1 and j+2 (modulo 4). */
  getEdgesInQuad(): Uint32Array {
    return this.cached('edgesInQuad', () => edgesInPolygons(this.getQuads(), 4, this.edgeLookup()));
  }
  /** (nTet × 6) the edges of each tetrahedron in EDGES_IN_TETRAHEDRON order. */
  getEdgesInTetrahedron(): Uint32Array {
    return this.cached('edgesInTetrahedron', () => edgesInVolumes(this.getTetrahedra(), 'tetrahedron', this.edgeLookup()));
  }
  /** (nH × 12) the edges of each hexahedron in EDGES_IN_HEXAHEDRON order. */
  getEdgesInHexahedron(): Uint32Array {
    return this.cached('edgesInHexahedron', () => edgesInVolumes(this.getHexahedra(), 'hexahedron', this.edgeLookup()));
  }
  /** (nTet × 4) face j of each tetrahedron is the triangle opposite its vertex j. */
  getTrianglesInTetrahedron(): Uint32Array {
    return this.cached('trianglesInTetrahedron', () => trianglesInTetrahedra(this.getTetrahedra(), this.triangleLookup()));
  }
  /** (nH × 6) the faces of each hexahedron in QUADS_IN_HEXAHEDRON order. */
  getQuadsInHexahedron(): Uint32Array {
    return this.cached('quadsInHexahedron', () => quadsInHexahedra(this.getHexahedra(), this.quadLookup()));
  }

  getEdgesAroundVertex(): IndexLists {
    return this.cached('edgesAroundVertex', () => elementsAroundVertex(this.getEdges(), 2, this.getNbPoints()));
  }
  getTrianglesAroundVertex(): IndexLists {
    return this.cached('trianglesAroundVertex', () => elementsAroundVertex(this.getTriangles(), 3, this.getNbPoints()));
  }
  getQuadsAroundVertex(): IndexLists {
    return this.cached('quadsAroundVertex', () => elementsAroundVertex(this.getQuads(), 4, this.getNbPoints()));
  }
  getTetrahedraAroundVertex(): IndexLists {
    return this.cached('tetrahedraAroundVertex', () => elementsAroundVertex(this.getTetrahedra(), 4, this.getNbPoints()));
  }
  getHexahedraAroundVertex(): IndexLists {
    return this.cached('hexahedraAroundVertex', () => elementsAroundVertex(this.getHexahedra(), 8, this.getNbPoints()));
  }
  /** Triangles around each edge, the one on the edge's left (same direction) first. */
  getTrianglesAroundEdge(): IndexLists {
    return this.cached('trianglesAroundEdge', () =>
      trianglesAroundEdge(this.getTriangles(), this.getEdgesInTriangle(), this.getEdges(), this.getEdges().length / 2),
    );
  }
  getQuadsAroundEdge(): IndexLists {
    return this.cached('quadsAroundEdge', () => elementsAroundSubElement(this.getEdgesInQuad(), 4, this.getEdges().length / 2));
  }
  getTetrahedraAroundEdge(): IndexLists {
    return this.cached('tetrahedraAroundEdge', () => elementsAroundSubElement(this.getEdgesInTetrahedron(), 6, this.getEdges().length / 2));
  }
  getTetrahedraAroundTriangle(): IndexLists {
    return this.cached('tetrahedraAroundTriangle', () =>
      elementsAroundSubElement(this.getTrianglesInTetrahedron(), 4, this.getTriangles().length / 3),
    );
  }
  getHexahedraAroundEdge(): IndexLists {
    return this.cached('hexahedraAroundEdge', () => elementsAroundSubElement(this.getEdgesInHexahedron(), 12, this.getEdges().length / 2));
  }
  getHexahedraAroundQuad(): IndexLists {
    return this.cached('hexahedraAroundQuad', () => elementsAroundSubElement(this.getQuadsInHexahedron(), 6, this.getQuads().length / 4));
  }
}

export { INVALID_INDEX };

export function isTopologyContainer(o: unknown): o is TopologyContainer {
  return o instanceof TopologyContainer;
}
