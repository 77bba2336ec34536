import { expect } from 'chai';
import { inv, multiply, pinv, transpose } from 'mathjs';
import { SparseLDLSolver } from '../SparseLDLSolver.js';
import { AsyncSparseLDLSolver } from './AsyncSparseLDLSolver.js';
import { BTDLinearSolver } from './BTDLinearSolver.js';
import { CholeskySolver } from './CholeskySolver.js';
import type { MatrixLinearSolver } from './matrix-linear-solver.js';
import { MinResLinearSolver } from './MinResLinearSolver.js';
import { PrecomputedLinearSolver } from './PrecomputedLinearSolver.js';
import { PrecomputedWarpPreconditioner } from './PrecomputedWarpPreconditioner.js';
import { SVDLinearSolver } from './SVDLinearSolver.js';
import { WarpPreconditioner } from './WarpPreconditioner.js';
import {
  anyFactors,
  denseMul,
  denseSolve,
  denseToCsr,
  expectClose,
  fixedSystem,
  randomSpd,
  randomUnsymmetric,
  randomVector,
  rng,
} from './test-support.js';

function make<T extends { template: string; init(): void }>(cls: new () => T, template = 'CompressedRowSparseMatrixd'): T {
  const s = new cls();
  s.template = template;
  s.init();
  return s;
}

/** Random symmetric indefinite matrix: a sparse symmetric part plus a diagonal of both signs. */
function randomIndefinite(r: () => number, n: number): number[][] {
  const A = randomSpd(r, n, 4);
  for (let i = 0; i < n; i++) A[i][i] = (i % 3 === 0 ? -1 : 1) * (A[i][i] + 1);
  return A;
}

/** Random SPD block-tridiagonal matrix of nb blocks of bs (diagonally dominant). */
function randomBlockTridiagonal(r: () => number, nb: number, bs: number): number[][] {
  const n = nb * bs;
  const A = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      if (Math.abs(Math.floor(i / bs) - Math.floor(j / bs)) <= 1 && r() < 0.6) A[i][j] = A[j][i] = 2 * r() - 1;
  for (let i = 0; i < n; i++) A[i][i] = A[i].reduce((s, v, j) => s + (j === i ? 0 : Math.abs(v)), 0) + 0.5 + r();
  return A;
}

