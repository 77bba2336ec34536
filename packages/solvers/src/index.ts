export * from './DefaultAnimationLoop.js';
export * from './EulerImplicitSolver.js';
export * from './CGLinearSolver.js';
export * from './SparseLDLSolver.js';
export { solverComponents } from './components.js';
export { default as solversModule } from './module.js';
export * from './linear/index.js';
export * from './ode/index.js';
export * from './linear-system/index.js';
