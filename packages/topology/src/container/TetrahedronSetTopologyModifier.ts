import { Bool, sofaComponent } from '@sofa-ts/core';
import { TriangleSetTopologyModifier } from './TriangleSetTopologyModifier.js';

/** SOFA's TetrahedronSetTopologyModifier: adds and removes tetrahedra (faces and edges they lack are created; isolated triangles, edges and, with removeIsolated, points removed). */
@sofaComponent({
  name: 'TetrahedronSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to a tetrahedral topology.',
})
export class TetrahedronSetTopologyModifier extends TriangleSetTopologyModifier {
  readonly removeIsolated = this.initData({
    name: 'removeIsolated',
    type: Bool,
    default: true,
    help: 'remove the points left without element',
  });

  protected override removesIsolatedPoints(): boolean {
    return this.removeIsolated.value;
  }

  /**
   * The container builds now the mesh a removal of volumes edits when its faces and edges are never
   * read (its volumes and the shells around their vertices, TopologyContainer.prepareLeanChanges),
   * as SOFA's containers build their arrays at init: the first removal does not pay for it.
   */
  override bwdInit(): void {
    super.bwdInit();
    this.findContainer()?.prepareLeanChanges();
  }

  /** Appends tetrahedra, (n × 4) vertex indices; the triangles and edges they lack are created first. */
  addTetrahedra(tetrahedra: ArrayLike<number>, ancestors?: readonly (readonly number[])[], coefs?: readonly (readonly number[])[]): void {
    this.ops.addElements('tetrahedron', tetrahedra, ancestors, coefs);
  }

  removeTetrahedra(ids: readonly number[], removeIsolatedItems = true): void {
    this.ops.removeVolumes('tetrahedron', ids, removeIsolatedItems);
  }

  override removeItems(items: readonly number[]): void {
    this.removeTetrahedra(items);
  }
}
