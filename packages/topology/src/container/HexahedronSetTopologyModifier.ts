import { Bool, sofaComponent } from '@sofa-ts/core';
import { QuadSetTopologyModifier } from './QuadSetTopologyModifier.js';

/** SOFA's HexahedronSetTopologyModifier: adds and removes hexahedra (faces and edges they lack are created; isolated quads, edges and, with removeIsolated, points removed). */
@sofaComponent({
  name: 'HexahedronSetTopologyModifier',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology modifier dedicated to an hexahedral topology.',
})
export class HexahedronSetTopologyModifier extends QuadSetTopologyModifier {
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

  /** Appends hexahedra, (n × 8) vertex indices in SOFA's order; the quads and edges they lack are created first. */
  addHexahedra(hexahedra: ArrayLike<number>, ancestors?: readonly (readonly number[])[], coefs?: readonly (readonly number[])[]): void {
    this.ops.addElements('hexahedron', hexahedra, ancestors, coefs);
  }

  removeHexahedra(ids: readonly number[], removeIsolatedItems = true): void {
    this.ops.removeVolumes('hexahedron', ids, removeIsolatedItems);
  }

  override removeItems(items: readonly number[]): void {
    this.removeHexahedra(items);
  }
}
