import { expect } from 'chai';
import { add, diag, inv, multiply, subtract } from 'mathjs';
import { CGLinearSolver } from '../CGLinearSolver.js';
import { BlockJacobiPreconditioner } from './BlockJacobiPreconditioner.js';
import { EigenSimplicialLDLT } from './EigenSimplicialLDLT.js';
import { JacobiPreconditioner } from './JacobiPreconditioner.js';
import type { MatrixLinearSolver } from './matrix-linear-solver.js';
import { PCGLinearSolver } from './PCGLinearSolver.js';
import { ShewchukPCGLinearSolver } from './ShewchukPCGLinearSolver.js';
import { SSORPreconditioner } from './SSORPreconditioner.js';
import { anyFactors, denseMul, denseSolve, denseToCsr, expectClose, fixedSystem, randomSpd, randomVector, rng } from './test-support.js';

// Dense SSOR operator of SOFA's formula: (2 − ω)(I + ω D⁻¹ L)⁻¹ (D/ω + U)⁻¹.
function denseSsor(A: number[][], w: number): number[][] {
  const n = A.length;
  const L = A.map((row, i) => row.map((v, j) => (j < i ? v : 0)));
  const U = A.map((row, i) => row.map((v, j) => (j > i ? v : 0)));
  const d = A.map((row, i) => row[i]);
  const Dinv = diag(d.map((v) => 1 / v)) as unknown as number[][];
  const I = diag(new Array<number>(n).fill(1)) as unknown as number[][];
  const left = inv(add(I, multiply(w, multiply(Dinv, L))) as number[][]) as number[][];
  const right = inv(add(diag(d.map((v) => v / w)), U) as number[][]) as number[][];
  return multiply(2 - w, multiply(left, right)) as number[][];
}

function pcg(precond?: MatrixLinearSolver, extra: Record<string, string> = {}): PCGLinearSolver {
  const s = new PCGLinearSolver();
  s.template = 'GraphScattered';
  for (const [k, v] of Object.entries(extra)) s.findData(k)!.read(v);
  if (precond) s.preconditioner.set(precond);
  s.init();
  return s;
}

