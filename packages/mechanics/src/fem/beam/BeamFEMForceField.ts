import {
  BaseForceField,
  Bool,
  Indices,
  Real,
  addBlock3,
  contextMeshTopology,
  isTopology,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { mstateLink } from '../../state-link.js';
import { beamStiffness, circularSection } from './beam-kernels.js';
import { quatMultiplyAt, quatToMatrix3At } from '@sofa-ts/linalg';
import { unitQuatRotationVector } from '../../rotation.js';

/**
 * SOFA's BeamFEMForceField: 3D beams between Rigid3 frames (the edges of the topology), corotational
 * in the frame of their first node. Per beam (a, b) of rest length L, circular section of radius r
 * (hollow inside radiusInner):
 *   k (12×12, local axes: x along the beam) = SOFA's Timoshenko matrix with the shear areas set to 0
 *     (φ = 0), i.e. the Euler–Bernoulli beam (EA/L, 12EI/L³, 6EI/L², 4EI/L, 2EI/L, GJ/L);
 *   local displacement D: node a 0; node b translation R_a⁻¹(x_b − x_a) − R⁰_a⁻¹(X_b − X_a) and
 *     rotation the rotation vector of (q⁰_a⁻¹q⁰_b)⁻¹·(q_a⁻¹q_b) (quaternions of one hemisphere);
 *   f_a −= R_a·(k·D)_a, f_b −= R_a·(k·D)_b (forces then torques, world axes);
 *   df = −kFactor·R_a·k·R_a⁻¹·dx with R_a of the last addForce: the rest stiffness turned with
 *     the first node (no derivative of the frame; exact at rest and for rigid motions).
 * With listSegment, only the listed edges are beams.
 */
@sofaComponent({
  name: 'BeamFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Euler–Bernoulli 3D beams between Rigid3 frames, corotational in the frame of their first node.',
  templates: ['Rigid3d'],
})
export class BeamFEMForceField extends BaseForceField {
  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the beams as edges (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });
  readonly poissonRatio = this.initData({ name: 'poissonRatio', type: Real, default: 0.49, help: "Poisson's ratio" });
  readonly youngModulus = this.initData({ name: 'youngModulus', type: Real, default: 5000, unit: 'Pa', help: "Young's modulus" });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 0.1, unit: 'm', help: 'radius of the section' });
  readonly radiusInner = this.initData({
    name: 'radiusInner',
    type: Real,
    default: 0,
    unit: 'm',
    help: 'inner radius of the section, for hollow beams',
  });
  readonly listSegment = this.initData({
    name: 'listSegment',
    type: Indices,
    default: new Uint32Array(0),
    help: 'the edges that are beams (default: every edge of the topology)',
  });
  readonly useSymmetricAssembly = this.initData({
    name: 'useSymmetricAssembly',
    type: Bool,
    default: false,
    help: 'assemble K by symmetry (the same matrix: R·k·Rᵀ is symmetric)',
  });

  private states: BaseMechanicalState[] = [];
  /** Beam ends (nB × 2). */
  private beams = new Uint32Array(0);
  /** Local stiffness per beam (nB × 144), row-major 12×12. */
  private kLoc = new Float64Array(0);
  /** Frame (quaternion x y z w) of each beam at the last addForce: its first node's (nB × 4). */
  private quat = new Float64Array(0);
  private readonly D = new Float64Array(12);
  private readonly F = new Float64Array(12);
  private readonly R = new Float64Array(9);
  private readonly blk = new Float64Array(9);
  private readonly q1 = new Float64Array(4);
  private readonly q2 = new Float64Array(4);
  private readonly q3 = new Float64Array(4);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  get beamCount(): number {
    return this.beams.length / 2;
  }

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Rigid3d') throw this.error(`needs a Rigid3d state (got ${s.stateType.name})`);
    this.states = [s];
    if (!this.template) this.template = s.stateType.name;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: put an edge topology (MeshTopology lines="…") in the node or set topology="@path"');
    this.topology.set(topo);
    const edges = topo.getEdges();
    if (edges.length === 0) throw this.error(`the topology ${topo.describe()} has no edges`);
    let list = Array.from({ length: edges.length / 2 }, (_, i) => i);
    const given = this.listSegment.value;
    if (given.length > 0) {
      if (given.some((i) => i >= edges.length / 2))
        this.warn(`listSegment names an edge beyond the ${edges.length / 2} edges of ${topo.describe()}; every edge is a beam`);
      else list = Array.from(given);
    }
    const n = list.length,
      X = s.x0;
    this.beams = new Uint32Array(2 * n);
    this.kLoc = new Float64Array(144 * n);
    this.quat = new Float64Array(4 * n);
    const section = circularSection(this.radius.value, this.radiusInner.value);
    for (let k = 0; k < n; k++) {
      const a = edges[2 * list[k]],
        b = edges[2 * list[k] + 1];
      if (a >= s.size || b >= s.size)
        throw this.error(`edge ${list[k]} (${a} ${b}) names a point beyond the ${s.size} frames of ${s.describe()}`);
      this.beams[2 * k] = a;
      this.beams[2 * k + 1] = b;
      const L = Math.hypot(X[7 * a] - X[7 * b], X[7 * a + 1] - X[7 * b + 1], X[7 * a + 2] - X[7 * b + 2]);
      if (!(L > 0)) throw this.error(`beam ${k} (${a} ${b}) has zero length at rest`);
      beamStiffness(this.kLoc, 144 * k, this.youngModulus.value, this.poissonRatio.value, L, section);
      for (let c = 0; c < 4; c++) this.quat[4 * k + c] = X[7 * a + 3 + c];
      normalize4(this.quat, 4 * k);
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const ff = f[0],
      p = x[0],
      X = this.states[0].x0,
      n = this.beamCount,
      D = this.D,
      F = this.F,
      R = this.R;
    const dq0 = this.q1,
      dq = this.q2,
      tmp = this.q3;
    for (let k = 0; k < n; k++) {
      const a = this.beams[2 * k],
        b = this.beams[2 * k + 1],
        qa = 7 * a + 3,
        qb = 7 * b + 3;
      for (let c = 0; c < 4; c++) this.quat[4 * k + c] = p[qa + c];
      normalize4(this.quat, 4 * k);
      D.fill(0);
      // translation of b in the frame of a, minus its rest value
      for (let c = 0; c < 3; c++) {
        tmp[c] = p[7 * b + c] - p[7 * a + c];
        dq[c] = X[7 * b + c] - X[7 * a + c];
      }
      inverseRotate(F, 0, p, qa, tmp);
      inverseRotate(F, 3, X, qa, dq);
      for (let c = 0; c < 3; c++) D[6 + c] = F[c] - F[3 + c];
      // rotation: dQ0 = q⁰_a⁻¹q⁰_b, dQ = q_a⁻¹q_b, then the rotation vector of dQ0⁻¹·dQ
      quatDiff(dq0, 0, X, qb, X, qa);
      quatDiff(dq, 0, p, qb, p, qa);
      normalize4(dq0, 0);
      normalize4(dq, 0);
      quatDiff(tmp, 0, dq, 0, dq0, 0);
      normalize4(tmp, 0);
      rotationVector(D, 9, tmp);
      // F = k·D (D is zero on node a)
      const ko = 144 * k;
      for (let r = 0; r < 12; r++) {
        let s = 0;
        for (let c = 6; c < 12; c++) s += this.kLoc[ko + 12 * r + c] * D[c];
        F[r] = s;
      }
      quatMatrix(R, p, qa);
      for (let blk = 0; blk < 4; blk++) {
        const o = (blk < 2 ? 6 * a : 6 * b) + 3 * (blk % 2),
          fo = 3 * blk;
        for (let r = 0; r < 3; r++) ff[o + r] -= R[3 * r] * F[fo] + R[3 * r + 1] * F[fo + 1] + R[3 * r + 2] * F[fo + 2];
      }
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const fact = this.kFactorWithRayleigh(kFactor, bFactor);
    if (fact === 0) return;
    const out = df[0],
      d = dx[0],
      n = this.beamCount,
      D = this.D,
      F = this.F,
      R = this.R;
    for (let k = 0; k < n; k++) {
      const a = this.beams[2 * k],
        b = this.beams[2 * k + 1];
      quatMatrix(R, this.quat, 4 * k);
      // D = R⁻¹·dx per 3-vector (translation, rotation of a, then of b)
      for (let blk = 0; blk < 4; blk++) {
        const o = (blk < 2 ? 6 * a : 6 * b) + 3 * (blk % 2);
        for (let c = 0; c < 3; c++) D[3 * blk + c] = R[c] * d[o] + R[3 + c] * d[o + 1] + R[6 + c] * d[o + 2];
      }
      const ko = 144 * k;
      for (let r = 0; r < 12; r++) {
        let s = 0;
        for (let c = 0; c < 12; c++) s += this.kLoc[ko + 12 * r + c] * D[c];
        F[r] = s;
      }
      for (let blk = 0; blk < 4; blk++) {
        const o = (blk < 2 ? 6 * a : 6 * b) + 3 * (blk % 2),
          fo = 3 * blk;
        for (let r = 0; r < 3; r++) out[o + r] -= fact * (R[3 * r] * F[fo] + R[3 * r + 1] * F[fo + 1] + R[3 * r + 2] * F[fo + 2]);
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const n = this.beamCount,
      R = this.R,
      blk = this.blk;
    for (let k = 0; k < n; k++) {
      const a = this.beams[2 * k],
        b = this.beams[2 * k + 1],
        ko = 144 * k;
      quatMatrix(R, this.quat, 4 * k);
      for (let bi = 0; bi < 4; bi++)
        for (let bj = 0; bj < 4; bj++) {
          // −kFactor·R·k_ij·Rᵀ
          for (let r = 0; r < 3; r++)
            for (let c = 0; c < 3; c++) {
              let s = 0;
              for (let p = 0; p < 3; p++)
                for (let q = 0; q < 3; q++) s += R[3 * r + p] * this.kLoc[ko + 12 * (3 * bi + p) + 3 * bj + q] * R[3 * c + q];
              blk[3 * r + c] = -kFactor * s;
            }
          const row = (bi < 2 ? 6 * a : 6 * b) + 3 * (bi % 2),
            col = (bj < 2 ? 6 * a : 6 * b) + 3 * (bj % 2);
          addBlock3(acc, row, col, blk, 0, 1);
        }
    }
  }

  /** The local stiffness of beam k (12×12 row-major view). */
  localStiffness(k: number): Float64Array {
    return this.kLoc.subarray(144 * k, 144 * k + 144);
  }
}

function normalize4(q: Float64Array, o: number): void {
  const n = Math.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]);
  if (n > 0) for (let c = 0; c < 4; c++) q[o + c] = q[o + c] / n;
}

