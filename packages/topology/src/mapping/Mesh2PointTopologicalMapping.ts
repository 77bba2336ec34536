import { Bool, RealArray, sofaComponent, type BaseMeshTopology } from '@sofa-ts/core';
import { PointSetTopologyContainer } from '../container/PointSetTopologyContainer.js';
import { TopologicalMapping } from './topological-mapping.js';

const Vec3List = RealArray(3, 'vector<Vec3d>');

/**
 * SOFA's Mesh2PointTopologicalMapping: the output point set gets points placed on the primitives of
 * the input mesh, built once at init from the input topology's positions. For each list of
 * coordinates given, every input primitive of that kind adds one point per coordinate, kinds in the
 * order points, edges, triangles, quads, tetrahedra, hexahedra (primitives in input order):
 *   point p with offset c:          p + c
 *   edge (p0, p1), c = (fx, ·, ·):   p0·(1 − fx) + p1·fx
 *   triangle, (fx, fy):              p0·(1 − fx − fy) + p1·fx + p2·fy
 *   quad, (fx, fy):                  p0·(1−fx)(1−fy) + p1·fx(1−fy) + p2·(1−fx)fy + p3·fx·fy
 *   tetrahedron, (fx, fy, fz):       p0·(1 − fx − fy − fz) + p1·fx + p2·fy + p3·fz
 *   hexahedron, (fx, fy, fz):        trilinear, with SOFA's vertices 0 1 3 2 4 5 7 6 at the corners
 *                                    (0,0,0) (1,0,0) (0,1,0) (1,1,0) (0,0,1) (1,0,1) (0,1,1) (1,1,1)
 * (the quad and point rules are SOFA's as they are: the quad's third vertex sits at (0, 1), a point's
 * coordinates are an offset). copyEdges / copyTriangles / copyTetrahedra also copy the input's
 * elements onto the first point made from each input vertex (they need pointBaryCoords).
 * Static: built at init; topological changes of the input are not followed.
 */
@sofaComponent({
  name: 'Mesh2PointTopologicalMapping',
  category: 'TopologicalMapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Topological mapping putting points on the primitives (points, edges, triangles, …) of a mesh at given relative positions.',
})
export class Mesh2PointTopologicalMapping extends TopologicalMapping {
  readonly pointBaryCoords = this.initData({ name: 'pointBaryCoords', type: Vec3List, default: new Float64Array(0), group: 'BaryCoords', help: 'coordinates (offsets) of the output points made from each input point' });
  readonly edgeBaryCoords = this.initData({ name: 'edgeBaryCoords', type: Vec3List, default: new Float64Array(0), group: 'BaryCoords', help: 'coordinates of the output points made from each input edge (first number: position along the edge)' });
  readonly triangleBaryCoords = this.initData({ name: 'triangleBaryCoords', type: Vec3List, default: new Float64Array(0), group: 'BaryCoords', help: 'coordinates of the output points made from each input triangle (first two numbers)' });
  readonly quadBaryCoords = this.initData({ name: 'quadBaryCoords', type: Vec3List, default: new Float64Array(0), group: 'BaryCoords', help: 'coordinates of the output points made from each input quad (first two numbers)' });
  readonly tetraBaryCoords = this.initData({ name: 'tetraBaryCoords', type: Vec3List, default: new Float64Array(0), group: 'BaryCoords', help: 'coordinates of the output points made from each input tetrahedron' });
  readonly hexaBaryCoords = this.initData({ name: 'hexaBaryCoords', type: Vec3List, default: new Float64Array(0), group: 'BaryCoords', help: 'coordinates of the output points made from each input hexahedron' });
  readonly copyEdges = this.initData({ name: 'copyEdges', type: Bool, default: false, help: 'also copy the input edges into the output topology (requires pointBaryCoords)' });
  readonly copyTriangles = this.initData({ name: 'copyTriangles', type: Bool, default: false, help: 'also copy the input triangles into the output topology (requires pointBaryCoords)' });
  readonly copyTetrahedra = this.initData({ name: 'copyTetrahedra', type: Bool, default: false, help: 'also copy the input tetrahedra into the output topology (requires pointBaryCoords)' });

