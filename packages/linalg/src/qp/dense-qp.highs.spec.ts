/**
 * DenseQpSolver against an independent solver: HiGHS (its active-set QP solver, compiled to
 * WebAssembly, the `highs` devDependency), on random semi-definite, strictly convex, degenerate,
 * infeasible and unbounded problems. Objectives must agree to HiGHS's own tolerance (1e-7 feasibility).
 * HiGHS is not infallible either (a "Solve error" on a few strictly convex problems, an "optimal"
 * objective of −2·10⁶ on a problem with a valid unbounded ray, an "optimal" point violating a row by
 * 0.29): where the two differ, our answer must carry its own proof (KKT point, or recession ray), and
 * such cases are counted and printed.
 */
import { expect } from 'chai';
import type { Highs, ModelData } from 'highs';
import { DenseQpSolver, type DenseQpProblem } from './dense-qp.js';
import { kktResiduals, randomQp, rayCertificate, type QpShape } from './qp-test-support.js';
import { rng } from '../test-support.js';

interface HighsResult {
  status: 'optimal' | 'infeasible' | 'unbounded' | 'other';
  objective: number;
  x: Float64Array;
}

function solveWithHighs(highs: Highs, pb: DenseQpProblem, shape: QpShape): HighsResult {
  const { n, meq, mIn } = shape;
  const rows = meq + mIn;
  const starts = new Int32Array(rows + 1);
  const indices: number[] = [];
  const values: number[] = [];
  const rowLower = new Float64Array(rows);
  const rowUpper = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const A = i < meq ? pb.Aeq! : pb.Ain!;
    const r = i < meq ? i : i - meq;
    for (let j = 0; j < n; j++) {
      const v = A[r * n + j];
      if (v !== 0) {
        indices.push(j);
        values.push(v);
      }
    }
    starts[i + 1] = indices.length;
    rowLower[i] = i < meq ? pb.beq![r] : pb.lin ? pb.lin[r] : -Infinity;
    rowUpper[i] = i < meq ? pb.beq![r] : pb.uin ? pb.uin[r] : Infinity;
  }
  // Q as a full square matrix in compressed columns.
  const hStarts = new Int32Array(n + 1);
  const hIdx: number[] = [];
  const hVal: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const v = pb.Q[i * n + j];
      if (v !== 0) {
        hIdx.push(i);
        hVal.push(v);
      }
    }
    hStarts[j + 1] = hIdx.length;
  }
  const md: ModelData = {
    numCols: n,
    numRows: rows,
    colCost: pb.c,
    colLower: pb.lb ?? new Float64Array(n).fill(-Infinity),
    colUpper: pb.ub ?? new Float64Array(n).fill(Infinity),
    rowLower,
    rowUpper,
    matrix: { format: 'csr', numRows: rows, numCols: n, starts, indices: Int32Array.from(indices), values: Float64Array.from(values) },
    ...(hIdx.length > 0
      ? {
          hessian: {
            format: 'square' as const,
            dimension: n,
            starts: hStarts,
            indices: Int32Array.from(hIdx),
            values: Float64Array.from(hVal),
          },
        }
      : {}),
  };
  const model = highs.createModel(md);
  try {
    model.options.set({ output_flag: false });
    model.run();
    const st = model.getModelStatus();
    const ms = highs.constants.modelStatus;
    const status =
      st === ms.optimal
        ? 'optimal'
        : st === ms.infeasible
          ? 'infeasible'
          : st === ms.unbounded || st === ms.unboundedOrInfeasible
            ? 'unbounded'
            : 'other';
    return { status, objective: model.getObjectiveValue(), x: Float64Array.from(model.getSolution().colValue) };
  } finally {
    model.dispose();
  }
}

function expectKkt(s: DenseQpSolver, pb: DenseQpProblem, shape: QpShape, what: string): void {
  const r = kktResiduals(pb, shape, s.x, s.yEq, s.yIn, s.yBound);
  expect(Math.max(r.stationarity, r.primal, r.dual, r.complementarity), what).to.be.below(1e-9);
}

/** Tally of the comparisons of one test. */
class Tally {
  agree = 0;
  /** HiGHS stopped with an error (its QP solver reports "Solve error" on some problems). */
  highsError = 0;
  /** HiGHS's status contradicted by our certificate (KKT point or unbounded ray). */
  highsRefuted = 0;
  print(what: string): void {
    console.log(
      `      ${what}: ${this.agree} agree, ${this.highsError} HiGHS errors, ${this.highsRefuted} HiGHS statuses refuted by a certificate`,
    );
  }
}

