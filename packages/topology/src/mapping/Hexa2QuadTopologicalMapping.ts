import { Bool, sofaComponent } from '@sofa-ts/core';
import { FaceLookup, quadsInHexahedra } from '../container/adjacency.js';
import { QuadSetTopologyContainer } from '../container/QuadSetTopologyContainer.js';
import { TopologicalMapping } from './topological-mapping.js';

/**
 * SOFA's Hexa2QuadTopologicalMapping: the boundary quads of a hexahedral topology, i.e. the quads of
 * the input that belong to exactly one hexahedron, in the input's quad order and orientation (for a
 * grid, its quads are oriented by the axes of their plane; for a hexahedron container, a face keeps
 * the outward orientation of its first hexahedron). With flipNormals each quad (a, b, c, d) becomes
 * (d, c, b, a). A cube of n × n × n cells gives 6n² quads.
 */
@sofaComponent({
  name: 'Hexa2QuadTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping giving the boundary quads of a hexahedral topology.',
})
export class Hexa2QuadTopologicalMapping extends TopologicalMapping {
  readonly flipNormals = this.initData({ name: 'flipNormals', type: Bool, default: false, help: 'reverse the order of the vertices of the quads' });

  override init(): void {
    const from = this.inputTopology();
    const to = this.outputContainer(QuadSetTopologyContainer, 'QuadSetTopologyContainer', 'QuadSetTopologyModifier');
    const hexa = from.getHexahedra();
    if (hexa.length === 0) throw this.error(`input ${from.describe()} has no hexahedra`);
    to.setElements({ nbPoints: from.getNbPoints(), quads: boundaryQuads(from.getQuads(), hexa, this.flipNormals.value) });
  }
}

/** (nB × 4) the quads belonging to exactly one hexahedron, optionally reversed. */
export function boundaryQuads(quads: Uint32Array, hexa: Uint32Array, flip: boolean): Uint32Array {
  const inHexa = quadsInHexahedra(hexa, new FaceLookup(quads, 4));
  const count = new Uint32Array(quads.length / 4);
  for (let i = 0; i < inHexa.length; i++) if (inHexa[i]! < count.length) count[inHexa[i]!]!++;
  const out: number[] = [];
  for (let q = 0; q < count.length; q++) {
    if (count[q] !== 1) continue;
    const v = quads.subarray(4 * q, 4 * q + 4);
    if (flip) out.push(v[3]!, v[2]!, v[1]!, v[0]!);
    else out.push(v[0]!, v[1]!, v[2]!, v[3]!);
  }
  return Uint32Array.from(out);
}
