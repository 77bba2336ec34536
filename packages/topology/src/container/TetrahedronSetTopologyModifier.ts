import { Bool, sofaComponent } from '@sofa-ts/core';
import { TriangleSetTopologyModifier } from './TriangleSetTopologyModifier.js';

/** SOFA's TetrahedronSetTopologyModifier: changes of a tetrahedral topology (unused by batch runs without cutting). */
@sofaComponent({
  name: 'TetrahedronSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to a tetrahedral topology.',
})
export class TetrahedronSetTopologyModifier extends TriangleSetTopologyModifier {
  readonly removeIsolated = this.initData({ name: 'removeIsolated', type: Bool, default: true, help: 'remove the points left without element' });
}
