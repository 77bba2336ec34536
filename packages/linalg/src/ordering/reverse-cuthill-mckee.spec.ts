import { expect } from 'chai';
import { shuffle } from '../ldlt-test-support.js';
import { laplacian2d, rng } from '../test-support.js';
import { isPermutation } from './permutation.js';
import { reverseCuthillMcKee } from './reverse-cuthill-mckee.js';
import { bandwidth, hexahedralGrid, renumbered } from './ordering-test-support.js';

describe('reverseCuthillMcKee', () => {
  it('returns a permutation for several components, isolated vertices and an empty matrix', () => {
    expect(reverseCuthillMcKee(0, new Int32Array(1), new Int32Array(0)).length).to.equal(0);
    const G = laplacian2d(6, 4);
    const n = 2 * G.rows + 3; // two grids, then three isolated vertices
    const rowPtr = new Int32Array(n + 1);
    const cols: number[] = [];
    for (let i = 0; i < n; i++) {
      if (i < 2 * G.rows) {
        const b = i < G.rows ? 0 : G.rows;
        for (let k = G.rowPtr[i - b]; k < G.rowPtr[i - b + 1]; k++) cols.push(G.colInd[k] + b);
      } else cols.push(i);
      rowPtr[i + 1] = cols.length;
    }
    const perm = reverseCuthillMcKee(n, rowPtr, Int32Array.from(cols));
    expect(isPermutation(perm, n)).to.equal(true);
    // Each grid is numbered as one block: its vertices are consecutive in the ordering.
    const firstGrid = Array.from(perm, (v) => (v < G.rows ? 1 : 0));
    const changes = firstGrid.slice(1).filter((f, k) => f !== firstGrid[k]).length;
    expect(changes).to.be.at.most(2);
  });

  it('numbers a shuffled path end to end: bandwidth 1', () => {
    const n = 200;
    const rowPtr = new Int32Array(n + 1);
    const cols: number[] = [];
    for (let i = 0; i < n; i++) {
      if (i > 0) cols.push(i - 1);
      cols.push(i);
      if (i < n - 1) cols.push(i + 1);
      rowPtr[i + 1] = cols.length;
    }
    const path = { rows: n, cols: n, rowPtr, colInd: Int32Array.from(cols), values: new Float64Array(cols.length) };
    const B = renumbered(path, shuffle(rng(5), n));
    expect(
      bandwidth(
        B,
        Int32Array.from({ length: n }, (_, i) => i),
      ),
    ).to.be.above(100);
    expect(bandwidth(B, reverseCuthillMcKee(n, B.rowPtr, B.colInd))).to.equal(1);
  });

  it('gives a shuffled slender mesh a band a few cross-sections wide', () => {
    // 4 × 4 × 40 grid points of hexahedra: a cross-section is 16 points, the grid's own numbering
    // has bandwidth 16 + 4 + 1 = 21. Levels from a point of one end are cross-sections once past
    // the end (about two near it), and the band of Cuthill–McKee is under two levels wide.
    const A = hexahedralGrid(4, 4, 40);
    expect(
      bandwidth(
        A,
        Int32Array.from({ length: A.rows }, (_, i) => i),
      ),
    ).to.equal(21);
    const B = renumbered(A, shuffle(rng(11), A.rows));
    expect(
      bandwidth(
        B,
        Int32Array.from({ length: B.rows }, (_, i) => i),
      ),
    ).to.be.above(500);
    expect(bandwidth(B, reverseCuthillMcKee(B.rows, B.rowPtr, B.colInd))).to.be.at.most(3 * 16);
  });
});
