import { Bool, sofaComponent } from '@sofa-ts/core';
import { FaceLookup, trianglesInTetrahedra } from '../container/adjacency.js';
import { TriangleSetTopologyContainer } from '../container/TriangleSetTopologyContainer.js';
import { TopologicalMapping } from './topological-mapping.js';

/**
 * SOFA's Tetra2TriangleTopologicalMapping: the boundary triangles of a tetrahedral topology, i.e. the
 * triangles of the input that belong to exactly one tetrahedron, in the input's triangle order and
 * orientation (a tetrahedron container orients a face as its first tetrahedron does, outwards for a
 * positively oriented tetrahedron). With flipNormals (a, b, c) becomes (a, c, b); with
 * noInitialTriangles the output starts empty.
 */
@sofaComponent({
  name: 'Tetra2TriangleTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Topology.Mapping',
  description: 'Topological mapping giving the boundary triangles of a tetrahedral topology.',
})
export class Tetra2TriangleTopologicalMapping extends TopologicalMapping {
  readonly flipNormals = this.initData({ name: 'flipNormals', type: Bool, default: false, help: 'reverse the orientation of the triangles' });
  readonly noNewTriangles = this.initData({ name: 'noNewTriangles', type: Bool, default: false, help: 'do not add triangles when tetrahedra are removed (topological changes only)' });
  readonly noInitialTriangles = this.initData({ name: 'noInitialTriangles', type: Bool, default: false, help: 'start with no triangle: only triangles added by topological changes are listed' });

  override init(): void {
    const from = this.inputTopology();
    const to = this.outputContainer(TriangleSetTopologyContainer, 'TriangleSetTopologyContainer', 'TriangleSetTopologyModifier');
    const tetra = from.getTetrahedra();
    if (tetra.length === 0 && from.getHexahedra().length > 0) throw this.error(`input ${from.describe()} has no tetrahedra`);
    const triangles = this.noInitialTriangles.value ? new Uint32Array(0) : boundaryTriangles(from.getTriangles(), tetra, this.flipNormals.value);
    to.setElements({ nbPoints: from.getNbPoints(), triangles });
  }
}

/** (nB × 3) the triangles belonging to exactly one tetrahedron, optionally reversed. */
export function boundaryTriangles(triangles: Uint32Array, tetra: Uint32Array, flip: boolean): Uint32Array {
  const inTetra = trianglesInTetrahedra(tetra, new FaceLookup(triangles, 3));
  const count = new Uint32Array(triangles.length / 3);
  for (let i = 0; i < inTetra.length; i++) if (inTetra[i]! < count.length) count[inTetra[i]!]!++;
  const out: number[] = [];
  for (let t = 0; t < count.length; t++) {
    if (count[t] !== 1) continue;
    const v = triangles.subarray(3 * t, 3 * t + 3);
    if (flip) out.push(v[0]!, v[2]!, v[1]!);
    else out.push(v[0]!, v[1]!, v[2]!);
  }
  return Uint32Array.from(out);
}
