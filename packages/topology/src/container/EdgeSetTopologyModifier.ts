import { sofaComponent } from '@sofa-ts/core';
import { PointSetTopologyModifier } from './PointSetTopologyModifier.js';

/** SOFA's EdgeSetTopologyModifier: changes of an edge topology (unused by batch runs without cutting). */
@sofaComponent({
  name: 'EdgeSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to an edge topology.',
})
export class EdgeSetTopologyModifier extends PointSetTopologyModifier {}
