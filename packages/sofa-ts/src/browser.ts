/**
 * The part of sofa-ts that runs outside Node (a browser's Web Worker): every standard component,
 * loading a scene from XML text and stepping it. Files are read through core's `host()`, which
 * the embedding program installs (`setHost`). Node-only helpers (state recorder, check) stay in
 * the main entry.
 */
export * from '@sofa-ts/core';
export * from './registry.js';
export * from './scene.js';
export * from './controller.js';
export * from './states.js';
export * from './step-probe.js';
