import {
  DataEngine,
  IndexLists,
  Real,
  UInt,
  contextMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type Data,
} from '@sofa-ts/core';
import { mat3Invert, symmetricEigen3 } from '@sofa-ts/linalg';
import { Vec3s } from '../engine-support.js';

/**
 * SOFA's ShapeMatching (Müller et al. 2005, "Meshless deformations based on shape matching"):
 * target positions from the best rigid (or blended affine) motion of each cluster of points.
 * With rest positions x⁰ (the context state's rest_position, plus fixedPosition0 for indices past
 * its points, weighted by fixedweight) and the current positions x (`position`, fixedPosition):
 *   c⁰ = Σ wᵢx⁰ᵢ / W,  c = Σ wᵢxᵢ / W,  A = Σ wᵢ(xᵢ − c)(x⁰ᵢ − c⁰)ᵀ,  R = the orthogonal factor of A,
 *   T = β·A·Q⁻¹ + (1 − β)·R,  Q = Σ wᵢ(x⁰ᵢ − c⁰)(x⁰ᵢ − c⁰)ᵀ,  β = affineRatio,
 * and each point's target is the mean over its clusters of c + T·(x⁰ᵢ − c⁰); a point in no cluster
 * keeps its position. `iterations` repeats the matching on the targets. R = A·(AᵀA)^(−1/2), from
 * the eigen-decomposition of AᵀA (the unique orthogonal polar factor SOFA's iteration converges to).
 */
