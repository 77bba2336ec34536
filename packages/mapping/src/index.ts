export * from './mapping-component.js';
export { mappingComponents } from './components.js';
export { default as mappingModule } from './module.js';
