import { expect } from 'chai';
import { dot as mDot, lusolve, multiply, transpose } from 'mathjs';
import { csrAddScaled, csrFromTriplets, csrTranspose, spmv } from './csr.js';
import { bsr3FromCsrPattern, bsr3RefillFromCsr } from './bsr3.js';
import { Bsr3Wasm } from './wasm/bsr3-wasm.js';
import { type CgParams, CgWorkspace, conjugateGradient, preconditionedConjugateGradient } from './conjugate-gradient.js';
import { denseMul, denseSolve, denseToCsr, expectClose, randomDiagDominantDense, randomVector, rng } from './test-support.js';

const base: CgParams = { maxIterations: 1000, tolerance: 1e-12, threshold: 1e-30, warmStart: false, firstSolve: false };

function operator(D: number[][]) {
  const A = denseToCsr(D);
  return (out: Float64Array, p: Float64Array) => {
    spmv(out, A, p);
  };
}

// Dense SPD matrix Mᵀ M + s I (less benign spectrum than diagonal dominance).
function gramSpd(r: () => number, n: number, shift: number): number[][] {
  const M = Array.from({ length: n }, () => Array.from({ length: n }, () => 2 * r() - 1));
  const G = multiply(transpose(M), M) as number[][];
  for (let i = 0; i < n; i++) G[i][i] += shift;
  return G;
}

/**
 * The k-th CG iterate from x0 minimises the A-norm of the error over x0 + K_k(A, r0),
 * K_k = span{r0, A r0, …, A^{k−1} r0}: x_k = x0 + V (VᵀAV)⁻¹ Vᵀ r0 with V an orthonormal basis
 * (modified Gram–Schmidt on the Krylov vectors). An oracle independent of the CG recurrences.
 */
function krylovIterate(A: number[][], b: number[], x0: number[], k: number): number[] {
  const n = b.length;
  const Ax0 = denseMul(A, x0);
  const r0 = b.map((v, i) => v - Ax0[i]);
  const V: number[][] = [];
  let v = r0.slice();
  for (let j = 0; j < k; j++) {
    const w = v.slice();
    for (const q of V) {
      const c = mDot(q, w);
      for (let i = 0; i < n; i++) w[i] -= c * q[i];
    }
    const nw = Math.sqrt(mDot(w, w));
    V.push(w.map((t) => t / nw));
    v = denseMul(A, V[V.length - 1]);
  }
  const AV = V.map((q) => denseMul(A, q));
  const H = V.map((qi) => AV.map((aqj) => mDot(qi, aqj)));
  const g = V.map((qi) => mDot(qi, r0));
  const y = (lusolve(H, g) as number[][]).map((row) => row[0]);
  return x0.map((xi, i) => xi + V.reduce((s, q, j) => s + q[i] * y[j], 0));
}

function trueRelResidual(A: number[][], b: Float64Array, x: Float64Array): number {
  const Ax = denseMul(A, x);
  let s = 0;
  let nb = 0;
  for (let i = 0; i < b.length; i++) {
    s += (b[i] - Ax[i]) ** 2;
    nb += b[i] ** 2;
  }
  return Math.sqrt(s / nb);
}

