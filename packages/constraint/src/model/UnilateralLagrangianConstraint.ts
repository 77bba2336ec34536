import {
  Indices,
  Real,
  RealArray,
  contactPointPosition,
  copyContactSlot,
  rotateByQuaternion,
  sofaComponent,
  nonNegative,
  type BaseMechanicalState,
  type ConstraintBlockInfo,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type ConstraintResolution,
  type ContactPointSet,
  type LagrangianContactConstraint,
  CONTACT_SLOT,
} from '@sofa-ts/core';
import { PairLagrangianConstraint } from './pair-constraint.js';
import { AugmentedLagrangianFrictionResolution } from './augmented-lagrangian-resolution.js';
import { FrictionContactResolution, UnilateralResolution } from './resolutions.js';

/** The fields of UnilateralLagrangianConstraint a checkpoint saves: its contacts, their status and ids. */
export const UNILATERAL_CHECKPOINT_FIELDS: readonly string[] = [
  'count',
  'side1',
  'side2',
  'nrm',
  'tan',
  'bin',
  'P',
  'Q',
  'dist',
  'fric',
  'row',
  'cid',
  'lid',
  'dfreeN',
  'status',
  'ids',
  'yetIntegrated',
  'customTolerance',
  'fedByCode',
];

/**
 * SOFA's UnilateralLagrangianConstraint: contacts between points of object1 (Q, side 1) and of
 * object2 (P, side 2) along a normal n (from side 1 to side 2) with a rest distance d0:
 *   row n:  δ_n = (P_free − Q_free)·n − d0 ≥ 0,  λ_n ≥ 0,  δ_n·λ_n = 0   (Signorini)
 *   rows t, s (μ > 0): the tangential free displacement, with ‖λ_t‖ ≤ μ·λ_n   (Coulomb)
 * J: +n (t, s) on P's points, −n on Q's; a point is a fixed combination of points of a Vec3 state
 * or a point fixed in a Rigid3 frame (entry (n, r × n), r = R·l), see ContactPointSet.
 * The tangent frame is SOFA's: t = (n_z, n_x, n_y), s = n × t normalised, t = −n × s.
 * The tangential free displacement is measured from the positions P, Q at the time of the contact,
 * over the part of the motion after the surfaces met (SOFA's interpolation on δ).
 *
 * Contacts come from a friction contact response (addContact), or from the scene: with
 * first_point / second_point set, each pair (first_point[i] of object1, second_point[i] of object2)
 * is a contact of normal normals[i] (or normals[0]), rest distance contactDistance and friction mu,
 * taken again at every step (sofa-ts's Data; SOFA's component has none).
 */
@sofaComponent({
  name: 'UnilateralLagrangianConstraint',
  aliases: ['UnilateralInteractionConstraint', 'UnilateralInteractionLagrangianConstraint'],
  category: 'LagrangianConstraint',
  module: 'Sofa.Component.Constraint.Lagrangian.Model',
  description: 'Unilateral contacts with Coulomb friction between points of two objects (Lagrange multipliers).',
  templates: ['Vec3d'],
})
export class UnilateralLagrangianConstraint extends PairLagrangianConstraint implements LagrangianContactConstraint {
  readonly firstPoint = this.initData({
    name: 'first_point',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points of object1 in contact (sofa-ts: contacts given in the scene)',
  });
  readonly secondPoint = this.initData({
    name: 'second_point',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points of object2 in contact with them',
  });
  readonly normals = this.initData({
    name: 'normals',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'contact normals from object1 towards object2, one per contact or one for all (unit vectors)',
  });
  readonly contactDistance = this.initData({
    name: 'contactDistance',
    type: Real,
    default: 0,
    unit: 'm',
    help: 'rest distance of the scene contacts along their normal',
  });
  readonly mu = this.initData({
    name: 'mu',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'friction coefficient of the scene contacts (0: frictionless, one row per contact)',
  });

