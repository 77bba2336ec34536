import { Bool, sofaComponent, type Data } from '@sofa-ts/core';
import { Hexahedra } from './element-data.js';
import { hexahedronFaces, volumeEdges } from './mesh-derivation.js';
import { QuadSetTopologyContainer } from './QuadSetTopologyContainer.js';
import { NO_ELEMENTS, type ElementKind } from './topology-container.js';

/**
 * SOFA's HexahedronSetTopologyContainer: points, edges, quads and hexahedra. Lists not given are
 * derived from the hexahedra in order of appearance: edges in EDGES_IN_HEXAHEDRON order stored
 * smaller index first; quads (QUADS_IN_HEXAHEDRON faces, normals outwards) rotated to start at their
 * smallest index, a face shared by two hexahedra listed once with the orientation of the first one.
 */
@sofaComponent({
  name: 'HexahedronSetTopologyContainer',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology container dedicated to an hexahedral topology.',
})
export class HexahedronSetTopologyContainer extends QuadSetTopologyContainer {
  readonly createQuadArray = this.initData({
    name: 'createQuadArray',
    type: Bool,
    default: false,
    help: 'force the creation of the quads of the hexahedra',
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: Hexahedra,
    default: new Uint32Array(0),
    help: 'hexahedra (8 point indices each, SOFA vertex order)',
    aliases: ['hexas'],
  });

  protected override elementData(kind: ElementKind): Data<Uint32Array> | undefined {
    return kind === 'hexahedron' ? this.hexahedra : super.elementData(kind);
  }

  protected override deriveElements(kind: ElementKind): Uint32Array {
    if (kind === 'edge' || kind === 'quad') {
      const hexa = this.getHexahedra();
      if (hexa.length > 0) return kind === 'edge' ? volumeEdges(NO_ELEMENTS, hexa) : hexahedronFaces(hexa);
    }
    return super.deriveElements(kind);
  }
}
