export * from './mapping-component.js';
export { IdentityMapping } from './IdentityMapping.js';
export { SubsetMapping } from './SubsetMapping.js';
export { BarycentricMapping, type BarycentricMapperKind } from './BarycentricMapping.js';
export { RigidMapping } from './RigidMapping.js';
export { BarycentricMap } from './barycentric/barycentric-map.js';
export { mappingComponents } from './components.js';
export { default as mappingModule } from './module.js';
