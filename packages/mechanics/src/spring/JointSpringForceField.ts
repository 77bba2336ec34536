import {
  BaseForceField,
  Bool,
  isMechanicalState,
  Real,
  sofaComponent,
  Str,
  type BaseMechanicalState,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { quatMultiplyAt } from '@sofa-ts/linalg';
import { rigidInteractionStates } from './rigid-interaction-states.js';
import { JointSprings, type JointSpring } from './joint-spring-syntax.js';

/** Quaternion scratch of the spring products (one spring at a time). */
const quatA = new Float64Array(4),
  quatB = new Float64Array(4);

/**
 * SOFA's JointSpringForceField (Rigid3): joints between frames m1 of object1 and m2 of object2,
 * each a 6-axis spring expressed in the frame of m1 (orientation q1, rotation R1):
 *   translation  d = c2 − c1 − t0,  f_T = R1·(K_T ∘ R1ᵀ·d) + kd·(v2 − v1)_lin,
 *   rotation     q_rel = q1⁻¹·q2·r0,  θ = its rotation vector (angle in [0, π], frame of m1),
 *                f_R = R1·g(θ) + kd·(v2 − v1)_ang,
 *   f1 += (f_T, f_R),  f2 −= (f_T, f_R).
 * K_T = hard stiffness on blocked translation axes, soft on free ones (FREE_AXIS); g as SOFA:
 * all rotations blocked: g = K_R ∘ θ; one free rotation axis a with θ_a inside its limits (a pivot):
 * g_a = K_R,a·θ_a and, with u = R_rel·e_a and φ = its angle to e_a, g_b = −u_c·φ·K_R,b,
 * g_c = u_b·φ·K_R,c ((a, b, c) cyclic); otherwise K_R ∘ θ on the axes inside their limits or
 * blocked, the bloc stiffness times the part of θ beyond the limits on the others.
 * t0 and r0 are REST_T and REST_R; as SOFA, giving REST_T makes both offsets the initial
 * ones (t0 = c2 − c1, r0 = q2·q1⁻¹: q1⁻¹·q2·r0 is the identity at the start only when both frames
 * share their orientation, SOFA's composition kept), and without it t0 = 0 and r0 = REST_R (identity by default).
 *
 * The tangent is exact (SOFA keeps R1·diag(K)·R1ᵀ on the relative motion): the rotation of R1 in
 * both parts and the rotation vector's Jacobian J_l⁻¹(θ) (or the pivot's u and φ) are included;
 * the damping kd enters B (SOFA emits no damping matrix). Reading a constant joint force from
 * `infile` and writing `outfile` are not supported.
 */
@sofaComponent({
  name: 'JointSpringForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs for articulations between rigid frames (6 axes, free axes, rotation limits).',
  templates: ['Rigid3d'],
})
export class JointSpringForceField extends BaseForceField {
  readonly springs = this.initData({
    name: 'spring',
    type: JointSprings,
    default: [],
    help: 'pairs of indices, stiffness, damping, rest length',
  });
  readonly outfile = this.initData({ name: 'outfile', type: Str, default: '', help: 'output file name (not supported)' });
  readonly infile = this.initData({
    name: 'infile',
    type: Str,
    default: '',
    help: 'input file containing constant joint force (not supported)',
  });
  readonly period = this.initData({ name: 'period', type: Real, default: 0, help: 'period between outputs' });
  readonly reinit = this.initData({
    name: 'reinit',
    type: Bool,
    default: false,
    help: 'flag enabling reinitialization of the output file at each timestep',
  });
  readonly showLawfulTorsion = this.initData({
    name: 'showLawfulTorsion',
    type: Bool,
    default: false,
    help: 'display the lawful part of the joint rotation',
    group: 'Visualization',
  });
  readonly showExtraTorsion = this.initData({
    name: 'showExtraTorsion',
    type: Bool,
    default: false,
    help: 'display the illicit part of the joint rotation',
    group: 'Visualization',
  });
  readonly showFactorSize = this.initData({
    name: 'showFactorSize',
    type: Real,
    default: 1,
    help: 'modify the size of the debug information of a given factor',
    group: 'Visualization',
  });

  readonly object1 = this.initLink({
    name: 'object1',
    help: 'first object in interaction (default: the state of this node)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject (Rigid3d)',
    aliases: ['mstate1'],
  });
  readonly object2 = this.initLink({
    name: 'object2',
    help: 'second object in interaction (default: object1)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject (Rigid3d)',
    aliases: ['mstate2'],
  });

  private states: BaseMechanicalState[] = [];
  /** Per joint: t0 (3), r0 (4). */
  private rest = new Float64Array(0);
  /** Per joint, ∂f1/∂(c1, θ1, c2, θ2): 6 × 12, row-major. */
  private blocks = new Float64Array(0);
  private kd = new Float64Array(0);
  private m1 = new Uint32Array(0);
  private m2 = new Uint32Array(0);
  private readonly w = new Float64Array(64);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    this.states = rigidInteractionStates(this, this.object1, this.object2);
    if (this.infile.value !== '') throw this.error("'infile' (a constant joint force read from a file) is not supported");
    if (this.outfile.value !== '') throw this.error("'outfile' (writing the joint forces to a file) is not supported");
  }

  override bwdInit(): void {
    const s1 = this.object1.get()!,
      s2 = this.object2.get()!;
    const sp = this.springs.value,
      n = sp.length;
    this.rest = new Float64Array(7 * n);
    this.blocks = new Float64Array(72 * n);
    this.kd = Float64Array.from(sp, (s) => s.kd);
    this.m1 = Uint32Array.from(sp, (s) => s.m1);
    this.m2 = Uint32Array.from(sp, (s) => s.m2);
    const x1 = s1.x,
      x2 = s2.x;
    for (let i = 0; i < n; i++) {
      const s = sp[i];
      if (s.m1 >= s1.size) throw this.error(`spring ${i}: m1 = ${s.m1} is out of range (${s1.describe()} has ${s1.size} frames)`);
      if (s.m2 >= s2.size) throw this.error(`spring ${i}: m2 = ${s.m2} is out of range (${s2.describe()} has ${s2.size} frames)`);
      const r = this.rest,
        o = 7 * i;
      if (s.restGiven) {
        const a = 7 * s.m1,
          b = 7 * s.m2;
        for (let k = 0; k < 3; k++) r[o + k] = x2[b + k] - x1[a + k];
        // r0 = q2 ⊗ q1⁻¹ (SOFA's initialisation)
        const n1 = Math.hypot(x1[a + 3], x1[a + 4], x1[a + 5], x1[a + 6]) || 1;
        const p = quatA;
        p[0] = -x1[a + 3] / n1;
        p[1] = -x1[a + 4] / n1;
        p[2] = -x1[a + 5] / n1;
        p[3] = x1[a + 6] / n1;
        quatMultiplyAt(r, o + 3, x2, b + 3, p, 0);
      } else {
        for (let k = 0; k < 3; k++) r[o + k] = s.initTrans[k];
        for (let k = 0; k < 4; k++) r[o + 3 + k] = s.initRot[k];
      }
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const f1 = f[0],
      f2 = f[f.length - 1],
      x1 = x[0],
      x2 = x[x.length - 1],
      v1 = v[0],
      v2 = v[v.length - 1];
    const sp = this.springs.value,
      w = this.w;
    for (let i = 0; i < sp.length; i++) {
      const a = 7 * this.m1[i],
        b = 7 * this.m2[i];
      this.jointForce(sp[i], i, x1, a, x2, b, w);
      const fa = 6 * this.m1[i],
        fb = 6 * this.m2[i],
        kd = this.kd[i];
      for (let k = 0; k < 6; k++) {
        const fk = w[k] + kd * (v2[fb + k] - v1[fa + k]);
        f1[fa + k] += fk;
        f2[fb + k] -= fk;
      }
    }
  }

  /**
   * The elastic force on m1 (w[0..6)) and its derivative ∂f1/∂(c1, θ1, c2, θ2) into the joint's
   * block. w is scratch: [0..6) force, the rest work space.
   */
  private jointForce(s: JointSpring, i: number, x1: Float64Array, a: number, x2: Float64Array, b: number, w: Float64Array): void {
    const r = this.rest,
      o = 7 * i;
    // R1 (row-major) from q1
    const n1 = Math.hypot(x1[a + 3], x1[a + 4], x1[a + 5], x1[a + 6]);
    const q1x = x1[a + 3] / n1,
      q1y = x1[a + 4] / n1,
      q1z = x1[a + 5] / n1,
      q1w = x1[a + 6] / n1;
    const R = rotationMatrix(q1x, q1y, q1z, q1w);
    // translation: d = c2 − c1 − t0 (world), A = R1·diag(K_T)·R1ᵀ
    const dx = x2[b] - x1[a] - r[o],
      dy = x2[b + 1] - x1[a + 1] - r[o + 1],
      dz = x2[b + 2] - x1[a + 2] - r[o + 2];
    const fm = s.freeMovements;
    const KT0 = fm[0] ? s.softStiffnessTrans : s.hardStiffnessTrans;
    const KT1 = fm[1] ? s.softStiffnessTrans : s.hardStiffnessTrans;
    const KT2 = fm[2] ? s.softStiffnessTrans : s.hardStiffnessTrans;
    const A = new3x3Scratch;
    for (let p = 0; p < 3; p++) {
      for (let q = 0; q < 3; q++)
        A[3 * p + q] = R[3 * p] * KT0 * R[3 * q] + R[3 * p + 1] * KT1 * R[3 * q + 1] + R[3 * p + 2] * KT2 * R[3 * q + 2];
    }
    const fTx = A[0] * dx + A[1] * dy + A[2] * dz;
    const fTy = A[3] * dx + A[4] * dy + A[5] * dz;
    const fTz = A[6] * dx + A[7] * dy + A[8] * dz;
    w[0] = fTx;
    w[1] = fTy;
    w[2] = fTz;
    // rotation: q_rel = q1⁻¹ ⊗ q2 ⊗ r0, normalised
    let ex: number, ey: number, ez: number, ew: number;
    {
      const c = quatA,
        t = quatB;
      c[0] = -q1x;
      c[1] = -q1y;
      c[2] = -q1z;
      c[3] = q1w;
      quatMultiplyAt(t, 0, c, 0, x2, b + 3);
      quatMultiplyAt(t, 0, t, 0, r, o + 3);
      ex = t[0];
      ey = t[1];
      ez = t[2];
      ew = t[3];
      const m = Math.hypot(ex, ey, ez, ew);
      if (m !== 0) {
        ex /= m;
        ey /= m;
        ez /= m;
        ew /= m;
      } else ew = 1;
    }
    // θ: SOFA's quatToAxis (w ≥ 0, angle in [0, π]) times the angle
    if (ew < 0) {
      ex = -ex;
      ey = -ey;
      ez = -ez;
      ew = -ew;
    }
    let sinHalf: number, phi: number;
    if (ew > 0.999) {
      sinHalf = Math.sqrt(ex * ex + ey * ey + ez * ez);
      phi = 2 * Math.asin(Math.min(1, sinHalf));
    } else {
      const half = Math.acos(ew);
      sinHalf = Math.sin(half);
      phi = 2 * half;
    }
    const th = theta3;
    if (sinHalf < Number.EPSILON) {
      th[0] = 0;
      th[1] = phi;
      th[2] = 0;
    } else {
      th[0] = (ex / sinHalf) * phi;
      th[1] = (ey / sinHalf) * phi;
      th[2] = (ez / sinHalf) * phi;
    }
    const KR = kr3;
    for (let k = 0; k < 3; k++) KR[k] = fm[3 + k] ? s.softStiffnessRot : s.hardStiffnessRot;
    // G = ∂g/∂ω (ω: left rotation vector of q_rel, frame of m1); g into g3
    const g = g3,
      G = G9;
    jlInverse(Jinv, th);
    const lim = s.limitAngles;
    const pivot = !fm[3] && !fm[4] && !fm[5] ? -2 : pivotAxis(fm, th, lim);
    if (pivot === -2) {
      for (let k = 0; k < 3; k++) g[k] = th[k] * KR[k];
      for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) G[3 * p + q] = KR[p] * Jinv[3 * p + q];
    } else if (pivot >= 0) {
      const ia = pivot,
        ib = (pivot + 1) % 3,
        ic = (pivot + 2) % 3;
      // u = R_rel·e_a: column a of the rotation matrix of q_rel
      const M = rotationMatrix(ex, ey, ez, ew);
      const ua = M[3 * ia + ia],
        ub = M[3 * ib + ia],
        uc = M[3 * ic + ia];
      const sn = Math.sqrt(ub * ub + uc * uc);
      const phiA = Math.atan2(sn, ua);
      g[ia] = th[ia] * KR[ia];
      g[ib] = -uc * phiA * KR[ib];
      g[ic] = ub * phiA * KR[ic];
      // ∂φ/∂u (unit u): (u_a·∂s − s·∂u_a), ∂s = (u_b·du_b + u_c·du_c)/s; 0 at s = 0 (its terms vanish there)
      const dphi = dphi3;
      dphi[ia] = -sn;
      dphi[ib] = sn > 0 ? (ua * ub) / sn : 0;
      dphi[ic] = sn > 0 ? (ua * uc) / sn : 0;
      // ∂g_b/∂u = −KR_b·(φ·e_c + u_c·∂φ),  ∂g_c/∂u = KR_c·(φ·e_b + u_b·∂φ); du = ω × u = −[u]×·ω
      const gu = gu6;
      for (let k = 0; k < 3; k++) {
        gu[k] = -KR[ib] * ((k === ic ? phiA : 0) + uc * dphi[k]);
        gu[3 + k] = KR[ic] * ((k === ib ? phiA : 0) + ub * dphi[k]);
      }
      const u = u3;
      u[ia] = ua;
      u[ib] = ub;
      u[ic] = uc;
      for (let q = 0; q < 3; q++) {
        // column q of −[u]×: −(u × e_q) = e_q × u
        const cq0 = q === 1 ? u[2] : q === 2 ? -u[1] : 0;
        const cq1 = q === 2 ? u[0] : q === 0 ? -u[2] : 0;
        const cq2 = q === 0 ? u[1] : q === 1 ? -u[0] : 0;
        G[3 * ia + q] = KR[ia] * Jinv[3 * ia + q];
        G[3 * ib + q] = gu[0] * cq0 + gu[1] * cq1 + gu[2] * cq2;
        G[3 * ic + q] = gu[3] * cq0 + gu[4] * cq1 + gu[5] * cq2;
      }
    } else {
      // general case: lawful torsion clamped to the limits, the bloc stiffness beyond them
      const lawful = lawful3,
        D = mask3;
      for (let k = 0; k < 3; k++) {
        const t = th[k],
          lo = lim[2 * k],
          hi = lim[2 * k + 1];
        if (!fm[3 + k]) {
          lawful[k] = 0;
          D[k] = 1;
        } else if (t > lo && t < hi) {
          lawful[k] = t;
          D[k] = 0;
        } else {
          let d1: number, d2: number;
          if (t > 0) {
            d1 = t - hi;
            d2 = lo + 2 * Math.PI - t;
          } else {
            d1 = t - hi + 2 * Math.PI;
            d2 = lo - t;
          }
          lawful[k] = d1 < d2 ? hi : lo;
          D[k] = 1;
        }
      }
      const e = extra3;
      for (let k = 0; k < 3; k++) e[k] = th[k] - lawful[k];
      const psi = Math.hypot(e[0], e[1], e[2]);
      // SOFA wraps |extra| into [−π, π] (psi ≥ 0: only psi > π changes it): extra·(1 − 2π/psi)
      const wrap = psi > Math.PI;
      const sc = wrap ? 1 - (2 * Math.PI) / psi : 1;
      // E = ∂extra_wrapped/∂θ = sc·D + (2π/psi³)·e·(e∘D)ᵀ when wrapped
      for (let p = 0; p < 3; p++) {
        const outside = fm[3 + p] && th[p] !== lawful[p];
        if (outside) KR[p] = s.blocStiffnessRot;
        g[p] = outside ? e[p] * sc * KR[p] : th[p] * KR[p];
        for (let q = 0; q < 3; q++) {
          let dq: number;
          if (outside) {
            let E = 0;
            for (let m = 0; m < 3; m++) {
              const Epm = (p === m ? sc * D[m] : 0) + (wrap ? ((2 * Math.PI) / (psi * psi * psi)) * e[p] * e[m] * D[m] : 0);
              E += Epm * Jinv[3 * m + q];
            }
            dq = KR[p] * E;
          } else dq = KR[p] * Jinv[3 * p + q];
          G[3 * p + q] = dq;
        }
      }
    }
    // f_R = R1·g;  G_w = R1·G·R1ᵀ
    const fRx = R[0] * g[0] + R[1] * g[1] + R[2] * g[2];
    const fRy = R[3] * g[0] + R[4] * g[1] + R[5] * g[2];
    const fRz = R[6] * g[0] + R[7] * g[1] + R[8] * g[2];
    w[3] = fRx;
    w[4] = fRy;
    w[5] = fRz;
    const GR = tmp9,
      Gw = Gw9;
    for (let p = 0; p < 3; p++)
      for (let q = 0; q < 3; q++) GR[3 * p + q] = G[3 * p] * R[3 * q] + G[3 * p + 1] * R[3 * q + 1] + G[3 * p + 2] * R[3 * q + 2];
    for (let p = 0; p < 3; p++)
      for (let q = 0; q < 3; q++) Gw[3 * p + q] = R[3 * p] * GR[q] + R[3 * p + 1] * GR[3 + q] + R[3 * p + 2] * GR[6 + q];
    // block rows: f1_T, f1_R; columns: c1, θ1, c2, θ2
    const B = this.blocks,
      bo = 72 * i;
    B.fill(0, bo, bo + 72);
    // A·[d]×: column q = A·(d × e_q)
    const d = d3;
    d[0] = dx;
    d[1] = dy;
    d[2] = dz;
    for (let p = 0; p < 3; p++) {
      for (let q = 0; q < 3; q++) {
        B[bo + 12 * p + q] = -A[3 * p + q];
        B[bo + 12 * p + 6 + q] = A[3 * p + q];
      }
    }
    const fT = fT3;
    fT[0] = fTx;
    fT[1] = fTy;
    fT[2] = fTz;
    const fR = fR3;
    fR[0] = fRx;
    fR[1] = fRy;
    fR[2] = fRz;
    for (let q = 0; q < 3; q++) {
      // e_q × d
      const dq0 = q === 1 ? d[2] : q === 2 ? -d[1] : 0;
      const dq1 = q === 2 ? d[0] : q === 0 ? -d[2] : 0;
      const dq2 = q === 0 ? d[1] : q === 1 ? -d[0] : 0;
      for (let p = 0; p < 3; p++) {
        // ∂f_T/∂θ1 = −[f_T]× + A·[d]×: column q = e_q × f_T − A·(e_q × d);  ∂f_R/∂θ1 ∋ −[f_R]× likewise
        const crossT = crossComponent(fT, q, p);
        const crossR = crossComponent(fR, q, p);
        B[bo + 12 * p + 3 + q] = crossT - (A[3 * p] * dq0 + A[3 * p + 1] * dq1 + A[3 * p + 2] * dq2);
        B[bo + 12 * (3 + p) + 3 + q] = -Gw[3 * p + q] + crossR;
        B[bo + 12 * (3 + p) + 9 + q] = Gw[3 * p + q];
      }
    }
  }

  /** df1 += k·K1·dx, df2 −= the same; b·B: df1 += b·kd·(dv2 − dv1). */
  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const d1 = df[0],
      d2 = df[df.length - 1],
      x1 = dx[0],
      x2 = dx[dx.length - 1],
      B = this.blocks,
      k = this.kFactorWithRayleigh(kFactor, bFactor);
    for (let i = 0; i < this.m1.length; i++) {
      const a = 6 * this.m1[i],
        b = 6 * this.m2[i],
        bo = 72 * i,
        kd = this.kd[i];
      for (let p = 0; p < 6; p++) {
        let s = 0;
        for (let q = 0; q < 6; q++) s += B[bo + 12 * p + q] * x1[a + q] + B[bo + 12 * p + 6 + q] * x2[b + q];
        const v = k * s + bFactor * kd * (x2[b + p] - x1[a + p]);
        d1[a + p] += v;
        d2[b + p] -= v;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const B = this.blocks,
      off2 = this.states.length === 2 ? this.states[0].size * 6 : 0;
    for (let i = 0; i < this.m1.length; i++) {
      const a = 6 * this.m1[i],
        b = off2 + 6 * this.m2[i],
        bo = 72 * i;
      for (let p = 0; p < 6; p++) {
        for (let q = 0; q < 6; q++) {
          const k1 = kFactor * B[bo + 12 * p + q],
            k2 = kFactor * B[bo + 12 * p + 6 + q];
          acc.add(a + p, a + q, k1);
          acc.add(a + p, b + q, k2);
          acc.add(b + p, a + q, -k1);
          acc.add(b + p, b + q, -k2);
        }
      }
    }
  }

  override addBToMatrix(acc: MatrixAccumulator, bFactor: number): void {
    const off2 = this.states.length === 2 ? this.states[0].size * 6 : 0;
    for (let i = 0; i < this.m1.length; i++) {
      const a = 6 * this.m1[i],
        b = off2 + 6 * this.m2[i],
        v = bFactor * this.kd[i];
      for (let p = 0; p < 6; p++) {
        acc.add(a + p, a + p, -v);
        acc.add(a + p, b + p, v);
        acc.add(b + p, a + p, v);
        acc.add(b + p, b + p, -v);
      }
    }
  }
}

const new3x3Scratch = new Float64Array(9);
const theta3 = new Float64Array(3);
const kr3 = new Float64Array(3);
const g3 = new Float64Array(3);
const G9 = new Float64Array(9);
const Jinv = new Float64Array(9);
const dphi3 = new Float64Array(3);
const gu6 = new Float64Array(6);
const u3 = new Float64Array(3);
const lawful3 = new Float64Array(3);
const mask3 = new Float64Array(3);
const extra3 = new Float64Array(3);
const tmp9 = new Float64Array(9);
const Gw9 = new Float64Array(9);
const d3 = new Float64Array(3);
const fT3 = new Float64Array(3);
const fR3 = new Float64Array(3);
const rot9a = new Float64Array(9);
const rot9b = new Float64Array(9);
let rotToggle = false;

/** Component p of e_q × v. */
function crossComponent(v: Float64Array, q: number, p: number): number {
  // e_q × v = (δ_q1·v2 − δ_q2·v1, δ_q2·v0 − δ_q0·v2, δ_q0·v1 − δ_q1·v0)
  if (p === 0) return (q === 1 ? v[2] : 0) - (q === 2 ? v[1] : 0);
  if (p === 1) return (q === 2 ? v[0] : 0) - (q === 0 ? v[2] : 0);
  return (q === 0 ? v[1] : 0) - (q === 1 ? v[0] : 0);
}

/** Row-major rotation matrix of a unit quaternion (two alternating scratch buffers). */
function rotationMatrix(x: number, y: number, z: number, w: number): Float64Array {
  rotToggle = !rotToggle;
  const R = rotToggle ? rot9a : rot9b;
  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - z * w);
  R[2] = 2 * (x * z + y * w);
  R[3] = 2 * (x * y + z * w);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - x * w);
  R[6] = 2 * (x * z - y * w);
  R[7] = 2 * (y * z + x * w);
  R[8] = 1 - 2 * (x * x + y * y);
  return R;
}

