export * from './PartialFixedProjectiveConstraint.js';
export * from './FixedPlaneProjectiveConstraint.js';
export * from './LinearMovementProjectiveConstraint.js';
export * from './PointProjectiveConstraint.js';
export * from './LineProjectiveConstraint.js';
export * from './PlaneProjectiveConstraint.js';
export * from './DirectionProjectiveConstraint.js';
export * from './LinearVelocityProjectiveConstraint.js';
