export * from './MeshTopology.js';
export * from './CubeTopology.js';
export * from './PointSetTopologyContainer.js';
export * from './EdgeSetTopologyContainer.js';
export * from './TriangleSetTopologyContainer.js';
export * from './QuadSetTopologyContainer.js';
export * from './TetrahedronSetTopologyContainer.js';
export * from './HexahedronSetTopologyContainer.js';
export * from './PointSetTopologyModifier.js';
export * from './EdgeSetTopologyModifier.js';
export * from './TriangleSetTopologyModifier.js';
export * from './QuadSetTopologyModifier.js';
export * from './TetrahedronSetTopologyModifier.js';
export * from './HexahedronSetTopologyModifier.js';
export * from './PointSetGeometryAlgorithms.js';
export * from './EdgeSetGeometryAlgorithms.js';
export * from './TriangleSetGeometryAlgorithms.js';
export * from './QuadSetGeometryAlgorithms.js';
export * from './TetrahedronSetGeometryAlgorithms.js';
export * from './HexahedronSetGeometryAlgorithms.js';
export {
  TopologyContainer,
  isTopologyContainer,
  INVALID_INDEX,
  type ElementKind,
  type ElementSet,
  type TopologyType,
} from './topology-container.js';
export { listAt, type IndexLists } from './adjacency.js';
export { EDGES_IN_TETRAHEDRON, TRIANGLES_IN_TETRAHEDRON, EDGES_IN_HEXAHEDRON, QUADS_IN_HEXAHEDRON } from './element-tables.js';
