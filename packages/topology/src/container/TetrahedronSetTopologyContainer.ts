import { Bool, sofaComponent, type Data } from '@sofa-ts/core';
import { Tetrahedra } from './element-data.js';
import { tetrahedronFacesWithTable, volumeEdgesWithTables } from './mesh-derivation.js';
import { NO_ELEMENTS, type ElementKind } from './topology-container.js';
import { TriangleSetTopologyContainer } from './TriangleSetTopologyContainer.js';

/**
 * SOFA's TetrahedronSetTopologyContainer: points, edges, triangles and tetrahedra. Lists not given are
 * derived from the tetrahedra in order of appearance: edges in EDGES_IN_TETRAHEDRON order stored
 * smaller index first; triangles (face j opposite vertex j, TRIANGLES_IN_TETRAHEDRON orientation)
 * rotated to start at their smallest index, a face shared by two tetrahedra listed once with the
 * orientation of the first one.
 */
@sofaComponent({
  name: 'TetrahedronSetTopologyContainer',
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Dynamic',
  description: 'Topology container dedicated to a tetrahedral topology.',
})
export class TetrahedronSetTopologyContainer extends TriangleSetTopologyContainer {
  readonly createTriangleArray = this.initData({
    name: 'createTriangleArray',
    type: Bool,
    default: false,
    help: 'force the creation of the triangles of the tetrahedra',
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: Tetrahedra,
    default: new Uint32Array(0),
    help: 'tetrahedra (4 point indices each)',
    aliases: ['tetras'],
  });

  protected override elementData(kind: ElementKind): Data<Uint32Array> | undefined {
    return kind === 'tetrahedron' ? this.tetrahedra : super.elementData(kind);
  }

  protected override deriveElements(kind: ElementKind): Uint32Array {
    const tetra = kind === 'edge' || kind === 'triangle' ? this.getTetrahedra() : NO_ELEMENTS;
    if (tetra.length === 0) return super.deriveElements(kind);
    // the faces and edges of each tetrahedron are found on the way (SOFA's trianglesInTetrahedron, edgesInTetrahedron)
    if (kind === 'triangle') {
      const { faces, inTetrahedron } = tetrahedronFacesWithTable(tetra);
      this.keepTable('trianglesInTetrahedron', inTetrahedron);
      return faces;
    }
    const { edges, inTetrahedron } = volumeEdgesWithTables(tetra, NO_ELEMENTS);
    this.keepTable('edgesInTetrahedron', inTetrahedron);
    return edges;
  }
}
