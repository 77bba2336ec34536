import {
  AnimateBeginEvent,
  AnimateEndEvent,
  BaseAnimationLoop,
  Bool,
  componentCall,
  runCollisionPipelines,
  sofaComponent,
  updateMappings,
  type ConstraintOrder,
} from '@sofa-ts/core';
import { ConstraintGraph } from '../graph/constraint-graph.js';
import { isConstraintSolver, type BaseConstraintSolver } from '../solver/base-constraint-solver.js';
import { BlockGaussSeidelConstraintSolver } from '../solver/BlockGaussSeidelConstraintSolver.js';

/**
 * SOFA's FreeMotionAnimationLoop, the constraint-resolution step (Duriez et al.):
 *   1. AnimateBeginEvent;
 *   2. free motion: every ODE solver solves its subtree with λ = 0; its result is kept as the free
 *      motion (xFree, vFree) while x, v stay at the start of the step; free
 *      velocities are projected and mapped down (J·v_free), and every state gets
 *      x_free = x ⊕ dt·v_free (SOFA's freePos = pos + dt·freeVel, mapped states included);
 *   3. collision detection and response (contact constraints are created here), as in SOFA after
 *      the free motion, on the positions of the start of the step;
 *   4. the constraint solver builds J, δ_free (on free positions), W = J·A⁻¹·Jᵀ from the constraint
 *      corrections, solves for the impulses λ and corrects x = x_free ⊕ dt·A⁻¹Jᵀλ,
 *      v = v_free + A⁻¹Jᵀλ (backward Euler's factors; states without a constraint correction keep
 *      their position and velocity of the start of the step, as in SOFA);
 *   5. projective constraints on x and v, mapped states from their inputs, time += dt,
 *      AnimateEndEvent, every mapping applied (visual ones included).
 * solveVelocityConstraintFirst poses the problem on velocities ('vel'): v corrected, then x = x + dt·v.
 */
@sofaComponent({
  name: 'FreeMotionAnimationLoop',
  aliases: ['FreeMotionMasterSolver'],
  category: 'AnimationLoop',
  module: 'Sofa.Component.AnimationLoop',
  description: 'The animation loop to use with constraints: free motion, collision, constraint solve, correction.',
})
export class FreeMotionAnimationLoop extends BaseAnimationLoop {
  readonly solveVelocityConstraintFirst = this.initData({
    name: 'solveVelocityConstraintFirst',
    type: Bool,
    default: false,
    help: 'solve separately velocity constraint violations before position constraint violations',
  });
  readonly threadSafeVisitor = this.initData({ name: 'threadSafeVisitor', type: Bool, default: false, help: 'accepted for compatibility' });
  readonly parallelCollisionDetectionAndFreeMotion = this.initData({
    name: 'parallelCollisionDetectionAndFreeMotion',
    type: Bool,
    default: false,
    help: 'execute free motion and collision detection in parallel (accepted; sofa-ts runs them in turn)',
  });
  readonly parallelODESolving = this.initData({
    name: 'parallelODESolving',
    type: Bool,
    default: false,
    help: 'solve all the ODEs in parallel during the free motion (accepted; sofa-ts solves them in turn)',
  });
  readonly computeBoundingBox = this.initData({
    name: 'computeBoundingBox',
    type: Bool,
    default: true,
    help: 'compute the bounding box of the scene at each step (no effect in batch runs)',
  });

  readonly constraintSolver = this.initLink<BaseConstraintSolver>({
    name: 'constraintSolver',
    help: 'the constraint solver used in this animation loop (default: the first one below the root; a BlockGaussSeidelConstraintSolver is added when there is none)',
    accepts: isConstraintSolver,
    expected: 'a constraint solver',
    search: 'none',
  });

  private graph: ConstraintGraph | undefined;
  /** Milliseconds of the phases of the last step, for the CLI and benchmarks. */
  readonly timings = { freeMotion: 0, collision: 0, constraints: 0 };

  override init(): void {
    if (this.constraintSolver.get()) return;
    const found = this.context.getObject(isConstraintSolver, 'down');
    if (found) {
      this.constraintSolver.set(found);
      return;
    }
    // SOFA adds a default constraint solver when the scene has none
    const solver = new BlockGaussSeidelConstraintSolver();
    solver.name.value = 'BlockGaussSeidelConstraintSolver';
    this.context.addObject(solver);
    solver.init();
    this.constraintSolver.set(solver);
  }

  /** The constraint view of the scene (compiled again when the graph changed). */
  getGraph(): ConstraintGraph {
    if (!this.graph || this.graph.isStale) this.graph = ConstraintGraph.compile(this.context);
    return this.graph;
  }

  step(dt: number): void {
    const root = this.context;
    const t0 = root.getTime();
    const order: ConstraintOrder = this.solveVelocityConstraintFirst.value ? 'vel' : 'posAndVel';
    root.propagateEvent(new AnimateBeginEvent(dt));

    let t = performance.now();
    this.freeMotion(dt, order);
    this.timings.freeMotion = performance.now() - t;

    t = performance.now();
    runCollisionPipelines(root);
    this.timings.collision = performance.now() - t;

    t = performance.now();
    const graph = this.getGraph();
    const fresh = graph.ensureFreeVectors();
    if (fresh.length > 0) graph.propagateFreeMotionTo(fresh, dt, order);
    const solver = this.constraintSolver.require();
    componentCall.current = solver;
    solver.solveConstraint({ graph, order, dt, time: t0 });
    componentCall.current = this;
    if (order === 'vel') graph.integrateVelocities(dt);
    graph.projectPositionsAndVelocities();
    graph.propagatePositionsAndVelocities();
    for (const s of graph.states) s.state.touch();
    this.timings.constraints = performance.now() - t;

    root.setTime(t0 + dt);
    root.propagateEvent(new AnimateEndEvent(dt));
    updateMappings(root);
  }

  /** Step 2: the ODE solvers' result becomes the free motion; x and v stay at the start of the step. */
  private freeMotion(dt: number, order: ConstraintOrder): void {
    const graph = this.getGraph();
    graph.ensureFreeVectors();
    graph.saveStates();
    for (const s of graph.odeSolvers) {
      componentCall.current = s;
      s.solve(dt);
    }
    componentCall.current = this;
    graph.takeFreeMotion();
    graph.propagateFreeMotion(dt, order);
  }
}
