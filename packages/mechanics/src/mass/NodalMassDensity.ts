import { BaseObject, RealArray, sofaComponent } from '@sofa-ts/core';

/**
 * SOFA's NodalMassDensity: a mass density per node (kg/m³), read by FEMMass. Node i takes
 * property[i], or the last value when the list is shorter (one value: a uniform density).
 */
@sofaComponent({
  name: 'NodalMassDensity',
  category: 'Mass',
  module: 'Sofa.Component.Mass',
  description: 'Definition of a nodal mass density (one value per dof).',
})
export class NodalMassDensity extends BaseObject {
  readonly isNodalMassDensity = true;
  readonly property = this.initData({
    name: 'property',
    type: RealArray(1),
    default: Float64Array.of(1),
    unit: 'kg/m³',
    help: 'mass density per node; nodes beyond the list take its last value',
  });

  /** The density of node i (SOFA's getNodeProperty): property[i], else the last value, else 1. */
  nodeDensity(i: number): number {
    const p = this.property.value;
    if (p.length > i) return p[i];
    return p.length > 0 ? p[p.length - 1] : 1;
  }
}

export function isNodalMassDensity(o: unknown): o is NodalMassDensity {
  return typeof o === 'object' && o !== null && (o as { isNodalMassDensity?: unknown }).isNodalMassDensity === true;
}
