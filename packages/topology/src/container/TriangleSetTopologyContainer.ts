import { sofaComponent, type Data } from '@sofa-ts/core';
import { Triangles } from './element-data.js';
import { EdgeSetTopologyContainer } from './EdgeSetTopologyContainer.js';
import { surfaceEdges } from './mesh-derivation.js';
import { NO_ELEMENTS, type ElementKind } from './topology-container.js';

/**
 * SOFA's TriangleSetTopologyContainer: points, edges and triangles. When no edges are given they are
 * the triangles' edges in order of appearance, edge j of triangle (a, b, c) joining its vertices
 * j+1 and j+2 and keeping that direction (so that boundary edges follow their triangle).
 */
@sofaComponent({
  name: 'TriangleSetTopologyContainer',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology container dedicated to a triangular topology.',
})
export class TriangleSetTopologyContainer extends EdgeSetTopologyContainer {
  readonly triangles = this.initData({
    name: 'triangles',
    type: Triangles,
    default: new Uint32Array(0),
    help: 'triangles (point index triples)',
  });

  protected override elementData(kind: ElementKind): Data<Uint32Array> | undefined {
    return kind === 'triangle' ? this.triangles : super.elementData(kind);
  }

  protected override deriveElements(kind: ElementKind): Uint32Array {
    if (kind === 'edge') return surfaceEdges(this.getTriangles(), NO_ELEMENTS);
    return super.deriveElements(kind);
  }
}
