import { expect } from 'chai';
import { all, create } from 'mathjs';
import { Node, type BaseKKTSolver, type BaseResponse, type KKTSystem } from '@sofa-ts/core';
import { UnilateralConstraint } from '../constraint/UnilateralConstraint.js';
import { denseKKT, rng } from '../test-support.js';
import { CgSolver } from './CgSolver.js';
import { DiagonalResponse } from './DiagonalResponse.js';
import { LDLTResponse } from './LDLTResponse.js';
import { LDLTSolver } from './LDLTSolver.js';
import { LUResponse } from './LUResponse.js';
import { LUSolver } from './LUSolver.js';
import { MinresSolver } from './MinresSolver.js';
import { SequentialSolver } from './SequentialSolver.js';

const math = create(all);
type M = number[][];

/** A random KKT system: H = BᵀB + I projected by P (m × m), J (n × m), C diagonal ≥ 0 with zeros. */
function randomSystem(seed: number, m: number, n: number, fixed: number[] = [], diagonalH = false, allCompliant = false) {
  const r = rng(seed);
  const B = Array.from({ length: m }, () => Array.from({ length: m }, () => r()));
  // BᵀB + I (or a positive diagonal)
  let H: M = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m }, (__, j) => (diagonalH ? 0 : B.reduce((a, row) => a + row[i] * row[j], 0)) + (i === j ? 1 : 0)),
  );
  if (diagonalH) H = H.map((row, i) => row.map((v, j) => (i === j ? v + Math.abs(r()) : v)));
  const P = Array.from({ length: m }, (_, i) => (fixed.includes(i) ? 0 : 1));
  // H ← P·H·P + (I − P), as the engine gives it
  H = H.map((row, i) => row.map((v, j) => (P[i] === 0 || P[j] === 0 ? (i === j ? 1 : 0) : v)));
  const J = Array.from({ length: n }, () => Array.from({ length: m }, () => (r() > -0.2 ? r() : 0)));
  const C = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (__, j) => (i === j && (allCompliant || i % 2 === 0) ? 0.01 + 0.1 * Math.abs(r()) : 0)),
  );
  const rhs = Array.from({ length: m + n }, (_, i) => (i < m ? P[i] * r() : r()));
  return { H, J, C, P, rhs };
}

/** The exact solution of [H −(JP)ᵀ; JP C][v; λ] = rhs, by dense LU (mathjs). */
function oracle(H: M, J: M, C: M, P: number[], rhs: number[]): number[] {
  const m = H.length,
    n = J.length;
  const JP = J.map((row) => row.map((v, k) => v * P[k]));
  const K: M = [...H.map((row, i) => [...row, ...JP.map((jr) => -jr[i])]), ...JP.map((row, i) => [...row, ...C[i]])];
  return (math.lusolve(K, rhs) as number[][]).map((x) => x[0]).slice(0, m + n);
}

function mount<S extends BaseKKTSolver>(solver: S, response?: BaseResponse): S {
  const node = new Node('kkt');
  node.addObject(solver);
  if (response) node.addObject(response);
  solver.init();
  return solver;
}

function solve(solver: BaseKKTSolver, sys: KKTSystem, rhs: number[]): number[] {
  const x = new Float64Array(sys.m + sys.n);
  solver.factor(sys);
  solver.solve(x, sys, Float64Array.from(rhs));
  return Array.from(x);
}

function expectClose(a: number[], b: number[], tol: number): void {
  expect(a.length).to.equal(b.length);
  a.forEach((v, i) => expect(v, `entry ${i}`).to.be.closeTo(b[i], tol * (1 + Math.abs(b[i]))));
}

const iterative = (s: MinresSolver | CgSolver | SequentialSolver, iterations: number, precision: number) => {
  s.iterations.value = iterations;
  s.precision.value = precision;
  return s;
};