/** R (row-major 3×3) of the unit quaternion q at qs[o..o+4] (x y z w). */
function quatMatrix(R: Float64Array, qs: ArrayLike<number>, o: number): void {
  quatToMatrix3At(R, 0, qs, o);
}

/** out[o..o+3] = R(q)ᵀ·v for the quaternion q at qs[qo..qo+4]. */
function inverseRotate(out: Float64Array, o: number, qs: ArrayLike<number>, qo: number, v: ArrayLike<number>): void {
  const x = -qs[qo],
    y = -qs[qo + 1],
    z = -qs[qo + 2],
    w = qs[qo + 3];
  const vx = v[0],
    vy = v[1],
    vz = v[2];
  const tx = 2 * (y * vz - z * vy),
    ty = 2 * (z * vx - x * vz),
    tz = 2 * (x * vy - y * vx);
  out[o] = vx + w * tx + (y * tz - z * ty);
  out[o + 1] = vy + w * ty + (z * tx - x * tz);
  out[o + 2] = vz + w * tz + (x * ty - y * tx);
}

/** out = b⁻¹ ⊗ a, a taken in b's hemisphere (SOFA's qDiff(a, b)); a at as[ao..], b at bs[bo..]. */
function quatDiff(out: Float64Array, oo: number, as: ArrayLike<number>, ao: number, bs: ArrayLike<number>, bo: number): void {
  let ax = as[ao],
    ay = as[ao + 1],
    az = as[ao + 2],
    aw = as[ao + 3];
  const bx = bs[bo],
    by = bs[bo + 1],
    bz = bs[bo + 2],
    bw = bs[bo + 3];
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    ax = -ax;
    ay = -ay;
    az = -az;
    aw = -aw;
  }
  // b⁻¹ = conj(b)/|b|²
  const n2 = bx * bx + by * by + bz * bz + bw * bw;
  diffQuats[0] = -bx / n2;
  diffQuats[1] = -by / n2;
  diffQuats[2] = -bz / n2;
  diffQuats[3] = bw / n2;
  diffQuats[4] = ax;
  diffQuats[5] = ay;
  diffQuats[6] = az;
  diffQuats[7] = aw;
  quatMultiplyAt(out, oo, diffQuats, 0, diffQuats, 4);
}

/** b⁻¹ (0..4) and the hemisphere-corrected a (4..8) of quatDiff: no allocation per call. */
const diffQuats = new Float64Array(8);

/** out[o..o+3] = axis·angle of the unit quaternion q (SOFA's quatToRotationVector). */
function rotationVector(out: Float64Array, o: number, q: Float64Array): void {
  unitQuatRotationVector(out, o, q[0], q[1], q[2], q[3]);
}
