export * from './DiagonalMass.js';
export * from './MeshMatrixMass.js';
export * from './element-geometry.js';
export * from './FEMMass.js';
export * from './NodalMassDensity.js';