describe('conjugateGradient (SOFA CGLinearSolver semantics)', () => {
  for (const n of [1, 2, 5, 20, 60]) {
    it(`solves a random SPD system of size ${n} like mathjs lusolve`, () => {
      const r = rng(n + 100);
      const D = n > 10 ? gramSpd(r, n, 0.5) : randomDiagDominantDense(r, n, 3);
      const b = randomVector(r, n);
      const x = new Float64Array(n);
      const res = conjugateGradient(operator(D), b, x, base, new CgWorkspace(n));
      expect(res.reason).to.equal('tolerance');
      expect(res.residual).to.be.at.most(1e-12);
      expect(trueRelResidual(D, b, x)).to.be.below(1e-9);
      expectClose(x, denseSolve(D, b), 1e-8, 'x');
    });
  }

  it('converges in m updates for a matrix with m distinct eigenvalues (reports m + 1 iterations)', () => {
    const n = 30;
    const eig = [1, 3, 10];
    const D = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? eig[i % 3] : 0)));
    const b = randomVector(rng(4), n);
    const x = new Float64Array(n);
    const res = conjugateGradient(operator(D), b, x, { ...base, tolerance: 1e-10 }, new CgWorkspace(n));
    expect(res.reason).to.equal('tolerance');
    expect(res.iterations).to.equal(4); // 3 updates, stopped at the start of iteration 4
    expectClose(
      x,
      Array.from(b, (v, i) => v / eig[i % 3]),
      1e-12,
      'x',
    );
  });

  it('stopping on tolerance at iteration K leaves x exactly as a run limited to K − 1 iterations', () => {
    const n = 40;
    const r = rng(8);
    const D = gramSpd(r, n, 2);
    const b = randomVector(r, n);
    const ws = new CgWorkspace(n);
    const x1 = new Float64Array(n);
    // Copy: the returned object belongs to the workspace and the next solve overwrites it.
    const res1 = { ...conjugateGradient(operator(D), b, x1, { ...base, tolerance: 1e-6 }, ws) };
    const K = res1.iterations;
    expect(res1.reason).to.equal('tolerance');
    expect(K).to.be.greaterThan(2);
    expect(res1.residual).to.be.at.most(1e-6);
    const x2 = new Float64Array(n);
    const res2 = conjugateGradient(operator(D), b, x2, { ...base, tolerance: 1e-6, maxIterations: K - 1 }, ws);
    expect(res2.reason).to.equal('iterations');
    expect(res2.iterations).to.equal(K - 1);
    expect(res2.residual).to.be.greaterThan(1e-6); // the last err computed, before the last update
    expect(Array.from(x2)).to.deep.equal(Array.from(x1));
    // The reported err was computed from the recurrence residual of the final x.
    expect(trueRelResidual(D, b, x1)).to.be.closeTo(res1.residual, 1e-9);
  });

  for (const k of [1, 2, 3, 5]) {
    it(`respects maxIterations = ${k}: iterations = ${k} and x is the k-th Krylov (energy-minimising) iterate`, () => {
      const n = 25;
      const r = rng(30 + k);
      const D = randomDiagDominantDense(r, n, 4);
      const b = randomVector(r, n);
      const x = new Float64Array(n).fill(123); // ignored without warm start
      const res = conjugateGradient(operator(D), b, x, { ...base, maxIterations: k }, new CgWorkspace(n));
      expect(res.iterations).to.equal(k);
      expect(res.reason).to.equal('iterations');
      expectClose(x, krylovIterate(D, Array.from(b), new Array<number>(n).fill(0), k), 1e-10, 'x_k');
    });
  }

  it('warm start: starts from r = b − A x and iterates in x0 + K_k(A, r0)', () => {
    const n = 20;
    const r = rng(77);
    const D = randomDiagDominantDense(r, n, 4);
    const b = randomVector(r, n);
    const x0 = randomVector(r, n);
    const x = x0.slice();
    const res = conjugateGradient(operator(D), b, x, { ...base, maxIterations: 2, warmStart: true }, new CgWorkspace(n));
    expect(res.iterations).to.equal(2);
    expectClose(x, krylovIterate(D, Array.from(b), Array.from(x0), 2), 1e-10, 'x_2');
    // The first err is |b − A x0| / |b|, not 1.
    const one = x0.slice();
    const res1 = conjugateGradient(operator(D), b, one, { ...base, maxIterations: 1, warmStart: true }, new CgWorkspace(n));
    expect(res1.residual).to.be.closeTo(trueRelResidual(D, b, x0), 1e-14);
  });

  describe('first-solve exception (SOFA timeStepCount == 0)', () => {
    const D = [
      [4, 1, 0],
      [1, 3, 1],
      [0, 1, 2],
    ];
    const b = new Float64Array([1, 2, 3]);
    // One steepest-descent step from 0: x1 = (bᵀb / bᵀAb) b.
    const bb = mDot(Array.from(b), Array.from(b));
    const bAb = mDot(Array.from(b), denseMul(D, b));
    const x1 = Array.from(b, (v) => (bb / bAb) * v);

    it('tolerance met at iteration 1: stops unless this is the first solve', () => {
      const loose = { ...base, tolerance: 2 }; // err = |b|/|b| = 1 <= 2 at iteration 1
      const x = new Float64Array(3);
      let res = conjugateGradient(operator(D), b, x, loose, new CgWorkspace(3));
      expect([res.iterations, res.reason, res.residual]).to.deep.equal([1, 'tolerance', 1]);
      expect(Array.from(x)).to.deep.equal([0, 0, 0]);

      res = conjugateGradient(operator(D), b, x, { ...loose, firstSolve: true }, new CgWorkspace(3));
      expect([res.iterations, res.reason]).to.deep.equal([2, 'tolerance']);
      expectClose(x, x1, 1e-15, 'x after one step');
      expect(res.residual).to.be.closeTo(trueRelResidual(D, b, x), 1e-15);
    });

    it('threshold met at iteration 1: stops unless this is the first solve', () => {
      const big = { ...base, threshold: 1e30 };
      const x = new Float64Array(3);
      let res = conjugateGradient(operator(D), b, x, big, new CgWorkspace(3));
      expect([res.iterations, res.reason, res.residual]).to.deep.equal([1, 'threshold', 1]);
      expect(Array.from(x)).to.deep.equal([0, 0, 0]);

      res = conjugateGradient(operator(D), b, x, { ...big, firstSolve: true }, new CgWorkspace(3));
      expect([res.iterations, res.reason]).to.deep.equal([2, 'threshold']);
      expectClose(x, x1, 1e-15, 'x after one step');
    });

    it('the threshold is compared with |pᵀAp| (= bᵀAb at iteration 1)', () => {
      // pᵀAp at iteration 1 is bᵀAb; a threshold just above it stops, just below it does not.
      const x = new Float64Array(3);
      let res = conjugateGradient(operator(D), b, x, { ...base, threshold: bAb * (1 + 1e-12) }, new CgWorkspace(3));
      expect([res.iterations, res.reason]).to.deep.equal([1, 'threshold']);
      res = conjugateGradient(operator(D), b, x, { ...base, threshold: bAb * (1 - 1e-12), maxIterations: 1 }, new CgWorkspace(3));
      expect([res.iterations, res.reason]).to.deep.equal([1, 'iterations']);
      expectClose(x, x1, 1e-15, 'x after one step');
    });
  });

  it('warm start at the exact solution: tolerance stop, or zero denominator on the first solve', () => {
    const D = [
      [2, 0, 0],
      [0, 4, 0],
      [0, 0, 8],
    ];
    const b = new Float64Array([2, 4, 8]); // exact solution (1, 1, 1): r = 0 exactly
    const x = new Float64Array([1, 1, 1]);
    let res = conjugateGradient(operator(D), b, x, { ...base, warmStart: true }, new CgWorkspace(3));
    expect([res.iterations, res.reason, res.residual]).to.deep.equal([1, 'tolerance', 0]);
    res = conjugateGradient(operator(D), b, x, { ...base, warmStart: true, firstSolve: true }, new CgWorkspace(3));
    expect([res.iterations, res.reason]).to.deep.equal([1, 'zero-denominator']);
    expect(Array.from(x)).to.deep.equal([1, 1, 1]);
  });

  it('zero right-hand side: no iteration, x cleared (or kept with warm start)', () => {
    const D = randomDiagDominantDense(rng(5), 6, 2);
    const b = new Float64Array(6);
    const x = new Float64Array(6).fill(3);
    const ws = new CgWorkspace(6);
    let res = conjugateGradient(operator(D), b, x, { ...base, warmStart: true }, ws);
    expect([res.iterations, res.reason, res.residual]).to.deep.equal([0, 'zero-rhs', 0]);
    expect(Array.from(x)).to.deep.equal([3, 3, 3, 3, 3, 3]);
    res = conjugateGradient(operator(D), b, x, base, ws);
    expect([res.iterations, res.reason]).to.deep.equal([0, 'zero-rhs']);
    expect(Array.from(x)).to.deep.equal([0, 0, 0, 0, 0, 0]);
  });

  it('maxIterations = 0 performs nothing; result object and workspace are reused', () => {
    const D = randomDiagDominantDense(rng(6), 4, 2);
    const ws = new CgWorkspace(4);
    const b = new Float64Array([1, 0, 0, 0]);
    const x = new Float64Array(4).fill(1);
    const res = conjugateGradient(operator(D), b, x, { ...base, maxIterations: 0 }, ws);
    expect([res.iterations, res.reason]).to.deep.equal([0, 'iterations']);
    expect(Array.from(x)).to.deep.equal([0, 0, 0, 0]);
    expect(res).to.equal(ws.result);
    expect(() => conjugateGradient(operator(D), b, new Float64Array(3), base, ws)).to.throw(/size mismatch/);
    const r0 = ws.r;
    expect(ws.ensureSize(4).r).to.equal(r0);
    expect(ws.ensureSize(7).r.length).to.equal(7);
  });
});