  /** Contacts, structure of arrays (capacity grows by doubling). */
  protected count = 0;
  private side1 = { n: new Int8Array(8), idx: new Uint32Array(8 * CONTACT_SLOT), w: new Float64Array(8 * CONTACT_SLOT) };
  private side2 = { n: new Int8Array(8), idx: new Uint32Array(8 * CONTACT_SLOT), w: new Float64Array(8 * CONTACT_SLOT) };
  /** (3 per contact) normal, tangents t and s, positions P (side 2) and Q (side 1) at the contact. */
  private nrm = new Float64Array(24);
  private tan = new Float64Array(24);
  private bin = new Float64Array(24);
  private P = new Float64Array(24);
  private Q = new Float64Array(24);
  /** (per contact) rest distance, friction, first row, ids, free normal violation. */
  private dist = new Float64Array(8);
  protected fric = new Float64Array(8);
  protected row = new Int32Array(8);
  private cid = new Float64Array(8);
  private lid = new Float64Array(8);
  private dfreeN = new Float64Array(8);
  /** 1 when the contact was closed (λ_n > 0) after the last solve. */
  protected status = new Uint8Array(8);
  private ids = new Float64Array(8);
  private yetIntegrated = false;
  protected customTolerance = 0;
  /** Penalty ε of the augmented-Lagrangian law (SOFA's AugmentedLagrangianConstraint); undefined: Coulomb's projection. */
  private augmentedEpsilon: number | undefined;
  /** True when the contacts are fed by code (a response); else the scene Data give them. */
  private fedByCode = false;
  /** Checkpoint: the contacts (kept from the detection of the step), their status and ids. */
  readonly checkpointFields: readonly string[] = UNILATERAL_CHECKPOINT_FIELDS;
  private readonly scratch = new Float64Array(6);
  /** One-point contact slots for the scene contacts. */
  private readonly dataSide1 = { n: Int8Array.of(1), idx: new Uint32Array(CONTACT_SLOT), w: Float64Array.of(1, 0, 0, 0, 0, 0, 0, 0) };
  private readonly dataSide2 = { n: Int8Array.of(1), idx: new Uint32Array(CONTACT_SLOT), w: Float64Array.of(1, 0, 0, 0, 0, 0, 0, 0) };

  /** Number of contacts of the step. */
  get contactCount(): number {
    return this.count;
  }

  setCustomTolerance(tolerance: number): void {
    this.customTolerance = tolerance;
  }

  /** SOFA's AugmentedLagrangianConstraint: frictional contacts take the augmented-Lagrangian law of penalty ε. */
  setAugmentedLagrangian(epsilon: number): void {
    this.augmentedEpsilon = epsilon;
  }

  clearContacts(reserve: number): void {
    this.fedByCode = true;
    this.count = 0;
    this.grow(reserve);
  }

  addContact(
    side1: ContactPointSet,
    slot1: number,
    side2: ContactPointSet,
    slot2: number,
    nx: number,
    ny: number,
    nz: number,
    distance: number,
    mu: number,
    id: number,
    localId: number,
  ): void {
    const c = this.count++;
    this.grow(this.count);
    copyContactSlot(this.side1, c, side1, slot1);
    copyContactSlot(this.side2, c, side2, slot2);
    const o = 3 * c;
    const n = this.nrm,
      t = this.tan,
      s = this.bin;
    n[o] = nx;
    n[o + 1] = ny;
    n[o + 2] = nz;
    // t = (n_z, n_x, n_y); s = n × t, normalised; t = −n × s
    let tx = nz,
      ty = nx,
      tz = ny;
    let sx = ny * tz - nz * ty,
      sy = nz * tx - nx * tz,
      sz = nx * ty - ny * tx;
    const sn = Math.sqrt(sx * sx + sy * sy + sz * sz);
    sx /= sn;
    sy /= sn;
    sz /= sn;
    tx = -(ny * sz - nz * sy);
    ty = -(nz * sx - nx * sz);
    tz = -(nx * sy - ny * sx);
    t[o] = tx;
    t[o + 1] = ty;
    t[o + 2] = tz;
    s[o] = sx;
    s[o + 1] = sy;
    s[o + 2] = sz;
    contactPointPosition(this.P, o, this.state2.x, this.side2, c);
    contactPointPosition(this.Q, o, this.state1.x, this.side1, c);
    this.dist[c] = distance;
    this.fric[c] = mu;
    this.cid[c] = id;
    this.lid[c] = localId;
  }

