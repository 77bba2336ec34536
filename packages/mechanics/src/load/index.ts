export * from './ConstantForceField.js';
export * from './PlaneForceField.js';
export * from './RestShapeSpringsForceField.js';
