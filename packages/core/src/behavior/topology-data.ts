/**
 * Helpers for components that hold per-point or per-element data (SOFA's TopologyData and
 * TopologySubsetIndices): a few lines make such data follow the changes of a dynamic topology.
 *
 *   // per-element values (stride numbers per tetrahedron), new elements computed by a callback
 *   this.stiffness = new TopologyElementData(topology, 'tetrahedron', 9, {
 *     onAdd: (e, out, offset) => this.computeElement(e, out, offset),
 *   });
 *   ... this.stiffness.values[9 * e + k] ...      // read through .values after any change
 *
 *   // a Data of point indices (fixed points, a region): removed points leave it, the moved last
 *   // point is renamed
 *   followPointIndices(topology, this.indices, () => this.reinit());
 *
 * Components that can rebuild everything from the topology and the rest positions may instead
 * compare `topology.revision` with the one they were built for and rebuild before use.
 */
import type { Data } from '../data.js';
import type { BaseMeshTopology } from './topology.js';
import {
  applyRemoval,
  renameAfterRemoval,
  type TopologyChange,
  type TopologyElementKind,
  type TopologyHandler,
} from './topology-change.js';

export interface TopologyElementDataOptions {
  /** Fills the values of a new item (stride numbers at `offset` of `values`); default 0. */
  onAdd?(
    index: number,
    values: Float64Array,
    offset: number,
    ancestors: readonly number[] | undefined,
    coefs: readonly number[] | undefined,
  ): void;
  /** Called before item `index` is removed (its values still readable). */
  onRemove?(index: number, values: Float64Array, offset: number): void;
}

/**
 * `stride` numbers per point or per element of one kind, following the topology's changes:
 * a removal copies the last item into the removed slot (SOFA's convention), an addition appends
 * items filled by `onAdd` (zero by default). `values` may be reallocated by a change.
 */
export class TopologyElementData implements TopologyHandler {
  private buf: Float64Array;
  count: number;

  constructor(
    readonly topology: BaseMeshTopology,
    readonly kind: 'point' | TopologyElementKind,
    readonly stride: number,
    private readonly options: TopologyElementDataOptions = {},
    initialCount = 0,
  ) {
    this.count = initialCount;
    this.buf = new Float64Array(Math.max(1, initialCount) * stride);
    topology.addTopologyHandler(this);
  }

  /** The values, (count × stride); read again after a change. */
  get values(): Float64Array {
    return this.buf.subarray(0, this.count * this.stride);
  }

  /** Sets the number of items (new ones zero), e.g. at init. */
  resize(count: number): void {
    this.reserve(count);
    if (count > this.count) this.buf.fill(0, this.count * this.stride, count * this.stride);
    this.count = count;
  }

  private reserve(count: number): void {
    if (count * this.stride <= this.buf.length) return;
    const b = new Float64Array(Math.max(2 * this.buf.length, count * this.stride));
    b.set(this.buf.subarray(0, this.count * this.stride));
    this.buf = b;
  }

  handleTopologyChange(change: TopologyChange): void {
    const mine =
      this.kind === 'point'
        ? change.type === 'pointsAdded' || change.type === 'pointsRemoved'
        : (change.type === 'elementsAdded' || change.type === 'elementsRemoved') && change.kind === this.kind;
    if (!mine) return;
    if (change.type === 'pointsRemoved' || change.type === 'elementsRemoved') {
      if (this.options.onRemove) for (const i of change.indices) if (i < this.count) this.options.onRemove(i, this.buf, i * this.stride);
      this.count = applyRemoval(this.buf, this.stride, this.count, change.indices);
      return;
    }
    if (change.type === 'pointsAdded' || change.type === 'elementsAdded') {
      const n = change.indices.length;
      this.reserve(this.count + n);
      for (let k = 0; k < n; k++) {
        const i = this.count;
        this.buf.fill(0, i * this.stride, (i + 1) * this.stride);
        this.count++;
        this.options.onAdd?.(i, this.buf, i * this.stride, change.ancestors?.[k], change.coefs?.[k]);
      }
    }
  }

  /** Stops following the topology. */
  dispose(): void {
    this.topology.removeTopologyHandler(this);
  }
}

/** The number of items of a kind in a topology. */
function itemCount(topology: BaseMeshTopology, kind: 'point' | TopologyElementKind): number {
  switch (kind) {
    case 'point':
      return topology.getNbPoints();
    case 'edge':
      return topology.getEdges().length / 2;
    case 'triangle':
      return topology.getTriangles().length / 3;
    case 'quad':
      return topology.getQuads().length / 4;
    case 'tetrahedron':
      return topology.getTetrahedra().length / 4;
    case 'hexahedron':
      return topology.getHexahedra().length / 8;
  }
}

/**
 * Keeps a Data of indices of points or elements of one kind in step with the removals of a
 * topology (SOFA's TopologySubsetIndices): the indices of removed items leave the list (its order
 * kept), the last item, moved into a removed slot, is renamed. `onChange` runs after each update
 * with the new list.
 * `current` gives the list in use when it is not read from the Data (a Data linked to an engine's
 * output would make the engine update first). Returns the handler (to remove it with
 * topology.removeTopologyHandler).
 */
export function followElementIndices(
  topology: BaseMeshTopology | undefined,
  kind: 'point' | TopologyElementKind,
  data: Data<Uint32Array>,
  onChange?: (indices: Uint32Array) => void,
  current?: () => ArrayLike<number>,
): TopologyHandler | undefined {
  if (!topology) return undefined;
  const handler: TopologyHandler = {
    handleTopologyChange(change, topo) {
      let removed: Uint32Array;
      if (change.type === 'pointsRemoved' && kind === 'point') removed = change.indices;
      else if (change.type === 'elementsRemoved' && change.kind === kind) removed = change.indices;
      else return;
      const before = current ? current() : data.value;
      // the event comes before the removal: the topology still counts the removed items
      const after = renameAfterRemoval(before, itemCount(topo, kind), removed);
      if (after.length === before.length && after.every((v, i) => v === before[i])) return;
      data.value = after;
      onChange?.(after);
    },
  };
  topology.addTopologyHandler(handler);
  return handler;
}

/** followElementIndices for point indices (the fixed points of a constraint, a region of points). */
export function followPointIndices(
  topology: BaseMeshTopology | undefined,
  data: Data<Uint32Array>,
  onChange?: (indices: Uint32Array) => void,
  current?: () => ArrayLike<number>,
): TopologyHandler | undefined {
  return followElementIndices(topology, 'point', data, onChange, current);
}
