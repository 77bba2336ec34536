import { Indices, sofaComponent } from '@sofa-ts/core';
import { EdgeSetTopologyModifier } from './EdgeSetTopologyModifier.js';

/** SOFA's TriangleSetTopologyModifier: adds and removes triangles (their missing edges are created, isolated edges and points removed). */
@sofaComponent({
  name: 'TriangleSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to a triangular topology.',
})
export class TriangleSetTopologyModifier extends EdgeSetTopologyModifier {
  readonly listOut = this.initData({
    name: 'list_Out',
    type: Indices,
    default: new Uint32Array(0),
    help: 'triangles with at least one null value',
  });

  /** Appends triangles, (n × 3) vertex indices; the edges they lack are created first. */
  addTriangles(triangles: ArrayLike<number>, ancestors?: readonly (readonly number[])[], coefs?: readonly (readonly number[])[]): void {
    this.ops.addElements('triangle', triangles, ancestors, coefs);
  }

  removeTriangles(ids: readonly number[], removeIsolatedEdges = true, removeIsolatedPoints = true): void {
    this.ops.removeTriangles(ids, removeIsolatedEdges, removeIsolatedPoints);
  }

  override removeItems(items: readonly number[]): void {
    this.removeTriangles(items, true, true);
  }
}
