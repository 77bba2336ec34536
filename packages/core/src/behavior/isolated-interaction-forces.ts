import { componentCall } from '../component-call.js';
import type { Node } from '../node.js';
import { isForceField } from './force-field.js';
import type { BaseMechanicalState } from './mechanical-state.js';
import { isOdeSolver } from './solvers.js';

/**
 * SOFA's SolveVisitor with computeForceIsolatedInteractionForceFields (DefaultAnimationLoop): an
 * interaction force field (two states) in a node that no ODE solver owns (no solver in the node or
 * above it) is integrated by nobody, so its force is computed once, at the positions and velocities
 * of the start of the step, and added to the states' externalStepForce; each solver then adds that
 * vector to its forces (an explicit force: it does not enter the solvers' matrices). Contacts
 * between two objects that have their own solvers are such force fields (the collision response
 * puts them in the pipeline's node).
 * Forces SOFA brings through a contact mapping are deferred (BaseForceField.addIsolatedForce): the
 * solvers add them after their force fields, in order, as SOFA's mapping Jᵀ does.
 * The states given a force are appended to `touched`, for clearExternalStepForces at the end of the
 * integration. Nodes are visited top-down; sofa-ts computes these forces before any solver runs
 * (SOFA interleaves them with the solvers in visit order, which differs only for force fields placed
 * below a sibling's solver node).
 */
export function addIsolatedInteractionForces(root: Node, touched: BaseMechanicalState[]): void {
  const caller = componentCall.current;
  root.visit((n) => {
    if (!n.activated.value) return false;
    if (n.objects.some(isOdeSolver)) return false;
    for (const o of n.objects) {
      if (!isForceField(o) || o.componentState === 'invalid') continue;
      const states = o.getMechanicalStates();
      if (states.length < 2) continue;
      const f: Float64Array[] = [];
      const x: Float64Array[] = [];
      const v: Float64Array[] = [];
      for (const s of states) {
        const n = s.size * s.stateType.derivSize;
        if (s.externalStepForce.length !== n) s.externalStepForce = new Float64Array(n);
        if (!touched.includes(s)) touched.push(s);
        f.push(s.externalStepForce);
        x.push(s.x);
        v.push(s.v);
      }
      componentCall.current = o;
      if (o.addIsolatedForce) o.addIsolatedForce(f, x, v, (arg, add) => states[arg].deferredStepForces.push(add));
      else o.addForce(f, x, v);
    }
    return true;
  });
  componentCall.current = caller;
}

/** SOFA's end of integration for the external forces: zero them on the given states and forget them. */
export function clearExternalStepForces(touched: BaseMechanicalState[]): void {
  for (const s of touched) {
    s.externalStepForce.fill(0);
    s.deferredStepForces.length = 0;
  }
  touched.length = 0;
}
