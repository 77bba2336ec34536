export * from './MechanicalObject.js';
export * from './UniformMass.js';
export * from './FixedProjectiveConstraint.js';
export * from './SpringForceField.js';
export * from './rotation.js';
export * from './state-link.js';
export { mechanicsComponents } from './components.js';
export { default as mechanicsModule } from './module.js';
export * from './mass/index.js';
