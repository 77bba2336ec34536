import { expect } from 'chai';
import { shuffle } from '../ldlt-test-support.js';
import { SupernodalLDLT } from '../supernodal-ldlt.js';
import { laplacian3d, rng } from '../test-support.js';
import { amdOrdering } from './amd.js';
import { factorWork } from './factor-work.js';
import { PROFILE_ORDERING_GAIN, PROFILE_ORDERING_MIN_SAVING, leastWorkOrdering } from './least-work-ordering.js';
import { hexahedralGrid, renumbered } from './ordering-test-support.js';
import { naturalOrdering } from './natural.js';
import { reverseCuthillMcKee } from './reverse-cuthill-mckee.js';

describe('leastWorkOrdering', () => {
  it('keeps AMD, the very permutation amdOrdering gives, on compact meshes', () => {
    for (const A of [hexahedralGrid(8, 8, 8), laplacian3d(10, 10, 10), hexahedralGrid(5, 5, 5, 3)]) {
      const chosen = leastWorkOrdering(A.rows, A.rowPtr, A.colInd);
      expect(chosen.method).to.equal('AMD');
      expect(Array.from(chosen.perm)).to.deep.equal(Array.from(amdOrdering(A.rows, A.rowPtr, A.colInd)));
      expect(chosen.multiplyAdds).to.equal(chosen.amdMultiplyAdds);
    }
  });

  it("takes a slender grid's own numbering when its band costs clearly less than AMD", () => {
    // The trunk robot's grid: 5 × 5 × 31 points of hexahedra, three unknowns each.
    const A = hexahedralGrid(5, 5, 31, 3);
    const n = A.rows;
    const chosen = leastWorkOrdering(n, A.rowPtr, A.colInd);
    const work = (perm: Int32Array) => factorWork(n, A.rowPtr, A.colInd, perm).multiplyAdds;
    expect(chosen.method).to.equal('Natural');
    expect(chosen.multiplyAdds).to.equal(work(naturalOrdering(n)));
    expect(chosen.amdMultiplyAdds).to.equal(work(amdOrdering(n, A.rowPtr, A.colInd)));
    expect(chosen.multiplyAdds).to.be.at.most(PROFILE_ORDERING_GAIN * chosen.amdMultiplyAdds);
    expect(chosen.multiplyAdds).to.be.at.most(work(reverseCuthillMcKee(n, A.rowPtr, A.colInd)));
  });

  it('keeps AMD on a slender mesh whose band saves less than PROFILE_ORDERING_MIN_SAVING', () => {
    // SOFA's explicit Euler regression scene: 4 × 4 × 11 points, three unknowns each.
    const A = hexahedralGrid(4, 4, 11, 3);
    const n = A.rows;
    const natural = factorWork(n, A.rowPtr, A.colInd, naturalOrdering(n)).multiplyAdds;
    const chosen = leastWorkOrdering(n, A.rowPtr, A.colInd);
    expect(natural).to.be.below(PROFILE_ORDERING_GAIN * chosen.amdMultiplyAdds);
    expect(chosen.amdMultiplyAdds - natural).to.be.below(PROFILE_ORDERING_MIN_SAVING);
    expect(chosen.method).to.equal('AMD');
  });

  it('finds the band by reverse Cuthill–McKee when the slender mesh is numbered at random, and the factor solves', () => {
    const A = renumbered(hexahedralGrid(5, 5, 31, 3), shuffle(rng(23), 2325));
    const n = A.rows;
    const chosen = leastWorkOrdering(n, A.rowPtr, A.colInd);
    expect(chosen.method).to.equal('RCM');
    expect(Array.from(chosen.perm)).to.deep.equal(Array.from(reverseCuthillMcKee(n, A.rowPtr, A.colInd)));
    expect(chosen.multiplyAdds).to.be.at.most(PROFILE_ORDERING_GAIN * chosen.amdMultiplyAdds);
    // An SPD matrix on the pattern (diagonally dominant), solved through the chosen ordering.
    const values = new Float64Array(A.colInd.length);
    for (let i = 0; i < n; i++)
      for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) values[k] = A.colInd[k] === i ? 30 : -1 / (1 + ((i + A.colInd[k]) % 3));
    const M = { ...A, values };
    const x = Float64Array.from({ length: n }, (_, i) => Math.sin(i));
    const b = new Float64Array(n);
    for (let i = 0; i < n; i++) for (let k = M.rowPtr[i]; k < M.rowPtr[i + 1]; k++) b[i] += values[k] * x[M.colInd[k]];
    const y = new SupernodalLDLT().analyze(M, chosen.perm).factorize(M).solve(new Float64Array(n), b);
    let err = 0;
    for (let i = 0; i < n; i++) err = Math.max(err, Math.abs(y[i] - x[i]));
    expect(err).to.be.below(1e-12);
  });
});
