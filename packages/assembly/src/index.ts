export * from './mechanical-system.js';
export * from './linear-solver.js';
