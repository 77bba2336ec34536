import {
  contextMeshTopology,
  isMechanicalState,
  isTopology,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type BaseObject,
  type Link,
  type LinkSpec,
} from '@sofa-ts/core';
import { positionsAs3D, type MassElementType } from './element-geometry.js';

/** The `topology` link of the mesh masses: by default the first topology of the node or above. */
export function topologyLink(): LinkSpec<BaseMeshTopology> {
  return {
    name: 'topology',
    help: 'link to the topology container (default: the first one found in the node or above)',
    accepts: isTopology,
    expected: 'a topology container',
  };
}

/** The `geometryState` link: the state whose positions measure the elements. */
export function geometryStateLink(): LinkSpec<BaseMechanicalState> {
  return {
    name: 'geometryState',
    help: "link to the MechanicalObject holding the geometry (default: the state of the topology's node)",
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
  };
}

/** What a mesh mass reads from its topology at init. */
export interface MassMesh {
  readonly topology: BaseMeshTopology;
  readonly geometry: BaseMechanicalState;
  /** The element kind the mass is built from: the highest-dimensional one present. */
  readonly kind: MassElementType;
  /** Element vertex indices, (nElements × vertices per element). */
  readonly elements: Uint32Array;
  readonly count: number;
}

/**
 * Resolves the topology (link, else the node's topology as SOFA's context gives it: contextMeshTopology), the geometry
 * state (link, else the state of the topology's node) and the element kind, as SOFA's mesh masses
 * do: hexahedra, else tetrahedra, else quads, else triangles, else edges. A rigid geometry state
 * (allowed for the masses of rigid frames) is measured on its frames' centres.
 */
export function resolveMassMesh(
  owner: BaseObject,
  topoLink: Link<BaseMeshTopology>,
  geoLink: Link<BaseMechanicalState>,
  allowRigidGeometry = false,
): MassMesh {
  const topology = topoLink.get() ?? contextMeshTopology(owner.context);
  if (!topology)
    throw owner.error(
      'no topology found: a mesh mass needs a topology container (with edges, triangles, quads, tetrahedra or hexahedra) in its node or above, or a topology="@..." link',
    );
  topoLink.set(topology);
  const geometry = geoLink.get() ?? topology.context.getObject(isMechanicalState, 'up');
  if (!geometry) throw owner.error(`no mechanical state next to the topology ${topology.describe()}: set geometryState="@..."`);
  geoLink.set(geometry);
  if (geometry.stateType.isRigid && !allowRigidGeometry)
    throw owner.error(`the geometry state ${geometry.describe()} is rigid; a mesh mass needs point positions (Vec templates)`);
  // each list read only if the kinds above it are empty (a container derives its lower kinds when first asked)
  const pick: Array<[MassElementType, () => Uint32Array, number]> = [
    ['hexahedron', () => topology.getHexahedra(), 8],
    ['tetrahedron', () => topology.getTetrahedra(), 4],
    ['quad', () => topology.getQuads(), 4],
    ['triangle', () => topology.getTriangles(), 3],
    ['edge', () => topology.getEdges(), 2],
  ];
  for (const [kind, list, size] of pick) {
    const elements = list();
    if (elements.length > 0) return { topology, geometry, kind, elements, count: elements.length / size };
  }
  throw owner.error(`the topology ${topology.describe()} is empty: a mesh mass needs edges, triangles, quads, tetrahedra or hexahedra`);
}

/** Positions of the geometry state as (n × 3): the rest positions, or the current ones. */
export function geometryPositions(geometry: BaseMechanicalState, rest: boolean): Float64Array {
  const t = geometry.stateType;
  return positionsAs3D(rest ? geometry.x0 : geometry.x, geometry.size, t.coordSize, t.spatialDimensions);
}

/** Checks that every element vertex is a point of the geometry. */
export function checkElementIndices(owner: BaseObject, mesh: MassMesh): void {
  const n = mesh.geometry.size;
  for (let i = 0; i < mesh.elements.length; i++) {
    if (mesh.elements[i] >= n)
      throw owner.error(`${mesh.kind} vertex index ${mesh.elements[i]} is out of range: ${mesh.geometry.describe()} has ${n} points`);
  }
}
