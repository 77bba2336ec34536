export * from './ConstantForceField.js';
export * from './PlaneForceField.js';
export * from './RestShapeSpringsForceField.js';
export * from './Gravity.js';