/**
 * Solves pb with both and compares. Our optimum must be a KKT point (a proof of optimality for a
 * convex problem) and our unbounded verdict must come with a valid ray (a proof of unboundedness),
 * whatever HiGHS says; when HiGHS also reports an optimum the objectives must agree to its
 * tolerance. Infeasibility has no certificate here, so HiGHS must agree.
 */
function compare(highs: Highs, s: DenseQpSolver, pb: DenseQpProblem, shape: QpShape, tally: Tally, what: string): void {
  const st = s.solve(pb);
  let ref: HighsResult;
  try {
    ref = solveWithHighs(highs, pb, shape);
  } catch {
    ref = { status: 'other', objective: NaN, x: new Float64Array(0) };
  }
  if (st === 'optimal') {
    expectKkt(s, pb, shape, what);
    if (ref.status === 'optimal') {
      const tol = 1e-6 * (1 + Math.abs(ref.objective));
      if (Math.abs(s.objective - ref.objective) <= tol) tally.agree++;
      else {
        // Ours is a KKT point, hence a global minimiser: HiGHS's differing answer must be worse or infeasible.
        const zeros = new Float64Array(Math.max(shape.n, shape.meq, shape.mIn));
        const refViolation = kktResiduals(pb, shape, ref.x, zeros, zeros, zeros).primal;
        expect(ref.objective > s.objective || refViolation > 1e-6, `${what}: HiGHS found a lower objective at a feasible point`).to.equal(
          true,
        );
        tally.highsRefuted++;
      }
    } else if (ref.status === 'other') tally.highsError++;
    else tally.highsRefuted++;
  } else if (st === 'unbounded') {
    const cert = rayCertificate(pb, shape, s.ray);
    expect(cert.residual, what).to.be.below(1e-9);
    expect(cert.slope, what).to.be.below(-1e-6);
    if (ref.status === 'unbounded') tally.agree++;
    else if (ref.status === 'other') tally.highsError++;
    else tally.highsRefuted++;
  } else {
    expect(st, what).to.equal('infeasible');
    if (ref.status === 'other') tally.highsError++;
    else {
      expect(ref.status, what).to.equal('infeasible');
      tally.agree++;
    }
  }
}

