import {
  BaseForceField,
  Bool,
  DataParseError,
  isMechanicalState,
  printNumber,
  Real,
  sofaComponent,
  Str,
  tokens,
  type BaseMechanicalState,
  type DataType,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { rigidInteractionStates } from './rigid-interaction-states.js';

/** One gear of SOFA's GearSpringForceField, as its `spring` Data reads it. */
export interface GearSpring {
  /** Parent (pivot) and child frames on object1, on object2. */
  p1: number;
  m1: number;
  p2: number;
  m2: number;
  /** The free (gear) rotation axis of each child, 0 = x, 1 = y, 2 = z, in its own frame. */
  freeAxis: [number, number];
  hardStiffnessTrans: number;
  softStiffnessRot: number;
  hardStiffnessRot: number;
  kd: number;
  ratio: number;
}

const EXPECTED = "gears 'BEGIN_SPRING p1 m1 p2 m2 [AXIS a1 a2] [KS_T k] [KS_R soft hard] [KD kd] [RATIO r] END_SPRING' ...";

/** SOFA's GearSpring stream syntax; the defaults are those of its default constructor (kd = 10000 too). */
export const GearSprings: DataType<GearSpring[]> = {
  name: 'vector<GearSpring<Rigid3d>>',
  parse(text: string): GearSpring[] {
    const t = tokens(text);
    const out: GearSpring[] = [];
    let i = 0;
    const num = (what: string): number => {
      const s = t[i++];
      if (s === undefined) throw new DataParseError(EXPECTED, `${what}: the text ended`);
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new DataParseError(EXPECTED, `${what}: got '${s}'`);
      return Number(s);
    };
    const index = (what: string, max = Infinity): number => {
      const v = num(what);
      if (!Number.isInteger(v) || v < 0 || v > max) throw new DataParseError(EXPECTED, `${what}: got '${t[i - 1]}'`);
      return v;
    };
    while (i < t.length) {
      if (t[i] !== 'BEGIN_SPRING') throw new DataParseError(EXPECTED, `got '${t[i]}' where BEGIN_SPRING was expected`);
      i++;
      const s: GearSpring = {
        p1: index('p1'),
        m1: index('m1'),
        p2: index('p2'),
        m2: index('m2'),
        freeAxis: [0, 0],
        hardStiffnessTrans: 10000,
        softStiffnessRot: 10000,
        hardStiffnessRot: 10000,
        kd: 10000,
        ratio: 1,
      };
      for (;;) {
        const key = t[i++];
        if (key === undefined) throw new DataParseError(EXPECTED, 'END_SPRING is missing');
        if (key === 'END_SPRING') break;
        switch (key) {
          case 'AXIS':
            s.freeAxis = [index('AXIS', 2), index('AXIS', 2)];
            break;
          case 'KS_T':
            s.hardStiffnessTrans = num('KS_T');
            break;
          case 'KS_R':
            s.softStiffnessRot = num('KS_R');
            s.hardStiffnessRot = num('KS_R');
            break;
          case 'KD':
            s.kd = num('KD');
            break;
          case 'RATIO':
            s.ratio = num('RATIO');
            break;
          default:
            throw new DataParseError(EXPECTED, `unknown attribute '${key}'`);
        }
      }
      out.push(s);
    }
    return out;
  },
  print(springs: GearSpring[]): string {
    return springs
      .map(
        (s) =>
          `BEGIN_SPRING ${s.p1} ${s.m1} ${s.p2} ${s.m2}  AXIS ${s.freeAxis[0]} ${s.freeAxis[1]}  KS_T ${printNumber(s.hardStiffnessTrans)}  KS_R ${printNumber(s.softStiffnessRot)} ${printNumber(s.hardStiffnessRot)}  KD ${printNumber(s.kd)}  RATIO ${printNumber(s.ratio)}  END_SPRING`,
      )
      .join('\n');
  },
  clone: (v) => v.map((s) => ({ ...s, freeAxis: [...s.freeAxis] }) as GearSpring),
};

/**
 * SOFA's GearSpringForceField (Rigid3): gears between frames. Each gear has, on each side s, a
 * child frame m_s held on a pivot frame p_s (its own initial frame when p_s = m_s) by
 *   f_T = k_T·(c_p − c_m) + kd·(v_p − v_m),   f_R = k_R,hard·w(u_m, u_p) + kd·(ω_p − ω_m),
 * on m (and the opposite on p), u the free axes (column a_s of each rotation) and w(u, v) the
 * rotation vector taking u to v (u×v·atan2(|u×v|, u·v)/|u×v|): the pivot keeps the free axes
 * aligned and the centres together. The gear couples the angles θ_s of the children about their
 * free axes relative to their pivots (SOFA's getAngleAroundAxis: the mean signed angle of the two
 * other axes; accumulated over the steps, starting from the initial angles), with ratio r:
 *   τ = −k_R,soft·(r·θ_1 + θ_2),  torque_m1 += τ·u_m1,  torque_m2 += (τ / r)·u_m2.
 * The stiffness is SOFA's: −k_T and −R_p·diag(k_R,hard, 0 on the free axis)·R_pᵀ on the pivot's
 * relative motion, and the gear's −k_R,soft·[r·a_1a_1ᵀ, a_1a_2ᵀ; a_2a_1ᵀ, a_2a_2ᵀ/r] on the
 * children's rotations (a_s the free axes of the pivots), plus the turning of the gear torques
 * with the children's axes, −τ·[u_m]× (which SOFA leaves out): it is the exact tangent when the
 * free axes are aligned and the pivots fixed. The damping kd is explicit (SOFA emits no damping
 * matrix for it). Angles are unwrapped by 2π between steps (SOFA's code steps by M_2_PI, 2/π).
 */
@sofaComponent({
  name: 'GearSpringForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description:
    "Gears between rigid frames: pivot springs that keep each child on its pivot with one free rotation axis, and a gear ratio coupling the two children's angles about their free axes.",
  templates: ['Rigid3d'],
})
export class GearSpringForceField extends BaseForceField {
  readonly springs = this.initData({
    name: 'spring',
    type: GearSprings,
    default: [],
    help: 'gears: pivot and child on each object, free axes, stiffnesses, damping, ratio',
  });
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'output file name (not supported)' });
  readonly period = this.initData({ name: 'period', type: Real, default: 0, help: 'period between outputs' });
  readonly showFactorSize = this.initData({
    name: 'showFactorSize',
    type: Real,
    default: 1,
    help: 'size of the drawn axes',
    group: 'Visualization',
  });
  readonly reinitOutput = this.initData({
    name: 'reinit',
    type: Bool,
    default: false,
    help: 'flag enabling reinitialization of the output file at each timestep (the output file is not supported)',
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

  /** Checkpoint: the accumulated gear angles and the pivot frames. */
  readonly checkpointFields = ['angles', 'ini'] as const;
  private states: BaseMechanicalState[] = [];
  /** Per gear: accumulated angle and previous angle of each side (θ1, prev1, θ2, prev2). */
  private angles = new Float64Array(0);
  /** Per gear and side: the pivot frame used (7 numbers; the initial child frame when p = m). */
  private ini = new Float64Array(0);
  /** Per gear: its 24 × 24 stiffness on (m1, p1, m2, p2), row-major. */
  private K = new Float64Array(0);
  private readonly f24 = new Float64Array(24);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    this.states = rigidInteractionStates(this, this.object1, this.object2);
    if (this.filename.value !== '') throw this.error("'filename' (writing the gear angles to a file) is not supported");
    this.springs.value.forEach((s, i) => {
      if (!(s.ratio !== 0 && Number.isFinite(s.ratio)))
        throw this.error(`spring ${i}: RATIO must be a non-zero number (got ${s.ratio}): the second gear's torque is τ/ratio`);
    });
  }

  /** SOFA's reinit (at bwdInit): the initial angles and pivot frames. */
  override bwdInit(): void {
    const s1 = this.object1.get()!,
      s2 = this.object2.get()!;
    const sp = this.springs.value,
      n = sp.length;
    this.angles = new Float64Array(4 * n);
    this.ini = new Float64Array(14 * n);
    this.K = new Float64Array(576 * n);
    for (let i = 0; i < n; i++) {
      const s = sp[i];
      for (const [side, st, p, m] of [
        [0, s1, s.p1, s.m1],
        [1, s2, s.p2, s.m2],
      ] as const) {
        if (p >= st.size || m >= st.size)
          throw this.error(`spring ${i}: frame ${Math.max(p, m)} is out of range (${st.describe()} has ${st.size} frames)`);
        const x = st.x,
          o = 14 * i + 7 * side;
        if (p === m) this.ini.set(x.subarray(7 * p, 7 * p + 7), o);
        const a = p === m ? 0 : angleAroundAxis(x, 7 * p, x, 7 * m, s.freeAxis[side]);
        this.angles[4 * i + 2 * side] = a;
        this.angles[4 * i + 2 * side + 1] = a;
      }
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const sp = this.springs.value;
    const f1 = f[0],
      f2 = f[f.length - 1],
      x1 = x[0],
      x2 = x[x.length - 1],
      v1 = v[0],
      v2 = v[v.length - 1];
    const ini = this.ini,
      ang = this.angles;
    for (let i = 0; i < sp.length; i++) {
      const s = sp[i];
      const K = this.K.subarray(576 * i, 576 * i + 576);
      K.fill(0);
      const axes = gearAxes;
      for (let side = 0; side < 2; side++) {
        const xs = side === 0 ? x1 : x2,
          vs = side === 0 ? v1 : v2,
          fs = side === 0 ? f1 : f2;
        const p = side === 0 ? s.p1 : s.p2,
          m = side === 0 ? s.m1 : s.m2,
          ax = s.freeAxis[side];
        const io = 14 * i + 7 * side;
        if (p !== m) ini.set(xs.subarray(7 * p, 7 * p + 7), io);
        const c = 7 * m,
          mv = 6 * m;
        // pivot: translation and alignment of the free axes
        const Rm = rot(xs, c, Ra),
          Rp = rot(ini, io, Rb);
        const u = u3,
          w = w3;
        for (let k = 0; k < 3; k++) {
          u[k] = Rm[3 * k + ax];
          w[k] = Rp[3 * k + ax];
        }
        vectorAngle(u, w, w);
        const F = this.f24;
        for (let k = 0; k < 3; k++) {
          const dvl = (p !== m ? vs[6 * p + k] : 0) - vs[mv + k];
          const dva = (p !== m ? vs[6 * p + 3 + k] : 0) - vs[mv + 3 + k];
          F[k] = s.hardStiffnessTrans * (ini[io + k] - xs[c + k]) + s.kd * dvl;
          F[3 + k] = s.hardStiffnessRot * w[k] + s.kd * dva;
        }
        for (let k = 0; k < 6; k++) {
          fs[mv + k] += F[k];
          if (p !== m) fs[6 * p + k] -= F[k];
        }
        // gear angle about the free axis, unwrapped and accumulated
        let a = angleAroundAxis(ini, io, xs, c, ax);
        const prev = ang[4 * i + 2 * side + 1];
        while (a - prev > Math.PI) a -= 2 * Math.PI;
        while (a - prev < -Math.PI) a += 2 * Math.PI;
        ang[4 * i + 2 * side] += a - prev;
        ang[4 * i + 2 * side + 1] = a;
        for (let k = 0; k < 3; k++) axes[3 * side + k] = Rm[3 * k + ax];
        // stiffness of the pivot: −kT·I and −A = −Rp·diag(kR, 0 on the free axis)·Rpᵀ on (dx_p − dx_m)
        const mo = 12 * side,
          po = mo + 6;
        for (let r = 0; r < 3; r++) {
          for (let q = 0; q < 3; q++) {
            let A = 0;
            for (let k = 0; k < 3; k++) if (k !== ax) A += Rp[3 * r + k] * s.hardStiffnessRot * Rp[3 * q + k];
            const T = r === q ? s.hardStiffnessTrans : 0;
            addPair(K, mo + r, mo + q, -T, po + r, po + q, p !== m);
            addPair(K, mo + 3 + r, mo + 3 + q, -A, po + 3 + r, po + 3 + q, p !== m);
          }
        }
      }
      // the gear torque τ = −kS·(r·θ1 + θ2) on the children's free axes
      const r = s.ratio;
      const tau = -(ang[4 * i] * r + ang[4 * i + 2]) * s.softStiffnessRot;
      for (let k = 0; k < 3; k++) {
        f1[6 * s.m1 + 3 + k] += axes[k] * tau;
        f2[6 * s.m2 + 3 + k] += (axes[3 + k] * tau) / r;
      }
      // the torques turn with the children's axes: d(τ·u)/dω = τ·(ω × u) = −τ·[u]×·ω (SOFA leaves this out)
      for (const [o, t] of [
        [3, tau],
        [15, tau / r],
      ] as const) {
        const ux = axes[o === 3 ? 0 : 3],
          uy = axes[o === 3 ? 1 : 4],
          uz = axes[o === 3 ? 2 : 5];
        K[24 * o + o + 1] += t * uz;
        K[24 * o + o + 2] -= t * uy;
        K[24 * (o + 1) + o] -= t * uz;
        K[24 * (o + 1) + o + 2] += t * ux;
        K[24 * (o + 2) + o] += t * uy;
        K[24 * (o + 2) + o + 1] -= t * ux;
      }
      // its stiffness on the children's rotations, with the pivots' free axes a_s
      const a1 = a13,
        a2 = a23;
      const Rp1 = rot(ini, 14 * i, Ra),
        ax1 = s.freeAxis[0];
      for (let k = 0; k < 3; k++) a1[k] = Rp1[3 * k + ax1];
      const Rp2 = rot(ini, 14 * i + 7, Rb),
        ax2 = s.freeAxis[1];
      for (let k = 0; k < 3; k++) a2[k] = Rp2[3 * k + ax2];
      for (let p = 0; p < 3; p++) {
        for (let q = 0; q < 3; q++) {
          K[24 * (3 + p) + 3 + q] += -s.softStiffnessRot * r * a1[p] * a1[q];
          K[24 * (3 + p) + 15 + q] += -s.softStiffnessRot * a1[p] * a2[q];
          K[24 * (15 + p) + 3 + q] += -s.softStiffnessRot * a2[p] * a1[q];
          K[24 * (15 + p) + 15 + q] += (-s.softStiffnessRot * a2[p] * a2[q]) / r;
        }
      }
    }
  }

  /** The frames of gear i's blocks (m1, p1, m2, p2) as dof offsets in dx[0] / dx[last]. */
  private frameOffsets(s: GearSpring): [number, number, number, number] {
    return [6 * s.m1, 6 * s.p1, 6 * s.m2, 6 * s.p2];
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const sp = this.springs.value,
      k = this.kFactorWithRayleigh(kFactor, bFactor);
    const d1 = df[0],
      d2 = df[df.length - 1],
      x1 = dx[0],
      x2 = dx[dx.length - 1];
    for (let i = 0; i < sp.length; i++) {
      const s = sp[i],
        o = this.frameOffsets(s),
        K = this.K,
        ko = 576 * i;
      const skip = [false, s.p1 === s.m1, false, s.p2 === s.m2];
      for (let br = 0; br < 4; br++) {
        if (skip[br]) continue;
        const out = br < 2 ? d1 : d2;
        for (let r = 0; r < 6; r++) {
          let acc = 0;
          for (let bc = 0; bc < 4; bc++) {
            if (skip[bc]) continue;
            const src = bc < 2 ? x1 : x2;
            for (let q = 0; q < 6; q++) acc += K[ko + 24 * (6 * br + r) + 6 * bc + q] * src[o[bc] + q];
          }
          out[o[br] + r] += k * acc;
        }
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const sp = this.springs.value,
      off2 = this.states.length === 2 ? this.states[0].size * 6 : 0;
    for (let i = 0; i < sp.length; i++) {
      const s = sp[i],
        o = this.frameOffsets(s),
        K = this.K,
        ko = 576 * i;
      const base = [o[0], o[1], off2 + o[2], off2 + o[3]];
      const skip = [false, s.p1 === s.m1, false, s.p2 === s.m2];
      for (let br = 0; br < 4; br++) {
        if (skip[br]) continue;
        for (let bc = 0; bc < 4; bc++) {
          if (skip[bc]) continue;
          for (let r = 0; r < 6; r++) {
            for (let q = 0; q < 6; q++) {
              const v = K[ko + 24 * (6 * br + r) + 6 * bc + q];
              if (v !== 0) acc.add(base[br] + r, base[bc] + q, kFactor * v);
            }
          }
        }
      }
    }
  }
}

/** K[a] += v and, when the pivot moves, the pivot's blocks: K[(m,p)] = K[(p,m)] = −v, K[(p,p)] = v. */
function addPair(K: Float64Array, r: number, q: number, v: number, pr: number, pq: number, pivot: boolean): void {
  K[24 * r + q] += v;
  if (!pivot) return;
  K[24 * r + pq] -= v;
  K[24 * pr + q] -= v;
  K[24 * pr + pq] += v;
}

const Ra = new Float64Array(9);
const Rb = new Float64Array(9);
const Rc = new Float64Array(9);
const Rd = new Float64Array(9);
const u3 = new Float64Array(3);
const w3 = new Float64Array(3);
const a13 = new Float64Array(3);
const a23 = new Float64Array(3);
const gearAxes = new Float64Array(6);
const cu = new Float64Array(3);
const cv = new Float64Array(3);
const cw = new Float64Array(3);

/** Row-major rotation matrix of the (normalised) quaternion x[o+3 .. o+7) into R. */
function rot(x: Float64Array, o: number, R: Float64Array): Float64Array {
  let qx = x[o + 3],
    qy = x[o + 4],
    qz = x[o + 5],
    qw = x[o + 6];
  const n = Math.hypot(qx, qy, qz, qw) || 1;
  qx /= n;
  qy /= n;
  qz /= n;
  qw /= n;
  R[0] = 1 - 2 * (qy * qy + qz * qz);
  R[1] = 2 * (qx * qy - qz * qw);
  R[2] = 2 * (qx * qz + qy * qw);
  R[3] = 2 * (qx * qy + qz * qw);
  R[4] = 1 - 2 * (qx * qx + qz * qz);
  R[5] = 2 * (qy * qz - qx * qw);
  R[6] = 2 * (qx * qz - qy * qw);
  R[7] = 2 * (qy * qz + qx * qw);
  R[8] = 1 - 2 * (qx * qx + qy * qy);
  return R;
}

/** out = the rotation vector taking unit u to unit v: u×v · atan2(|u×v|, u·v) / |u×v| (0 when parallel). */
function vectorAngle(u: Float64Array, v: Float64Array, out: Float64Array): void {
  const x = u[1] * v[2] - u[2] * v[1],
    y = u[2] * v[0] - u[0] * v[2],
    z = u[0] * v[1] - u[1] * v[0];
  const nw = Math.hypot(x, y, z),
    d = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const s = nw > 0 ? Math.atan2(nw, d) / nw : 1;
  out[0] = x * s;
  out[1] = y * s;
  out[2] = z * s;
}

/**
 * SOFA's getAngleAroundAxis(P, C, a): the mean, over the two axes j ≠ a, of the angle from P's
 * axis j to C's axis j, signed by its direction along P's axis a.
 */
function angleAroundAxis(xp: Float64Array, op: number, xc: Float64Array, oc: number, a: number): number {
  const P = rot(xp, op, Rc),
    C = rot(xc, oc, Rd);
  let angle = 0;
  for (let j = 0; j < 3; j++) {
    if (j === a) continue;
    for (let k = 0; k < 3; k++) {
      cu[k] = P[3 * k + j];
      cv[k] = C[3 * k + j];
    }
    vectorAngle(cu, cv, cw);
    const nrm = Math.hypot(cw[0], cw[1], cw[2]);
    angle += cw[0] * P[a] + cw[1] * P[3 + a] + cw[2] * P[6 + a] < 0 ? -nrm : nrm;
  }
  return angle / 2;
}
