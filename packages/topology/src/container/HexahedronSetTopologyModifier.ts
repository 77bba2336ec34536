import { Bool, sofaComponent } from '@sofa-ts/core';
import { QuadSetTopologyModifier } from './QuadSetTopologyModifier.js';

/** SOFA's HexahedronSetTopologyModifier: changes of an hexahedral topology (unused by batch runs without cutting). */
@sofaComponent({
  name: 'HexahedronSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to an hexahedral topology.',
})
export class HexahedronSetTopologyModifier extends QuadSetTopologyModifier {
  readonly removeIsolated = this.initData({ name: 'removeIsolated', type: Bool, default: true, help: 'remove the points left without element' });
}