describe('DenseQpSolver against HiGHS', function () {
  let highs: Highs;
  before(async () => {
    // The package's ESM build exports the loader as default; its typings describe the CommonJS shape.
    const mod = (await import('highs')) as unknown as { default: (() => Promise<Highs>) | { default: () => Promise<Highs> } };
    const load = typeof mod.default === 'function' ? mod.default : mod.default.default;
    highs = await load();
  });

  it('random semi-definite problems (rank-deficient Q, bounds, inequalities, equalities): same optimal objective', () => {
    const r = rng(1234);
    const tally = new Tally();
    for (const shape of [
      { n: 4, meq: 0, mIn: 3 },
      { n: 10, meq: 2, mIn: 8 },
      { n: 25, meq: 3, mIn: 20 },
      { n: 40, meq: 2, mIn: 30 },
    ]) {
      const s = new DenseQpSolver(shape.n, shape.meq, shape.mIn);
      for (let trial = 0; trial < 25; trial++) {
        const rank = trial % 6 === 0 ? 0 : 1 + Math.floor(r() * (shape.n - 1));
        // Every bound finite: bounded whatever the rank.
        const pb = randomQp(r, shape, { rank, mu: 0, boundFraction: 1, costScale: 1 + 4 * r() });
        compare(highs, s, pb, shape, tally, `n=${shape.n} rank=${rank} trial ${trial}`);
        expect(s.status).to.equal('optimal');
      }
    }
    tally.print('semi-definite, boxed');
    expect(tally.agree).to.be.at.least(90);
  });

  it('strictly convex problems: same objective and same (unique) minimiser', () => {
    const r = rng(77);
    const tally = new Tally();
    for (const shape of [
      { n: 8, meq: 1, mIn: 6 },
      { n: 30, meq: 2, mIn: 30 },
    ]) {
      const s = new DenseQpSolver(shape.n, shape.meq, shape.mIn);
      for (let trial = 0; trial < 20; trial++) {
        const pb = randomQp(r, shape, { mu: 0.5, costScale: 4 });
        const before = tally.agree;
        compare(highs, s, pb, shape, tally, `n=${shape.n} trial ${trial}`);
        if (tally.agree > before) {
          const ref = solveWithHighs(highs, pb, shape);
          for (let j = 0; j < shape.n; j++) expect(s.x[j]).to.be.closeTo(ref.x[j], 1e-5);
        }
      }
    }
    tally.print('strictly convex');
    expect(tally.agree).to.be.at.least(36);
  });

  it('semi-definite problems with free directions: bounded or unbounded, with a certificate either way', () => {
    const r = rng(4321);
    const tally = new Tally();
    const counts = { optimal: 0, unbounded: 0 };
    for (const shape of [
      { n: 5, meq: 1, mIn: 2 },
      { n: 12, meq: 1, mIn: 5 },
    ]) {
      const s = new DenseQpSolver(shape.n, shape.meq, shape.mIn);
      for (let trial = 0; trial < 40; trial++) {
        const rank = Math.floor(r() * shape.n);
        const pb = randomQp(r, shape, { rank, mu: 0, boundFraction: 0.4 });
        compare(highs, s, pb, shape, tally, `n=${shape.n} trial ${trial} rank ${rank}`);
        counts[s.status as 'optimal' | 'unbounded']++;
      }
    }
    tally.print(`semi-definite, free directions (${counts.optimal} optimal, ${counts.unbounded} unbounded)`);
    expect(counts.optimal).to.be.above(5);
    expect(counts.unbounded).to.be.above(5);
    // HiGHS answers "optimal" with objectives of −10⁷…−10⁹ on some unbounded problems (9 of 80
    // here); each of those has our ray certificate instead.
    expect(tally.agree).to.be.at.least(65);
  });

  it('random equality systems in small boxes: feasible or infeasible as HiGHS says', () => {
    const r = rng(555);
    const tally = new Tally();
    const counts = { optimal: 0, infeasible: 0 };
    const shape = { n: 6, meq: 2, mIn: 3 };
    const s = new DenseQpSolver(6, 2, 3);
    for (let trial = 0; trial < 60; trial++) {
      const pb = randomQp(r, shape, { rank: 3, mu: 0, boundFraction: 1 });
      // Right-hand sides no longer taken at a feasible point.
      for (let i = 0; i < 2; i++) pb.beq![i] = 4 * (2 * r() - 1);
      compare(highs, s, pb, shape, tally, `trial ${trial}`);
      counts[s.status as 'optimal' | 'infeasible']++;
    }
    tally.print('feasible or not');
    expect(counts.optimal).to.be.above(5);
    expect(counts.infeasible).to.be.above(5);
    expect(tally.agree).to.be.at.least(54);
  });

  it('degenerate problems: every row duplicated and scaled, optimum on many constraints', () => {
    const r = rng(808);
    const tally = new Tally();
    const s = new DenseQpSolver(10, 1, 24);
    for (let trial = 0; trial < 20; trial++) {
      const shape0 = { n: 10, meq: 1, mIn: 8 };
      const base = randomQp(r, shape0, { rank: 4, mu: 0, costScale: 30, boundFraction: 1 });
      const Ain = new Float64Array(24 * 10);
      const lin = new Float64Array(24);
      const uin = new Float64Array(24);
      for (let copy = 0; copy < 3; copy++) {
        const f = copy === 2 ? -2 : 1; // third copy negated and doubled: its ends swap
        for (let i = 0; i < 8; i++) {
          for (let j = 0; j < 10; j++) Ain[(copy * 8 + i) * 10 + j] = f * base.Ain![i * 10 + j];
          lin[copy * 8 + i] = f * (f > 0 ? base.lin![i] : base.uin![i]);
          uin[copy * 8 + i] = f * (f > 0 ? base.uin![i] : base.lin![i]);
        }
      }
      const pb: DenseQpProblem = { ...base, Ain, lin, uin };
      compare(highs, s, pb, { n: 10, meq: 1, mIn: 24 }, tally, `trial ${trial}`);
      expect(s.status).to.equal('optimal');
    }
    tally.print('degenerate');
    expect(tally.agree).to.be.at.least(18);
  });
});
