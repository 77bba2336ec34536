/**
 * sofa-ts: SOFA scenes in TypeScript. This umbrella package registers every standard component
 * and exports the scripting API: load a scene (file or XML string) or build one in code, step it,
 * read and write Data and states.
 */
export * from '@sofa-ts/core';
export * from './registry.js';
export * from './plugins.js';
export * from './scene.js';
export * from './controller.js';
export * from './states.js';
export * from './topologies.js';
export { MechanicalSystem, LinearSolver, type MBKFactors } from '@sofa-ts/assembly';
export * as mechanics from '@sofa-ts/mechanics';
export * as solvers from '@sofa-ts/solvers';
export * as visual from '@sofa-ts/visual';
export * as topology from '@sofa-ts/topology';
export * as engine from '@sofa-ts/engine';
export * as mapping from '@sofa-ts/mapping';
export * as collision from '@sofa-ts/collision';
export * as compliant from '@sofa-ts/compliant';
export * as constraint from '@sofa-ts/constraint';
export * as softrobots from '@sofa-ts/softrobots';
export * as io from '@sofa-ts/io';
export * from './state-recorder.js';
export * from './check.js';
export * from './checkpoint-verify.js';
export * from './step-probe.js';
export * from './checkpoint-file.js';
