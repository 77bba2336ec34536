import { AnimateBeginEvent, AnimateEndEvent, BaseObject, type SofaEvent } from '@sofa-ts/core';
import type { SofaScene } from './scene.js';

/**
 * What a script gives `SofaScene.addController`: functions called inside each animation step, at
 * SOFA's event points, as a SofaPython3 `Sofa.Core.Controller` writes them:
 *   onAnimateBeginEvent: at the start of the step, before collision and the solve; Data set here
 *     (gravity, forces, goals, rest positions) act in this step;
 *   onAnimateEndEvent: at the end of the step, once time has advanced and the positions are
 *     solved (mapped states and visual models are updated just after).
 */
export interface SceneController {
  onAnimateBeginEvent?(scene: SofaScene, event: AnimateBeginEvent): void;
  onAnimateEndEvent?(scene: SofaScene, event: AnimateEndEvent): void;
}

/**
 * The component that carries a script's controller in the scene graph (SOFA's Controller base):
 * it receives the events the animation loop sends through the graph, in visit order, and calls
 * the script's functions. Not creatable from a scene file: scripts add it with addController.
 */
export class ScriptController extends BaseObject {
  constructor(
    readonly scene: SofaScene,
    readonly controller: SceneController,
  ) {
    super();
    this.listening.value = true;
    this.componentState = 'valid';
  }

  override get className(): string {
    return 'ScriptController';
  }

  override handleEvent(event: SofaEvent): void {
    if (event instanceof AnimateBeginEvent) this.controller.onAnimateBeginEvent?.(this.scene, event);
    else if (event instanceof AnimateEndEvent) this.controller.onAnimateEndEvent?.(this.scene, event);
  }
}