@sofaComponent({
  name: 'ShapeMatching',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Analyze',
  description: 'Target positions from the best rigid (or affine) motion of each cluster of points to its rest shape (shape matching).',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class ShapeMatching extends DataEngine {
  readonly iterations = this.initData({ name: 'iterations', type: UInt, default: 1, help: 'number of iterations' });
  readonly affineRatio = this.initData({
    name: 'affineRatio',
    type: Real,
    default: 0,
    help: 'blending between affine (1) and rigid (0) cluster motions',
  });
  readonly fixedweight = this.initData({
    name: 'fixedweight',
    type: Real,
    default: 1,
    help: 'weight of the fixed (non mechanical) particles',
  });
  readonly fixedPosition0 = this.initData({
    name: 'fixedPosition0',
    type: Vec3s,
    default: new Float64Array(0),
    help: "rest positions of the non mechanical particles (cluster indices past the state's points)",
  });
  readonly fixedPosition = this.initData({
    name: 'fixedPosition',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'current positions of the non mechanical particles',
  });
  readonly position = this.initData({ name: 'position', type: Vec3s, default: new Float64Array(0), help: 'input (current) positions' });
  readonly cluster = this.initData({
    name: 'cluster',
    type: IndexLists('vector<vector<unsigned int>>'),
    default: [],
    help: 'input clusters',
  });
  readonly targetPosition = this.initData({
    name: 'targetPosition',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'computed target positions',
    output: true,
  });

  private state: BaseMechanicalState | undefined;
  /** Per cluster: rest centre c⁰ (3), weight W, Q⁻¹ (9); per point: number of clusters. */
  private xcm0 = new Float64Array(0);
  private weight = new Float64Array(0);
  private qinv = new Float64Array(0);
  private nbClust = new Uint32Array(0);
  private restKey = '';
  private clusterCounter = -1;
  private singularWarned = false;
  /** Scratch of the update: per point sums of targets, per cluster T and c. */
  private sum = new Float64Array(0);
  private T = new Float64Array(0);
  private c = new Float64Array(0);

  constructor() {
    super();
    this.addInput(
      this.iterations,
      this.affineRatio,
      this.fixedweight,
      this.fixedPosition0,
      this.fixedPosition,
      this.position,
      this.cluster,
    );
    this.addOutput(this.targetPosition);
  }

  override init(): void {
    this.state = contextMechanicalState(this.context);
    if (!this.state) throw this.error('no mechanical state in the context: its rest positions are the shapes to match');
    if (this.state.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${this.state.stateType.name})`);
    this.addInput(this.state.findData('rest_position') as Data<unknown>);
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const x0 = this.state!.x0,
      nbp = x0.length / 3;
    const f0 = this.fixedPosition0.value,
      fx = this.fixedPosition.value,
      nbf = f0.length / 3;
    const cur = this.position.value,
      clusters = this.cluster.value,
      nbc = clusters.length;
    if (nbc === 0 || nbp === 0 || cur.length === 0) return;
    if (cur.length !== x0.length) throw this.error(`'position' has ${cur.length / 3} points, the state's rest positions ${nbp}`);
    if (fx.length !== f0.length) throw this.error(`fixedPosition has ${fx.length / 3} points, fixedPosition0 ${nbf}`);
    for (let i = 0; i < nbc; i++)
      for (const j of clusters[i])
        if (j >= nbp + nbf) throw this.error(`cluster ${i} has index ${j}, past the ${nbp} points and ${nbf} fixed points`);
    const fw = this.fixedweight.value;
    const key = `${nbp},${nbf},${fw}`;
    if (key !== this.restKey || this.cluster.counter !== this.clusterCounter) this.restShapes(x0, nbp, f0, fw, clusters);
    const beta = this.affineRatio.value;
    const target = Float64Array.from(cur);
    if (this.sum.length !== 3 * nbp) this.sum = new Float64Array(3 * nbp);
    if (this.T.length !== 9 * nbc) ((this.T = new Float64Array(9 * nbc)), (this.c = new Float64Array(3 * nbc)));
    const { sum, T, c } = this;
    const A = scratchA,
      R = scratchR;
    for (let it = 0; it < this.iterations.value; it++) {
      for (let i = 0; i < nbc; i++) {
        A.fill(0);
        let cx = 0,
          cy = 0,
          cz = 0;
        const W = this.weight[i],
          c0 = this.xcm0.subarray(3 * i, 3 * i + 3);
        for (const j of clusters[i]) {
          const mech = j < nbp,
            w = mech ? 1 : fw;
          const P = mech ? target : fx,
            o = 3 * (mech ? j : j - nbp);
          const R0 = mech ? x0 : f0;
          cx += w * P[o];
          cy += w * P[o + 1];
          cz += w * P[o + 2];
          for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) A[3 * r + q] += w * P[o + r] * (R0[o + q] - c0[q]);
        }
        c[3 * i] = cx / W;
        c[3 * i + 1] = cy / W;
        c[3 * i + 2] = cz / W;
        if (beta !== 1) this.orthogonalFactor(A, R, i);
        for (let k = 0; k < 9; k++) {
          let affine = 0;
          if (beta !== 0) for (let m = 0; m < 3; m++) affine += A[3 * Math.floor(k / 3) + m] * this.qinv[9 * i + 3 * m + (k % 3)];
          T[9 * i + k] = beta === 0 ? R[k] : beta === 1 ? affine : beta * affine + (1 - beta) * R[k];
        }
      }
      sum.fill(0);
      for (let i = 0; i < nbc; i++) {
        for (const j of clusters[i]) {
          if (j >= nbp) continue;
          const d0 = x0[3 * j] - this.xcm0[3 * i],
            d1 = x0[3 * j + 1] - this.xcm0[3 * i + 1],
            d2 = x0[3 * j + 2] - this.xcm0[3 * i + 2];
          for (let r = 0; r < 3; r++)
            sum[3 * j + r] += c[3 * i + r] + T[9 * i + 3 * r] * d0 + T[9 * i + 3 * r + 1] * d1 + T[9 * i + 3 * r + 2] * d2;
        }
      }
      for (let j = 0; j < nbp; j++) {
        const n = this.nbClust[j];
        for (let r = 0; r < 3; r++) target[3 * j + r] = n ? sum[3 * j + r] / n : cur[3 * j + r];
      }
    }
    this.targetPosition.value = target;
  }

  /** Rest centres, weights, Q⁻¹ of the clusters and the number of clusters of each point. */
  private restShapes(x0: Float64Array, nbp: number, f0: Float64Array, fw: number, clusters: number[][]): void {
    const nbc = clusters.length;
    this.xcm0 = new Float64Array(3 * nbc);
    this.weight = new Float64Array(nbc);
    this.qinv = new Float64Array(9 * nbc);
    this.nbClust = new Uint32Array(nbp);
    const Q = new Float64Array(9);
    for (let i = 0; i < nbc; i++) {
      let W = 0;
      const c0 = this.xcm0.subarray(3 * i, 3 * i + 3);
      for (const j of clusters[i]) {
        const mech = j < nbp,
          w = mech ? 1 : fw,
          P = mech ? x0 : f0,
          o = 3 * (mech ? j : j - nbp);
        for (let r = 0; r < 3; r++) c0[r] += w * P[o + r];
        W += w;
        if (mech) this.nbClust[j]++;
      }
      if (!(W > 0)) throw this.error(`cluster ${i} has no weight (empty, or only fixed points with fixedweight 0)`);
      for (let r = 0; r < 3; r++) c0[r] /= W;
      this.weight[i] = W;
      Q.fill(0);
      for (const j of clusters[i]) {
        const mech = j < nbp,
          w = mech ? 1 : fw,
          P = mech ? x0 : f0,
          o = 3 * (mech ? j : j - nbp);
        for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) Q[3 * r + q] += w * (P[o + r] - c0[r]) * (P[o + q] - c0[q]);
      }
      if (!invertOrZero(Q, this.qinv.subarray(9 * i, 9 * i + 9)) && this.affineRatio.value !== 0)
        this.warn(
          `cluster ${i}: its rest points are flat (Σ w(x⁰ − c⁰)(x⁰ − c⁰)ᵀ is singular), so its affine part is left out (affineRatio ${this.affineRatio.value} acts on the rotation only)`,
        );
    }
    this.restKey = `${nbp},${f0.length / 3},${fw}`;
    this.clusterCounter = this.cluster.counter;
  }

  /** R = A·(AᵀA)^(−1/2); the identity (warned once) when A is singular (a flat or collapsed cluster). */
  private orthogonalFactor(A: Float64Array, R: Float64Array, cluster: number): void {
    const AtA = scratchAtA,
      V = scratchV,
      w = scratchW;
    for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) AtA[3 * r + q] = A[r] * A[q] + A[3 + r] * A[3 + q] + A[6 + r] * A[6 + q];
    symmetricEigen3(V, w, AtA);
    const scale = Math.max(Math.abs(w[0]), Math.abs(w[1]), Math.abs(w[2]));
    if (!(scale > 0) || Math.min(w[0], w[1], w[2]) <= 1e-12 * scale) {
      if (!this.singularWarned) {
        this.singularWarned = true;
        this.warn(
          `cluster ${cluster}: its points are flat or collapsed (the matrix Σ w(x − c)(x⁰ − c⁰)ᵀ is singular), so its rotation is undefined: the identity is used (warned once)`,
        );
      }
      R.fill(0);
      R[0] = R[4] = R[8] = 1;
      return;
    }
    // S⁻¹ = V·diag(1/√w)·Vᵀ, R = A·S⁻¹
    const Si = scratchS;
    for (let r = 0; r < 3; r++)
      for (let q = 0; q < 3; q++)
        Si[3 * r + q] =
          (V[3 * r] * V[3 * q]) / Math.sqrt(w[0]) +
          (V[3 * r + 1] * V[3 * q + 1]) / Math.sqrt(w[1]) +
          (V[3 * r + 2] * V[3 * q + 2]) / Math.sqrt(w[2]);
    for (let r = 0; r < 3; r++)
      for (let q = 0; q < 3; q++) R[3 * r + q] = A[3 * r] * Si[q] + A[3 * r + 1] * Si[3 + q] + A[3 * r + 2] * Si[6 + q];
  }
}

const scratchA = new Float64Array(9);
const scratchR = new Float64Array(9);
const scratchAtA = new Float64Array(9);
const scratchV = new Float64Array(9);
const scratchW = new Float64Array(3);
const scratchS = new Float64Array(9);

/** out = m⁻¹ (linalg's adjugate inverse); false and zero when m is singular (used only for affineRatio > 0). */
function invertOrZero(m: Float64Array, out: Float64Array): boolean {
  if (mat3Invert(out, m) !== 0) return true;
  out.fill(0);
  return false;
}
