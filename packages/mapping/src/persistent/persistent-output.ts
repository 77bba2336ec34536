import type { BaseMechanicalState, BaseObject } from '@sofa-ts/core';

/**
 * The contact points of a persistent contact mapping changed (their number, elements or frames):
 * the output state takes n points (SOFA resizes it), and the output's node reports a topological
 * change, so that the compiled systems (the ODE solver's, the constraint graph) rebuild the
 * mapping's Jacobian pattern and sizes before they use them again.
 */
export function persistentOutputChanged(mapping: BaseObject, to: BaseMechanicalState, n: number): void {
  if (to.size !== n) {
    const resizable = to as BaseMechanicalState & { resize?: (n: number) => void };
    if (typeof resizable.resize !== 'function')
      throw mapping.error(`output ${to.describe()} cannot be resized to the ${n} contact points: use a MechanicalObject`);
    resizable.resize(n);
  }
  to.context.topologyChanged();
}
