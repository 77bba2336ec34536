import {
  BaseForceField,
  Bool,
  Int,
  isMechanicalState,
  Real,
  RealArray,
  contextMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { quatRotateAt } from '@sofa-ts/linalg';
import { ellipsoidContact } from './ellipsoid-contact.js';

/**
 * SOFA's InteractionEllipsoidForceField (template Vec3d,Rigid3d): penalty ellipsoids attached to
 * frame `object2_dof_index` of the rigid object2 (centre C, rotation R; its inverse with
 * object2_invert) push the points of object1. Ellipsoid e has centre c_e and radii r_e in that
 * frame (`center`, `vradius`: one Coord each, the last one repeated); a point uses the ellipsoid
 * in which its normalised distance |p ⊘ r_e| is smallest. In the frame, p = Rᵀ(x − C) and
 * u = Rᵀ·v, the law is ellipsoid-contact.ts's; the force is f = R·f_local, and
 *   ∂f/∂x = R·m·Rᵀ = −∂f/∂C.
 * With object2_forces the opposite force goes to the frame's translation (SOFA leaves out the
 * torque and the dependence on the frame's rotation, and so does sofa-ts), and the force field
 * acts on both states; without it, object2 only carries the frame: its position is read at each
 * force evaluation and the force field acts on object1 alone (object2 may then be integrated by
 * another solver, as in SOFA's example scene).
 */
@sofaComponent({
  name: 'InteractionEllipsoidForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Repulsion of points by ellipsoids attached to a rigid frame of another object.',
  templates: ['Vec3d,Rigid3d'],
})
export class InteractionEllipsoidForceField extends BaseForceField {
  readonly center = this.initData({
    name: 'center',
    type: RealArray(0, 'vector<Coord>'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'ellipsoid centers in the frame of object2 (one Vec3 per ellipsoid)',
  });
  readonly vradius = this.initData({
    name: 'vradius',
    type: RealArray(0, 'vector<Coord>'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'ellipsoid radii (one Vec3 per ellipsoid)',
  });
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: Real,
    default: 500,
    unit: 'N/m',
    help: 'force stiffness (positive to repulse outward, negative inward)',
  });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 5, help: 'force damping' });
  readonly color = this.initData({
    name: 'color',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 0.5, 1, 1),
    help: 'ellipsoid color',
    group: 'Visualization',
  });
  readonly draw = this.initData({
    name: 'draw',
    type: Bool,
    default: true,
    help: 'enable/disable drawing of the ellipsoid',
    group: 'Visualization',
  });
  readonly object2DofIndex = this.initData({
    name: 'object2_dof_index',
    type: Int,
    default: 0,
    help: 'dof index of object 2 where the force field is attached',
  });
  readonly object2Forces = this.initData({
    name: 'object2_forces',
    type: Bool,
    default: true,
    help: 'enable/disable propagation of forces to object 2',
  });
  readonly object2Invert = this.initData({
    name: 'object2_invert',
    type: Bool,
    default: false,
    help: 'inverse transform from object 2 (use when object 1 is in local coordinates within a frame defined by object 2)',
  });

  readonly object1 = this.initLink({
    name: 'object1',
    help: 'the points pushed (default: the state of this node)',
    accepts: isMechanicalState,
    expected: 'a Vec3d MechanicalObject',
    aliases: ['mstate1'],
  });
  readonly object2 = this.initLink({
    name: 'object2',
    help: 'the rigid object carrying the ellipsoids',
    accepts: isMechanicalState,
    expected: 'a Rigid3d MechanicalObject',
    aliases: ['mstate2'],
  });

  private states: BaseMechanicalState[] = [];
  private s2!: BaseMechanicalState;
  /** Ellipsoids: centres and inverse squared radii, (ne × 3) each. */
  private centers = new Float64Array(0);
  private invR2 = new Float64Array(0);
  /** The frame at the last addForce: centre (3) and rotation (x, y, z, w). */
  private readonly C = new Float64Array(3);
  private readonly q = new Float64Array(4);
  private readonly qInv = new Float64Array(4);
  /** Points in contact and their world blocks R·m·Rᵀ, (size) and (size × 9). */
  private contacts = new Uint32Array(0);
  private count = 0;
  private blocks = new Float64Array(0);
  private readonly p = new Float64Array(3);
  private readonly u = new Float64Array(3);
  private readonly f = new Float64Array(3);
  private readonly m = new Float64Array(9);
  private readonly col = new Float64Array(3);
  private readonly ir = new Float64Array(3);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    const s1 = this.object1.get() ?? contextMechanicalState(this.context);
    if (!s1) throw this.error('no object1: set object1="@path" or put a MechanicalObject in the node');
    const s2 = this.object2.get();
    if (!s2) throw this.error('no object2: set object2="@path" to the rigid object carrying the ellipsoids');
    this.object1.set(s1);
    if (s1.stateType.name !== 'Vec3d' || s2.stateType.name !== 'Rigid3d')
      throw this.error(`object1 must be Vec3d and object2 Rigid3d, got ${s1.stateType.name} and ${s2.stateType.name}`);
    this.template = 'Vec3d,Rigid3d';
    this.s2 = s2;
    this.states = this.object2Forces.value ? [s1, s2] : [s1];
    const c = this.center.value,
      r = this.vradius.value;
    if (c.length % 3 !== 0 || r.length % 3 !== 0)
      throw this.error(`'center' and 'vradius' need 3 numbers per ellipsoid, got ${c.length} and ${r.length}`);
    const ne = Math.max(c.length, r.length) / 3;
    this.centers = new Float64Array(3 * ne);
    this.invR2 = new Float64Array(3 * ne);
    for (let e = 0; e < ne; e++) {
      for (let k = 0; k < 3; k++) {
        const rk = r.length === 0 ? 1 : r[Math.min(e, r.length / 3 - 1) * 3 + k];
        if (rk === 0) throw this.error(`'vradius' has a zero radius`);
        this.invR2[3 * e + k] = 1 / (rk * rk);
        this.centers[3 * e + k] = c.length === 0 ? 0 : c[Math.min(e, c.length / 3 - 1) * 3 + k];
      }
    }
    this.contacts = new Uint32Array(s1.size);
    this.blocks = new Float64Array(9 * s1.size);
  }

  override bwdInit(): void {
    const i = this.object2DofIndex.value;
    if (this.s2.componentState === 'valid' && (i < 0 || i >= this.s2.size))
      throw this.error(`object2_dof_index ${i} is out of range: ${this.s2.describe()} has ${this.s2.size} frames`);
  }

  /** The frame (C, q) from object2's coordinates, inverted with object2_invert. */
  private readFrame(x2: Float64Array): void {
    const o = this.object2DofIndex.value * 7;
    const q = this.q,
      C = this.C;
    for (let k = 0; k < 4; k++) q[k] = x2[o + 3 + k];
    for (let k = 0; k < 3; k++) C[k] = x2[o + k];
    if (this.object2Invert.value) {
      // (C, q)⁻¹ = (−R⁻¹·C, q⁻¹)
      q[0] = -q[0];
      q[1] = -q[1];
      q[2] = -q[2];
      quatRotateAt(C, 0, q, 0, C, 0);
      for (let k = 0; k < 3; k++) C[k] = -C[k];
    }
    this.qInv.set(q);
    this.qInv[0] = -q[0];
    this.qInv[1] = -q[1];
    this.qInv[2] = -q[2];
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const f1 = f[0],
      x1 = x[0],
      v1 = v[0];
    this.readFrame(this.states.length === 2 ? x[1] : this.s2.x);
    const n = x1.length / 3;
    if (this.contacts.length < n) {
      this.contacts = new Uint32Array(n);
      this.blocks = new Float64Array(9 * n);
    }
    this.count = 0;
    const k = this.stiffness.value,
      d = this.damping.value,
      ne = this.centers.length / 3;
    const p = this.p,
      u = this.u,
      ir = this.ir,
      C = this.C,
      qi = this.qInv,
      q = this.q,
      B = this.blocks,
      m = this.m,
      col = this.col;
    let fx = 0,
      fy = 0,
      fz = 0;
    for (let i = 0; i < n; i++) {
      // p = Rᵀ(x − C), u = Rᵀ·v
      for (let c = 0; c < 3; c++) p[c] = x1[3 * i + c] - C[c];
      quatRotateAt(p, 0, qi, 0, p, 0);
      quatRotateAt(u, 0, qi, 0, v1, 3 * i);
      // the ellipsoid of smallest normalised distance
      let best = 0,
        bestN = Infinity;
      for (let e = 0; e < ne; e++) {
        let s = 0;
        for (let c = 0; c < 3; c++) s += (p[c] - this.centers[3 * e + c]) ** 2 * this.invR2[3 * e + c];
        if (s < bestN) {
          bestN = s;
          best = e;
        }
      }
      for (let c = 0; c < 3; c++) {
        p[c] = p[c] - this.centers[3 * best + c];
        ir[c] = this.invR2[3 * best + c];
      }
      if (!ellipsoidContact(3, p, ir, k, d, u, 0, this.f, m)) continue;
      quatRotateAt(this.f, 0, q, 0, this.f, 0);
      for (let c = 0; c < 3; c++) f1[3 * i + c] += this.f[c];
      fx += this.f[0];
      fy += this.f[1];
      fz += this.f[2];
      // world block R·m·Rᵀ: columns R·m·(Rᵀe_j), then rows rotated
      const o = 9 * this.count;
      for (let j = 0; j < 3; j++) {
        col.fill(0);
        col[j] = 1;
        quatRotateAt(col, 0, qi, 0, col, 0);
        const a0 = m[0] * col[0] + m[1] * col[1] + m[2] * col[2];
        const a1 = m[3] * col[0] + m[4] * col[1] + m[5] * col[2];
        const a2 = m[6] * col[0] + m[7] * col[1] + m[8] * col[2];
        col[0] = a0;
        col[1] = a1;
        col[2] = a2;
        quatRotateAt(col, 0, q, 0, col, 0);
        for (let r = 0; r < 3; r++) B[o + 3 * r + j] = col[r];
      }
      this.contacts[this.count++] = i;
    }
    if (this.states.length === 2) {
      const o = this.object2DofIndex.value * 6,
        f2 = f[1];
      f2[o] -= fx;
      f2[o + 1] -= fy;
      f2[o + 2] -= fz;
    }
  }

  /** df1 = k·R·m·Rᵀ·(dx1 − dC), df_C −= the same (object2_forces only). */
  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor),
      B = this.blocks,
      d1 = dx[0],
      df1 = df[0];
    const two = this.states.length === 2;
    const o2 = this.object2DofIndex.value * 6;
    for (let q = 0; q < this.count; q++) {
      const o = 3 * this.contacts[q];
      const u0 = d1[o] - (two ? dx[1][o2] : 0),
        u1 = d1[o + 1] - (two ? dx[1][o2 + 1] : 0),
        u2 = d1[o + 2] - (two ? dx[1][o2 + 2] : 0);
      for (let r = 0; r < 3; r++) {
        const g = k * (B[9 * q + 3 * r] * u0 + B[9 * q + 3 * r + 1] * u1 + B[9 * q + 3 * r + 2] * u2);
        df1[o + r] += g;
        if (two) df[1][o2 + r] -= g;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const B = this.blocks,
      two = this.states.length === 2;
    const c2 = two ? this.states[0].size * 3 + this.object2DofIndex.value * 6 : -1;
    for (let q = 0; q < this.count; q++) {
      const o = 3 * this.contacts[q];
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) {
          const v = kFactor * B[9 * q + 3 * r + c];
          acc.add(o + r, o + c, v);
          if (!two) continue;
          acc.add(o + r, c2 + c, -v);
          acc.add(c2 + r, o + c, -v);
          acc.add(c2 + r, c2 + c, v);
        }
      }
    }
  }

  /** Indices of the points of object1 in contact at the last addForce. */
  get contactPoints(): number[] {
    return Array.from(this.contacts.subarray(0, this.count));
  }
}