describe('preconditionedConjugateGradient', () => {
  it('identity preconditioner reproduces plain CG bit for bit', () => {
    const n = 30;
    const r = rng(21);
    const D = gramSpd(r, n, 1);
    const b = randomVector(r, n);
    const xa = new Float64Array(n);
    const xb = new Float64Array(n);
    const p = { ...base, maxIterations: 7 };
    conjugateGradient(operator(D), b, xa, p, new CgWorkspace(n));
    const res = preconditionedConjugateGradient(operator(D), (out, v) => out.set(v), b, xb, p, new CgWorkspace(n));
    expect(res.iterations).to.equal(7);
    expect(Array.from(xb)).to.deep.equal(Array.from(xa));
  });

  it('Jacobi preconditioning: same solution, fewer iterations on a badly scaled matrix', () => {
    const n = 80;
    const r = rng(22);
    const D0 = randomDiagDominantDense(r, n, 5);
    // S D0 S with S = diag(10^u), u ∈ [-2, 2]: SPD, condition number ~1e8.
    const s = Array.from({ length: n }, () => 10 ** (4 * r() - 2));
    const D = D0.map((row, i) => row.map((v, j) => s[i] * v * s[j]));
    const diag = Float64Array.from(D, (row, i) => row[i]);
    const b = randomVector(r, n);
    const xc = new Float64Array(n);
    const xp = new Float64Array(n);
    const p = { ...base, tolerance: 1e-10, maxIterations: 5000 };
    const rc = { ...conjugateGradient(operator(D), b, xc, p, new CgWorkspace(n)) };
    const rp = preconditionedConjugateGradient(
      operator(D),
      (out, v) => {
        for (let i = 0; i < n; i++) out[i] = v[i] / diag[i];
      },
      b,
      xp,
      p,
      new CgWorkspace(n),
    );
    expect(rp.reason).to.equal('tolerance');
    expect(rp.iterations).to.be.lessThan(rc.iterations);
    expectClose(xp, denseSolve(D, b), 1e-6, 'x');
  });

  it('exact inverse as preconditioner converges after one update', () => {
    const D = [
      [5, 0, 0],
      [0, 0.5, 0],
      [0, 0, 2],
    ];
    const b = new Float64Array([1, -2, 3]);
    const x = new Float64Array(3);
    const res = preconditionedConjugateGradient(
      operator(D),
      (out, v) => {
        out[0] = v[0] / 5;
        out[1] = v[1] / 0.5;
        out[2] = v[2] / 2;
      },
      b,
      x,
      base,
      new CgWorkspace(3),
    );
    expect([res.iterations, res.reason]).to.deep.equal([2, 'tolerance']);
    expectClose(x, [0.2, -4, 1.5], 1e-15, 'x');
  });

  it('zero right-hand side and warm start', () => {
    const D = randomDiagDominantDense(rng(9), 5, 2);
    const ws = new CgWorkspace(5);
    const x = new Float64Array(5).fill(2);
    const res = preconditionedConjugateGradient(operator(D), (o, v) => o.set(v), new Float64Array(5), x, { ...base, warmStart: true }, ws);
    expect([res.iterations, res.reason]).to.deep.equal([0, 'zero-rhs']);
    expect(Array.from(x)).to.deep.equal([2, 2, 2, 2, 2]);
    const b = randomVector(rng(10), 5);
    const res2 = preconditionedConjugateGradient(operator(D), (o, v) => o.set(v), b, x, { ...base, warmStart: true }, ws);
    expect(res2.reason).to.equal('tolerance');
    expectClose(x, denseSolve(D, b), 1e-10, 'x');
  });
});