describe('preconditioners and PCG', () => {
  it('JacobiPreconditioner applies D⁻¹, BlockJacobiPreconditioner the inverse 3x3 diagonal blocks', () => {
    const r = rng(1);
    const n = 12;
    const D = randomSpd(r, n, 6);
    const rhs = randomVector(r, n);
    const J = new JacobiPreconditioner();
    J.setMatrix(denseToCsr(D));
    const z = new Float64Array(n);
    J.solveMatrix(z, rhs);
    expectClose(
      z,
      Array.from(rhs, (v, i) => v / D[i][i]),
      1e-15,
      'Jacobi',
    );
    const B = new BlockJacobiPreconditioner();
    B.setMatrix(denseToCsr(D));
    B.solveMatrix(z, rhs);
    const blocks = D.map((row, i) => row.map((v, j) => (Math.floor(i / 3) === Math.floor(j / 3) ? v : 0)));
    expectClose(z, denseSolve(blocks, rhs), 1e-12, 'block Jacobi');
  });

  for (const w of [1, 1.3, 0.7]) {
    it(`SSORPreconditioner, ω = ${w}: equals the dense (2 − ω)(I + ωD⁻¹L)⁻¹(D/ω + U)⁻¹, symmetric for symmetric A`, () => {
      const r = rng(10 + w * 10);
      const n = 15;
      const D = randomSpd(r, n, 5);
      const S = new SSORPreconditioner();
      S.omega.value = w;
      S.init();
      S.setMatrix(denseToCsr(D));
      const P = denseSsor(D, w);
      const z = new Float64Array(n);
      for (let t = 0; t < 3; t++) {
        const rhs = randomVector(r, n);
        S.solveMatrix(z, rhs);
        expectClose(z, denseMul(P, rhs), 1e-12, `SSOR ω=${w}`);
      }
      // For symmetric A the SSOR operator is symmetric: P = Pᵀ.
      const diff = subtract(
        P,
        multiply(
          1,
          P.map((_, i) => P.map((row) => row[i])),
        ),
      ) as number[][];
      expect(Math.max(...diff.flat().map(Math.abs))).to.be.below(1e-12);
    });
  }

  it('PCGLinearSolver with each preconditioner (and none) solves random SPD systems like mathjs', () => {
    const r = rng(20);
    const n = 90;
    const D = randomSpd(r, n, 6);
    const b = randomVector(r, n);
    const expected = denseSolve(D, b);
    const ssor = new SSORPreconditioner();
    ssor.init();
    const precs: Array<MatrixLinearSolver | undefined> = [
      undefined,
      new JacobiPreconditioner(),
      new BlockJacobiPreconditioner(),
      ssor,
      new EigenSimplicialLDLT(),
    ];
    for (const p of precs) {
      const x = new Float64Array(n);
      const stats = pcg(p, { iterations: '500', tolerance: '1e-24' }).solveSystem(fixedSystem(D, 3), anyFactors, b, x);
      expectClose(x, expected, 1e-9, `PCG ${p?.className ?? 'none'}`);
      if (p instanceof EigenSimplicialLDLT) expect(stats.iterations, 'exact preconditioner: one step').to.equal(1);
    }
    const x = new Float64Array(n);
    const s = new ShewchukPCGLinearSolver();
    s.preconditioner.set(new JacobiPreconditioner());
    s.tolerance.value = 1e-24;
    s.iterations.value = 500;
    s.init();
    s.solveSystem(fixedSystem(D), anyFactors, b, x);
    expectClose(x, expected, 1e-9, 'Shewchuk PCG');
  });

  it('on a badly scaled SPD system, Jacobi-preconditioned PCG needs far fewer iterations than plain CG (PCG without preconditioner and CGLinearSolver)', () => {
    const r = rng(5);
    const n = 120;
    const D = randomSpd(r, n, 4, (i) => Math.pow(10, (6 * i) / n)); // diagonal over 6 decades
    const b = randomVector(r, n);
    const plain = pcg(undefined, { iterations: '2000', tolerance: '1e-20' }).solveSystem(
      fixedSystem(D),
      anyFactors,
      b,
      new Float64Array(n),
    );
    const x = new Float64Array(n);
    const jac = pcg(new JacobiPreconditioner(), { iterations: '2000', tolerance: '1e-20' }).solveSystem(fixedSystem(D), anyFactors, b, x);
    expectClose(x, denseSolve(D, b), 1e-8, 'Jacobi PCG');
    expect(jac.iterations).to.be.below(plain.iterations / 3);
    // CGLinearSolver to the same accuracy (|r|/|b| <= 1e-10, i.e. |r|²/|b|² <= 1e-20) needs as many as plain PCG.
    const cg = new CGLinearSolver();
    cg.template = 'GraphScattered';
    cg.iterations.value = 2000;
    cg.tolerance.value = 1e-10;
    cg.threshold.value = 1e-300;
    cg.init();
    const cgStats = cg.solveSystem(fixedSystem(D), anyFactors, b, new Float64Array(n));
    expect(jac.iterations).to.be.below(cgStats.iterations / 3);
  });

  it("SOFA's stopping rule: stops at the first rᵀM⁻¹r <= tolerance·bᵀb, starting from the caller's x", () => {
    const r = rng(8);
    const n = 40;
    const D = randomSpd(r, n, 5);
    const b = randomVector(r, n);
    // Reference: the textbook PCG (Jacobi) run by hand with the same rule.
    const x0 = randomVector(r, n);
    const tol = 1e-6;
    const d = D.map((row, i) => row[i]);
    const ref = Array.from(x0);
    const res = b.map((v, i) => v - denseMul(D, ref)[i]);
    let z = res.map((v, i) => v / d[i]);
    let p = z.slice();
    let delta = res.reduce((s, v, i) => s + v * z[i], 0);
    const bb = b.reduce((s, v) => s + v * v, 0);
    let count = 0;
    while (count < 100 && delta > tol * bb) {
      const q = denseMul(D, p);
      const alpha = delta / p.reduce((s, v, i) => s + v * q[i], 0);
      for (let i = 0; i < n; i++) {
        ref[i] += alpha * p[i];
        res[i] -= alpha * q[i];
      }
      z = res.map((v, i) => v / d[i]);
      const dNew = res.reduce((s, v, i) => s + v * z[i], 0);
      p = z.map((v, i) => v + (dNew / delta) * p[i]);
      delta = dNew;
      count++;
    }
    expect(count).to.be.greaterThan(2);
    const x = Float64Array.from(x0);
    const stats = pcg(new JacobiPreconditioner(), { iterations: '100', tolerance: String(tol) }).solveSystem(
      fixedSystem(D),
      anyFactors,
      b,
      x,
    );
    expect(stats.iterations).to.equal(count);
    expectClose(x, ref, 1e-12, 'same iterate');
    // An iteration cap stops earlier.
    const capped = pcg(new JacobiPreconditioner(), { iterations: '2', tolerance: String(tol) }).solveSystem(
      fixedSystem(D),
      anyFactors,
      b,
      Float64Array.from(x0),
    );
    expect(capped.iterations).to.equal(2);
  });

  it('the preconditioner matrix is refreshed at the first solve and then every update_step solves', () => {
    const r = rng(2);
    const D = randomSpd(r, 9, 3);
    for (const [step, build, expected] of [
      [1, true, 6],
      [2, true, 3],
      [3, true, 2],
      [1, false, 1],
    ] as const) {
      const pre = new JacobiPreconditioner();
      let refreshes = 0;
      const orig = pre.setMatrix.bind(pre);
      pre.setMatrix = (A) => {
        refreshes++;
        orig(A);
      };
      const s = pcg(pre, { update_step: String(step), build_precond: build ? '1' : '0' });
      const sys = fixedSystem(D);
      for (let k = 0; k < 6; k++) s.solveSystem(sys, anyFactors, randomVector(r, 9), new Float64Array(9));
      expect(refreshes, `update_step ${step} build ${build}`).to.equal(expected);
    }
  });
});
