import {
  AnimateBeginEvent,
  AnimateEndEvent,
  BaseAnimationLoop,
  Bool,
  Int,
  isBaseMapping,
  runningOdeSolvers,
  isProjectiveConstraint,
  sofaComponent,
  addIsolatedInteractionForces,
  clearExternalStepForces,
  componentCall,
  runCollisionPipelines,
  updateMappings,
  type BaseMechanicalState,
  type BaseOdeSolver,
  type Node,
} from '@sofa-ts/core';

/**
 * SOFA's DefaultAnimationLoop. One step:
 *   AnimateBeginEvent → collision pipelines (reset, detection, response) → forces of interaction
 *   force fields no solver owns (SOFA's isolated interaction force fields) → each ODE solver solves
 *   its subtree (the highest node holding solvers; subtrees below it belong to it) → projective
 *   constraints project positions and velocities (SOFA's projectPositionAndVelocity, at the time of
 *   the start of the step: prescribed motions such as LinearMovementProjectiveConstraint) →
 *   time += dt → mappings → AnimateEndEvent.
 * Each phase is a method, so derived loops and the CLI can time them.
 */
@sofaComponent({
  name: 'DefaultAnimationLoop',
  category: 'AnimationLoop',
  module: 'Sofa.Component.AnimationLoop',
  description: 'Simulation loop: begin event, ODE solvers of each subtree, time advance, end event.',
})
export class DefaultAnimationLoop extends BaseAnimationLoop {
  readonly parallelODESolving = this.initData({
    name: 'parallelODESolving',
    type: Bool,
    default: false,
    help: 'solve independent subtrees in parallel (accepted; sofa-ts solves them in turn)',
  });
  readonly computeBoundingBox = this.initData({
    name: 'computeBoundingBox',
    type: Bool,
    default: true,
    help: 'compute the bounding box of the scene at each step (no effect in batch runs)',
  });
  readonly threadSafeVisitor = this.initData({ name: 'threadSafeVisitor', type: Bool, default: false, help: 'accepted for compatibility' });
  readonly stepCount = this.initData({ name: 'stepCount', type: Int, default: 0, help: 'number of steps taken since init', output: true });

  private solvers: BaseOdeSolver[] | undefined;
  /** States given an external force for the current step (cleared after solving). */
  private readonly externalForceStates: BaseMechanicalState[] = [];

  step(dt: number): void {
    const root = this.context;
    this.beginStep(root, dt);
    this.collision(root);
    this.solve(dt);
    this.projectPositionAndVelocity(root);
    this.advanceTime(root, dt);
    this.updateMappings(root);
    this.endStep(root, dt);
    this.stepCount.value = this.stepCount.value + 1;
  }

  protected beginStep(root: Node, dt: number): void {
    root.propagateEvent(new AnimateBeginEvent(dt));
  }

  /** SOFA's CollisionVisitor: every collision pipeline of the scene. */
  protected collision(root: Node): void {
    runCollisionPipelines(root);
  }

  /** Runs the ODE solver of every top-most solver node, in visit order, after the isolated interaction forces. */
  protected solve(dt: number): void {
    addIsolatedInteractionForces(this.context, this.externalForceStates);
    const caller = componentCall.current;
    for (const s of this.odeSolvers()) {
      componentCall.current = s;
      s.solve(dt);
    }
    componentCall.current = caller;
    clearExternalStepForces(this.externalForceStates);
  }

  /**
   * SOFA's MechanicalProjectPositionAndVelocityVisitor: x ← P(x), v ← P(v) for every projective
   * constraint, in visit order; as in SOFA the visit stops at nodes holding a mechanical mapping
   * (their states follow their inputs).
   */
  protected projectPositionAndVelocity(root: Node): void {
    root.visit((n) => {
      if (!n.activated.value) return false;
      if (n.objects.some((o) => isBaseMapping(o) && o.getTo() !== undefined)) return false;
      for (const o of n.objects) {
        if (!isProjectiveConstraint(o)) continue;
        const s = o.getMechanicalState();
        o.projectPosition(s.x);
        o.projectVelocity(s.v);
        s.touch();
      }
      return true;
    });
  }

  protected advanceTime(root: Node, dt: number): void {
    root.setTime(root.getTime() + dt);
  }

  /** SOFA's UpdateMappingVisitor: every mapping, visual ones included, in visit order (core's updateMappings). */
  protected updateMappings(root: Node): void {
    updateMappings(root);
  }

  protected endStep(root: Node, dt: number): void {
    root.propagateEvent(new AnimateEndEvent(dt));
  }

  /** The ODE solvers of each node that holds some, not below another solver node (SOFA's SolveVisitor). */
  odeSolvers(): BaseOdeSolver[] {
    if (!this.solvers) this.solvers = runningOdeSolvers(this.context);
    return this.solvers;
  }

  override reset(): void {
    this.stepCount.value = 0;
  }
}
