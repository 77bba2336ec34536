import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { el, initScene, objectNamed } from '../container/container-test-support.js';
import { fastPolygonIntersectsCube, polygonNormal } from './polygon-cube.js';
import type { SparseGridTopology } from './SparseGridTopology.js';

type V = [number, number, number];
const tri = (a: V, b: V, c: V): V[] => [a, b, c].map((p) => p.map(Math.fround) as V);

/** An OBJ file in a temporary folder; returns its absolute path. */
function objFile(name: string, vertices: V[], faces: number[][]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-sparse-'));
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    [...vertices.map((v) => `v ${v.join(' ')}`), ...faces.map((f) => `f ${f.map((i) => `${i + 1}/${i + 1}`).join(' ')}`)].join('\n') + '\n',
  );
  return file;
}

const CUBE_V: V[] = [
  [0, 0, 0],
  [1, 0, 0],
  [1, 1, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 0, 1],
  [1, 1, 1],
  [0, 1, 1],
];
const CUBE_F = [
  [0, 3, 2, 1],
  [4, 5, 6, 7],
  [0, 1, 5, 4],
  [1, 2, 6, 5],
  [2, 3, 7, 6],
  [3, 0, 4, 7],
];
const OCTA_V: V[] = [
  [1, 0, 0],
  [-1, 0, 0],
  [0, 1, 0],
  [0, -1, 0],
  [0, 0, 1],
  [0, 0, -1],
];
const OCTA_F = [
  [0, 2, 4],
  [2, 1, 4],
  [1, 3, 4],
  [3, 0, 4],
  [2, 0, 5],
  [1, 2, 5],
  [3, 1, 5],
  [0, 3, 5],
];

function sparse(attrs: Record<string, string>): SparseGridTopology {
  return objectNamed<SparseGridTopology>(initScene(el('Node', {}, [el('SparseGridTopology', { name: 's', ...attrs })])), 's');
}

