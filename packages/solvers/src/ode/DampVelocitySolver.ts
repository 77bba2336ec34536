import { BaseOdeSolver, Real, isBaseMapping, isMechanicalState, sofaComponent, type BaseMechanicalState, type Node } from '@sofa-ts/core';

/**
 * SOFA's DampVelocitySolver: an "ODE solver" that only damps the velocities of the independent
 * states of its subtree (not the outputs of mechanical mappings, which follow their inputs):
 *   v ← exp(−rate·dt)·v,  then, when threshold ≠ 0, v_i ← 0 for every point i with |v_i| < threshold
 * (|v_i| the norm of the point's derivative: 3 numbers for Vec3, 6 for a Rigid3 frame).
 * It moves no position: it is meant to follow another ODE solver of the same node, which the
 * animation loop runs first (solvers of a node run in scene order).
 */
@sofaComponent({
  name: 'DampVelocitySolver',
  category: 'OdeSolver',
  module: 'Sofa.Component.ODESolver.Forward',
  description: 'Reduce the velocities.',
})
export class DampVelocitySolver extends BaseOdeSolver {
  readonly rate = this.initData({
    name: 'rate',
    type: Real,
    default: 0.99,
    unit: '1/s',
    help: 'Factor used to reduce the velocities. Typically between 0 and 1.',
  });
  readonly threshold = this.initData({
    name: 'threshold',
    type: Real,
    default: 0,
    help: 'Threshold under which the velocities are canceled.',
  });

  /** The independent states of the subtree (found at the first solve, again when the subtree changes). */
  private states: BaseMechanicalState[] = [];
  private revision = -1;

  solve(dt: number): void {
    const t0 = performance.now();
    const root = this.context;
    if (this.revision !== root.subtreeRevision) {
      this.states = independentStates(root);
      this.revision = root.subtreeRevision;
    }
    const factor = Math.exp(-this.rate.value * dt),
      t = this.threshold.value,
      t2 = t * t;
    for (const s of this.states) {
      const v = s.v,
        d = s.stateType.derivSize;
      for (let i = 0; i < v.length; i++) v[i] = v[i] * factor;
      // points slower than the threshold stop
      if (t !== 0) {
        for (let p = 0; p < v.length; p += d) {
          let n2 = 0;
          for (let k = 0; k < d; k++) n2 += v[p + k] * v[p + k];
          if (n2 < t2) v.fill(0, p, p + d);
        }
      }
      s.touch();
    }
    this.lastStats = { iterations: 0, residual: 0, timeMs: performance.now() - t0 };
  }
}

/** States of the subtree of `root` (nested ODE solvers' subtrees included, as SOFA's visitors traverse them) that no mechanical mapping of it produces. */
function independentStates(root: Node): BaseMechanicalState[] {
  const states: BaseMechanicalState[] = [];
  const mapped = new Set<BaseMechanicalState>();
  root.visit((n) => {
    if (!n.activated.value) return false;
    for (const o of n.objects) {
      if (isMechanicalState(o)) states.push(o);
      else if (isBaseMapping(o)) {
        const to = o.getTo();
        if (to) mapped.add(to);
      }
    }
    return true;
  });
  return states.filter((s) => !mapped.has(s));
}
