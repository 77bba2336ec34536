import { sofaComponent } from '@sofa-ts/core';
import { EdgeSetTopologyModifier } from './EdgeSetTopologyModifier.js';

/** SOFA's QuadSetTopologyModifier: changes of a quad topology (unused by batch runs without cutting). */
@sofaComponent({
  name: 'QuadSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to a quad topology.',
})
export class QuadSetTopologyModifier extends EdgeSetTopologyModifier {}
