import { expect } from 'chai';
import { SofaImage } from './image.js';
import { el, find, initScene } from './image-test-support.js';
import type { VoronoiToMeshEngine } from './VoronoiToMeshEngine.js';

/**
 * Two box-shaped cells side by side (labels 1 and 2, x ≤ 6 and x ≥ 7 of the voxels 2…11 × 2…7 ×
 * 2…7) in a 14 × 10 × 10 image padded with 2 voxels of 0: their boundaries are the two boxes'
 * faces, known by hand. The voxel corners where 3 labels meet lie on the outer box's edges and on
 * the rim of the interface x = 6.5; after the removal of the vertices of 2 edges, the mesh is the
 * 8 box corners {1.5, 11.5} × {1.5, 7.5}², the 4 rim corners (6.5, {1.5, 7.5}²), the box's 12 edges
 * with the 4 along x split at the rim (16) and the rim (4), and 11 quadrilateral faces (5 outer faces
 * per cell and the interface), each fanned into 4 triangles around its centroid.
 */
function twoCells(): SofaImage {
  const im = SofaImage.create('UI', 14, 10, 10);
  for (let z = 2; z <= 7; z++) for (let y = 2; y <= 7; y++) for (let x = 2; x <= 11; x++) im.data[im.offset(x, y, z)] = x <= 6 ? 1 : 2;
  return im;
}

function engine(minLength = '0.5'): VoronoiToMeshEngine {
  const root = initScene([el('VoronoiToMeshEngine', { name: 'v', template: 'ImageUI', minLength })]);
  const v = find<VoronoiToMeshEngine>(root, 'v');
  v.image.value = twoCells();
  return v;
}

const key = (p: ArrayLike<number>, i: number): string => `${p[3 * i]} ${p[3 * i + 1]} ${p[3 * i + 2]}`;

describe('VoronoiToMeshEngine', () => {
  it('two box cells: the 12 corners, 20 edges and 11 quadrilateral faces of their boundaries (image coordinates)', () => {
    const v = engine();
    const pos = v.position.value,
      edges = v.edges.value,
      tri = v.triangles.value;
    expect(pos.length / 3).to.equal(12 + 11);
    const expected = new Set<string>();
    for (const x of [1.5, 6.5, 11.5]) for (const y of [1.5, 7.5]) for (const z of [1.5, 7.5]) expected.add(`${x} ${y} ${z}`);
    expect(new Set(Array.from({ length: 12 }, (_, i) => key(pos, i)))).to.deep.equal(expected);
    // edges: two vertices differing along one axis only, 16 on the box's edges and 4 on the rim
    expect(edges.length / 2).to.equal(20);
    const lengths: number[] = [];
    for (let e = 0; e < edges.length; e += 2) {
      const a = edges[e],
        b = edges[e + 1];
      const d = [0, 1, 2].map((c) => Math.abs(pos[3 * a + c] - pos[3 * b + c]));
      expect(d.filter((x) => x > 0).length).to.equal(1);
      lengths.push(d[0] + d[1] + d[2]);
    }
    expect(lengths.sort((a, b) => a - b)).to.deep.equal([...new Array(8).fill(5), ...new Array(12).fill(6)]);
    // faces: 4 triangles around each centroid (point 12 + face), the centroid the mean of its 4 corners
    expect(tri.length / 3).to.equal(44);
    for (let f = 0; f < 11; f++) {
      const c = 12 + f;
      const corners = new Set<number>();
      for (let t = 0; t < tri.length; t += 3) if (tri[t] === c) (corners.add(tri[t + 1]), corners.add(tri[t + 2]));
      expect(corners.size).to.equal(4);
      for (let k = 0; k < 3; k++) {
        let s = 0;
        for (const p of corners) s += pos[3 * p + k];
        expect(pos[3 * c + k]).to.be.closeTo(s / 4, 1e-12);
      }
      // a flat face: its 4 corners share one coordinate
      const shared = [0, 1, 2].filter((k) => new Set([...corners].map((p) => pos[3 * p + k])).size === 1);
      expect(shared.length).to.equal(1);
    }
    // the interface x = 6.5 is one of them
    const centroids = Array.from({ length: 11 }, (_, f) => key(pos, 12 + f));
    expect(centroids).to.include('6.5 4.5 4.5');
  });

  it('minLength 5.5: each box corner at x = 1.5 takes the rim corner 5 voxels away (the first short edge), at their mean x = 4', () => {
    // SOFA's order by hand: the vertices are numbered z, y, x; the first short edge is (corner, rim
    // corner) on each of the 4 lines along x; the far corners (11.5) are 10 from the merged points'
    // first positions. Left: a hexahedron x ∈ {4, 11.5}, its 12 edges, and the faces of the pairs
    // {1,2}, {1,x0}, {2,x0} (each the 4 merged points, whose regions are united), {2,x1}, {2,y0},
    // {2,y1}, {2,z0}, {2,z1}; the pairs {1,y0}, ... keep 2 points and give no face.
    const v = engine('5.5');
    const pos = v.position.value;
    expect(pos.length / 3).to.equal(8 + 8);
    const expected = new Set<string>();
    for (const x of [4, 11.5]) for (const y of [1.5, 7.5]) for (const z of [1.5, 7.5]) expected.add(`${x} ${y} ${z}`);
    expect(new Set(Array.from({ length: 8 }, (_, i) => key(pos, i)))).to.deep.equal(expected);
    expect(v.edges.value.length / 2).to.equal(12);
    expect(v.triangles.value.length / 3).to.equal(32);
    const centroids = Array.from({ length: 8 }, (_, f) => key(pos, 8 + f));
    expect(centroids).to.deep.equal([
      '4 4.5 4.5',
      '4 4.5 4.5',
      '4 4.5 4.5',
      '11.5 4.5 4.5',
      '7.75 1.5 4.5',
      '7.75 7.5 4.5',
      '7.75 4.5 1.5',
      '7.75 4.5 7.5',
    ]);
  });
});
