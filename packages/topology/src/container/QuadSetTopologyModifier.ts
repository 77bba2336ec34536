import { sofaComponent } from '@sofa-ts/core';
import { EdgeSetTopologyModifier } from './EdgeSetTopologyModifier.js';

/** SOFA's QuadSetTopologyModifier: adds and removes quads (their missing edges are created, isolated edges and points removed). */
@sofaComponent({
  name: 'QuadSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to a quad topology.',
})
export class QuadSetTopologyModifier extends EdgeSetTopologyModifier {
  /** Appends quads, (n × 4) vertex indices; the edges they lack are created first. */
  addQuads(quads: ArrayLike<number>, ancestors?: readonly (readonly number[])[], coefs?: readonly (readonly number[])[]): void {
    this.ops.addElements('quad', quads, ancestors, coefs);
  }

  removeQuads(ids: readonly number[], removeIsolatedEdges = true, removeIsolatedPoints = true): void {
    this.ops.removeQuads(ids, removeIsolatedEdges, removeIsolatedPoints);
  }

  override removeItems(items: readonly number[]): void {
    this.removeQuads(items, true, true);
  }
}