  /** Contacts from the scene Data (first_point, second_point, normals, contactDistance, mu). */
  private contactsFromData(): void {
    const m1 = this.firstPoint.value,
      m2 = this.secondPoint.value;
    const nrm = this.normals.value;
    const n = Math.min(m1.length, m2.length);
    if (n > 0 && nrm.length === 0)
      throw this.error('normals are needed for the contacts of first_point/second_point (one unit vector per contact, or one for all)');
    this.count = 0;
    this.grow(n);
    const a = this.dataSide1,
      b = this.dataSide2;
    for (let i = 0; i < n; i++) {
      if (m1[i] >= this.state1.size)
        throw this.error(`first_point ${m1[i]} is out of range (${this.state1.describe()} has ${this.state1.size} points)`);
      if (m2[i] >= this.state2.size)
        throw this.error(`second_point ${m2[i]} is out of range (${this.state2.describe()} has ${this.state2.size} points)`);
      const k = 3 * Math.min(i, nrm.length / 3 - 1);
      a.idx[0] = m1[i];
      b.idx[0] = m2[i];
      this.addContact(a, 0, b, 0, nrm[k], nrm[k + 1], nrm[k + 2], this.contactDistance.value, this.mu.value, i + 1, i);
    }
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    if (!this.fedByCode) this.contactsFromData();
    let r = firstRow;
    const s1 = this.state1,
      s2 = this.state2;
    for (let c = 0; c < this.count; c++) {
      this.row[c] = r;
      const friction = this.fric[c] > 0;
      const o = 3 * c;
      this.addRow(J, s1, this.side1, c, r, this.nrm, o, -1);
      this.addRow(J, s2, this.side2, c, r, this.nrm, o, 1);
      if (friction) {
        this.addRow(J, s1, this.side1, c, r + 1, this.tan, o, -1);
        this.addRow(J, s2, this.side2, c, r + 1, this.tan, o, 1);
        this.addRow(J, s1, this.side1, c, r + 2, this.bin, o, -1);
        this.addRow(J, s2, this.side2, c, r + 2, this.bin, o, 1);
        r += 3;
      } else r += 1;
    }
    return r - firstRow;
  }

  /** Entries of one row on one side's contact point: w_k·dir on its points, or (dir, r × dir) on its frame. */
  private addRow(
    J: ConstraintJacobianBuilder,
    state: BaseMechanicalState,
    side: ContactPointSet,
    c: number,
    row: number,
    dir: Float64Array,
    o: number,
    sign: number,
  ): void {
    const n = side.n[c];
    const b = CONTACT_SLOT * c;
    const e = this.scratch;
    if (n < 0) {
      const x = state.x;
      const f = side.idx[b];
      const xo = 7 * f;
      // r = R·l
      rotateByQuaternion(e, 3, x[xo + 3], x[xo + 4], x[xo + 5], x[xo + 6], side.w[b], side.w[b + 1], side.w[b + 2]);
      const rx = e[3],
        ry = e[4],
        rz = e[5];
      const dx = dir[o],
        dy = dir[o + 1],
        dz = dir[o + 2];
      e[0] = dx;
      e[1] = dy;
      e[2] = dz;
      e[3] = ry * dz - rz * dy;
      e[4] = rz * dx - rx * dz;
      e[5] = rx * dy - ry * dx;
      J.add(state, row, f, e, sign);
      return;
    }
    for (let k = 0; k < n; k++) {
      const wk = side.w[b + k];
      e[0] = dir[o] * wk;
      e[1] = dir[o + 1] * wk;
      e[2] = dir[o + 2] * wk;
      J.add(state, row, side.idx[b + k], e, sign);
    }
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder, dt: number): void {
    if (order === 'vel') {
      this.velocityViolation(out, dt);
      return;
    }
    const pf = this.scratch;
    const nrm = this.nrm,
      tan = this.tan,
      bin = this.bin;
    for (let c = 0; c < this.count; c++) {
      const o = 3 * c;
      contactPointPosition(pf, 0, this.state2.xFree, this.side2, c);
      contactPointPosition(pf, 3, this.state1.xFree, this.side1, c);
      // PP = Pfree − P, QQ = Qfree − Q
      const ppx = pf[0] - this.P[o],
        ppy = pf[1] - this.P[o + 1],
        ppz = pf[2] - this.P[o + 2];
      const qqx = pf[3] - this.Q[o],
        qqy = pf[4] - this.Q[o + 1],
        qqz = pf[5] - this.Q[o + 2];
      const refDist = Math.sqrt(ppx * ppx + ppy * ppy + ppz * ppz) + Math.sqrt(qqx * qqx + qqy * qqy + qqz * qqz);
      const nx = nrm[o],
        ny = nrm[o + 1],
        nz = nrm[o + 2];
      const d0 = this.dist[c];
      const dfree = (pf[0] - pf[3]) * nx + (pf[1] - pf[4]) * ny + (pf[2] - pf[5]) * nz - d0;
      const delta = (this.P[o] - this.Q[o]) * nx + (this.P[o + 1] - this.Q[o + 1]) * ny + (this.P[o + 2] - this.Q[o + 2]) * nz - d0;
      let dt_ = 0,
        ds_ = 0;
      if (this.measuredFromContact(delta, dfree, refDist)) {
        dt_ = tangential(ppx, ppy, ppz, qqx, qqy, qqz, tan, o);
        ds_ = tangential(ppx, ppy, ppz, qqx, qqy, qqz, bin, o);
      } else if (Math.abs(delta - dfree) > 0.001 * delta) {
        const t = delta / (delta - dfree);
        if (t > 0 && t < 1) {
          // from the points where the surfaces met: Pt = P·(1 − t) + Pfree·t, Qt likewise
          const P = this.P,
            Q = this.Q,
            a = 1 - t;
          const px = pf[0] - (P[o] * a + pf[0] * t),
            py = pf[1] - (P[o + 1] * a + pf[1] * t),
            pz = pf[2] - (P[o + 2] * a + pf[2] * t);
          const qx = pf[3] - (Q[o] * a + pf[3] * t),
            qy = pf[4] - (Q[o + 1] * a + pf[4] * t),
            qz = pf[5] - (Q[o + 2] * a + pf[5] * t);
          dt_ = tangential(px, py, pz, qx, qy, qz, tan, o);
          ds_ = tangential(px, py, pz, qx, qy, qz, bin, o);
        } else if (dfree < 0) {
          dt_ = tangential(ppx, ppy, ppz, qqx, qqy, qqz, tan, o);
          ds_ = tangential(ppx, ppy, ppz, qqx, qqy, qqz, bin, o);
        }
      } else {
        dt_ = tangential(ppx, ppy, ppz, qqx, qqy, qqz, tan, o);
        ds_ = tangential(ppx, ppy, ppz, qqx, qqy, qqz, bin, o);
      }
      const r = this.row[c];
      out[r] = dfree;
      this.dfreeN[c] = dfree;
      if (this.fric[c] > 0) {
        out[r + 1] = dt_;
        out[r + 2] = ds_;
      }
    }
  }

