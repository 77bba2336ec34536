import { expect } from 'chai';
import { multiply, transpose } from 'mathjs';
import { type CsrMatrix, csrToDense } from './csr.js';
import {
  expectGuards,
  expectPivotTolerance,
  expectReadsOnlyRequestedTriangle,
  expectRecoversAfterZeroPivot,
  refillDiagDominant,
  relativeResidual,
  shuffle,
  zeroPivotMessage,
} from './ldlt-test-support.js';
import { eliminationFill } from './ordering/fill-oracle-test-support.js';
import { nestedDissectionOrdering } from './ordering/nested-dissection.js';
import { isPermutation } from './ordering/permutation.js';
import { SparseLDLT, ZeroPivotError } from './sparse-ldlt.js';
import { SupernodalLDLT } from './supernodal-ldlt.js';
import { denseSolve, denseToCsr, expectClose, laplacian3d, randInt, randomDiagDominantDense, randomVector, rng } from './test-support.js';

/**
 * Stiffness-like SPD matrix with 3×3 node blocks on an nx×ny×nz grid of nodes: every pair of nodes
 * of a grid cell (edges, face and cell diagonals) is joined by an axial spring
 * k·(u uᵀ + ε I) ⊗ [1 −1; −1 1] (positive semi-definite), plus a lumped mass on the diagonal.
 * Built densely by index, as a triplet sum, independent of the code under test.
 */
function elasticityLike(r: () => number, nx: number, ny: number, nz: number): CsrMatrix {
  const nn = nx * ny * nz;
  const n = 3 * nn;
  const id = (x: number, y: number, z: number) => x + nx * (y + ny * z);
  const rows: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  const add = (i: number, j: number, v: number) => rows[i].set(j, (rows[i].get(j) ?? 0) + v);
  for (let z = 0; z < nz; z++) {
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        const a = id(x, y, z);
        for (let dz = 0; dz <= 1; dz++) {
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              if (dz === 0 && (dy < 0 || (dy === 0 && dx <= 0))) continue; // each pair once
              const X = x + dx;
              const Y = y + dy;
              const Z = z + dz;
              if (X < 0 || Y < 0 || X >= nx || Y >= ny || Z >= nz) continue;
              const b = id(X, Y, Z);
              const len = Math.hypot(dx, dy, dz);
              const u = [dx / len, dy / len, dz / len];
              const k = 0.5 + r();
              for (let p = 0; p < 3; p++) {
                for (let q = 0; q < 3; q++) {
                  const v = k * (u[p] * u[q] + (p === q ? 0.05 : 0));
                  add(3 * a + p, 3 * a + q, v);
                  add(3 * b + p, 3 * b + q, v);
                  add(3 * a + p, 3 * b + q, -v);
                  add(3 * b + p, 3 * a + q, -v);
                }
              }
            }
          }
        }
      }
    }
  }
  for (let i = 0; i < n; i++) add(i, i, 0.01 + 0.01 * r());
  const rowPtr = new Int32Array(n + 1);
  const ci: number[] = [];
  const vs: number[] = [];
  for (let i = 0; i < n; i++) {
    const cols = [...rows[i].keys()].sort((p, q) => p - q);
    for (const j of cols) {
      ci.push(j);
      vs.push(rows[i].get(j)!);
    }
    rowPtr[i + 1] = ci.length;
  }
  return { rows: n, cols: n, rowPtr, colInd: Int32Array.from(ci), values: Float64Array.from(vs) };
}

/**
 * The scalar up-looking SparseLDLT with the same final ordering gives the same D and the same
 * solution to round-off.
 */
function expectSameAsScalar(A: CsrMatrix, f: SupernodalLDLT, b: Float64Array, tol: number): void {
  const g = new SparseLDLT().analyze(A, f.perm).factorize(A);
  expect(f.nnzL).to.equal(g.nnzL);
  expect(f.negativePivots).to.equal(g.negativePivots);
  expectClose(f.D, g.D, tol, 'D vs SparseLDLT');
  expectClose(f.solve(new Float64Array(A.rows), b), g.solve(new Float64Array(A.rows), b), tol, 'x vs SparseLDLT');
}

