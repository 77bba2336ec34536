import { expect } from 'chai';
import { shuffle } from '../ldlt-test-support.js';
import { SparseLDLT } from '../sparse-ldlt.js';
import { laplacian3d, rng } from '../test-support.js';
import { amdOrdering } from './amd.js';
import { factorWork } from './factor-work.js';
import { eliminationFill, eliminationWork } from './fill-oracle-test-support.js';
import { hexahedralGrid } from './ordering-test-support.js';
import { naturalOrdering } from './natural.js';
import { reverseCuthillMcKee } from './reverse-cuthill-mckee.js';
import { symmetricAdjacency } from './symmetric-pattern.js';

describe('factorWork', () => {
  const r = rng(17);
  const cases = [
    ['a 7-point 3D Laplacian', laplacian3d(5, 4, 6)],
    ['a hexahedral grid with 3 unknowns per point', hexahedralGrid(3, 3, 5, 3)],
  ] as const;
  for (const [what, A] of cases) {
    it(`counts nnz(L) and the multiply-adds of an explicit graph elimination: ${what}`, () => {
      const n = A.rows;
      const orderings = [amdOrdering(n, A.rowPtr, A.colInd), naturalOrdering(n), reverseCuthillMcKee(n, A.rowPtr, A.colInd), shuffle(r, n)];
      for (const perm of orderings) {
        const w = factorWork(n, A.rowPtr, A.colInd, perm);
        expect(w.nnzL).to.equal(eliminationFill(n, A.rowPtr, A.colInd, perm));
        expect(w.multiplyAdds).to.equal(eliminationWork(n, A.rowPtr, A.colInd, perm));
        expect(w.nnzL).to.equal(new SparseLDLT().analyze(A, perm).nnzL);
      }
    });
  }

  it('gives the same counts for the graph without its diagonal (symmetricAdjacency)', () => {
    const A = hexahedralGrid(4, 3, 6);
    const { ptr, ind } = symmetricAdjacency(A.rows, A.rowPtr, A.colInd);
    const perm = amdOrdering(A.rows, A.rowPtr, A.colInd);
    expect(factorWork(A.rows, ptr, ind, perm)).to.deep.equal(factorWork(A.rows, A.rowPtr, A.colInd, perm));
  });
});