  /**
   * True when the tangential free displacement is measured over the whole motion from the contact
   * positions P, Q: the gap at the contact (δ) and at the free positions are both negligible
   * (below 1e-5 of the points' motion), as SOFA's UnilateralLagrangianConstraint tests.
   */
  protected measuredFromContact(delta: number, dfree: number, refDist: number): boolean {
    return Math.abs(delta) < 0.00001 * refDist && Math.abs(dfree) < 0.00001 * refDist;
  }

  /** 'vel' order: δ_n = (v_P − v_Q)·n + ((P − Q)·n − d0)/dt, δ_t,s = (v_P − v_Q)·t, s. */
  private velocityViolation(out: Float64Array, dt: number): void {
    const e = this.scratch;
    for (let c = 0; c < this.count; c++) {
      const o = 3 * c;
      contactPointPosition(e, 0, this.state2.x, this.side2, c);
      contactPointPosition(e, 3, this.state1.x, this.side1, c);
      const gx = (e[0] - e[3]) / dt,
        gy = (e[1] - e[4]) / dt,
        gz = (e[2] - e[5]) / dt;
      pointVelocity(e, 0, this.state2, this.side2, c);
      pointVelocity(e, 3, this.state1, this.side1, c);
      const vx = e[0] - e[3],
        vy = e[1] - e[4],
        vz = e[2] - e[5];
      const n = this.nrm,
        t = this.tan,
        s = this.bin;
      const r = this.row[c];
      out[r] = (vx + gx) * n[o] + (vy + gy) * n[o + 1] + (vz + gz) * n[o + 2] - this.dist[c] / dt;
      if (this.fric[c] > 0) {
        out[r + 1] = vx * t[o] + vy * t[o + 1] + vz * t[o + 2];
        out[r + 2] = vx * s[o] + vy * s[o + 1] + vz * s[o + 2];
      }
    }
  }

  getConstraintResolution(out: Array<ConstraintResolution | undefined>): void {
    if (this.status.length < this.count) this.status = new Uint8Array(2 * this.count);
    this.status.fill(0, 0, this.count);
    for (let c = 0; c < this.count; c++) {
      const r = this.row[c];
      const mu = this.fric[c];
      out[r] =
        mu > 0
          ? this.augmentedEpsilon !== undefined
            ? new AugmentedLagrangianFrictionResolution(mu, this.augmentedEpsilon, this.customTolerance, this.status, c)
            : new FrictionContactResolution(mu, this.customTolerance, this.status, c)
          : new UnilateralResolution();
    }
  }

