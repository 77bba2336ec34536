import { sofaComponent } from '@sofa-ts/core';
import { PointSetTopologyModifier } from './PointSetTopologyModifier.js';

/** SOFA's EdgeSetTopologyModifier: adds and removes edges (points left without edge go too, by default). */
@sofaComponent({
  name: 'EdgeSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to an edge topology.',
})
export class EdgeSetTopologyModifier extends PointSetTopologyModifier {
  /** Appends edges, (n × 2) vertex indices. */
  addEdges(edges: ArrayLike<number>, ancestors?: readonly (readonly number[])[], coefs?: readonly (readonly number[])[]): void {
    this.ops.addElements('edge', edges, ancestors, coefs);
  }

  removeEdges(ids: readonly number[], removeIsolatedPoints = true): void {
    this.ops.removeEdges(ids, removeIsolatedPoints);
  }

  override removeItems(items: readonly number[]): void {
    this.removeEdges(items);
  }
}
