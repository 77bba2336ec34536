import { BaseObject } from '../base-object.js';
import { componentCall } from '../component-call.js';
import type { Node } from '../node.js';
import type { TopologyChange, TopologyHandler } from './topology-change.js';

/** A regular grid a topology was built from (RegularGridTopology, SparseGridTopology). */
export interface GridDescription {
  /** Number of vertices along x, y, z. Vertex (i, j, k) has index i + nx·(j + ny·k). */
  readonly n: readonly [number, number, number];
  /** Bounding box of the grid: min corner and max corner. */
  readonly min: readonly [number, number, number];
  readonly max: readonly [number, number, number];
  /**
   * Position of vertex (0, 0, 0) when it is not `min` (RegularGridTopology's `p0` when set).
   * Cell sizes are always (max − min)/(n − 1).
   */
  readonly p0?: readonly [number, number, number];
  /**
   * Sparse grids only (SparseGridTopology): `n`, `min`, `max` describe the underlying regular grid,
   * and this array gives, for each of its cells (index i + (nx−1)·(j + (ny−1)·k)), the index of the
   * cell's hexahedron in getHexahedra(), or −1 when the cell is not part of the sparse grid.
   */
  readonly cellToHexahedron?: Int32Array;
  /** Sparse grids only: per hexahedron, 1 when it is a BOUNDARY cell (partly inside the object), else 0. */
  readonly boundaryHexahedra?: Uint8Array;
}

/**
 * A mesh topology (SOFA BaseMeshTopology): how the points of a mechanical state are connected.
 * Element arrays are flat Uint32Arrays of point indices, in SOFA's vertex orders:
 *   edges (nE × 2), triangles (nT × 3), quads (nQ × 4), tetrahedra (nTet × 4),
 *   hexahedra (nH × 8: SOFA's order, 0-1-2-3 the bottom face counter-clockwise, 4-7 the top face).
 * Containers that only hold some element types return empty arrays for the others; edges and
 * faces derived from volumes are computed by the container as SOFA does (on demand, then cached).
 */
const NO_PYRAMIDS = new Uint32Array(0);
const NO_PRISMS = new Uint32Array(0);

export abstract class BaseMeshTopology extends BaseObject {
  readonly isTopology = true;

  /** Number of points (vertices). */
  abstract getNbPoints(): number;
  /** Positions of the points (nPoints × 3) when the topology carries them (from a loader or a grid). */
  abstract getPositions(): Float64Array | undefined;
  abstract getEdges(): Uint32Array;
  abstract getTriangles(): Uint32Array;
  abstract getQuads(): Uint32Array;
  abstract getTetrahedra(): Uint32Array;
  abstract getHexahedra(): Uint32Array;
  /** Pyramids (nP × 5: base 0-1-2-3, apex 4); topologies that hold none return an empty array. */
  getPyramids(): Uint32Array {
    return NO_PYRAMIDS;
  }
  /** Triangular prisms (nP × 6: triangle 0-1-2 below 3-4-5); topologies that hold none return an empty array. */
  getPrisms(): Uint32Array {
    return NO_PRISMS;
  }
  /** The grid this topology was generated from, if any (for grid-based barycentric mappings). */
  getGrid(): GridDescription | undefined {
    return undefined;
  }
  /** Incremented at every change of the topology's inputs; consumers rebuild what depends on elements. */
  revision = 0;
  /**
   * Incremented only by topological changes (a modifier adding or removing points or elements):
   * components that rebuild their per-element data on change compare it with the value they were
   * built for.
   */
  changeRevision = 0;

  private readonly handlers: TopologyHandler[] = [];

  /**
   * Registers a handler of this topology's changes (a per-element array, a state, a topological
   * mapping...). Static topologies never change; dynamic containers tell their handlers through
   * `notifyTopologyChanges`, mechanical states first, then data, then topological mappings in
   * registration order within each group.
   */
  addTopologyHandler(handler: TopologyHandler): void {
    if (this.handlers.includes(handler)) return;
    this.handlers.push(handler);
    const rank = (h: TopologyHandler): number =>
      h.topologyHandlerPriority === 'state' ? 0 : h.topologyHandlerPriority === 'mapping' ? 2 : 1;
    // a stable sort keeps the registration order within a group
    this.handlers.sort((a, b) => rank(a) - rank(b));
  }

  removeTopologyHandler(handler: TopologyHandler): void {
    const i = this.handlers.indexOf(handler);
    if (i >= 0) this.handlers.splice(i, 1);
  }

  /** True when some component follows this topology's changes. */
  get hasTopologyHandlers(): boolean {
    return this.handlers.length > 0;
  }

  /**
   * Delivers a batch of changes to the handlers (called by the modifiers of dynamic containers):
   * each handler receives the whole batch in order before the next handler, as SOFA's topology
   * data handlers and then its topological mappings do.
   */
  notifyTopologyChanges(changes: readonly TopologyChange[]): void {
    const caller = componentCall.current;
    // a handler may register or remove handlers while it runs: iterate over a copy
    for (const h of this.handlers.slice()) {
      if (h instanceof BaseObject) componentCall.current = h;
      for (const c of changes) h.handleTopologyChange(c, this);
    }
    componentCall.current = caller;
  }
}

export function isTopology(o: unknown): o is BaseMeshTopology {
  return typeof o === 'object' && o !== null && (o as { isTopology?: unknown }).isTopology === true;
}

/**
 * The topology a component of `node` uses when its `topology` link is empty, as SOFA's
 * getMeshTopologyLink() gives it (force fields, masses, constraints, collision models): the LAST
 * topology declared in the node (each topology added to a SOFA node replaces the node's single
 * topology slot), else the FIRST topology of the nearest ancestor that has one.
 * MechanicalObject is the exception: it takes the FIRST topology of its own node (see localMeshTopology).
 */
export function contextMeshTopology(node: Node): BaseMeshTopology | undefined {
  let last: BaseMeshTopology | undefined;
  for (const o of node.objects) if (isTopology(o)) last = o;
  if (last) return last;
  for (let n = node.parent; n; n = n.parent) {
    const first = n.objects.find(isTopology);
    if (first) return first;
  }
  return undefined;
}

/** The FIRST topology declared in `node` (SOFA's getMeshTopology(Local), used by MechanicalObject's init). */
export function localMeshTopology(node: Node): BaseMeshTopology | undefined {
  return node.objects.find(isTopology);
}
