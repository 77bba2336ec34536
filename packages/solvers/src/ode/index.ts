export * from './ode-support.js';
export * from './EulerExplicitSolver.js';
export * from './runge-kutta.js';
export * from './RungeKutta2Solver.js';
export * from './RungeKutta4Solver.js';
export * from './StaticSolver.js';
export * from './NewtonRaphsonSolver.js';
export * from './VariationalSymplecticSolver.js';