  override init(): void {
    const from = this.inputTopology();
    const to = this.output.get();
    if (!to) throw this.error('no output topology: set output="@path" to a point set topology container');
    if (!(to instanceof PointSetTopologyContainer)) throw this.error(`output ${to.describe()} is not a PointSetTopologyContainer (or a container derived from it)`);
    const pointCoords = this.pointBaryCoords.value;
    for (const copy of [this.copyEdges, this.copyTriangles, this.copyTetrahedra]) {
      if (copy.value && pointCoords.length === 0) {
        // SOFA's error, then the copy is switched off
        this.warnAbout(copy, `${copy.name} requires at least one item in pointBaryCoords: nothing is copied`);
        copy.value = false;
      }
    }
    const positions = meshPointPositions(from, {
      point: pointCoords,
      edge: this.edgeBaryCoords.value,
      triangle: this.triangleBaryCoords.value,
      quad: this.quadBaryCoords.value,
      tetrahedron: this.tetraBaryCoords.value,
      hexahedron: this.hexaBaryCoords.value,
    }, (why) => this.error(why));
    // the first output point of input vertex v is v·(points per vertex)
    const perVertex = pointCoords.length / 3;
    const onFirstPoint = (elements: Uint32Array): Uint32Array => elements.map((v) => v * perVertex);
    to.setElements({
      nbPoints: positions.length / 3,
      ...(this.copyEdges.value ? { edges: onFirstPoint(from.getEdges()) } : {}),
      ...(this.copyTriangles.value ? { triangles: onFirstPoint(from.getTriangles()) } : {}),
      ...(this.copyTetrahedra.value ? { tetrahedra: onFirstPoint(from.getTetrahedra()) } : {}),
    });
    to.position.value = positions;
  }
}

/** The coordinate lists of Mesh2PointTopologicalMapping, three numbers per output point of a primitive. */
export interface MeshPointCoords {
  readonly point: Float64Array;
  readonly edge: Float64Array;
  readonly triangle: Float64Array;
  readonly quad: Float64Array;
  readonly tetrahedron: Float64Array;
  readonly hexahedron: Float64Array;
}

/** Hexahedron vertex taken at trilinear corner k (x fastest): SOFA's 0 1 3 2 4 5 7 6. */
const HEXA_CORNER = [0, 1, 3, 2, 4, 5, 7, 6] as const;

/**
 * (nOut × 3) the points of Mesh2PointTopologicalMapping for `mesh` (positions from the topology),
 * in SOFA's order: every input point's, then every edge's, triangle's, quad's, tetrahedron's and
 * hexahedron's, each primitive giving one point per coordinate triple.
 */
export function meshPointPositions(mesh: BaseMeshTopology, coords: MeshPointCoords, fail: (why: string) => Error): Float64Array {
  const nP = mesh.getNbPoints();
  const pos = mesh.getPositions();
  const anyCoords = Object.values(coords).some((c) => c.length > 0);
  if (anyCoords && (!pos || pos.length < 3 * nP)) throw fail(`input ${mesh.describe()} has no positions for its ${nP} points`);
  const P = pos ?? new Float64Array(0);
  const out: number[] = [];
  const { point, edge, triangle, quad, tetrahedron, hexahedron } = coords;
  for (let v = 0; v < nP && point.length > 0; v++) {
    for (let j = 0; j < point.length; j += 3) for (let k = 0; k < 3; k++) out.push(P[3 * v + k]! + point[j + k]!);
  }
  // per primitive: out += Σ_c w_c(f)·p_{vertex c}, with weights from the coordinate triple f
  const place = (elements: Uint32Array, size: number, fs: Float64Array, weights: (f: Float64Array, j: number, w: Float64Array) => void, corner: (c: number) => number = (c) => c): void => {
    if (fs.length === 0) return;
    const w = new Float64Array(size);
    for (let e = 0; e < elements.length / size; e++) {
      for (let j = 0; j < fs.length; j += 3) {
        weights(fs, j, w);
        for (let k = 0; k < 3; k++) {
          let s = 0;
          for (let c = 0; c < size; c++) s += P[3 * elements[size * e + corner(c)]! + k]! * w[c]!;
          out.push(s);
        }
      }
    }
  };
  place(mesh.getEdges(), 2, edge, (f, j, w) => {
    w[0] = 1 - f[j]!;
    w[1] = f[j]!;
  });
  place(mesh.getTriangles(), 3, triangle, (f, j, w) => {
    w[0] = 1 - f[j]! - f[j + 1]!;
    w[1] = f[j]!;
    w[2] = f[j + 1]!;
  });
  place(mesh.getQuads(), 4, quad, (f, j, w) => {
    const x = f[j]!, y = f[j + 1]!;
    w[0] = (1 - x) * (1 - y);
    w[1] = x * (1 - y);
    w[2] = (1 - x) * y;
    w[3] = x * y;
  });
  place(mesh.getTetrahedra(), 4, tetrahedron, (f, j, w) => {
    w[0] = 1 - f[j]! - f[j + 1]! - f[j + 2]!;
    w[1] = f[j]!;
    w[2] = f[j + 1]!;
    w[3] = f[j + 2]!;
  });
  place(mesh.getHexahedra(), 8, hexahedron, (f, j, w) => {
    const x = f[j]!, y = f[j + 1]!, z = f[j + 2]!;
    for (let c = 0; c < 8; c++) w[c] = (c & 1 ? x : 1 - x) * (c & 2 ? y : 1 - y) * (c & 4 ? z : 1 - z);
  }, (c) => HEXA_CORNER[c]!);
  return Float64Array.from(out);
}
