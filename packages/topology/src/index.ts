export { topologyComponents } from './components.js';
export { default as topologyModule } from './module.js';