/** Dense unit lower L (in the final ordering) read from the supernode blocks. */
function denseL(f: SupernodalLDLT): number[][] {
  const n = f.n;
  const L: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let s = 0; s < f.nsuper; s++) {
    const k1 = f.superStart[s];
    const ns = f.superStart[s + 1] - k1;
    const r0 = f.superRowPtr[s];
    for (let p = 0; p < f.superRowPtr[s + 1] - r0; p++) {
      for (let c = 0; c < Math.min(ns, p); c++) L[f.superRows[r0 + p]][k1 + c] = f.Lx[f.superValPtr[s] + p * ns + c];
    }
  }
  return L;
}

describe('SupernodalLDLT', () => {
  for (const n of [2, 3, 4, 8, 16, 50, 100, 200]) {
    it(`random sparse SPD, n = ${n}: AMD, natural and a random ordering solve like mathjs and like SparseLDLT`, () => {
      const r = rng(2000 + n);
      const D = randomDiagDominantDense(r, n, 4);
      const A = denseToCsr(D);
      const b = randomVector(r, n);
      const expected = denseSolve(D, b);
      for (const ordering of ['amd', 'natural', shuffle(r, n)] as const) {
        const f = new SupernodalLDLT().analyze(A, ordering).factorize(A);
        expect(f.negativePivots).to.equal(0);
        expectClose(f.solve(new Float64Array(n), b), expected, 1e-11, `x (${typeof ordering === 'string' ? ordering : 'random'})`);
        expectSameAsScalar(A, f, b, 1e-12);
      }
    });
  }

  it('n = 0 and n = 1: empty factor, scalar pivots (positive, negative, zero)', () => {
    const empty: CsrMatrix = { rows: 0, cols: 0, rowPtr: new Int32Array(1), colInd: new Int32Array(0), values: new Float64Array(0) };
    const e = new SupernodalLDLT().analyze(empty).factorize(empty);
    expect([e.nnzL, e.nsuper, e.negativePivots]).to.deep.equal([0, 0, 0]);
    expect(e.solve(new Float64Array(0), new Float64Array(0)).length).to.equal(0);

    const one = denseToCsr([[4]]);
    const f = new SupernodalLDLT().analyze(one).factorize(one);
    expect([f.nnzL, f.nsuper, f.D[0]]).to.deep.equal([0, 1, 4]);
    expect(Array.from(f.solve(new Float64Array(1), new Float64Array([2])))).to.deep.equal([0.5]);
    one.values[0] = -2;
    f.factorize(one);
    expect(f.negativePivots).to.equal(1);
    expect(Array.from(f.solve(new Float64Array(1), new Float64Array([1])))).to.deep.equal([-0.5]);
    one.values[0] = 0;
    expect(() => f.factorize(one)).to.throw(ZeroPivotError, /step 0 \(original row\/column 0\)/);
  });

  it('L D Lᵀ reproduces P A Pᵀ; the ordering is a permutation with the fill of explicit elimination; supernodes are contiguous with nested rows', () => {
    const r = rng(21);
    for (const relaxed of [true, false]) {
      const n = 40;
      const Ad = randomDiagDominantDense(r, n, 3);
      const A = denseToCsr(Ad);
      const f = new SupernodalLDLT().analyze(A, 'amd', { relaxed }).factorize(A);
      expect(isPermutation(f.perm, n)).to.equal(true);
      expect(f.nnzL).to.equal(eliminationFill(n, A.rowPtr, A.colInd, f.perm));
      expect(f.superStart[0]).to.equal(0);
      expect(f.superStart[f.nsuper]).to.equal(n);
      for (let s = 0; s < f.nsuper; s++) {
        const k1 = f.superStart[s];
        const k2 = f.superStart[s + 1];
        expect(k2).to.be.greaterThan(k1);
        const rows = Array.from(f.superRows.subarray(f.superRowPtr[s], f.superRowPtr[s + 1]));
        expect(rows.slice(0, k2 - k1)).to.deep.equal(Array.from({ length: k2 - k1 }, (_, c) => k1 + c));
        for (let p = k2 - k1 + 1; p < rows.length; p++) expect(rows[p]).to.be.greaterThan(rows[p - 1]);
        if (rows.length > k2 - k1) expect(rows[k2 - k1]).to.be.at.least(k2);
      }
      for (let j = 0; j < n; j++) if (f.parent[j] !== -1) expect(f.parent[j]).to.be.greaterThan(j);
      const L = denseL(f);
      // Without relaxation the blocks hold exactly the structural nonzeros.
      if (!relaxed) {
        let stored = 0;
        for (let s = 0; s < f.nsuper; s++) {
          const ns = f.superStart[s + 1] - f.superStart[s];
          const nr = f.superRowPtr[s + 1] - f.superRowPtr[s];
          stored += ns * nr - (ns * (ns + 1)) / 2;
        }
        expect(stored).to.equal(f.nnzL);
      }
      const Dm = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? f.D[i] : 0)));
      const LDLt = multiply(multiply(L, Dm), transpose(L)) as number[][];
      for (let i = 0; i < n; i++) {
        const PAPt = Array.from({ length: n }, (_, j) => Ad[f.perm[i]][f.perm[j]]);
        expectClose(LDLt[i], PAPt, 1e-13, `row ${i} (relaxed ${relaxed})`);
      }
    }
  });

  it('dense SPD matrices (one supernode of several panels) solve like mathjs', () => {
    const r = rng(22);
    for (const n of [23, 24, 25, 100]) {
      const Ad = randomDiagDominantDense(r, n, n);
      const A = denseToCsr(Ad);
      const b = randomVector(r, n);
      const f = new SupernodalLDLT().analyze(A, 'natural').factorize(A);
      expect(f.nsuper).to.equal(1);
      expectClose(f.solve(new Float64Array(n), b), denseSolve(Ad, b), 1e-12, `x (n = ${n})`);
      expectSameAsScalar(A, f, b, 1e-12);
    }
  });

  it('3D Laplacian: 6x6x6 matches mathjs; 16x16x16 (AMD and nested dissection) matches SparseLDLT with a tiny residual', () => {
    const A = laplacian3d(6, 6, 6);
    const b = randomVector(rng(23), A.rows);
    const f = new SupernodalLDLT().analyze(A).factorize(A);
    expectClose(f.solve(new Float64Array(A.rows), b), denseSolve(csrToDense(A), b), 1e-12, 'x');

    const B = laplacian3d(16, 16, 16);
    const c = randomVector(rng(24), B.rows);
    for (const ordering of ['amd', nestedDissectionOrdering(B.rows, B.rowPtr, B.colInd)] as const) {
      const g = new SupernodalLDLT().analyze(B, ordering).factorize(B);
      expect(g.nsuper).to.be.lessThan(B.rows / 2);
      const x = g.solve(new Float64Array(B.rows), c);
      expect(relativeResidual(B, x, c)).to.be.below(1e-13);
      expectSameAsScalar(B, g, c, 1e-12);
    }
  });

  it('elasticity-like 3×3 node blocks (4x4x6 nodes): matches mathjs and SparseLDLT, relaxed or not', () => {
    const r = rng(25);
    const A = elasticityLike(r, 4, 4, 6);
    const b = randomVector(r, A.rows);
    const expected = denseSolve(csrToDense(A), b);
    for (const relaxed of [true, false]) {
      const f = new SupernodalLDLT().analyze(A, 'amd', { relaxed }).factorize(A);
      expect(f.negativePivots).to.equal(0);
      expectClose(f.solve(new Float64Array(A.rows), b), expected, 1e-9, `x (relaxed ${relaxed})`);
      expectSameAsScalar(A, f, b, 1e-11);
    }
    // Larger: 12x12x16 nodes (6912 unknowns), residual only.
    const B = elasticityLike(r, 12, 12, 16);
    const c = randomVector(r, B.rows);
    const g = new SupernodalLDLT().analyze(B).factorize(B);
    expect(relativeResidual(B, g.solve(new Float64Array(B.rows), c), c)).to.be.below(1e-10);
  });

  it('quasi-definite KKT matrices [H Jᵀ; J −C]: any ordering works, as many negative pivots as constraints', () => {
    const r = rng(26);
    for (const [nh, nc] of [
      [1, 1],
      [10, 4],
      [60, 25],
      [150, 60],
    ]) {
      const n = nh + nc;
      const K: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
      const H = randomDiagDominantDense(r, nh, 4);
      const C = randomDiagDominantDense(r, nc, 2);
      for (let i = 0; i < nh; i++) for (let j = 0; j < nh; j++) K[i][j] = H[i][j];
      for (let i = 0; i < nc; i++) for (let j = 0; j < nc; j++) K[nh + i][nh + j] = -1e-3 * C[i][j];
      for (let i = 0; i < nc; i++) {
        for (let t = 0; t < 3; t++) {
          const j = randInt(r, nh);
          const v = 2 * r() - 1;
          K[nh + i][j] += v;
          K[j][nh + i] += v;
        }
      }
      const A = denseToCsr(K);
      const b = randomVector(r, n);
      const expected = denseSolve(K, b);
      for (const ordering of ['amd', 'natural', shuffle(r, n)] as const) {
        const f = new SupernodalLDLT().analyze(A, ordering).factorize(A);
        expect(f.negativePivots).to.equal(nc);
        expectClose(f.solve(new Float64Array(n), b), expected, 1e-9, `x (${nh}+${nc})`);
        expectSameAsScalar(A, f, b, 1e-10);
      }
    }
  });

  it('indefinite diagonally dominant matrices: inertia equals the sign pattern of the diagonal', () => {
    const r = rng(27);
    for (const n of [10, 60, 150]) {
      const Ad = randomDiagDominantDense(r, n, 5, 0.4);
      const negatives = Ad.filter((row, i) => row[i] < 0).length;
      const A = denseToCsr(Ad);
      const b = randomVector(r, n);
      for (const ordering of ['amd', 'natural'] as const) {
        const f = new SupernodalLDLT().analyze(A, ordering).factorize(A);
        expect(f.negativePivots).to.equal(negatives);
        expectClose(f.solve(new Float64Array(n), b), denseSolve(Ad, b), 1e-11, 'x');
      }
    }
  });

  it('zero pivots throw ZeroPivotError naming the elimination step and the original index', () => {
    const anti = denseToCsr([
      [0, 1],
      [1, 0],
    ]);
    const f = new SupernodalLDLT().analyze(anti, 'natural');
    expect(() => f.factorize(anti)).to.throw(
      ZeroPivotError,
      /^SupernodalLDLT: zero pivot D = 0 at elimination step 0 \(original row\/column 0\)/,
    );
    expect(f.factorized).to.equal(false);
    expect(() => f.solve(new Float64Array(2), new Float64Array(2))).to.throw(/no valid factorization/);

    // Singular in the middle of a dense supernode: D = (1, 0, ...).
    const mid = denseToCsr([
      [1, 1, 1],
      [1, 1, 1],
      [1, 1, 3],
    ]);
    try {
      new SupernodalLDLT().analyze(mid, 'natural').factorize(mid);
      expect.fail('should throw');
    } catch (e) {
      expect(e).to.be.instanceOf(ZeroPivotError);
      const z = e as ZeroPivotError;
      expect([z.column, z.index, z.pivot]).to.deep.equal([1, 1, 0]);
    }
    // Across supernodes: row/column 1 duplicates row/column 0 and is eliminated after it.
    const singular = denseToCsr([
      [1, 1, 0],
      [1, 1, 0],
      [0, 0, 2],
    ]);
    const g = new SupernodalLDLT().analyze(singular, Int32Array.from([2, 0, 1]));
    try {
      g.factorize(singular);
      expect.fail('should throw');
    } catch (e) {
      const z = e as ZeroPivotError;
      expect(z).to.be.instanceOf(ZeroPivotError);
      expect(g.perm[z.column]).to.equal(z.index);
      expect([z.index, z.pivot]).to.deep.equal([1, 0]);
    }
    // A zero pivot deep in a large factor: two equal rows/columns of a 3D Laplacian.
    const B = laplacian3d(8, 8, 8);
    const dup = csrToDense(B);
    for (let j = 0; j < B.rows; j++) dup[101][j] = dup[j][101] = dup[100][j];
    dup[101][101] = dup[100][100];
    dup[100][101] = dup[101][100] = dup[100][100];
    const S = denseToCsr(dup);
    expect(() => new SupernodalLDLT().analyze(S).factorize(S)).to.throw(ZeroPivotError);
    // A pivot tolerance turns a tiny pivot into an error too.
    expectPivotTolerance(SupernodalLDLT);
  });

  it('refactorize with new values on the same pattern (and recover after a failed factorization)', () => {
    const r = rng(28);
    const n = 120;
    const D1 = randomDiagDominantDense(r, n, 5);
    const A = denseToCsr(D1);
    const f = new SupernodalLDLT().analyze(A);
    const Lx = f.Lx;
    const Dv = f.D;
    for (let t = 0; t < 4; t++) {
      const Dt = refillDiagDominant(r, A, t % 2 ? -1 : 1);
      const b = randomVector(r, n);
      f.factorize(A);
      expect(f.Lx).to.equal(Lx); // storage reused
      expect(f.D).to.equal(Dv);
      expectClose(f.solve(new Float64Array(n), b), denseSolve(Dt, b), 1e-11, `x (refill ${t})`);
      expectSameAsScalar(A, f, b, 1e-12);
    }
    expectRecoversAfterZeroPivot(f, A, r);
  });

  it('reads only the requested triangle (storage: upper / lower); solve may work in place', () => {
    expectReadsOnlyRequestedTriangle(SupernodalLDLT, rng(29));
  });

  it('guards: non-square, factorize before analyze, pattern mismatch, bad ordering', () => {
    expectGuards(SupernodalLDLT, rng(30), rng(31));
  });
});

