export { SceneSession } from './session/scene-session.js';
export { MouseSpringForceField, viewerModule } from './session/mouse-spring.js';
export * from './session/protocol.js';
export { startViewer, type ViewOptions, type RunningViewer } from './server/serve.js';
export { buildWeb } from './server/build-web.js';
export { webAssets } from './server/bundle.js';
