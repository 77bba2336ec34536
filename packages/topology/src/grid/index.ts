export * from './GridTopology.js';
export * from './RegularGridTopology.js';
export * from './SparseGridTopology.js';
export * from './SparseGridRamificationTopology.js';
export * from './SparseGridMultipleTopology.js';
export * from './sparse-grid-ramification.js';
export { parseObjSurface, readObjSurface, type ObjSurface } from './obj-surface.js';
export * from './CylinderGridTopology.js';
export * from './SphereGridTopology.js';
