import { Int, positive, sofaComponent, type Node } from '@sofa-ts/core';
import { DefaultAnimationLoop } from './DefaultAnimationLoop.js';

/**
 * SOFA's MultiStepAnimationLoop: an animation step of dt split into collisionSteps collision
 * steps, each followed by integrationSteps integrations of h = dt / (collisionSteps·integrationSteps).
 * One step:
 *   AnimateBeginEvent → collisionSteps × [collision pipelines → integrationSteps × (isolated
 *   interaction forces, ODE solvers with h, projective constraints, time = t₀ + k·h)] →
 *   AnimateEndEvent → mappings (visual ones included).
 * With collisionSteps = 1 and integrationSteps = n the mechanics are those of DefaultAnimationLoop
 * stepping n times with dt/n, with one collision detection, one pair of events and one mapping
 * update per step instead of n. The phases are DefaultAnimationLoop's methods.
 *
 * Time: after the k-th integration of the step the time is t₀ + k·h, k counted over the whole step
 * (t₀ + dt at its end). SOFA's loop restarts k at each collision step, so its time ends at
 * t₀ + dt/collisionSteps; sofa-ts says so with a warning when collisionSteps > 1.
 * Inherited from DefaultAnimationLoop, SOFA's MultiStepAnimationLoop has no parallelODESolving nor
 * threadSafeVisitor: accepted here without effect.
 */
@sofaComponent({
  name: 'MultiStepAnimationLoop',
  category: 'AnimationLoop',
  module: 'Sofa.Component.AnimationLoop',
  aliases: ['MultiStepMasterSolver'],
  description:
    'Multi steps animation loop: collisionSteps collision detections per animation step, each followed by integrationSteps integrations of dt/(collisionSteps·integrationSteps). ' +
    'The time advances by dt per step (SOFA: dt/collisionSteps, warned about); parallelODESolving and threadSafeVisitor, from DefaultAnimationLoop, have no effect.',
})
export class MultiStepAnimationLoop extends DefaultAnimationLoop {
  readonly collisionSteps = this.initData({
    name: 'collisionSteps',
    type: Int,
    default: 1,
    range: positive,
    help: 'number of collision steps between each frame rendering',
  });
  readonly integrationSteps = this.initData({
    name: 'integrationSteps',
    type: Int,
    default: 1,
    range: positive,
    help: 'number of integration steps between each collision detection',
  });

  override init(): void {
    super.init();
    if (this.collisionSteps.value > 1) {
      this.warnAbout(
        this.collisionSteps,
        "the time advances by dt per animation step (each integration adds dt/(collisionSteps·integrationSteps)); SOFA's MultiStepAnimationLoop restarts its count at each collision step and advances it by dt/collisionSteps only",
      );
    }
  }

  override step(dt: number): void {
    const root = this.context;
    const nc = this.collisionSteps.value;
    const ni = this.integrationSteps.value;
    // h = dt / (nc·ni), the time step of every integration
    const h = dt / (nc * ni);
    this.beginStep(root, dt);
    const t0 = root.getTime();
    for (let c = 0; c < nc; c++) {
      this.collision(root);
      for (let i = 0; i < ni; i++) this.integrate(root, h, t0 + (c * ni + i + 1) * h);
    }
    this.endStep(root, dt);
    this.updateMappings(root);
    this.stepCount.value = this.stepCount.value + 1;
  }

  /** SOFA's integrate: the ODE solvers over h, the projective constraints, then the time set to `time`. */
  protected integrate(root: Node, h: number, time: number): void {
    this.solve(h);
    this.projectPositionAndVelocity(root);
    root.setTime(time);
  }
}
