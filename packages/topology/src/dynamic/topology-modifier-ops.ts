/**
 * What SOFA's Point/Edge/Triangle/Quad/Tetrahedron/HexahedronSetTopologyModifier do, on a
 * DynamicMesh: each public operation validates its input, tells the handlers in SOFA's order and
 * changes the mesh.
 *
 *   removal:  "about to be removed" (indices sorted descending) → propagation → the removal
 *             itself, which then removes the isolated sub-elements the same way (faces and edges
 *             of removed volumes: warned together, propagated, removed) and finally the isolated
 *             points (warned, propagated, removed);
 *   addition: the elements are added (the faces and edges they need first, each warned as it is
 *             created), then warned, then propagated.
 * A propagation with nothing queued does nothing (SOFA's propagateTopologicalChanges).
 */
import type { TopologyChange } from '@sofa-ts/core';
import type { ElementKind, TopologyContainer } from '../container/topology-container.js';
import type { CreationSink, DynamicMesh } from './dynamic-mesh.js';
import type { ShellStore } from './shell-store.js';

const VERTICES: Readonly<Record<ElementKind, number>> = { edge: 2, triangle: 3, quad: 4, tetrahedron: 4, hexahedron: 8 };

export interface ModifierOptions {
  /** TetrahedronSet/HexahedronSetTopologyModifier's removeIsolated: points left without volume are removed. */
  removeIsolated(): boolean;
  /** PointSetTopologyModifier's propagateToDOF: removed points are removed from the states too. */
  propagateToDOF(): boolean;
  /** Reports an index that cannot be honoured (out of range): the caller's located warning. */
  warn(message: string): void;
}

export class TopologyModifierOps {
  constructor(
    readonly container: TopologyContainer,
    private readonly options: ModifierOptions,
  ) {}

  /** Above 0 during a removal of volumes: the container may edit the volumes alone (its lean mesh). */
  private lean = 0;

  /** The container's editable mesh; during a removal of volumes, its lean mesh when its faces and edges were never read. */
  get mesh(): DynamicMesh {
    return this.container.dynamicMesh(this.lean > 0);
  }

  private queue(change: TopologyChange): void {
    this.container.queueChange(change);
  }

  /** SOFA's propagateTopologicalChanges. */
  propagate(): void {
    this.container.propagateChanges();
  }

  /** SOFA's notifyEndingEvent: an end of changes, propagated. */
  notifyEndingEvent(): void {
    this.queue({ type: 'endOfChanges' });
    this.propagate();
  }

  // ---- points -------------------------------------------------------------------------------------

  /** SOFA's addPoints: n points appended (interpolated from ancestors by the states when given). */
  addPoints(n: number, ancestors?: readonly (readonly number[])[], coefs?: readonly (readonly number[])[], addDOF = true): void {
    if (n <= 0) return;
    const mesh = this.mesh;
    const start = mesh.nPoints;
    mesh.addPoints(n);
    this.container.meshChanged();
    const indices = new Uint32Array(n);
    for (let i = 0; i < n; i++) indices[i] = start + i;
    this.queue({ type: 'pointsAdded', indices, ...(ancestors ? { ancestors } : {}), ...(coefs ? { coefs } : {}), dofs: addDOF });
    this.propagate();
  }

  /** SOFA's removePoints: the points are warned (descending), propagated, then removed. */
  removePoints(indices: ArrayLike<number>, removeDOF = true): void {
    const sorted = this.filtered(indices, this.mesh.nPoints, 'point');
    if (sorted.length === 0) return;
    this.removeDanglingElements(sorted);
    this.removePointsWarning(sorted, removeDOF);
    this.propagate();
    this.removePointsProcess(sorted);
  }

  private removePointsWarning(sorted: Uint32Array, removeDOF: boolean): void {
    this.queue({ type: 'pointsRemoved', indices: sorted, dofs: removeDOF });
  }

  private removePointsProcess(sorted: Uint32Array): void {
    const mesh = this.mesh;
    mesh.removePoints(sorted);
    this.container.noteLeanChange(mesh, { op: 'points', sorted });
    this.container.meshChanged();
  }

  // ---- additions ----------------------------------------------------------------------------------

