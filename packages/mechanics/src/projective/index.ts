export * from './PartialFixedProjectiveConstraint.js';
export * from './FixedPlaneProjectiveConstraint.js';
export * from './LinearMovementProjectiveConstraint.js';
