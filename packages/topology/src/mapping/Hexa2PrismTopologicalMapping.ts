import { sofaComponent, type BaseMeshTopology, type TopologyChange } from '@sofa-ts/core';
import { MeshTopology } from '../container/MeshTopology.js';
import { TopologicalMapping } from './topological-mapping.js';

/**
 * SOFA's Hexa2PrismTopologicalMapping: each hexahedron (c0 … c7) of the input becomes 2 triangular
 * prisms of the output, split along its face diagonal 0–5 / 3–6:
 *   (c0, c5, c1 | c3, c6, c2) and (c0, c4, c5 | c3, c7, c6),
 * prisms 2h, 2h+1 coming from hexahedron h; the output gets the input's number of points. The
 * output is a MeshTopology (its `prisms`). As in SOFA, later changes of the input are not followed
 * (a warning says so at the first one).
 */
@sofaComponent({
  name: 'Hexa2PrismTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping splitting each hexahedron of the input into 2 triangular prisms of the output.',
})
export class Hexa2PrismTopologicalMapping extends TopologicalMapping {
  private warned = false;

  override init(): void {
    const from = this.inputTopology();
    const to = this.output.get();
    if (!to) throw this.error('no output topology: set output="@path" to a MeshTopology');
    if (!(to instanceof MeshTopology))
      throw this.error(`output ${to.describe()} is not a MeshTopology: sofa-ts keeps prisms in MeshTopology only`);
    const hexa = from.getHexahedra();
    if (hexa.length === 0) this.warn(`input ${from.describe()} has no hexahedra: the output gets no prisms`);
    to.setElements({ nbPoints: from.getNbPoints() });
    to.prisms.value = splitHexahedraIntoPrisms(hexa);
    this.followInput(from);
  }

  override handleTopologyChange(_change: TopologyChange, topology: BaseMeshTopology): void {
    if (topology !== this.input.get() || this.warned) return;
    this.warned = true;
    this.warn(
      'the input topology changes but the prisms do not follow it (as in SOFA, whose updateTopologicalMappingTopDown is not implemented)',
    );
  }
}

/** (nH·2 × 6) the prisms of the hexahedra (nH × 8), as described above. */
export function splitHexahedraIntoPrisms(hexa: ArrayLike<number>): Uint32Array {
  const nh = Math.floor(hexa.length / 8);
  const out = new Uint32Array(nh * 12);
  const split = [0, 5, 1, 3, 6, 2, 0, 4, 5, 3, 7, 6];
  for (let h = 0; h < nh; h++) for (let k = 0; k < 12; k++) out[12 * h + k] = hexa[8 * h + split[k]];
  return out;
}
