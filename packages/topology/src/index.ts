export { topologyComponents } from './components.js';
export { default as topologyModule } from './module.js';
export * from './container/index.js';
export * from './grid/index.js';
export * from './mapping/index.js';