describe('topology: SparseGridTopology', () => {
  it('refuses a resolution (or a cellWidth) whose points a state cannot index, before allocating', () => {
    const surface = { position: '0 0 0 1 0 0 0 1 0 0 0 1', triangles: '0 2 1 0 1 3 0 3 2 1 2 3' };
    expect(() => sparse({ ...surface, n: '3000 3000 3000' })).to.throw(
      /SparseGridTopology 's': a grid of 3000 × 3000 × 3000 = 2\.70e\+10 points is above the limit of 4000000 points/,
    );
    expect(() => sparse({ ...surface, cellWidth: '1e-4' })).to.throw(
      /points is above the limit of 4000000 points \(lower the resolution \(n\) or raise cellWidth\)/,
    );
  });

  it('tests triangles against the unit cube (float32 polygon–cube test)', () => {
    const hit = (t: V[]): boolean => fastPolygonIntersectsCube(t, polygonNormal(t));
    expect(hit(tri([0.1, 0.1, 0], [0.2, 0.1, 0], [0.1, 0.2, 0]))).to.equal(true); // a vertex inside
    expect(hit(tri([2, 2, 2], [3, 2, 2], [2, 3, 2]))).to.equal(false); // all outside one face plane
    expect(hit(tri([-5, -5, 0.1], [5, -5, 0.1], [0, 5, 0.1]))).to.equal(true); // a large triangle through the cube
    expect(hit(tri([-5, -5, 0.6], [5, -5, 0.6], [0, 5, 0.6]))).to.equal(false); // the same above the cube
    expect(hit(tri([-2, 0, 0], [2, 0.1, 0], [0, 0.3, 3]))).to.equal(true); // an edge through the cube
    expect(hit(tri([0.7, 0.7, -1], [0.7, 0.7, 1], [3, 3, 0]))).to.equal(false); // beside an edge of the cube
  });

  it('voxelises a cube: boundary cells first, then inside cells, points sorted by position', () => {
    const s = sparse({ n: '5 5 5', fileTopology: objFile('cube.obj', CUBE_V, CUBE_F) });
    const hexa = s.getHexahedra();
    // the grid spans the cube grown by 1%: the 56 border cells hold the surface, the 8 central ones are inside
    expect(hexa.length / 8).to.equal(64);
    expect(s.getNbPoints()).to.equal(125);
    expect(Array.from(s.min.value)).to.deep.equal([-0.01, -0.01, -0.01]);
    // points sorted by x, then y, then z: grid point (i, j, k) is point 25i + 5j + k
    expect(Array.from(hexa.subarray(0, 8))).to.deep.equal([0, 25, 30, 5, 1, 26, 31, 6]);
    const p = s.getPositions();
    const step = 1.02 / 4;
    expect(p[3 * 31]).to.be.closeTo(-0.01 + step, 1e-15);
    expect(p[3 * 31 + 2]).to.be.closeTo(-0.01 + step, 1e-15);
    const grid = s.getGrid();
    expect(grid.n).to.deep.equal([5, 5, 5]);
    // the inside cells come last, in regular-grid order: (1,1,1) is cell 1 + 4·(1 + 4·1) = 21
    expect(grid.cellToHexahedron![21]).to.equal(56);
    expect(Array.from(grid.boundaryHexahedra!.subarray(55, 57))).to.deep.equal([1, 0]);
    expect(s.getStiffnessCoef(0)).to.equal(0.5);
    expect(s.getStiffnessCoef(60)).to.equal(1);
    // volume of the cells: 64 cells of side 1.02/4
    let volume = 0;
    for (let h = 0; h < 64; h++) {
      const a = hexa[8 * h];
      const b = hexa[8 * h + 6];
      volume += (p[3 * b] - p[3 * a]) * (p[3 * b + 1] - p[3 * a + 1]) * (p[3 * b + 2] - p[3 * a + 2]);
    }
    expect(volume).to.be.closeTo(1.02 ** 3, 1e-12);
    // like SOFA, the sparse grid has no edges, triangles or quads of its own
    expect(s.getEdges().length + s.getTriangles().length + s.getQuads().length).to.equal(0);
  });

  it('keeps only the inside cells with onlyInsideCells, and reads the surface from its Data', () => {
    const s = sparse({ n: '5 5 5', onlyInsideCells: '1', position: CUBE_V.flat().join(' '), quads: CUBE_F.flat().join(' ') });
    expect(s.getHexahedra().length / 8).to.equal(8);
    expect(s.getNbPoints()).to.equal(27);
  });

  it('keeps every cell inside an octahedron and no cell outside it', () => {
    const s = sparse({ n: '12 12 12', fileTopology: objFile('octa.obj', OCTA_V, OCTA_F) });
    const g = s.getGrid();
    const step = (g.max[0] - g.min[0]) / 11;
    const kept = g.cellToHexahedron!;
    let inside = 0;
    for (let k = 0; k < 11; k++) {
      for (let j = 0; j < 11; j++) {
        for (let i = 0; i < 11; i++) {
          const lo = [i, j, k].map((c, a) => g.min[a] + c * step);
          // smallest and largest |x| + |y| + |z| over the cell
          const near = lo.reduce((sum, a) => sum + (a > 0 ? a : a + step < 0 ? -(a + step) : 0), 0);
          const far = lo.reduce((sum, a) => sum + Math.max(Math.abs(a), Math.abs(a + step)), 0);
          const h = kept[i + 11 * (j + 11 * k)];
          if (far < 1 - 1e-3) {
            expect(h, `cell ${i} ${j} ${k} inside`).to.be.at.least(0);
            expect(g.boundaryHexahedra![h], `cell ${i} ${j} ${k} inside`).to.equal(0);
            inside++;
          }
          if (near > 1 + 1e-3) expect(h, `cell ${i} ${j} ${k} outside`).to.equal(-1);
          if (near < 1 - 1e-9 && far > 1 + 1e-9) expect(h, `cell ${i} ${j} ${k} crossed`).to.be.at.least(0);
        }
      }
    }
    expect(inside).to.be.greaterThan(0);
  });
});
