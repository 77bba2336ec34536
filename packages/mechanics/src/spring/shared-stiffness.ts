import type { Data } from '@sofa-ts/core';

/**
 * SOFA applies an attribute to every Data of a component with that name or alias, in the order of
 * the attributes: MeshSpringForceField and RegularGridSpringForceField alias `stiffness` (`damping`)
 * to each per-element-type stiffness (damping). This gives the value of one per-type field `own`
 * under that rule, `shared` being SpringForceField's `stiffness` (`damping`): the shared value
 * applies unless the per-type attribute was written after it.
 */
export function perTypeValue(own: Data<number>, shared: Data<Float64Array>): number {
  if (!shared.isSet || shared.value.length === 0) return own.value;
  if (!own.isSet) return shared.value[0];
  return writtenAfter(shared, own) ? shared.value[0] : own.value;
}

/** True when `a` was written after `b` in the scene file. */
function writtenAfter(a: Data<unknown>, b: Data<unknown>): boolean {
  if (!a.loc || !b.loc) return false;
  return a.loc.line > b.loc.line || (a.loc.line === b.loc.line && a.loc.column > b.loc.column);
}