  /**
   * SOFA's addEdges / addTriangles / addQuads / addTetrahedra / addHexahedra: `elements` holds
   * (n × vertices) indices; ancestors (same kind) and weights are passed on to the handlers.
   */
  addElements(
    kind: ElementKind,
    elements: ArrayLike<number>,
    ancestors?: readonly (readonly number[])[],
    coefs?: readonly (readonly number[])[],
  ): void {
    const k = VERTICES[kind];
    const n = Math.floor(elements.length / k);
    if (n === 0) return;
    const mesh = this.mesh;
    const sink: CreationSink = {
      created: (sub, index) => {
        const kk = VERTICES[sub];
        const v = mesh.view(sub).slice(index * kk, index * kk + kk);
        this.queue({ type: 'elementsAdded', kind: sub, indices: Uint32Array.of(index), elements: v });
      },
    };
    const first = mesh.count(kind);
    const tuple = new Array<number>(k);
    for (let e = 0; e < n; e++) {
      for (let j = 0; j < k; j++) tuple[j] = elements[e * k + j];
      mesh.addElement(kind, tuple, sink);
    }
    this.container.meshChanged();
    const indices = new Uint32Array(n);
    for (let i = 0; i < n; i++) indices[i] = first + i;
    const added = mesh.view(kind).slice(first * k, (first + n) * k);
    this.queue({ type: 'elementsAdded', kind, indices, elements: added, ...(ancestors ? { ancestors } : {}), ...(coefs ? { coefs } : {}) });
    this.propagate();
  }

  // ---- removals -----------------------------------------------------------------------------------

  /** SOFA's removeEdges(ids, removeIsolatedPoints). */
  removeEdges(ids: ArrayLike<number>, removeIsolatedPoints = true): void {
    const sorted = this.filtered(ids, this.mesh.count('edge'), 'edge');
    if (sorted.length === 0) return;
    this.queueRemoved('edge', sorted);
    this.propagate();
    this.removeEdgesProcess(sorted, removeIsolatedPoints);
  }

  /** SOFA's removeTriangles(ids, removeIsolatedEdges, removeIsolatedPoints). */
  removeTriangles(ids: ArrayLike<number>, removeIsolatedEdges = true, removeIsolatedPoints = true): void {
    const sorted = this.filtered(ids, this.mesh.count('triangle'), 'triangle');
    if (sorted.length === 0) return;
    this.queueRemoved('triangle', sorted);
    this.propagate();
    this.removeFacesProcess('triangle', sorted, removeIsolatedEdges, removeIsolatedPoints);
  }

  /** SOFA's removeQuads(ids, removeIsolatedEdges, removeIsolatedPoints). */
  removeQuads(ids: ArrayLike<number>, removeIsolatedEdges = true, removeIsolatedPoints = true): void {
    const sorted = this.filtered(ids, this.mesh.count('quad'), 'quad');
    if (sorted.length === 0) return;
    this.queueRemoved('quad', sorted);
    this.propagate();
    this.removeFacesProcess('quad', sorted, removeIsolatedEdges, removeIsolatedPoints);
  }

  /** SOFA's removeTetrahedra(ids, removeIsolatedItems) and removeHexahedra(ids, removeIsolatedItems). */
  removeVolumes(
    kind: 'tetrahedron' | 'hexahedron',
    ids: ArrayLike<number>,
    removeIsolatedItems = true,
    removeIsolatedPoints = removeIsolatedItems,
  ): void {
    // the faces and edges nobody read are not needed to remove volumes: made when first read
    // (deferred-sub-elements.ts); unless points go without the faces and edges they isolate, which
    // the full mesh removes with them as dangling (removeDanglingElements)
    const lean = removeIsolatedItems || !removeIsolatedPoints ? 1 : 0;
    this.lean += lean;
    try {
      const sorted = this.filtered(ids, this.mesh.count(kind), kind);
      if (sorted.length === 0) return;
      this.queueRemoved(kind, sorted);
      this.propagate();
      this.removeVolumesProcess(kind, sorted, removeIsolatedItems, removeIsolatedPoints);
    } finally {
      this.lean -= lean;
    }
  }

  /**
   * Indices in range, sorted in descending order (SOFA's removeXWarning sort); an index out of
   * range or given twice is reported and skipped (a second removal would remove another element).
   * The sorted list is the one the handlers receive and the mesh removes (not modified after).
   */
  private filtered(ids: ArrayLike<number>, count: number, what: string): Uint32Array {
    const seen = new Uint8Array(count);
    const out = new Uint32Array(ids.length);
    let n = 0;
    for (let k = 0; k < ids.length; k++) {
      const i = ids[k];
      if (!(i >= 0 && i < count && Number.isInteger(i)))
        this.options.warn(`${what} ${i} is out of range (there are ${count}) and is not removed`);
      else if (seen[i]) this.options.warn(`${what} ${i} is listed twice and is removed once`);
      else {
        seen[i] = 1;
        out[n++] = i;
      }
    }
    return desc(out.subarray(0, n));
  }

  private queueRemoved(kind: ElementKind, sorted: Uint32Array): void {
    this.queue({ type: 'elementsRemoved', kind, indices: sorted });
  }

  private removeEdgesProcess(sorted: Uint32Array, removeIsolatedPoints: boolean): void {
    if (sorted.length === 0) return;
    const iso = this.mesh.removeElements('edge', sorted, [], removeIsolatedPoints);
    this.container.meshChanged();
    this.removeIsolatedPoints(iso.points);
  }

