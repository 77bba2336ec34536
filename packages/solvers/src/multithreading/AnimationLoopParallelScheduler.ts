import { BaseAnimationLoop, DataExchangeEvent, Int, componentCall, isAnimationLoop, sofaComponent, type Node } from '@sofa-ts/core';

/**
 * MultiThreading's AnimationLoopParallelScheduler: the root of independent simulations, one per
 * child node, each with its own animation loop. One step: every child's loop steps its subtree by
 * dt (a child without a loop does not move, as in SOFA), then the root's time advances by dt and a
 * DataExchangeEvent goes through the graph (DataExchange copies its source then). SOFA steps the
 * children on the task scheduler's threads; sofa-ts steps them one after the other, in document
 * order, which gives the same states (the subtrees share nothing during a step) — said at init.
 */
@sofaComponent({
  name: 'AnimationLoopParallelScheduler',
  category: 'AnimationLoop',
  module: 'MultiThreading',
  description: "Steps each child node's own animation loop (SOFA: in parallel; sofa-ts: in turn), then exchanges data.",
})
export class AnimationLoopParallelScheduler extends BaseAnimationLoop {
  readonly nbThreads = this.initData({
    name: 'nbThreads',
    type: Int,
    default: 0,
    help: 'number of threads of the task scheduler (0: one per core) — SOFA; sofa-ts steps the children in turn',
  });

  override init(): void {
    super.init();
    const loops = this.childLoops();
    if (loops.length === 0)
      this.warn('no child node has an animation loop: nothing moves (each child needs its own, e.g. DefaultAnimationLoop)');
    this.warn(`steps its ${loops.length} child simulation(s) one after the other in sofa-ts (SOFA: in parallel; the same states)`);
  }

  step(dt: number): void {
    const root = this.context;
    const t0 = root.getTime();
    const caller = componentCall.current;
    for (const loop of this.childLoops()) {
      componentCall.current = loop;
      loop.step(dt);
    }
    componentCall.current = caller;
    root.setTime(t0 + dt);
    root.propagateEvent(new DataExchangeEvent(dt));
  }

  /** The animation loop of each child node (SOFA's getAnimationLoop: the node's own), in document order. */
  private childLoops(): BaseAnimationLoop[] {
    return this.context.children.flatMap((c: Node) => c.objects.filter(isAnimationLoop).slice(0, 1));
  }
}
