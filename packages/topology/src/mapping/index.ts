export * from './topological-mapping.js';
export * from './Hexa2TetraTopologicalMapping.js';
export * from './Hexa2QuadTopologicalMapping.js';
export * from './Tetra2TriangleTopologicalMapping.js';
export * from './Mesh2PointTopologicalMapping.js';