describe('MinRes, BTD, SVD, precomputed and warp linear solvers (solution vs a dense mathjs solve)', () => {
  it('MinResLinearSolver: random SPD and symmetric indefinite systems, matrix-free and assembled', () => {
    const r = rng(12);
    for (const n of [5, 40, 120]) {
      for (const D of [randomSpd(r, n, 5), randomIndefinite(r, n)]) {
        for (const template of ['GraphScattered', 'CompressedRowSparseMatrixd']) {
          const s = new MinResLinearSolver();
          s.template = template;
          s.iterations.value = 2000;
          s.tolerance.value = 1e-15;
          s.init();
          const b = randomVector(r, n);
          const x = new Float64Array(n);
          const st = s.solveSystem(fixedSystem(D), anyFactors, b, x);
          expectClose(x, denseSolve(D, b), 1e-8, `MinRes ${template} n=${n}`);
          expect(st.iterations).to.be.at.most(2000);
        }
      }
    }
  });

  it('MinResLinearSolver: starts from the given vector (a converged guess needs no iteration beyond the first)', () => {
    const r = rng(3);
    const D = randomIndefinite(r, 30);
    const b = randomVector(r, 30);
    const s = make(MinResLinearSolver, 'GraphScattered');
    s.iterations.value = 500;
    s.tolerance.value = 1e-12;
    const x = Float64Array.from(denseSolve(D, b));
    const st = s.solveSystem(fixedSystem(D), anyFactors, b, x);
    expect(st.iterations).to.be.at.most(1);
    expectClose(x, denseSolve(D, b), 1e-10, 'MinRes warm');
  });

  for (const [name, cls] of [
    ['AsyncSparseLDLSolver', AsyncSparseLDLSolver],
    ['CholeskySolver', CholeskySolver],
  ] as const) {
    it(`${name}: random SPD systems, then new values on the same pattern`, () => {
      const r = rng(name.length);
      for (const n of [1, 9, 80]) {
        const s = make(cls as new () => MatrixLinearSolver);
        for (let round = 0; round < 2; round++) {
          const D = randomSpd(r, n, 5);
          const b = randomVector(r, n);
          const x = new Float64Array(n);
          s.solveSystem(fixedSystem(D), anyFactors, b, x);
          expectClose(x, denseSolve(D, b), 1e-10, `${name} n=${n}`);
        }
      }
    });
  }

  for (const [template, bs] of [
    ['BTDMatrix6d', 6],
    ['BTDMatrix3d', 3],
  ] as const) {
    it(`BTDLinearSolver (${template}): random block-tridiagonal SPD systems`, () => {
      const r = rng(bs);
      for (const nb of [1, 2, 15]) {
        const D = randomBlockTridiagonal(r, nb, bs);
        const s = make(BTDLinearSolver, template);
        const b = randomVector(r, nb * bs);
        const x = new Float64Array(nb * bs);
        s.solveSystem(fixedSystem(D), anyFactors, b, x);
        expectClose(x, denseSolve(D, b), 1e-10, `BTD nb=${nb}`);
      }
    });
  }

  it("BTDLinearSolver stores as SOFA's BTDMatrix::add: an entry two blocks or more above the diagonal is left out, one below goes to stored block 3i + (j − i + 1)", () => {
    const r = rng(31);
    const bs = 3,
      nb = 4,
      n = nb * bs;
    const D = randomBlockTridiagonal(r, nb, bs);
    const A = D.map((row) => row.slice());
    A[1][10] = 0.7; // block (0, 3): offset 4, left out
    A[10][1] = -0.4; // block (3, 0): offset −2, stored block 7 = block row 2, diagonal block → (7, 7)
    const E = D.map((row) => row.slice());
    E[7][7] += -0.4;
    const b = randomVector(r, n);
    const x = new Float64Array(n);
    const s = make(BTDLinearSolver, 'BTDMatrix3d');
    s.solveSystem(fixedSystem(A), anyFactors, b, x);
    expectClose(x, denseSolve(E, b), 1e-10, 'BTD storage');
  });

  it('BTDLinearSolver (solver of an ODE solver): the projected dofs are cleared after storage, so a moved entry of a projected column stays', () => {
    const r = rng(32);
    const bs = 3,
      nb = 4,
      n = nb * bs;
    const D = randomBlockTridiagonal(r, nb, bs);
    const A = D.map((row) => row.slice());
    A[10][1] = -0.4; // column 1 is projected, but SOFA moves the entry to (7, 7) before clearing
    const projected = [0, 1, 2];
    const E = D.map((row) => row.slice());
    E[7][7] += -0.4;
    for (const p of projected) for (let k = 0; k < n; k++) E[p][k] = E[k][p] = k === p ? 1 : 0;
    const b = randomVector(r, n);
    for (const p of projected) b[p] = 0;
    const x = new Float64Array(n);
    const s = make(BTDLinearSolver, 'BTDMatrix3d');
    s.solveSystem(fixedSystem(A, 1, projected), anyFactors, b, x);
    expectClose(x, denseSolve(E, b), 1e-10, 'BTD projected');
  });

  it('SVDLinearSolver: random unsymmetric systems; a singular one gets the pseudo-inverse (least-norm) solution', () => {
    const r = rng(7);
    for (const n of [3, 25]) {
      const D = randomUnsymmetric(r, n, 4);
      const s = make(SVDLinearSolver);
      const b = randomVector(r, n);
      const x = new Float64Array(n);
      s.solveSystem(fixedSystem(D), anyFactors, b, x);
      expectClose(x, denseSolve(D, b), 1e-9, `SVD n=${n}`);
    }
    // Rank 2 of 4: rows 2 and 3 repeat rows 0 and 1.
    const S = [
      [2, 1, 0, 1],
      [1, 3, 1, 0],
      [2, 1, 0, 1],
      [1, 3, 1, 0],
    ];
    const b = Float64Array.of(1, -2, 0.5, 3);
    const s = make(SVDLinearSolver);
    const x = new Float64Array(4);
    s.solveSystem(fixedSystem(S), anyFactors, b, x);
    const P = pinv(S) as number[][];
    expectClose(x, denseMul(P, b), 1e-10, 'SVD pinv');
    expect(s.conditionNumber.value).to.equal(Number.POSITIVE_INFINITY);
  });

  it('SVDLinearSolver, symmetric matrices (eigendecomposition): SPD, indefinite, repeated eigenvalues and a singular one vs mathjs', () => {
    const r = rng(11);
    const cases: Array<[string, number[][]]> = [
      ['SPD n=40', randomSpd(r, 40, 5)],
      ['indefinite n=50', randomIndefinite(r, 50)],
      // 3·I₁₀ ⊕ a block: a 10-fold eigenvalue, and a diagonal (already tridiagonal) start
      [
        'repeated eigenvalues n=16',
        Array.from({ length: 16 }, (_, i) =>
          Array.from({ length: 16 }, (_, j) => (i === j ? (i < 10 ? 3 : 5) : i >= 10 && j >= 10 ? 0.5 : 0)),
        ),
      ],
      ['n=1', [[-2]]],
      [
        'n=2',
        [
          [1, 2],
          [2, -1],
        ],
      ],
    ];
    for (const [label, D] of cases) {
      const s = make(SVDLinearSolver);
      const b = randomVector(r, D.length);
      const x = new Float64Array(D.length);
      s.solveSystem(fixedSystem(D), anyFactors, b, x);
      expectClose(x, denseSolve(D, b), 1e-9, `SVD ${label}`);
      expect(s.sweepsData.value, label).to.equal(0);
    }
    // symmetric of rank 3 (B·Bᵀ, B 6×3 of integers: exactly singular): the least-norm least-squares solution pinv(S)·b
    const B = [
      [1, 0, 2],
      [0, 1, -1],
      [2, 1, 0],
      [1, -1, 1],
      [0, 2, 1],
      [3, 0, -2],
    ];
    const S = B.map((bi) => B.map((bj) => bi.reduce((t, v, k) => t + v * bj[k], 0)));
    const b = randomVector(r, 6);
    const s = make(SVDLinearSolver);
    const x = new Float64Array(6);
    s.solveSystem(fixedSystem(S), anyFactors, b, x);
    // S⁺ = B·(BᵀB)⁻²·Bᵀ (B of full column rank)
    const G = inv(multiply(transpose(B), B)) as number[][];
    const Splus = multiply(multiply(B, multiply(G, G)), transpose(B)) as number[][];
    expectClose(x, denseMul(Splus, b), 1e-9, 'SVD symmetric pinv');
    expect(s.conditionNumber.value).to.be.above(1e9);
  });

  it('PrecomputedLinearSolver: the first matrix is factorised and serves every later solve', () => {
    const r = rng(5);
    const D0 = randomSpd(r, 40, 5);
    const D1 = randomSpd(r, 40, 5);
    const s = make(PrecomputedLinearSolver);
    const b = randomVector(r, 40);
    const x = new Float64Array(40);
    s.solveSystem(fixedSystem(D0), anyFactors, b, x);
    expectClose(x, denseSolve(D0, b), 1e-10, 'first');
    const sys1 = fixedSystem(D1);
    s.solveSystem(sys1, anyFactors, b, x);
    expectClose(x, denseSolve(D0, b), 1e-10, 'second (still A0)');
    expect(sys1.assemblies).to.equal(0);
  });

  it('WarpPreconditioner (no rotation system: refactorised at each matrix, R = I) solves with its linear solver', () => {
    const r = rng(9);
    const D = randomSpd(r, 30, 5);
    const inner = make(SparseLDLSolver);
    const w = new WarpPreconditioner();
    w.template = 'RotationMatrixd';
    w.linearSolverLink.set(inner);
    const b = randomVector(r, 30);
    const x = new Float64Array(30);
    w.setMatrix(denseToCsr(D));
    w.solveMatrix(x, b);
    expectClose(x, denseSolve(D, b), 1e-10, 'warp');
  });

  it('PrecomputedWarpPreconditioner: inverse of the first matrix (no rotation finder: R = I); a linked solver without a matrix gives 0', () => {
    const r = rng(11);
    const D0 = randomSpd(r, 24, 5);
    const D1 = randomSpd(r, 24, 5);
    const p = make(PrecomputedWarpPreconditioner, 'Vec3d');
    p.useRotations.value = false;
    const b = randomVector(r, 24);
    const x = new Float64Array(24);
    p.setMatrix(denseToCsr(D0));
    p.setMatrix(denseToCsr(D1));
    p.solveMatrix(x, b);
    expectClose(x, denseSolve(D0, b), 1e-10, 'precomputed');
    const q = make(PrecomputedWarpPreconditioner, 'Vec3d');
    q.useRotations.value = false;
    q.linearSolverLink.set(make(SparseLDLSolver));
    q.setMatrix(denseToCsr(D0));
    x.fill(1);
    q.solveMatrix(x, b);
    expect(Array.from(x).every((v) => v === 0)).to.equal(true);
  });
});
