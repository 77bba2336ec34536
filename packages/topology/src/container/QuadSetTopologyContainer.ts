import { sofaComponent, type Data } from '@sofa-ts/core';
import { Quads } from './element-data.js';
import { EdgeSetTopologyContainer } from './EdgeSetTopologyContainer.js';
import { surfaceEdges } from './mesh-derivation.js';
import { NO_ELEMENTS, type ElementKind } from './topology-container.js';

/**
 * SOFA's QuadSetTopologyContainer: points, edges and quads. When no edges are given they are the
 * quads' edges in order of appearance (edge j of a quad joins its vertices j+1 and j+2 modulo 4),
 * stored smaller index first.
 */
@sofaComponent({
  name: 'QuadSetTopologyContainer',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology container dedicated to a quad topology.',
})
export class QuadSetTopologyContainer extends EdgeSetTopologyContainer {
  readonly quads = this.initData({ name: 'quads', type: Quads, default: new Uint32Array(0), help: 'quads (4 point indices each)' });

  protected override elementData(kind: ElementKind): Data<Uint32Array> | undefined {
    return kind === 'quad' ? this.quads : super.elementData(kind);
  }

  protected override deriveElements(kind: ElementKind): Uint32Array {
    if (kind === 'edge') return surfaceEdges(NO_ELEMENTS, this.getQuads());
    return super.deriveElements(kind);
  }
}
