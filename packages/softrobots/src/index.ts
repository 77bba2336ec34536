export { softRobotsComponents } from './components.js';
export { default as softRobotsModule } from './module.js';
export * from './constraint/cable-geometry.js';
export * from './constraint/cable-resolution.js';
export * from './constraint/CableConstraint.js';