describe('conjugateGradient with a given scalar product (SOFA per-node summation)', () => {
  /** Per-node sum of 3 products, then the nodes: SOFA's order for a Vec3 state. */
  const dot3 = (a: Float64Array, b: Float64Array): number => {
    let r = 0;
    for (let i = 0; i < a.length; i += 3) r += a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2];
    return r;
  };

  it('solves the same SPD system as a direct solve', () => {
    const n = 30;
    const r = rng(21);
    const D = gramSpd(r, n, 1);
    const b = randomVector(r, n);
    const x = new Float64Array(n);
    const res = conjugateGradient(operator(D), b, x, { ...base, dot: dot3 }, new CgWorkspace(n));
    expect(res.reason).to.equal('tolerance');
    expectClose(x, denseSolve(D, b), 1e-8, 'x');
  });

  it('uses the given product for |b|, ρ and pᵀAp (its last bits decide a truncated solve)', () => {
    // A = 2I: one update solves it. The product is spied on: every scalar product of the solve
    // (|b|, then ρ and pᵀAp per iteration) goes through it.
    const n = 6;
    const D = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 2 : 0)));
    const b = Float64Array.of(1, 0, 0, 0, 1, 0);
    let calls = 0;
    const spy = (a: Float64Array, c: Float64Array): number => {
      calls++;
      return dot3(a, c);
    };
    const x = new Float64Array(n);
    const res = conjugateGradient(operator(D), b, x, { ...base, dot: spy }, new CgWorkspace(n));
    // |b|, ρ₁, den₁, ρ₂ (tolerance met at iteration 2): 4 products
    expect(res.iterations).to.equal(2);
    expect(calls).to.equal(4);
    expectClose(x, [0.5, 0, 0, 0, 0.5, 0], 1e-15, 'x');
  });
});

