import { Indices, sofaComponent } from '@sofa-ts/core';
import { EdgeSetTopologyModifier } from './EdgeSetTopologyModifier.js';

/** SOFA's TriangleSetTopologyModifier: changes of a triangular topology (unused by batch runs without cutting). */
@sofaComponent({
  name: 'TriangleSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to a triangular topology.',
})
export class TriangleSetTopologyModifier extends EdgeSetTopologyModifier {
  readonly listOut = this.initData({ name: 'list_Out', type: Indices, default: new Uint32Array(0), help: 'triangles with at least one null value' });
}
