import { expect } from 'chai';
import { hexahedronFaces, pointCountOf, surfaceEdges, tetrahedronFaces, volumeEdges } from './mesh-derivation.js';

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

  it('counts points from the largest index', () => {
    expect(pointCountOf(u32(0, 4), u32(2, 7, 1))).to.equal(8);
    expect(pointCountOf()).to.equal(0);
  });
});