  private removeFacesProcess(
    kind: 'triangle' | 'quad',
    sorted: Uint32Array,
    removeIsolatedEdges: boolean,
    removeIsolatedPoints: boolean,
  ): void {
    if (sorted.length === 0) return;
    const mesh = this.mesh;
    const edgesExist = mesh.count('edge') > 0;
    const iso = mesh.removeElements(kind, sorted, removeIsolatedEdges && edgesExist ? ['edge'] : [], removeIsolatedPoints);
    this.container.meshChanged();
    const edges = desc(iso.subs.get('edge'));
    if (edges.length > 0) {
      this.queueRemoved('edge', edges);
      this.propagate();
      this.removeEdgesProcess(edges, false);
    }
    this.removeIsolatedPoints(iso.points);
  }

  private removeVolumesProcess(
    kind: 'tetrahedron' | 'hexahedron',
    sorted: Uint32Array,
    removeIsolatedItems: boolean,
    removeIsolatedPoints = removeIsolatedItems,
  ): void {
    if (sorted.length === 0) return;
    const mesh = this.mesh;
    const face = kind === 'tetrahedron' ? 'triangle' : 'quad';
    const isoVertices = removeIsolatedPoints && this.options.removeIsolated();
    const isoEdges = removeIsolatedItems && mesh.count('edge') > 0;
    const isoFaces = removeIsolatedItems && mesh.count(face) > 0;
    const iso = mesh.removeElements(
      kind,
      sorted,
      [...(isoFaces ? [face] : []), ...(isoEdges ? ['edge'] : [])] as ElementKind[],
      isoVertices,
    );
    this.container.noteLeanChange(mesh, { op: 'volumes', kind, sorted, isolatedItems: removeIsolatedItems, isolatedPoints: isoVertices });
    this.container.meshChanged();
    const faces = desc(iso.subs.get(face));
    const edges = desc(iso.subs.get('edge'));
    if (faces.length > 0 || edges.length > 0) {
      if (faces.length > 0) this.queueRemoved(face, faces);
      if (edges.length > 0) this.queueRemoved('edge', edges);
      this.propagate();
      if (faces.length > 0) this.removeFacesProcess(face, faces, false, false);
      if (edges.length > 0) this.removeEdgesProcess(edges, false);
    }
    this.removeIsolatedPoints(iso.points);
  }

  /**
   * Elements still using points about to be removed (edges of a grid given to a quad container,
   * which no quad holds): SOFA would leave them naming removed points; they are removed first,
   * with a warning.
   */
  private removeDanglingElements(points: Uint32Array): void {
    const mesh = this.mesh;
    for (const kind of ['hexahedron', 'tetrahedron', 'quad', 'triangle', 'edge'] as const) {
      if (mesh.count(kind) === 0) continue;
      const shells = mesh.aroundVertex[kind];
      if (!anyAround(shells, points)) continue;
      const { off, len, items } = shells.raw();
      // the elements around those points, each once
      const found: number[] = [];
      const mark = new Uint8Array(mesh.count(kind));
      for (let r = 0; r < points.length; r++) {
        const p = points[r];
        if (p >= shells.count) continue;
        for (let q = off[p], end = off[p] + len[p]; q < end; q++) {
          const e = items[q];
          if (mark[e] === 0) {
            mark[e] = 1;
            found.push(e);
          }
        }
      }
      const sorted = desc(found);
      this.options.warn(`${sorted.length} ${kind}(s) still use points being removed: removed with them`);
      this.queueRemoved(kind, sorted);
      this.propagate();
      if (kind === 'edge') this.removeEdgesProcess(sorted, false);
      else if (kind === 'triangle' || kind === 'quad') this.removeFacesProcess(kind, sorted, false, false);
      else this.removeVolumesProcess(kind, sorted, false);
    }
  }

  private removeIsolatedPoints(points: ArrayLike<number>): void {
    if (points.length === 0) return;
    const sorted = desc(points);
    this.removeDanglingElements(sorted);
    this.removePointsWarning(sorted, this.options.propagateToDOF());
    this.propagate();
    this.removePointsProcess(sorted);
  }
}

/** True when some of the points has an element around it. */
function anyAround(shells: ShellStore, points: Uint32Array): boolean {
  const { len } = shells.raw();
  for (let r = 0; r < points.length; r++) if (points[r] < shells.count && len[points[r]] > 0) return true;
  return false;
}

/** The indices in descending order (a typed, numeric sort), as a new array. */
function desc(a: ArrayLike<number> | undefined): Uint32Array {
  return a ? new Uint32Array(a).sort().reverse() : new Uint32Array(0);
}
