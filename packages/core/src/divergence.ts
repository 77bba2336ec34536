import { isMechanicalState, type BaseMechanicalState } from './behavior/mechanical-state.js';
import { formatTime } from './component-error.js';
import { SofaError } from './errors.js';
import type { Node } from './node.js';

/** The first non-finite value found in the states after a step. */
export interface Divergence {
  /** The step after which it was found (1-based, steps since init or the last reset). */
  readonly step: number;
  /** Simulated time at the end of that step, in s. */
  readonly time: number;
  readonly state: BaseMechanicalState;
  /** Path of the state's node (`/root/body`). */
  readonly nodePath: string;
  readonly vector: 'position' | 'velocity';
  /** Index of the scalar in x (coordinate layout) or v (derivative layout). */
  readonly index: number;
  /** Its value: NaN, Infinity or -Infinity. */
  readonly value: number;
}

/** A step left a non-finite position or velocity: the simulation diverged (Simulation.step throws it
 *  unless its divergence policy is 'continue'). */
export class DivergenceError extends SofaError {
  constructor(readonly divergence: Divergence) {
    const d = divergence;
    const t = d.state.stateType;
    const per = d.vector === 'position' ? t.coordSize : t.derivSize;
    const point = Math.floor(d.index / per);
    super(
      `the simulation diverged: ${d.vector} ${d.index % per} of point ${point} is ${d.value} after step ${d.step} (t = ${formatTime(d.time)} s)`,
      {
        ...(d.state.loc ? { loc: d.state.loc } : {}),
        component: `${d.state.describe()} in ${d.nodePath}`,
        hint: 'a smaller dt, an implicit ODE solver or a lower stiffness usually cures it',
      },
    );
    this.name = 'DivergenceError';
  }
}

/**
 * Checks the positions and velocities of every mechanical state of a scene (mapped ones included)
 * for NaN and ±Infinity after a step. The check is one fused pass of multiply-adds,
 * acc += x_i·0 (0 for a finite x_i, NaN otherwise), over arrays read in place; the states are
 * collected again only when the graph changed (Node.subtreeRevision). The value and its state are
 * looked up only when the sum is not 0.
 */
export class DivergenceGuard {
  private states: BaseMechanicalState[] = [];
  private revision = -1;

  constructor(readonly root: Node) {}

  /** The first non-finite value in visit order (positions of a state before its velocities), or undefined. */
  check(step: number, time: number): Divergence | undefined {
    if (this.revision !== this.root.subtreeRevision) this.collect();
    const states = this.states;
    let acc = 0;
    for (let s = 0; s < states.length; s++) {
      const st = states[s];
      const x = st.x;
      for (let i = 0; i < x.length; i++) acc += x[i] * 0;
      const v = st.v;
      for (let i = 0; i < v.length; i++) acc += v[i] * 0;
    }
    return acc === 0 ? undefined : this.locate(step, time);
  }

  private locate(step: number, time: number): Divergence | undefined {
    for (const state of this.states) {
      for (const [vector, a] of [
        ['position', state.x],
        ['velocity', state.v],
      ] as const) {
        for (let i = 0; i < a.length; i++) {
          if (!Number.isFinite(a[i])) {
            return { step, time, state, nodePath: state.hasContext ? state.context.path : '?', vector, index: i, value: a[i] };
          }
        }
      }
    }
    return undefined;
  }

  private collect(): void {
    const states: BaseMechanicalState[] = [];
    this.root.visit((n) => {
      for (const o of n.objects) if (isMechanicalState(o)) states.push(o);
    });
    this.states = states;
    this.revision = this.root.subtreeRevision;
  }
}
