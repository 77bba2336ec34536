import { expect } from 'chai';
import { WorkingSetQR } from './working-set-qr.js';
import { rng } from '../test-support.js';

describe('WorkingSetQR', () => {
  it('keeps N = J [R; 0], J orthogonal and M = JᵀQJ through random appends and removals', () => {
    const r = rng(17);
    const n = 7;
    const qr = new WorkingSetQR(n);
    // Normals: rows of A (random) and unit vectors, tracked in a plain list.
    const A = Float64Array.from({ length: 20 * n }, () => 2 * r() - 1);
    const B = Array.from({ length: n * n }, () => 2 * r() - 1);
    const Q = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) Q[i * n + j] += B[k * n + i] * B[k * n + j];
    qr.track(Q);
    const cols: Float64Array[] = [];
    for (let step = 0; step < 200; step++) {
      if (qr.q > 0 && (qr.q === n || r() < 0.45)) {
        const k = Math.floor(r() * qr.q);
        qr.remove(k);
        cols.splice(k, 1);
      } else {
        const v = new Float64Array(n);
        if (r() < 0.5) {
          const row = Math.floor(r() * 20);
          const sign = r() < 0.5 ? -1 : 1;
          qr.projectRow(A, row, sign);
          for (let i = 0; i < n; i++) v[i] = sign * A[row * n + i];
        } else {
          const j = Math.floor(r() * n);
          qr.projectUnit(j, -1);
          v[j] = -1;
        }
        if (qr.tail2 < 1e-20) continue; // dependent on the working set
        qr.append();
        cols.push(v);
      }
      const { J, R, M, q } = qr;
      // JᵀJ = I
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) {
          let s = 0;
          for (let i = 0; i < n; i++) s += J[i * n + a] * J[i * n + b];
          expect(s).to.be.closeTo(a === b ? 1 : 0, 1e-12);
        }
      }
      // N(:, c) = J₁ R(:, c), R upper triangular
      for (let c = 0; c < q; c++) {
        for (let i = 0; i < n; i++) {
          let s = 0;
          for (let a = 0; a <= c; a++) s += J[i * n + a] * R[a * n + c];
          expect(s).to.be.closeTo(cols[c][i], 1e-12);
        }
      }
      // M = JᵀQJ
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) {
          let s = 0;
          for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) s += J[i * n + a] * Q[i * n + j] * J[j * n + b];
          expect(M[a * n + b]).to.be.closeTo(s, 1e-11);
        }
      }
    }
  });

  it('solves with R and Rᵀ and maps between range coordinates and vectors', () => {
    const r = rng(3);
    const n = 5;
    const qr = new WorkingSetQR(n);
    const A = Float64Array.from({ length: 3 * n }, () => 2 * r() - 1);
    for (let k = 0; k < 3; k++) {
      qr.projectRow(A, k, 1);
      qr.append();
    }
    const b = Float64Array.from([0.3, -1.2, 2]);
    const y = new Float64Array(3);
    qr.solveR(y, b);
    for (let i = 0; i < 3; i++) {
      let s = 0;
      for (let c = i; c < 3; c++) s += qr.R[i * n + c] * y[c];
      expect(s).to.be.closeTo(b[i], 1e-13);
    }
    qr.solveRT(y, b);
    for (let i = 0; i < 3; i++) {
      let s = 0;
      for (let c = 0; c <= i; c++) s += qr.R[c * n + i] * y[c];
      expect(s).to.be.closeTo(b[i], 1e-13);
    }
    // x = J₁ R⁻ᵀ b satisfies Nᵀx = b (the least-norm point of the working set's affine set through 0).
    const x = new Float64Array(n);
    qr.addRange(x, y);
    for (let k = 0; k < 3; k++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += A[k * n + i] * x[i];
      expect(s).to.be.closeTo(b[k], 1e-13);
    }
    const back = new Float64Array(3);
    qr.rangeCoordinates(back, x);
    for (let c = 0; c < 3; c++) expect(back[c]).to.be.closeTo(y[c], 1e-13);
  });
});
