export * from './inert-component.js';
export * from './components.js';
export { default as visualModule } from './module.js';
