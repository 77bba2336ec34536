import { expect } from 'chai';
import { EDGES_IN_TETRAHEDRON, TRIANGLES_IN_TETRAHEDRON } from './element-tables.js';
import {
  hexahedronFaces,
  pointCountOf,
  surfaceEdges,
  tetrahedronFaces,
  tetrahedronFacesWithTable,
  volumeEdges,
  volumeEdgesWithTables,
} from './mesh-derivation.js';

const NONE = new Uint32Array(0);
const u32 = (...v: number[]): Uint32Array => Uint32Array.from(v);

/** Unit tetrahedron with positive volume and unit cube in SOFA's hexahedron vertex order. */
const TET_POINTS = [
  [0, 0, 0],
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const CUBE_POINTS = [
  [0, 0, 0],
  [1, 0, 0],
  [1, 1, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 0, 1],
  [1, 1, 1],
  [0, 1, 1],
];

function sub(a: number[], b: number[]): number[] {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function cross(a: number[], b: number[]): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function dot(a: number[], b: number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function centroid(pts: number[][]): number[] {
  const c = [0, 0, 0];
  for (const p of pts) for (let k = 0; k < 3; k++) c[k] += p[k] / pts.length;
  return c;
}

describe('topology: derived sub-elements (SOFA orders)', () => {
  it("edges of a tetrahedron follow SOFA's local edge table, smaller index first", () => {
    expect(Array.from(volumeEdges(u32(0, 1, 2, 3), NONE))).to.deep.equal([0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3]);
    // vertex order does not change the edge order, only each edge is sorted
    expect(Array.from(volumeEdges(u32(3, 2, 1, 0), NONE))).to.deep.equal([2, 3, 1, 3, 0, 3, 1, 2, 0, 2, 0, 1]);
  });

  it('faces of a tetrahedron start at their smallest index and point outwards', () => {
    const faces = tetrahedronFaces(u32(0, 1, 2, 3), false);
    expect(Array.from(faces)).to.deep.equal([1, 2, 3, 0, 3, 2, 0, 1, 3, 0, 2, 1]);
    const c = centroid(TET_POINTS);
    for (let f = 0; f < 4; f++) {
      const [a, b, d] = [faces[3 * f], faces[3 * f + 1], faces[3 * f + 2]].map((i) => TET_POINTS[i]);
      const n = cross(sub(b!, a!), sub(d!, a!));
      expect(dot(n, sub(centroid([a!, b!, d!]), c)), `face ${f}`).to.be.greaterThan(0);
    }
  });

  it("a face shared by two tetrahedra is listed once, with the first tetrahedron's orientation", () => {
    // tetrahedra (0,1,2,3) and (1,2,3,4) share face 1-2-3 with opposite orientations
    const faces = tetrahedronFaces(u32(0, 1, 2, 3, 1, 2, 3, 4), false);
    expect(faces.length / 3).to.equal(7);
    expect(Array.from(faces.subarray(0, 3))).to.deep.equal([1, 2, 3]);
    // an invalid mesh repeating a face with the same orientation: MeshTopology keeps both
    expect(tetrahedronFaces(u32(0, 1, 2, 3, 0, 1, 2, 3), true).length / 3).to.equal(8);
    expect(tetrahedronFaces(u32(0, 1, 2, 3, 0, 1, 2, 3), false).length / 3).to.equal(4);
  });

  it('faces of a hexahedron are its 6 sides with outward normals; edges are its 12 unit edges', () => {
    const quads = hexahedronFaces(u32(0, 1, 2, 3, 4, 5, 6, 7));
    expect(quads.length / 4).to.equal(6);
    expect(Array.from(quads.subarray(0, 4))).to.deep.equal([0, 3, 2, 1]);
    const c = centroid(CUBE_POINTS);
    for (let q = 0; q < 6; q++) {
      const p = Array.from(quads.subarray(4 * q, 4 * q + 4), (i) => CUBE_POINTS[i]);
      expect(Math.min(...quads.subarray(4 * q, 4 * q + 4))).to.equal(quads[4 * q]);
      const n = cross(sub(p[1], p[0]), sub(p[3], p[0]));
      expect(dot(n, sub(centroid(p), c)), `quad ${q}`).to.equal(0.5);
    }
    const edges = volumeEdges(NONE, u32(0, 1, 2, 3, 4, 5, 6, 7));
    expect(edges.length / 2).to.equal(12);
    for (let e = 0; e < 12; e++) {
      const d = sub(CUBE_POINTS[edges[2 * e + 1]], CUBE_POINTS[edges[2 * e]]);
      expect(dot(d, d)).to.equal(1);
    }
  });

  it('two hexahedra sharing a face give 11 quads and 20 edges', () => {
    // cells (0,0,0) and (1,0,0) of a 3×2×2 grid
    const h = u32(0, 1, 4, 3, 6, 7, 10, 9, 1, 2, 5, 4, 7, 8, 11, 10);
    expect(hexahedronFaces(h).length / 4).to.equal(11);
    expect(volumeEdges(NONE, h).length / 2).to.equal(20);
  });

  it('surface edges keep triangle orientation and sort quad edges', () => {
    expect(Array.from(surfaceEdges(u32(0, 1, 2, 0, 2, 3), NONE))).to.deep.equal([1, 2, 2, 0, 0, 1, 2, 3, 3, 0]);
    expect(Array.from(surfaceEdges(NONE, u32(3, 2, 1, 0)))).to.deep.equal([1, 2, 0, 1, 0, 3, 2, 3]);
  });

  // Euler's formula for a ball, V − E + F − T = 1, with 4T = 2F − (boundary faces): the counts of
  // a box of cubes and of a book of tetrahedra around one edge; each face and edge listed once, and
  // the tables SOFA's containers keep (trianglesInTetrahedron, edgesInTetrahedron) name the face
  // and edge with the tetrahedron's vertices.
  it("the faces and edges of a box of Kuhn cubes and of a book of tetrahedra around one edge: Euler's counts, each once, the tables right", () => {
    const m = 4;
    const p = (x: number, y: number, z: number) => x + (m + 1) * (y + (m + 1) * z);
    const axes = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    const box: number[] = [];
    for (let z = 0; z < m; z++)
      for (let y = 0; y < m; y++)
        for (let x = 0; x < m; x++)
          for (const order of axes) {
            const c = [x, y, z];
            const tet = [p(c[0], c[1], c[2])];
            for (const a of order) {
              c[a]++;
              tet.push(p(c[0], c[1], c[2]));
            }
            box.push(...tet);
          }
    const k = 300;
    const book: number[] = [];
    for (let i = 0; i < k; i++) book.push(0, 1, i + 2, i + 3);
    const cases: Array<[string, Uint32Array, number, number]> = [
      // (T, boundary faces) → F = (4T + Fb)/2, E = V + F − T − 1
      ['box', Uint32Array.from(box), (4 * 6 * m ** 3 + 12 * m * m) / 2, (m + 1) ** 3],
      ['book', Uint32Array.from(book), 3 * k + 1, k + 3],
    ];
    const key = (a: ArrayLike<number>) =>
      Array.from(a)
        .sort((x, y) => x - y)
        .join(',');
    for (const [name, tets, F, V] of cases) {
      const T = tets.length / 4;
      const { faces, inTetrahedron: faceOf } = tetrahedronFacesWithTable(tets);
      const { edges, inTetrahedron: edgeOf } = volumeEdgesWithTables(tets, NONE);
      expect(faces.length / 3, `${name} faces`).to.equal(F);
      expect(edges.length / 2, `${name} edges`).to.equal(V + F - T - 1);
      expect(new Set(Array.from({ length: F }, (_, f) => key(faces.subarray(3 * f, 3 * f + 3)))).size, `${name} faces once`).to.equal(F);
      expect(new Set(Array.from({ length: edges.length / 2 }, (_, e) => key(edges.subarray(2 * e, 2 * e + 2)))).size).to.equal(
        edges.length / 2,
      );
      for (let t = 0; t < T; t++) {
        for (let j = 0; j < 4; j++) {
          const f = faceOf[4 * t + j];
          expect(key(faces.subarray(3 * f, 3 * f + 3))).to.equal(key(TRIANGLES_IN_TETRAHEDRON[j].map((l) => tets[4 * t + l])));
        }
        for (let j = 0; j < 6; j++) {
          const e = edgeOf[6 * t + j];
          expect(key(edges.subarray(2 * e, 2 * e + 2))).to.equal(key(EDGES_IN_TETRAHEDRON[j].map((l) => tets[4 * t + l])));
        }
      }
    }
  });

  it('counts points from the largest index', () => {
    expect(pointCountOf(u32(0, 4), u32(2, 7, 1))).to.equal(8);
    expect(pointCountOf()).to.equal(0);
  });
});