  override getConstraintInfo(out: ConstraintBlockInfo[]): void {
    if (this.count === 0) return;
    if (this.ids.length < this.count) this.ids = new Float64Array(2 * this.count);
    // SOFA reports −id the first time, so that a new contact never takes the force of an older one;
    // −(id + 1) keeps that true for id 0 too (SOFA's ids are never 0 once other contacts were created)
    for (let c = 0; c < this.count; c++) this.ids[c] = this.yetIntegrated ? this.cid[c] : -(this.cid[c] + 1);
    this.yetIntegrated = true;
    out.push({ first: this.row[0], nbLines: this.fric[0] > 0 ? 3 : 1, ids: this.ids.subarray(0, this.count) });
  }

  /** True when some contact was violated at the free positions (SOFA's isActive). */
  isActive(): boolean {
    for (let c = 0; c < this.count; c++) if (this.dfreeN[c] < 0) return true;
    return false;
  }

  /** The contacts as a viewer draws them: positions P (side 2) and Q (side 1) at detection and the normals (count × 3), the first constraint row of each (count). */
  get contactGeometry(): { count: number; P: Float64Array; Q: Float64Array; normal: Float64Array; row: Int32Array } {
    return { count: this.count, P: this.P, Q: this.Q, normal: this.nrm, row: this.row };
  }

  /** 1 for each contact closed after the last solve (λ_n > 0). */
  get contactStatus(): Uint8Array {
    return this.status.subarray(0, this.count);
  }

  protected grow(n: number): void {
    if (this.dist.length >= n) return;
    let cap = this.dist.length;
    while (cap < n) cap *= 2;
    const g = <T extends Float64Array | Int32Array | Uint32Array | Int8Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (k: number) => T)(size);
      b.set(a);
      return b;
    };
    for (const side of [this.side1, this.side2]) {
      side.n = g(side.n, cap);
      side.idx = g(side.idx, CONTACT_SLOT * cap);
      side.w = g(side.w, CONTACT_SLOT * cap);
    }
    this.nrm = g(this.nrm, 3 * cap);
    this.tan = g(this.tan, 3 * cap);
    this.bin = g(this.bin, 3 * cap);
    this.P = g(this.P, 3 * cap);
    this.Q = g(this.Q, 3 * cap);
    this.dist = g(this.dist, cap);
    this.fric = g(this.fric, cap);
    this.row = g(this.row, cap);
    this.cid = g(this.cid, cap);
    this.lid = g(this.lid, cap);
    this.dfreeN = g(this.dfreeN, cap);
  }
}

/** (a·dir) − (b·dir) for the two displacement vectors (SOFA's dot(PP, t) − dot(QQ, t)). */
function tangential(ax: number, ay: number, az: number, bx: number, by: number, bz: number, dir: Float64Array, o: number): number {
  return ax * dir[o] + ay * dir[o + 1] + az * dir[o + 2] - (bx * dir[o] + by * dir[o + 1] + bz * dir[o + 2]);
}

/** out[o..o+3) = free velocity of the contact point of slot c. */
function pointVelocity(out: Float64Array, o: number, state: BaseMechanicalState, side: ContactPointSet, c: number): void {
  const n = side.n[c];
  const b = CONTACT_SLOT * c;
  const v = state.vFree;
  if (n < 0) {
    const f = side.idx[b];
    const x = state.x;
    const xo = 7 * f,
      vo = 6 * f;
    rotateByQuaternion(out, o, x[xo + 3], x[xo + 4], x[xo + 5], x[xo + 6], side.w[b], side.w[b + 1], side.w[b + 2]);
    const rx = out[o],
      ry = out[o + 1],
      rz = out[o + 2];
    const wx = v[vo + 3],
      wy = v[vo + 4],
      wz = v[vo + 5];
    out[o] = v[vo] + wy * rz - wz * ry;
    out[o + 1] = v[vo + 1] + wz * rx - wx * rz;
    out[o + 2] = v[vo + 2] + wx * ry - wy * rx;
    return;
  }
  let px = 0,
    py = 0,
    pz = 0;
  for (let k = 0; k < n; k++) {
    const i = 3 * side.idx[b + k];
    const w = side.w[b + k];
    px += w * v[i];
    py += w * v[i + 1];
    pz += w * v[i + 2];
  }
  out[o] = px;
  out[o + 1] = py;
  out[o + 2] = pz;
}
