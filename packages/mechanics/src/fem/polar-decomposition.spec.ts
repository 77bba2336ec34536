import { expect } from 'chai';
import { det, eigs, multiply, transpose } from 'mathjs';
import { randomRotation, rng } from './fem-test-support.js';
import { symmetricEigen3 } from '@sofa-ts/linalg';
import { polarDecomposition, polarDecompositionStable } from './polar-decomposition.js';

const nested = (m: ArrayLike<number>): number[][] => [0, 1, 2].map((i) => [0, 1, 2].map((j) => m[3 * i + j]));

/** Q orthogonal with det ±1 and S = Qᵀ·M symmetric; returns S's eigenvalues (mathjs). */
function checkFactor(Q: Float64Array, M: Float64Array): number[] {
  const q = nested(Q);
  const qtq = multiply(transpose(q), q) as number[][];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(qtq[i][j]).to.be.closeTo(i === j ? 1 : 0, 1e-12);
  const S = multiply(transpose(q), nested(M)) as number[][];
  for (let i = 0; i < 3; i++) for (let j = 0; j < i; j++) expect(S[i][j]).to.be.closeTo(S[j][i], 1e-10);
  const sym = S.map((row, i) => row.map((_, j) => 0.5 * (S[i][j] + S[j][i])));
  return (eigs(sym).values as number[]).map(Number);
}

describe('polar decomposition (SOFA Decompose)', () => {
  const r = rng(3);

  it('M = Q·S with Q a rotation and S symmetric positive definite when det M > 0', () => {
    for (let t = 0; t < 50; t++) {
      const M = Float64Array.from({ length: 9 }, () => 2 * r() - 1);
      if ((det(nested(M)) as number) <= 0.01) continue;
      const Q = new Float64Array(9);
      polarDecomposition(Q, M);
      expect(det(nested(Q)) as number).to.be.closeTo(1, 1e-12);
      for (const ev of checkFactor(Q, M)) expect(ev).to.be.above(0);
    }
  });

  it('is exact on a rotated stretch: Q of R·diag(s)·Uᵀ is R·Uᵀ', () => {
    const R = randomRotation(r),
      U = randomRotation(r);
    const s = [1.3, 0.7, 2.1];
    const M = new Float64Array(9);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) M[3 * i + j] += R[3 * i + k] * s[k] * U[3 * j + k];
    const Q = new Float64Array(9);
    expect(polarDecomposition(Q, M)).to.not.equal(0);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        let e = 0;
        for (let k = 0; k < 3; k++) e += R[3 * i + k] * U[3 * j + k];
        expect(Q[3 * i + j]).to.be.closeTo(e, 1e-12);
      }
  });

  it('stable version: a rotation for inverted and flat matrices, the polar factor otherwise', () => {
    for (let t = 0; t < 50; t++) {
      const M = Float64Array.from({ length: 9 }, () => 2 * r() - 1);
      const Q = new Float64Array(9);
      const degenerate = polarDecompositionStable(Q, M);
      expect(det(nested(Q)) as number).to.be.closeTo(1, 1e-10);
      const d = det(nested(M)) as number;
      expect(degenerate).to.equal(d < 0);
      const evs = checkFactor(Q, M);
      if (d > 0) {
        const Qp = new Float64Array(9);
        polarDecomposition(Qp, M);
        for (let k = 0; k < 9; k++) expect(Q[k]).to.be.closeTo(Qp[k], 1e-9);
      } else {
        // the sign of det M goes to the smallest singular value
        expect(evs.filter((e) => e < 0).length).to.equal(1);
      }
    }
    const flat = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 0);
    const Q = new Float64Array(9);
    expect(polarDecompositionStable(Q, flat)).to.equal(true);
    expect(det(nested(Q)) as number).to.be.closeTo(1, 1e-12);
  });

  it('symmetric eigen-decomposition matches mathjs', () => {
    const A = [
      [4, 1, -2],
      [1, 3, 0.5],
      [-2, 0.5, 1],
    ];
    const V = new Float64Array(9),
      w = new Float64Array(3);
    symmetricEigen3(V, w, A.flat());
    const ref = (eigs(A).values as number[]).map(Number).sort((a, b) => a - b);
    expect(
      Array.from(w)
        .sort((a, b) => a - b)
        .map((v, i) => v - ref[i])
        .every((d) => Math.abs(d) < 1e-12),
    ).to.equal(true);
    // A·v = w·v
    for (let c = 0; c < 3; c++)
      for (let i = 0; i < 3; i++) {
        const Av = A[i][0] * V[c] + A[i][1] * V[3 + c] + A[i][2] * V[6 + c];
        expect(Av).to.be.closeTo(w[c] * V[3 * i + c], 1e-12);
      }
  });
});