describe('SupernodalLDLT: the WebAssembly numeric phase', () => {
  const bits = (a: Float64Array) => Array.from(a, (v) => (Object.is(v, -0) ? '-0' : String(v)));
  const both = (A: CsrMatrix, ordering: Parameters<SupernodalLDLT['analyze']>[1]) => {
    const js = new SupernodalLDLT();
    js.kernelChoice = 'js';
    return { js: js.analyze(A, ordering), wasm: new SupernodalLDLT().analyze(A, ordering) };
  };

  it('factors and solves bit for bit as the JavaScript code (3×3 node blocks, dense panels, indefinite KKT)', () => {
    const r = rng(41);
    const kkt = (() => {
      const nh = 90,
        nc = 30,
        n = nh + nc;
      const K: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
      const H = randomDiagDominantDense(r, nh, 4);
      for (let i = 0; i < nh; i++) for (let j = 0; j < nh; j++) K[i][j] = H[i][j];
      for (let i = 0; i < nc; i++) {
        K[nh + i][nh + i] = -1e-3;
        for (let t = 0; t < 3; t++) {
          const j = randInt(r, nh),
            v = 2 * r() - 1;
          K[nh + i][j] += v;
          K[j][nh + i] += v;
        }
      }
      return denseToCsr(K);
    })();
    const dense = denseToCsr(randomDiagDominantDense(r, 70, 70)); // one supernode of three panels
    for (const [A, ordering] of [
      [elasticityLike(r, 5, 4, 6), 'amd'],
      [elasticityLike(r, 6, 6, 5), 'natural'],
      [kkt, 'amd'],
      [dense, 'amd'],
    ] as const) {
      const { js, wasm } = both(A, ordering);
      expect((wasm as unknown as { kernel: unknown }).kernel, 'the kernel runs').to.not.equal(undefined);
      for (let round = 0; round < 2; round++) {
        for (let k = 0; k < A.values.length; k++) A.values[k] = A.values[k] * (1 + 0.01 * round);
        js.factorize(A);
        wasm.factorize(A);
        expect(bits(wasm.Lx)).to.deep.equal(bits(js.Lx));
        expect(bits(wasm.D)).to.deep.equal(bits(js.D));
        const b = randomVector(r, A.rows);
        expect(bits(wasm.solve(new Float64Array(A.rows), b))).to.deep.equal(bits(js.solve(new Float64Array(A.rows), b)));
      }
    }
  });

  it('f64x2 tiles at every remainder (rows mod 4, odd column counts, partial panels): solves like mathjs, the factor bit for bit the JavaScript one, nothing written above the diagonal', () => {
    const r = rng(44);
    const cases: Array<[CsrMatrix, number[][], 'amd' | 'natural']> = [];
    // one dense supernode of n = 48 … 57 columns: panels of 24 with 0 … 9 left, rows below a panel ≡ 0 … 3 mod 4
    for (let n = 48; n <= 57; n++) {
      const Ad = randomDiagDominantDense(r, n, n);
      cases.push([denseToCsr(Ad), Ad, 'natural']);
    }
    // many supernodes of odd and even widths: updates with every tile shape
    for (const n of [60, 97, 150]) {
      const Ad = randomDiagDominantDense(r, n, 6);
      cases.push([denseToCsr(Ad), Ad, 'amd']);
    }
    const Ae = elasticityLike(r, 3, 4, 5);
    cases.push([Ae, csrToDense(Ae), 'amd']);
    for (const [A, Ad, ordering] of cases) {
      const { js, wasm } = both(A, ordering);
      expect((wasm as unknown as { kernel: unknown }).kernel, 'the kernel runs').to.not.equal(undefined);
      js.factorize(A);
      wasm.factorize(A);
      const b = randomVector(r, A.rows);
      expectClose(wasm.solve(new Float64Array(A.rows), b), denseSolve(Ad, b), 1e-10, `x (n = ${A.rows})`);
      expect(bits(wasm.Lx)).to.deep.equal(bits(js.Lx));
      for (let s = 0; s < wasm.nsuper; s++) {
        const ns = wasm.superStart[s + 1] - wasm.superStart[s];
        for (let i = 0; i < ns; i++)
          for (let j = i + 1; j < ns; j++) expect(wasm.Lx[wasm.superValPtr[s] + i * ns + j], 'upper triangle').to.equal(0);
      }
    }
  });

  it("backwardSolve: Pᵀ·L⁻ᵀ·z like a dense solve with the factor's L (zeros in z included), the kernel bit for bit the JavaScript code", () => {
    const r = rng(45);
    for (const [A, ordering] of [
      [elasticityLike(r, 3, 4, 5), 'amd'],
      [denseToCsr(randomDiagDominantDense(r, 53, 53)), 'natural'],
      [denseToCsr(randomDiagDominantDense(r, 97, 6)), 'amd'],
    ] as const) {
      const { js, wasm } = both(A, ordering);
      js.factorize(A);
      wasm.factorize(A);
      const z = randomVector(r, A.rows);
      for (let k = 0; k < A.rows; k += 3) z[k] = 0; // skipped rows
      const v = denseSolve(transpose(denseL(wasm)) as number[][], z);
      const expected = new Array<number>(A.rows);
      for (let k = 0; k < A.rows; k++) expected[wasm.perm[k]] = v[k];
      const out = wasm.backwardSolve(new Float64Array(A.rows), z);
      expectClose(out, expected, 1e-10, `v (n = ${A.rows})`);
      expect(bits(out)).to.deep.equal(bits(js.backwardSolve(new Float64Array(A.rows), z)));
    }
  });

  it('reports a vanishing pivot as the JavaScript code does, and factors again afterwards', () => {
    const r = rng(43);
    const A = elasticityLike(r, 4, 4, 4);
    const { js, wasm } = both(A, 'natural');
    const saved = A.values.slice();
    // make the pivot of step 7 vanish: a zero row and column
    for (let i = 0; i < A.rows; i++) for (let q = A.rowPtr[i]; q < A.rowPtr[i + 1]; q++) if (i === 7 || A.colInd[q] === 7) A.values[q] = 0;
    const message = (f: SupernodalLDLT) => zeroPivotMessage(f, A);
    expect(message(wasm))
      .to.equal(message(js))
      .and.match(/step 7/);
    A.values.set(saved);
    expect(bits(wasm.factorize(A).D)).to.deep.equal(bits(js.factorize(A).D));
  });
});