describe('compliant: KKT solvers against the dense solution of [H −Jᵀ; J C][v; λ] = [P·c; b]', () => {
  const cases: Array<[string, () => BaseKKTSolver, number]> = [
    ['LDLTSolver (Schur, own LDLTResponse)', () => mount(new LDLTSolver()), 1e-10],
    [
      'LDLTSolver schur="0" (full KKT)',
      () => {
        const s = new LDLTSolver();
        s.schur.value = false;
        return mount(s);
      },
      1e-10,
    ],
    ['LUSolver (Schur, own LUResponse)', () => mount(new LUSolver()), 1e-10],
    [
      'LUSolver schur="0" (full KKT)',
      () => {
        const s = new LUSolver();
        s.schur.value = false;
        return mount(s);
      },
      1e-10,
    ],
    ["LDLTSolver with the node's LUResponse", () => mount(new LDLTSolver(), new LUResponse()), 1e-10],
    ['MinresSolver (full KKT)', () => mount(iterative(new MinresSolver(), 500, 1e-13)), 1e-8],
    ['MinresSolver (Schur with LDLTResponse)', () => mount(iterative(new MinresSolver(), 200, 1e-13), new LDLTResponse()), 1e-8],
    ['CgSolver (Schur with LDLTResponse)', () => mount(iterative(new CgSolver(), 200, 1e-13), new LDLTResponse()), 1e-8],
    ['SequentialSolver (bilateral rows iterated)', () => mount(iterative(new SequentialSolver(), 5000, 1e-15)), 1e-7],
    [
      'SequentialSolver iterateOnBilaterals="0"',
      () => {
        const s = new SequentialSolver();
        s.iterateOnBilaterals.value = false;
        return mount(s);
      },
      1e-9,
    ],
  ];
  for (const [name, make, tol] of cases) {
    it(`${name}: free and projected systems`, () => {
      for (const [seed, fixed] of [
        [1, []],
        [2, [0, 4, 5]],
      ] as const) {
        const { H, J, C, P, rhs } = randomSystem(seed, 9, 4, [...fixed]);
        const sys = denseKKT(H, J, C, P, [
          { blocks: 2, dim: 1 },
          { blocks: 1, dim: 2 },
        ]);
        expectClose(solve(make(), sys, rhs), oracle(H, J, C, P, rhs), tol);
      }
    });
  }

  it('full-KKT LDLT in minimum degree order when every row is compliant (quasi-definite), H first otherwise', () => {
    for (const allCompliant of [true, false]) {
      const { H, J, C, P, rhs } = randomSystem(7, 10, 5, [2], false, allCompliant);
      const sys = denseKKT(H, J, C, P, [{ blocks: 5, dim: 1 }]);
      const s = new LDLTSolver();
      s.schur.value = false;
      expectClose(solve(mount(s), sys, rhs), oracle(H, J, C, P, rhs), 1e-10);
    }
  });

  it('DiagonalResponse is exact for a diagonal H (Schur complement with LDLTSolver)', () => {
    const { H, J, C, P, rhs } = randomSystem(3, 6, 3, [], true);
    const sys = denseKKT(H, J, C, P, [{ blocks: 3, dim: 1 }]);
    expectClose(solve(mount(new LDLTSolver(), new DiagonalResponse()), sys, rhs), oracle(H, J, C, P, rhs), 1e-10);
  });

  it('without constraints every solver returns v = H⁻¹·P·c', () => {
    const { H, C, P, rhs } = randomSystem(4, 5, 0, [1]);
    const sys = denseKKT(H, [], C, P, []);
    const ref = oracle(H, [], [], P, rhs);
    for (const [, make, tol] of cases) expectClose(solve(make(), sys, rhs.slice(0, 5)), ref, tol);
  });

  it('SequentialSolver with unilateral rows solves the complementarity problem: λ ≥ 0, J·v + C·λ ≥ b, λ·(J·v + C·λ − b) = 0', () => {
    for (let seed = 10; seed < 15; seed++) {
      const { H, J, C, P, rhs } = randomSystem(seed, 8, 5);
      const sys = denseKKT(H, J, C, P, [{ blocks: 5, dim: 1, projector: new UnilateralConstraint() }]);
      const s = mount(iterative(new SequentialSolver(), 5000, 1e-15));
      const x = solve(s, sys, rhs);
      const v = x.slice(0, 8),
        lambda = x.slice(8);
      // H·v − Jᵀ·λ = P·c
      const r1 = math.subtract(math.multiply(H, v), math.multiply(math.transpose(J), lambda)) as number[];
      r1.forEach((val, i) => expect(val).to.be.closeTo(rhs[i], 1e-8));
      const w = (math.add(math.multiply(J, v), math.multiply(C, lambda)) as number[]).map((val, i) => val - rhs[8 + i]);
      lambda.forEach((l, i) => {
        expect(l).to.be.at.least(0);
        expect(w[i]).to.be.at.least(-1e-8);
        expect(Math.abs(l * w[i])).to.be.below(1e-8);
      });
    }
  });

  it('warm start: an iterative solver started at the solution stays there in one iteration', () => {
    const { H, J, C, P, rhs } = randomSystem(5, 7, 3);
    const sys = denseKKT(H, J, C, P, [{ blocks: 3, dim: 1 }]);
    const ref = oracle(H, J, C, P, rhs);
    const s = mount(iterative(new MinresSolver(), 1, 1e-9));
    const x = Float64Array.from(ref);
    s.factor(sys);
    s.solve(x, sys, Float64Array.from(rhs));
    expectClose(Array.from(x), ref, 1e-9);
    expect(s.lastStats!.iterations).to.be.at.most(1);
  });

  it('the correction pass of the Krylov solvers adds its damping to the constraint block', () => {
    const { H, J, C, P, rhs } = randomSystem(6, 6, 2);
    const sys = denseKKT(H, J, C, P, [{ blocks: 2, dim: 1 }]);
    const damping = 0.3;
    const Cd = C.map((row, i) => row.map((v, j) => (i === j ? v + damping : v)));
    const s = mount(iterative(new MinresSolver(), 500, 1e-14), new LDLTResponse());
    const x = new Float64Array(8);
    s.factor(sys);
    s.correct(x, sys, Float64Array.from(rhs), damping);
    expectClose(Array.from(x), oracle(H, J, Cd, P, rhs), 1e-8);
  });
});
