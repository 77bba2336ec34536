/**
 * @sofa-ts/python: SofaPython3 scenes on the sofa-ts engine. `loadPythonScene` runs a scene
 * script's createScene through python3; `sofa-ts run scene.py` and `loadScene('scene.py')` use it
 * (this module registers the `.py` loader when imported). The Python package `Sofa` ships in this
 * package's `python/` folder (`pythonPackageDir()`, `sofa-ts python-path`).
 */
import { registerSceneFileLoader } from 'sofa-ts';
import { loadPythonScene } from './load-python-scene.js';

export * from './channel.js';
export * from './load-python-scene.js';
export * from './python-controller.js';
export * from './python-process.js';
export * from './python-session.js';
export * from './wire-values.js';

registerSceneFileLoader('.py', (file, options) => loadPythonScene(file, options));
