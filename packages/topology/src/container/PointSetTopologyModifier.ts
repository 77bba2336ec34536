import { BaseObject, Bool, sofaComponent } from '@sofa-ts/core';

/**
 * SOFA's PointSetTopologyModifier: adds and removes points of its node's container and tells the
 * dependent components (cutting, carving). Batch runs without topological changes never call it: it
 * loads with its Data and does nothing while stepping. The element modifiers extend it.
 */
@sofaComponent({
  name: 'PointSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to a point topology.',
})
export class PointSetTopologyModifier extends BaseObject {
  readonly propagateToDOF = this.initData({ name: 'propagateToDOF', type: Bool, default: true, help: 'propagate the changes to the degrees of freedom of the mechanical object' });
}
