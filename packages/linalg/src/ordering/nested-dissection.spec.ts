import { expect } from 'chai';
import type { CsrMatrix } from '../csr.js';
import { SparseLDLT } from '../sparse-ldlt.js';
import { laplacian2d, laplacian3d, rng } from '../test-support.js';
import { amdOrdering } from './amd.js';
import { eliminationFill } from './fill-oracle-test-support.js';
import { nestedDissectionOrdering } from './nested-dissection.js';
import { naturalOrdering } from './natural.js';
import { isPermutation } from './permutation.js';

const fill = (A: CsrMatrix, perm: Int32Array) => eliminationFill(A.rows, A.rowPtr, A.colInd, perm);

describe('nestedDissectionOrdering', () => {
  it('returns a permutation, also for several components, isolated vertices and small leaves', () => {
    // Two 2D grids side by side (block diagonal) plus an isolated vertex.
    const G = laplacian2d(12, 9);
    const n = 2 * G.rows + 1;
    const rowPtr = new Int32Array(n + 1);
    const cols: number[] = [];
    for (let b = 0; b < 2; b++) {
      for (let i = 0; i < G.rows; i++) {
        for (let k = G.rowPtr[i]; k < G.rowPtr[i + 1]; k++) cols.push(G.colInd[k] + b * G.rows);
        rowPtr[b * G.rows + i + 1] = cols.length;
      }
    }
    cols.push(n - 1);
    rowPtr[n] = cols.length;
    for (const leafSize of [1, 4, 64, 1000]) {
      const perm = nestedDissectionOrdering(n, rowPtr, Int32Array.from(cols), { leafSize });
      expect(isPermutation(perm, n), `leaf ${leafSize}`).to.equal(true);
    }
  });

  it('orders a 2D grid with far less fill than the natural order, and a 3D grid comparably to AMD', () => {
    const A2 = laplacian2d(40, 40);
    const nd2 = fill(A2, nestedDissectionOrdering(A2.rows, A2.rowPtr, A2.colInd, { leafSize: 16 }));
    const nat2 = fill(A2, naturalOrdering(A2.rows));
    expect(nd2).to.be.below(0.6 * nat2);
    const A3 = laplacian3d(12, 12, 12);
    const nd3 = fill(A3, nestedDissectionOrdering(A3.rows, A3.rowPtr, A3.colInd));
    const amd3 = fill(A3, amdOrdering(A3.rows, A3.rowPtr, A3.colInd));
    const nat3 = fill(A3, naturalOrdering(A3.rows));
    expect(nd3).to.be.below(nat3);
    expect(nd3).to.be.below(1.5 * amd3);
  });

  it('the symbolic LDLᵀ count for the ordering equals the elimination-graph fill, and the factor solves', () => {
    const r = rng(3);
    const A = laplacian2d(30, 20);
    const perm = nestedDissectionOrdering(A.rows, A.rowPtr, A.colInd, { leafSize: 8 });
    expect(new SparseLDLT().analyze(A, perm).nnzL).to.equal(fill(A, perm));
    const b = Float64Array.from({ length: A.rows }, () => r() - 0.5);
    const x = new SparseLDLT().analyze(A, perm).factorize(A).solve(new Float64Array(A.rows), b);
    let err = 0;
    for (let i = 0; i < A.rows; i++) {
      let s = -b[i];
      for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) s += A.values[k] * x[A.colInd[k]];
      err = Math.max(err, Math.abs(s));
    }
    expect(err).to.be.below(1e-12);
  });
});