describe('conjugateGradient with a kernel (Bsr3Wasm: vectors and operations in WebAssembly)', () => {
  it('gives the iterates of the JavaScript loop bit for bit (cold and warm starts, every stop)', () => {
    // an SPD block matrix: a 3D chain of nodes coupled to their neighbours, diagonally dominant
    const nodes = 200,
      rows: number[] = [],
      cols: number[] = [],
      vals: number[] = [];
    let s = 5;
    const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
    for (let a = 0; a < nodes; a++)
      for (const b of [a - 7, a - 1, a, a + 1, a + 7])
        if (b >= 0 && b < nodes)
          for (let p = 0; p < 3; p++)
            for (let q = 0; q < 3; q++) {
              rows.push(3 * a + p);
              cols.push(3 * b + q);
              vals.push(a === b ? (p === q ? 20 : 0.1) : 0.5 * rnd());
            }
    const A0 = csrFromTriplets(3 * nodes, 3 * nodes, rows, cols, vals);
    const At = csrTranspose(A0);
    const A = csrAddScaled(A0, At, 0.5, 0.5); // symmetric
    const { matrix, scatter } = bsr3FromCsrPattern(A);
    const w = Bsr3Wasm.create(matrix)!;
    bsr3RefillFromCsr(w.matrix, A, w.kernelScatter(scatter));
    const n = 3 * nodes;
    const b = Float64Array.from({ length: n }, (_, i) => Math.sin(i) + 0.1);
    const ws = new CgWorkspace(n);
    const apply = (out: Float64Array, x: Float64Array) => void spmv(out, A, x);
    const blocks = (out: Float64Array, x: Float64Array) => w.apply(out, x);
    for (const params of [
      { maxIterations: 40, tolerance: 1e-12, threshold: 1e-30, warmStart: false, firstSolve: true },
      { maxIterations: 500, tolerance: 1e-8, threshold: 1e-30, warmStart: true, firstSolve: false },
      { maxIterations: 500, tolerance: 1e-30, threshold: 1e-12, warmStart: false, firstSolve: false },
    ]) {
      const x0 = Float64Array.from({ length: n }, (_, i) => 0.01 * Math.cos(i));
      // the JavaScript loop on the block product (the same products as the kernel's)
      const xa = x0.slice(),
        xb = x0.slice();
      const ra = { ...conjugateGradient(blocks, b, xa, params, ws) };
      const rb = { ...conjugateGradient(blocks, b, xb, { ...params, kernel: w }, ws) };
      expect(rb).to.deep.equal(ra);
      expect(Array.from(xb)).to.deep.equal(Array.from(xa));
      // and the scalar CSR product converges to the same solution
      const xc = x0.slice();
      conjugateGradient(apply, b, xc, params, ws);
      for (let i = 0; i < n; i++) expect(xb[i]).to.be.closeTo(xc[i], 1e-6);
    }
  });
});
