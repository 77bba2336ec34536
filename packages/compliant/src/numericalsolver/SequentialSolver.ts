import {
  BaseKKTSolver,
  Bool,
  Real,
  UInt,
  sofaComponent,
  type BaseConstraintProjector,
  type BaseResponse,
  type KKTSystem,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { SupernodalLDLT, ZeroPivotError } from '@sofa-ts/linalg';
import { KKTMatrix, findResponse, kktLdltOrdering } from './kkt-support.js';
import { LDLTResponse } from './LDLTResponse.js';
import { denseLuFactor, denseLuSolve } from './dense-lu.js';
import { SubMatrix, identityMap } from './sub-matrix.js';

/** One constraint block: the rows of one point of a compliant state. */
interface Block {
  /** First row among the iterated rows, and number of rows. */
  offset: number;
  size: number;
  projector: BaseConstraintProjector | undefined;
  /** Index of the point in its state (for the projector). */
  index: number;
  activated: boolean;
  /** Offset of its factored dim × dim Schur block in `blockLu` / `blockPiv`. */
  lu: number;
}

/**
 * The Compliant plugin's SequentialSolver: projected block Gauss-Seidel on the constraints
 * ("sequential impulses"). With the response R of the dynamics (the node's Response, else an
 * LDLTResponse), the free velocity v₀ = R⁻¹·P·c and W = R⁻¹·Jᵀ (J standing for J·P), each sweep
 * visits the blocks (one point of a compliant state each) in order:
 *   e_b = b_b − J_b·(v₀ + W·λ) − C_b·λ,   λ_b ← Proj_b(λ_b + ω·S_bb⁻¹·e_b),   S_bb = J_b·W_b + C_bb
 * where Proj is the block's projector (unilateral, friction cone; bilateral rows are not
 * projected) and inactive blocks get λ_b = 0. It stops after `iterations` sweeps or when the
 * change of λ over a sweep, |Δλ|/n, falls below `precision` (times |b − J·v₀| when `relative`);
 * then v = v₀ + W·λ. With iterateOnBilaterals="0" the bilateral rows are solved exactly with the
 * dynamics (their KKT matrix, regularized by `regularization`, is factored) and only the other
 * rows are iterated.
 */
@sofaComponent({
  name: 'SequentialSolver',
  category: 'LinearSolver',
  module: 'Compliant',
  description: 'Projected block Gauss-Seidel (sequential impulses) solver of KKT systems with unilateral and friction constraints.',
})
export class SequentialSolver extends BaseKKTSolver {
  readonly iterations = this.initData({ name: 'iterations', type: UInt, default: 10, help: 'iteration bound' });
  readonly precision = this.initData({ name: 'precision', type: Real, default: 1e-3, help: 'residual norm threshold' });
  readonly relative = this.initData({ name: 'relative', type: Bool, default: false, help: 'use relative precision' });
  readonly omega = this.initData({
    name: 'omega',
    type: Real,
    default: 1,
    help: 'SOR parameter: < 1 slower but safer convergence, 1 plain Gauss-Seidel, in (1, 2) faster for SPD systems',
  });
  readonly iterateOnBilaterals = this.initData({
    name: 'iterateOnBilaterals',
    type: Bool,
    default: true,
    help: 'iterate on bilateral constraints too (else they are factored with the dynamics)',
  });
  readonly regularization = this.initData({
    name: 'regularization',
    type: Real,
    default: Number.EPSILON,
    help: 'diagonal regularization of the bilateral constraints when they are factored',
  });

  private response!: BaseResponse;
  // The iterated problem: a "primal" of size mp (m, or m + bilateral rows), its solve, rows Ji (ni × mp), Ci (ni × ni).
  private mp = 0;
  private ni = 0;
  private factored = false;
  private Ji!: SparseMatrixLike;
  private Ci!: SparseMatrixLike;
  private blocks: Block[] = [];
  /** (ni × mp) W = primal⁻¹·Jiᵀ by columns */
  private W = new Float64Array(0);
  private blockLu = new Float64Array(0);
  private blockPiv = new Int32Array(0);
  // Bilateral rows factored with the dynamics (iterateOnBilaterals = 0).
  private bilateralRows = new Int32Array(0);
  private iteratedRows = new Int32Array(0);
  private readonly jb = new SubMatrix();
  private readonly cb = new SubMatrix();
  private readonly ju = new SubMatrix();
  private readonly cu = new SubMatrix();
  private readonly kkt = new KKTMatrix();
  private readonly ldlt = new SupernodalLDLT();
  private kktVersion = -1;
  private subVersion = -1;
  // Work vectors.
  private col = new Float64Array(0);
  private free = new Float64Array(0);
  private net = new Float64Array(0);
  private lambda = new Float64Array(0);
  private constant = new Float64Array(0);
  private err = new Float64Array(0);
  private delta = new Float64Array(0);
  private old = new Float64Array(0);
  private rhsP = new Float64Array(0);

  override init(): void {
    this.response = findResponse(this.context) ?? new LDLTResponse();
  }

  factor(sys: KKTSystem): void {
    const bilateral = this.iterateOnBilaterals.value ? 0 : sys.constraints.reduce((a, c) => a + (c.projector ? 0 : c.blocks * c.dim), 0);
    this.factored = bilateral > 0;
    if (this.factored) this.prepareFactored(sys, bilateral);
    else {
      this.response.factor(sys.H, !sys.isPIdentity);
      this.mp = sys.m;
      this.ni = sys.n;
      this.Ji = sys.JP;
      this.Ci = sys.C;
    }
    this.fetchBlocks(sys);
    this.computeResponses();
  }

  /** Bilateral rows join the dynamics: K = [H −Jbᵀ; −Jb −Cb − reg] factored; the others are iterated. */
  private prepareFactored(sys: KKTSystem, nb: number): void {
    const { m, n } = sys;
    if (this.subVersion !== sys.patternVersion || this.bilateralRows.length !== nb) {
      const bil: number[] = [],
        it: number[] = [];
      for (const c of sys.constraints) for (let r = 0; r < c.blocks * c.dim; r++) (c.projector ? it : bil).push(c.offset + r);
      this.bilateralRows = Int32Array.from(bil);
      this.iteratedRows = Int32Array.from(it);
      const bMap = new Int32Array(n).fill(-1),
        uMap = new Int32Array(n).fill(-1);
      bil.forEach((r, i) => (bMap[r] = i));
      it.forEach((r, i) => (uMap[r] = i));
      this.jb.build(sys.JP, bil, identityMap(m), m);
      this.cb.build(sys.C, bil, bMap, bil.length);
      this.ju.build(sys.JP, it, identityMap(m), m + bil.length);
      this.cu.build(sys.C, it, uMap, it.length);
      this.subVersion = sys.patternVersion;
    }
    const sub: KKTSystem = {
      m,
      n: nb,
      dt: sys.dt,
      H: sys.H,
      J: this.jb.refill(sys.JP),
      JP: this.jb.matrix,
      C: this.cb.refill(sys.C),
      P: sys.P,
      isPIdentity: sys.isPIdentity,
      constraints: [],
      patternVersion: sys.patternVersion,
    };
    const K = this.kkt.assemble(sub, this.regularization.value);
    if (this.kktVersion !== this.kkt.patternVersion) {
      this.ldlt.analyze(K, kktLdltOrdering(K, m));
      this.kktVersion = this.kkt.patternVersion;
    }
    try {
      this.ldlt.factorize(K);
    } catch (e) {
      if (e instanceof ZeroPivotError)
        throw this.error('the KKT matrix of the bilateral constraints is singular (redundant hard constraints?)');
      throw e;
    }
    this.mp = m + nb;
    this.ni = this.iteratedRows.length;
    this.Ji = this.ju.refill(sys.JP);
    this.Ci = this.cu.refill(sys.C);
  }

  private primalSolve(out: Float64Array, rhs: Float64Array): void {
    if (this.factored) this.ldlt.solve(out, rhs);
    else this.response.solve(out, rhs);
  }

  /** Blocks of the iterated rows, in row order, with their activation from the projectors' masks. */
  private fetchBlocks(sys: KKTSystem): void {
    const blocks = this.blocks;
    let k = 0,
      off = 0,
      lu = 0;
    for (const c of sys.constraints) {
      if (this.factored && !c.projector) continue;
      const active = c.projector?.active;
      for (let b = 0; b < c.blocks; b++) {
        const activated = !c.projector || active === undefined || active.length === 0 || active[b] !== 0;
        const blk = blocks[k] ?? (blocks[k] = { offset: 0, size: 0, projector: undefined, index: 0, activated: true, lu: 0 });
        blk.offset = off;
        blk.size = c.dim;
        blk.projector = c.projector;
        blk.index = b;
        blk.activated = activated;
        blk.lu = lu;
        off += c.dim;
        lu += c.dim * c.dim;
        k++;
      }
    }
    blocks.length = k;
    if (this.blockLu.length < lu) this.blockLu = new Float64Array(lu);
    if (this.blockPiv.length < off) this.blockPiv = new Int32Array(off);
  }

  /** W = primal⁻¹·Jiᵀ (column by column) and the factored diagonal blocks S_bb = J_b·W_b + C_bb. */
  private computeResponses(): void {
    const { mp, ni } = this;
    const J = this.Ji,
      C = this.Ci;
    if (this.W.length < mp * ni) this.W = new Float64Array(mp * ni);
    if (this.col.length < mp) this.col = new Float64Array(mp);
    const col = this.col.subarray(0, mp);
    for (let i = 0; i < ni; i++) {
      col.fill(0);
      for (let q = J.rowPtr[i]; q < J.rowPtr[i + 1]; q++) col[J.colInd[q]] = J.values[q];
      this.primalSolve(this.W.subarray(i * mp, (i + 1) * mp), col);
    }
    const W = this.W,
      lu = this.blockLu;
    for (const b of this.blocks) {
      const d = b.size;
      for (let r = 0; r < d; r++) {
        const row = b.offset + r;
        for (let c = 0; c < d; c++) {
          let s = 0;
          const wc = (b.offset + c) * mp;
          for (let q = J.rowPtr[row]; q < J.rowPtr[row + 1]; q++) s += J.values[q] * W[wc + J.colInd[q]];
          lu[b.lu + r * d + c] = s;
        }
        for (let q = C.rowPtr[row]; q < C.rowPtr[row + 1]; q++) {
          const c = C.colInd[q] - b.offset;
          if (c >= 0 && c < d) lu[b.lu + r * d + c] += C.values[q];
        }
      }
      try {
        denseLuFactor(lu.subarray(b.lu, b.lu + d * d), d, this.blockPiv.subarray(b.offset, b.offset + d));
      } catch {
        throw this.error(`constraint block ${b.index} has a singular response (a constraint acting on no dof?)`);
      }
    }
  }

  solve(x: Float64Array, sys: KKTSystem, rhs: Float64Array): void {
    this.run(x, sys, rhs, false);
  }

  override correct(x: Float64Array, sys: KKTSystem, rhs: Float64Array): void {
    this.run(x, sys, rhs, true);
  }

  private run(x: Float64Array, sys: KKTSystem, rhs: Float64Array, correction: boolean): void {
    const t0 = performance.now();
    const { m, n } = sys;
    const { mp, ni } = this;
    this.ensureWork(mp, ni);
    const free = this.free.subarray(0, mp),
      net = this.net.subarray(0, mp);
    const lambda = this.lambda.subarray(0, ni),
      constant = this.constant.subarray(0, ni);
    // free motion: primal⁻¹·[P·c; −b_bilateral]
    const rp = this.rhsP.subarray(0, mp);
    rp.set(rhs.subarray(0, m));
    if (this.factored) for (let i = 0; i < this.bilateralRows.length; i++) rp[m + i] = -rhs[m + this.bilateralRows[i]];
    this.primalSolve(free, rp);
    // warm start λ, net = W·λ, constant = b − J·free
    const rows = this.factored ? this.iteratedRows : undefined;
    for (let i = 0; i < ni; i++) lambda[i] = x[m + (rows ? rows[i] : i)];
    net.fill(0);
    this.addW(net, lambda, 0, ni);
    const J = this.Ji,
      C = this.Ci;
    let norm = 0;
    for (let i = 0; i < ni; i++) {
      let s = rhs[m + (rows ? rows[i] : i)];
      for (let q = J.rowPtr[i]; q < J.rowPtr[i + 1]; q++) s -= J.values[q] * free[J.colInd[q]];
      constant[i] = s;
      norm += s * s;
    }
    const epsilon = this.relative.value ? Math.sqrt(norm) * this.precision.value : this.precision.value;
    const omega = this.omega.value;
    const err = this.err,
      delta = this.delta,
      old = this.old;
    let k = 0;
    let estimate = 0;
    const max = this.iterations.value;
    for (k = 0; k < max && ni > 0; k++) {
      estimate = 0;
      for (const b of this.blocks) {
        const d = b.size,
          o = b.offset;
        if (b.activated) {
          // e_b = b_b − J_b·net − C_b·λ
          for (let r = 0; r < d; r++) {
            const row = o + r;
            let s = constant[row];
            for (let q = J.rowPtr[row]; q < J.rowPtr[row + 1]; q++) s -= J.values[q] * net[J.colInd[q]];
            for (let q = C.rowPtr[row]; q < C.rowPtr[row + 1]; q++) s -= C.values[q] * lambda[C.colInd[q]];
            err[r] = s;
          }
          denseLuSolve(delta, this.blockLu.subarray(b.lu, b.lu + d * d), d, this.blockPiv.subarray(o, o + d), err);
          for (let r = 0; r < d; r++) {
            old[r] = lambda[o + r];
            lambda[o + r] = old[r] + omega * delta[r];
          }
          b.projector?.project(lambda, o, d, b.index, correction);
          for (let r = 0; r < d; r++) delta[r] = lambda[o + r] - old[r];
        } else {
          for (let r = 0; r < d; r++) {
            delta[r] = -lambda[o + r];
            lambda[o + r] = 0;
          }
        }
        for (let r = 0; r < d; r++) estimate += delta[r] * delta[r];
        // net += W_b·Δλ_b
        this.addW(net, delta, o, d);
      }
      if (Math.sqrt(estimate) / ni <= epsilon) {
        k++;
        break;
      }
    }
    // v = free + net (and the bilateral λ for the factored variant)
    for (let i = 0; i < m; i++) x[i] = free[i] + net[i];
    if (this.factored) {
      for (let i = 0; i < this.bilateralRows.length; i++) x[m + this.bilateralRows[i]] = free[m + i] + net[m + i];
      for (let i = 0; i < ni; i++) x[m + this.iteratedRows[i]] = lambda[i];
    } else {
      for (let i = 0; i < n; i++) x[m + i] = lambda[i];
    }
    this.lastStats = { iterations: k, residual: ni > 0 ? Math.sqrt(estimate) / ni : 0, timeMs: performance.now() - t0 };
  }

  /** out (mp) += Σ_r W[:, first + r]·values[r] */
  private addW(out: Float64Array, values: Float64Array, first: number, count: number): void {
    const mp = this.mp,
      W = this.W;
    for (let r = 0; r < count; r++) {
      const l = values[r];
      if (l === 0) continue;
      const wc = (first + r) * mp;
      for (let k = 0; k < mp; k++) out[k] += W[wc + k] * l;
    }
  }

  private ensureWork(mp: number, ni: number): void {
    if (this.free.length < mp) {
      this.free = new Float64Array(mp);
      this.net = new Float64Array(mp);
      this.rhsP = new Float64Array(mp);
    }
    if (this.lambda.length < ni) {
      this.lambda = new Float64Array(ni);
      this.constant = new Float64Array(ni);
    }
    let dmax = 0;
    for (const b of this.blocks) dmax = Math.max(dmax, b.size);
    if (this.err.length < dmax) {
      this.err = new Float64Array(dmax);
      this.delta = new Float64Array(dmax);
      this.old = new Float64Array(dmax);
    }
  }
}
