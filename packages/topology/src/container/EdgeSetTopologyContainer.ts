import { Bool, sofaComponent, type Data } from '@sofa-ts/core';
import { Edges } from './element-data.js';
import { PointSetTopologyContainer } from './PointSetTopologyContainer.js';
import type { ElementKind } from './topology-container.js';

/** SOFA's EdgeSetTopologyContainer: points and edges (given by the scene, a loader or a mapping). */
@sofaComponent({
  name: 'EdgeSetTopologyContainer',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology container for an edge topology.',
})
export class EdgeSetTopologyContainer extends PointSetTopologyContainer {
  readonly edges = this.initData({ name: 'edges', type: Edges, default: new Uint32Array(0), help: 'edges (pairs of point indices)' });
  readonly checkConnexity = this.initData({ name: 'checkConnexity', type: Bool, default: false, help: 'check that the mesh is connected' });

  protected override elementData(kind: ElementKind): Data<Uint32Array> | undefined {
    return kind === 'edge' ? this.edges : super.elementData(kind);
  }
}
