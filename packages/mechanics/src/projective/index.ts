export * from './PartialFixedProjectiveConstraint.js';
export * from './FixedPlaneProjectiveConstraint.js';