/**
 * The inverse of SO(3)'s left Jacobian at θ: δθ = J_l⁻¹(θ)·ω for log(exp(ω)·exp(θ)).
 * J_l⁻¹ = I − ½[θ]× + (1/|θ|² − (1 + cos|θ|)/(2|θ|·sin|θ|))·[θ]×²  (series below 1e-4).
 */
function jlInverse(out: Float64Array, th: Float64Array): void {
  const a = th[0],
    b = th[1],
    c = th[2];
  const t2 = a * a + b * b + c * c,
    t = Math.sqrt(t2);
  const k = t < 1e-4 ? 1 / 12 + t2 / 720 : 1 / t2 - (1 + Math.cos(t)) / (2 * t * Math.sin(t));
  // [θ]× = [[0, −c, b], [c, 0, −a], [−b, a, 0]];  [θ]×² = θθᵀ − t²·I
  out[0] = 1 + k * (a * a - t2);
  out[1] = 0.5 * c + k * a * b;
  out[2] = -0.5 * b + k * a * c;
  out[3] = -0.5 * c + k * a * b;
  out[4] = 1 + k * (b * b - t2);
  out[5] = 0.5 * a + k * b * c;
  out[6] = 0.5 * b + k * a * c;
  out[7] = -0.5 * a + k * b * c;
  out[8] = 1 + k * (c * c - t2);
}

/** SOFA's pivot cases: exactly one free rotation axis a with θ_a strictly inside its limits; −1 otherwise. */
function pivotAxis(fm: JointSpring['freeMovements'], th: Float64Array, lim: JointSpring['limitAngles']): number {
  for (let a = 0; a < 3; a++) {
    if (fm[3 + a] && !fm[3 + ((a + 1) % 3)] && !fm[3 + ((a + 2) % 3)] && th[a] > lim[2 * a] && th[a] < lim[2 * a + 1]) return a;
  }
  return -1;
}
