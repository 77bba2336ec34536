import { expect } from 'chai';
import { DenseQpSolver, type DenseQpProblem } from './dense-qp.js';
import { kktResiduals, objectiveOf, randomQp, type QpShape } from './qp-test-support.js';
import { rng } from '../test-support.js';

const f64 = (a: number[]): Float64Array => Float64Array.from(a);

function expectKkt(solver: DenseQpSolver, pb: DenseQpProblem, shape: QpShape, tol = 1e-9): void {
  expect(solver.status).to.equal('optimal');
  const r = kktResiduals(pb, shape, solver.x, solver.yEq, solver.yIn, solver.yBound);
  expect(r.stationarity, 'stationarity').to.be.below(tol);
  expect(r.primal, 'primal feasibility').to.be.below(tol);
  expect(r.dual, 'dual feasibility').to.be.below(tol);
  expect(r.complementarity, 'complementarity').to.be.below(tol);
  expect(solver.objective).to.be.closeTo(objectiveOf(pb, shape.n, solver.x), 1e-12 * (1 + Math.abs(solver.objective)));
}

describe('DenseQpSolver', () => {
  it('projects onto a box (closed form: x = clamp(x₀, lb, ub), y = x − x₀ on the active bounds)', () => {
    const x0 = [2, -3, 0.5, 0.9];
    const pb: DenseQpProblem = {
      Q: f64([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
      c: f64(x0.map((v) => -v)),
      lb: f64([-1, -1, -1, -1]),
      ub: f64([1, 1, 1, 1]),
    };
    const s = new DenseQpSolver(4);
    expect(s.solve(pb)).to.equal('optimal');
    expect(Array.from(s.x)).to.deep.equal([1, -1, 0.5, 0.9]);
    // Qx + c + y = 0 → y = x₀ − x: +1 at the upper bound of x₀, −2 at the lower bound of x₁.
    expect(Array.from(s.yBound)).to.deep.equal([1, -2, 0, 0]);
    expect(Array.from(s.activeBound)).to.deep.equal([1, -1, 0, 0]);
  });

  it('solves an equality-constrained least-norm problem (closed form x = Aᵀ(AAᵀ)⁻¹b)', () => {
    // min ½‖x‖² s.t. x₀ + x₁ + x₂ = 3, x₀ − x₂ = 1 → x = (5/3, 1, 1/3) … check by KKT and the closed form.
    const pb: DenseQpProblem = {
      Q: f64([1, 0, 0, 0, 1, 0, 0, 0, 1]),
      c: f64([0, 0, 0]),
      Aeq: f64([1, 1, 1, 1, 0, -1]),
      beq: f64([3, 1]),
    };
    const shape = { n: 3, meq: 2, mIn: 0 };
    const s = new DenseQpSolver(3, 2, 0);
    s.solve(pb);
    expectKkt(s, pb, shape, 1e-14);
    // AAᵀ = [[3, 0], [0, 2]] → w = (1, 1/2), x = Aᵀw = (1.5, 1, 0.5).
    expect(s.x[0]).to.be.closeTo(1.5, 1e-14);
    expect(s.x[1]).to.be.closeTo(1, 1e-14);
    expect(s.x[2]).to.be.closeTo(0.5, 1e-14);
  });

  it('random strictly convex problems satisfy the KKT conditions to 1e-9', () => {
    const r = rng(7);
    const shapes: QpShape[] = [
      { n: 3, meq: 0, mIn: 2 },
      { n: 6, meq: 1, mIn: 5 },
      { n: 10, meq: 2, mIn: 12 },
      { n: 20, meq: 3, mIn: 25 },
      { n: 40, meq: 4, mIn: 40 },
    ];
    for (const shape of shapes) {
      const s = new DenseQpSolver(shape.n, shape.meq, shape.mIn);
      for (let trial = 0; trial < 30; trial++) {
        const pb = randomQp(r, shape, { mu: 0.05, costScale: 1 + 5 * r() });
        s.solve(pb);
        expectKkt(s, pb, shape);
      }
    }
  });

  it('random semi-definite problems (rank-deficient Q, Q = 0) satisfy the KKT conditions to 1e-9', () => {
    const r = rng(11);
    for (const shape of [
      { n: 5, meq: 1, mIn: 4 },
      { n: 12, meq: 2, mIn: 10 },
      { n: 30, meq: 2, mIn: 20 },
    ]) {
      const s = new DenseQpSolver(shape.n, shape.meq, shape.mIn);
      for (let trial = 0; trial < 30; trial++) {
        const rank = trial % 5 === 0 ? 0 : 1 + Math.floor(r() * (shape.n - 1));
        // All bounds finite: bounded whatever the rank.
        const pb = randomQp(r, shape, { rank, mu: 0, boundFraction: 1 });
        s.solve(pb);
        expectKkt(s, pb, shape);
      }
    }
  });

  it('degenerate constraints: duplicated rows, more constraints active than variables', () => {
    // min ½‖x − (−1, −1, −1)‖² with x ≥ 0 as bounds, again as rows, twice more scaled, and
    // x₀ + x₁ + x₂ ≥ 0, x₀ + x₁ ≥ 0: all 12 constraints hold with equality at x = 0.
    const n = 3;
    const rows: number[][] = [];
    for (const scale of [1, 1, 2.5]) for (let j = 0; j < n; j++) rows.push([0, 1, 2].map((i) => (i === j ? scale : 0)));
    rows.push([1, 1, 1], [1, 1, 0]);
    const pb: DenseQpProblem = {
      Q: f64([1, 0, 0, 0, 1, 0, 0, 0, 1]),
      c: f64([1, 1, 1]),
      Ain: f64(rows.flat()),
      lin: f64(rows.map(() => 0)),
      uin: f64(rows.map(() => Infinity)),
      lb: f64([0, 0, 0]),
      ub: f64([Infinity, Infinity, Infinity]),
    };
    const shape = { n, meq: 0, mIn: rows.length };
    const s = new DenseQpSolver(n, 0, rows.length);
    s.solve(pb);
    expectKkt(s, pb, shape, 1e-14);
    expect(Array.from(s.x)).to.deep.equal([0, 0, 0]);
    // Duplicated equality rows (consistent) and a duplicated two-sided row that is active.
    const pb2: DenseQpProblem = {
      Q: f64([2, 1, 0, 1, 2, 0, 0, 0, 0]),
      c: f64([-1, -4, 1]),
      Aeq: f64([1, 1, 1, 2, 2, 2, 1, 1, 1]),
      beq: f64([1, 2, 1]),
      Ain: f64([1, -1, 0, 1, -1, 0, -1, 1, 0]),
      lin: f64([-0.5, -0.5, -Infinity]),
      uin: f64([0.5, 0.5, 0.5]),
      lb: f64([-5, -5, 0]),
      ub: f64([5, 5, 5]),
    };
    const s2 = new DenseQpSolver(3, 3, 3);
    s2.solve(pb2);
    expectKkt(s2, pb2, { n: 3, meq: 3, mIn: 3 });
    // Random problems whose optimum is pushed onto a vertex with every row duplicated.
    const r = rng(5);
    for (let trial = 0; trial < 20; trial++) {
      const shape0 = { n: 8, meq: 0, mIn: 6 };
      const base = randomQp(r, shape0, { costScale: 20, mu: 0.01, rank: 3 });
      const Ain = new Float64Array(2 * 6 * 8);
      Ain.set(base.Ain!);
      Ain.set(base.Ain!, 48);
      const dup: DenseQpProblem = { ...base, Ain, lin: f64([...base.lin!, ...base.lin!]), uin: f64([...base.uin!, ...base.uin!]) };
      const shape = { n: 8, meq: 0, mIn: 12 };
      const sd = new DenseQpSolver(8, 0, 12);
      sd.solve(dup);
      expectKkt(sd, dup, shape);
      const so = new DenseQpSolver(8, 0, 6);
      so.solve(base);
      expect(sd.objective).to.be.closeTo(so.objective, 1e-9 * (1 + Math.abs(so.objective)));
    }
  });

  it('detects infeasible problems', () => {
    const Q = f64([1, 0, 0, 1]);
    const c = f64([0, 0]);
    const s = new DenseQpSolver(2, 0, 1);
    // x₀ + x₁ ≥ 2 with x ≤ 0.5.
    expect(s.solve({ Q, c, Ain: f64([1, 1]), lin: f64([2]), ub: f64([0.5, 0.5]) })).to.equal('infeasible');
    // Crossed bounds.
    expect(s.solve({ Q, c, Ain: f64([1, 1]), lb: f64([1, 0]), ub: f64([0, 1]) })).to.equal('infeasible');
    // A row with both ends crossed.
    expect(s.solve({ Q, c, Ain: f64([1, -1]), lin: f64([1]), uin: f64([0]) })).to.equal('infeasible');
    // Inconsistent duplicated equalities.
    const se = new DenseQpSolver(2, 2, 0);
    expect(se.solve({ Q, c, Aeq: f64([1, 1, 2, 2]), beq: f64([1, 3]) })).to.equal('infeasible');
    // Equalities contradicting bounds; semi-definite objective.
    const sb = new DenseQpSolver(3, 1, 2);
    const pb: DenseQpProblem = {
      Q: new Float64Array(9),
      c: f64([1, 0, 0]),
      Aeq: f64([1, 1, 1]),
      beq: f64([4]),
      Ain: f64([1, 0, -1, 0, 1, -1]),
      lin: f64([-Infinity, -Infinity]),
      uin: f64([0, 0]),
      lb: f64([-1, -1, -1]),
      ub: f64([1, 1, 1]),
    };
    expect(sb.solve(pb)).to.equal('infeasible');
    // Same with a wider box: feasible.
    expect(sb.solve({ ...pb, ub: f64([2, 2, 2]) })).to.equal('optimal');
    expectKkt(sb, { ...pb, ub: f64([2, 2, 2]) }, { n: 3, meq: 1, mIn: 2 });
  });

  it('detects unbounded semi-definite problems and returns a descent ray', () => {
    // min ½x₀² − x₁ with x₁ free above: unbounded along +x₁.
    const s = new DenseQpSolver(2, 0, 1);
    const pb: DenseQpProblem = { Q: f64([1, 0, 0, 0]), c: f64([0, -1]), Ain: f64([1, 1]), lin: f64([-1]), lb: f64([-3, -3]) };
    expect(s.solve(pb)).to.equal('unbounded');
    expect(s.ray[0]).to.be.closeTo(0, 1e-12);
    expect(s.ray[1]).to.be.closeTo(1, 1e-12);
    // The same with x₁ ≤ 2: bounded, optimum x = (0, 2).
    expect(s.solve({ ...pb, ub: f64([Infinity, 2]) })).to.equal('optimal');
    expect(s.x[0]).to.be.closeTo(0, 1e-14);
    expect(s.x[1]).to.be.closeTo(2, 1e-14);
    // Unbounded along a direction mixing variables: Q = [1 −1; −1 1] (null space (1, 1)), c = (−1, −1).
    const s2 = new DenseQpSolver(2, 0, 1);
    const pb2: DenseQpProblem = { Q: f64([1, -1, -1, 1]), c: f64([-1, -1]), Ain: f64([1, -1]), lin: f64([-1]), uin: f64([1]) };
    expect(s2.solve(pb2)).to.equal('unbounded');
    const rayDescent = -(s2.ray[0] + s2.ray[1]);
    expect(rayDescent).to.be.below(0);
    // Random rank-deficient problems, cost in the null space of Q, no bounds: unbounded; any finite box makes them bounded.
    const r = rng(3);
    for (let trial = 0; trial < 10; trial++) {
      const shape = { n: 6, meq: 1, mIn: 0 };
      const rp = randomQp(r, shape, { rank: 3, mu: 0, boundFraction: 0 });
      const su = new DenseQpSolver(6, 1, 0);
      expect(su.solve(rp)).to.equal('unbounded');
      // The ray: A_eq·ray = 0, Q·ray = 0, cᵀray < 0.
      let aRay = 0,
        cRay = 0,
        qRay = 0;
      for (let j = 0; j < 6; j++) {
        aRay += rp.Aeq![j] * su.ray[j];
        cRay += rp.c[j] * su.ray[j];
        let qr = 0;
        for (let i = 0; i < 6; i++) qr += rp.Q[j * 6 + i] * su.ray[i];
        qRay = Math.max(qRay, Math.abs(qr));
      }
      expect(Math.abs(aRay)).to.be.below(1e-10);
      expect(qRay).to.be.below(1e-8);
      expect(cRay).to.be.below(0);
      const boxed = { ...rp, lb: new Float64Array(6).fill(-10), ub: new Float64Array(6).fill(10) };
      expect(su.solve(boxed)).to.equal('optimal');
      expectKkt(su, boxed, shape);
    }
  });

  it('reports an indefinite Q as non-convex and a too small iteration cap as iteration-limit', () => {
    const s = new DenseQpSolver(2);
    expect(s.solve({ Q: f64([1, 0, 0, -1]), c: f64([0, 0]), lb: f64([-1, -1]), ub: f64([1, 1]) })).to.equal('non-convex');
    const shape = { n: 20, meq: 0, mIn: 20 };
    const pb = randomQp(rng(1), shape, { costScale: 10 });
    const sl = new DenseQpSolver(20, 0, 20);
    sl.maxIterations = 2;
    expect(sl.solve(pb)).to.equal('iteration-limit');
    sl.maxIterations = 1000;
    sl.solve(pb);
    expectKkt(sl, pb, shape);
  });

  it('warm start from the previous working set reduces iterations on a sequence of close problems', () => {
    const r = rng(21);
    for (const shape of [
      { n: 10, meq: 1, mIn: 10 },
      { n: 40, meq: 2, mIn: 40 },
    ]) {
      const pb = randomQp(r, shape, { costScale: 8, mu: 0.05 });
      const c0 = Float64Array.from(pb.c);
      const lin0 = Float64Array.from(pb.lin!);
      const warm = new DenseQpSolver(shape.n, shape.meq, shape.mIn);
      const cold = new DenseQpSolver(shape.n, shape.meq, shape.mIn);
      let warmIt = 0,
        coldIt = 0;
      const steps = 50;
      for (let step = 0; step < steps; step++) {
        // A slowly moving goal: cost and the lower ends of the rows drift.
        for (let i = 0; i < shape.n; i++) pb.c[i] = c0[i] * (1 + 0.2 * Math.sin(0.05 * step + i));
        for (let i = 0; i < shape.mIn; i++) if (Number.isFinite(lin0[i])) pb.lin![i] = lin0[i] + 0.05 * Math.sin(0.03 * step);
        warm.solve(pb, true);
        cold.solve(pb);
        expectKkt(warm, pb, shape);
        expect(warm.objective).to.be.closeTo(cold.objective, 1e-9 * (1 + Math.abs(cold.objective)));
        if (step > 0) {
          warmIt += warm.iterations;
          coldIt += cold.iterations;
        }
      }
      console.log(
        `      n=${shape.n}, m_in=${shape.mIn}: mean iterations warm ${(warmIt / (steps - 1)).toFixed(2)}, cold ${(coldIt / (steps - 1)).toFixed(2)}`,
      );
      expect(warmIt).to.be.below(0.5 * coldIt);
    }
  });

  it('semi-definite least squares of the inverse-problem shape, warm-started along a moving goal', () => {
    // min ½‖W_ea λ + δ_e‖²: 8 actuators, 3 effector directions (rank-3 Q), 0 ≤ λ ≤ 5 and actuator
    // displacements W_aa λ + δ_a within [−1, 1.5]. Only Q λ is unique; every solve is checked by KKT.
    const r = rng(31);
    const na = 8,
      ne = 3;
    const Wea = Array.from({ length: ne * na }, () => 2 * r() - 1);
    const B = Array.from({ length: na * na }, () => 2 * r() - 1);
    const Q = new Float64Array(na * na);
    const Waa = new Float64Array(na * na);
    for (let i = 0; i < na; i++) {
      for (let j = 0; j < na; j++) {
        let q = 0,
          w = i === j ? 0.5 : 0;
        for (let k = 0; k < ne; k++) q += Wea[k * na + i] * Wea[k * na + j];
        for (let k = 0; k < na; k++) w += 0.2 * B[k * na + i] * B[k * na + j];
        Q[i * na + j] = q;
        Waa[i * na + j] = w;
      }
    }
    const deltaA = Float64Array.from({ length: na }, () => 0.3 * (2 * r() - 1));
    const pb: DenseQpProblem = {
      Q,
      c: new Float64Array(na),
      Ain: Waa,
      lin: Float64Array.from(deltaA, (d) => -1 - d),
      uin: Float64Array.from(deltaA, (d) => 1.5 - d),
      lb: new Float64Array(na),
      ub: new Float64Array(na).fill(5),
    };
    const shape = { n: na, meq: 0, mIn: na };
    const warm = new DenseQpSolver(na, 0, na);
    const cold = new DenseQpSolver(na, 0, na);
    let warmIt = 0,
      coldIt = 0;
    const deltaE = new Float64Array(ne);
    for (let step = 0; step < 100; step++) {
      // Effector offset from a goal circling around: c = W_eaᵀ δ_e.
      deltaE[0] = -2 * Math.cos(0.05 * step);
      deltaE[1] = -2 * Math.sin(0.05 * step);
      deltaE[2] = -1;
      for (let i = 0; i < na; i++) {
        let v = 0;
        for (let k = 0; k < ne; k++) v += Wea[k * na + i] * deltaE[k];
        pb.c[i] = v;
      }
      warm.solve(pb, true);
      cold.solve(pb);
      expectKkt(warm, pb, shape);
      expectKkt(cold, pb, shape);
      expect(warm.objective).to.be.closeTo(cold.objective, 1e-9 * (1 + Math.abs(cold.objective)));
      warmIt += warm.iterations;
      coldIt += cold.iterations;
    }
    console.log(
      `      inverse shape (8 actuators, 3 directions): mean iterations warm ${(warmIt / 100).toFixed(2)}, cold ${(coldIt / 100).toFixed(2)}`,
    );
    expect(warmIt).to.be.below(coldIt);
  });

  it('keeps its buffers: results are the same arrays after every solve', () => {
    const shape = { n: 5, meq: 1, mIn: 3 };
    const s = new DenseQpSolver(5, 1, 3);
    const { x, yEq, yIn, yBound, activeIn, activeBound } = s;
    const r = rng(9);
    for (let i = 0; i < 5; i++) {
      const pb = randomQp(r, shape);
      s.solve(pb, i % 2 === 1);
      expectKkt(s, pb, shape);
    }
    expect(s.x).to.equal(x);
    expect(s.yEq).to.equal(yEq);
    expect(s.yIn).to.equal(yIn);
    expect(s.yBound).to.equal(yBound);
    expect(s.activeIn).to.equal(activeIn);
    expect(s.activeBound).to.equal(activeBound);
  });

  it('timing (printed, not asserted): 10 and 40 variables, cold and warm', () => {
    const r = rng(99);
    for (const shape of [
      { n: 10, meq: 0, mIn: 10 },
      { n: 40, meq: 0, mIn: 40 },
    ]) {
      const pb = randomQp(r, shape, { costScale: 5, mu: 0.01 });
      const c0 = Float64Array.from(pb.c);
      const s = new DenseQpSolver(shape.n, shape.meq, shape.mIn);
      const reps = shape.n === 10 ? 4000 : 400;
      for (let i = 0; i < reps / 4; i++) s.solve(pb); // JIT warm-up
      let t0 = performance.now();
      for (let i = 0; i < reps; i++) s.solve(pb);
      const coldUs = ((performance.now() - t0) / reps) * 1000;
      const coldIt = s.iterations;
      let itSum = 0;
      t0 = performance.now();
      for (let i = 0; i < reps; i++) {
        for (let j = 0; j < shape.n; j++) pb.c[j] = c0[j] * (1 + 0.05 * Math.sin(0.01 * i + j));
        s.solve(pb, true);
        itSum += s.iterations;
      }
      const warmUs = ((performance.now() - t0) / reps) * 1000;
      console.log(
        `      n=${shape.n}, m_in=${shape.mIn}: cold ${coldUs.toFixed(1)} µs (${coldIt} iterations), warm ${warmUs.toFixed(1)} µs (${(itSum / reps).toFixed(2)} iterations)`,
      );
    }
  });
});
