export { collisionComponents } from './components.js';
export { default as collisionModule } from './module.js';
