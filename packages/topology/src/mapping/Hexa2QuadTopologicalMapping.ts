import { Bool, sofaComponent, type TopologyChange } from '@sofa-ts/core';
import { FaceLookup, quadsInHexahedra } from '../container/adjacency.js';
import { QUADS_IN_HEXAHEDRON } from '../container/element-tables.js';
import { HexahedronSetTopologyContainer } from '../container/HexahedronSetTopologyContainer.js';
import { QuadSetTopologyContainer } from '../container/QuadSetTopologyContainer.js';
import { QuadSetTopologyModifier } from '../container/QuadSetTopologyModifier.js';
import { ElementIndexMap, TopologicalMapping } from './topological-mapping.js';

/**
 * SOFA's Hexa2QuadTopologicalMapping: the boundary quads of a hexahedral topology, i.e. the quads of
 * the input that belong to exactly one hexahedron, in the input's quad order and orientation (for a
 * grid, its quads are oriented by the axes of their plane; for a hexahedron container, a face keeps
 * the outward orientation of its first hexahedron). With flipNormals each quad (a, b, c, d) becomes
 * (d, c, b, a). A cube of n × n × n cells gives 6n² quads.
 *
 * Topological changes of the input, as SOFA follows them: hexahedra removed → their faces shared
 * with a remaining hexahedron become boundary quads (that hexahedron's face orientation); quads
 * removed from the input → removed from the output when they were boundary quads; points removed →
 * removed from the output too. Hexahedra added are not followed (nor does SOFA follow them).
 */
@sofaComponent({
  name: 'Hexa2QuadTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping giving the boundary quads of a hexahedral topology.',
})
export class Hexa2QuadTopologicalMapping extends TopologicalMapping {
  readonly flipNormals = this.initData({
    name: 'flipNormals',
    type: Bool,
    default: false,
    help: 'reverse the order of the vertices of the quads',
  });

  /** Output quad ↔ input quad. */
  private readonly map = new ElementIndexMap();

  override init(): void {
    const from = this.inputTopology();
    const to = this.outputContainer(QuadSetTopologyContainer, 'QuadSetTopologyContainer', 'QuadSetTopologyModifier');
    const hexa = from.getHexahedra();
    // a hexahedron container may start empty (its hexahedra come later); any other input needs hexahedra
    if (hexa.length === 0 && !(from instanceof HexahedronSetTopologyContainer))
      throw this.error(`input ${from.describe()} has no hexahedra`);
    const quads = from.getQuads();
    const flip = this.flipNormals.value;
    this.map.clear();
    const out: number[] = [];
    for (const q of boundaryQuadIds(quads, hexa)) {
      const v = quads.subarray(4 * q, 4 * q + 4);
      if (flip) out.push(v[3], v[2], v[1], v[0]);
      else out.push(v[0], v[1], v[2], v[3]);
      this.map.push(q);
    }
    to.setElements({ nbPoints: from.getNbPoints(), quads: Uint32Array.from(out) });
    this.followInput(from);
  }

  override handleTopologyChange(change: TopologyChange): void {
    const out = this.outputModifier(QuadSetTopologyModifier);
    switch (change.type) {
      case 'endOfChanges':
        return out.notifyEndingEvent();
      case 'pointsRemoved':
        return out.removePoints(Array.from(change.indices), false);
      case 'elementsRemoved':
        if (change.kind === 'quad') this.quadsRemoved(change.indices, out);
        else if (change.kind === 'hexahedron') this.hexahedraRemoved(change.indices, out);
        return;
      default:
        return;
    }
  }

  /** Input quads about to be removed: boundary ones leave the output one by one, as SOFA swaps them. */
  private quadsRemoved(removed: Uint32Array, out: QuadSetTopologyModifier): void {
    this.map.removeInputElements(
      removed,
      this.inputMesh().count('quad'),
      out.getContainer().getQuads().length / 4,
      (l) => out.removeQuads([l], true, false),
      (k) => this.warn(`quad ${k} removed from the input is not a boundary quad of the output`),
    );
  }

  /** Input hexahedra about to be removed: their faces shared with a kept hexahedron become boundary quads. */
  private hexahedraRemoved(removed: Uint32Array, out: QuadSetTopologyModifier): void {
    const mesh = this.inputMesh();
    const flip = this.flipNormals.value;
    const created: number[] = [];
    for (let i = 0; i < removed.length; i++) {
      const h = removed[i];
      for (const q of mesh.subsOf('hexahedron', 'quad', h)) {
        const around = mesh.around('hexahedron', 'quad', q);
        if (around.length < 2) continue;
        const other = h === around[0] ? around[1] : around[0];
        let done = false;
        for (let k = 0; k < i && !done; k++) done = removed[k] === other;
        if (done) continue;
        const face = QUADS_IN_HEXAHEDRON[mesh.subsOf('hexahedron', 'quad', other).indexOf(q)];
        const v = face.map((j) => mesh.vertex('hexahedron', other, j));
        if (flip) created.push(v[3], v[2], v[1], v[0]);
        else created.push(v[0], v[1], v[2], v[3]);
        if (this.map.glob2loc.has(q)) this.warn(`quad ${q} was already a boundary quad`);
        this.map.push(q);
      }
    }
    out.addQuads(created);
  }
}

/** Indices of the quads belonging to exactly one hexahedron, in increasing order. */
export function boundaryQuadIds(quads: Uint32Array, hexa: Uint32Array): number[] {
  const inHexa = quadsInHexahedra(hexa, new FaceLookup(quads, 4));
  const count = new Uint32Array(quads.length / 4);
  for (let i = 0; i < inHexa.length; i++) if (inHexa[i] < count.length) count[inHexa[i]]++;
  const out: number[] = [];
  for (let q = 0; q < count.length; q++) if (count[q] === 1) out.push(q);
  return out;
}

/** (nB × 4) the quads belonging to exactly one hexahedron, optionally reversed. */
export function boundaryQuads(quads: Uint32Array, hexa: Uint32Array, flip: boolean): Uint32Array {
  const out: number[] = [];
  for (const q of boundaryQuadIds(quads, hexa)) {
    const v = quads.subarray(4 * q, 4 * q + 4);
    if (flip) out.push(v[3], v[2], v[1], v[0]);
    else out.push(v[0], v[1], v[2], v[3]);
  }
  return Uint32Array.from(out);
}
