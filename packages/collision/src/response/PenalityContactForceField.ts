import {
  contextMechanicalState,
  BaseForceField,
  addBlock3,
  contactPointPosition,
  isMechanicalState,
  rotateByQuaternion,
  sofaComponent,
  type BaseMechanicalState,
  type MatrixAccumulator,
  type OutsideStateAccumulator,
  type CheckpointReader,
  type CheckpointRecord,
  CONTACT_SLOT,
} from '@sofa-ts/core';
import { ContactSide } from './contact-points.js';

/**
 * SOFA's PenalityContactForceField: repulsive springs between pairs of contact points, one pair per
 * contact. Contact c joins p1 (on object1) and p2 (on object2), each a fixed combination of its
 * state's points or a point fixed in a rigid frame (see contact-points.ts), with unit normal n
 * (from object1 towards object2), rest distance d and stiffness k:
 *   pen = d − (p2 − p1)·n;   if pen > 0:  F1 = −k·pen·n on p1,  F2 = +k·pen·n on p2
 * spread to the points by the transposed combination (force and torque for a rigid frame). With
 * g = ∂pen/∂x (g = J1ᵀn on object1, −J2ᵀn on object2, J the points' Jacobians):
 *   f = −k·pen·g,   K = ∂f/∂x = −k·g·gᵀ   (contacts with pen ≤ 0 give neither force nor stiffness)
 * taken at the last addForce, without the change of the points' weights (SOFA's contact points are
 * linearly mapped). No damping.
 *
 * The collision response (CollisionResponse) creates one per pair of colliding collision models,
 * refills its contacts at every step and removes it when the models stop touching. A side whose
 * collision model is not simulated stays out of getMechanicalStates(): its points are read as
 * constants (its forces would reach no solver in SOFA either); its stiffness blocks with the other
 * side are given to the assemblies that place them as SOFA's linear system does
 * (addOutsideStateKToMatrix; MechanicalSystem.assembleMBK, option outsideBlocks).
 */
@sofaComponent({
  name: 'PenalityContactForceField',
  category: 'ForceField',
  module: 'Sofa.Component.Collision.Response.Contact',
  description: 'Contact using repulsive springs (created by the collision response).',
  templates: ['Vec3d', 'Rigid3d'],
})
export class PenalityContactForceField extends BaseForceField {
  readonly object1 = this.initLink({
    name: 'object1',
    help: 'first object in interaction',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate1'],
  });
  readonly object2 = this.initLink({
    name: 'object2',
    help: 'second object in interaction',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate2'],
  });

  /** The two sides' contact points. */
  readonly sides: [ContactSide, ContactSide] = [new ContactSide(), new ContactSide()];
  /** Number of contacts. */
  count = 0;
  /** (count × 3) unit normals, object1 → object2. */
  normal = new Float64Array(48);
  /** (count) rest distances d, stiffnesses k, penetrations at the last addForce, ages in steps. */
  dist = new Float64Array(16);
  ks = new Float64Array(16);
  pen = new Float64Array(16);
  age = new Int32Array(16);
  /** (count) elements of each model the contact comes from (for information). */
  elem1 = new Int32Array(16);
  elem2 = new Int32Array(16);
  private prevAge = new Int32Array(16);
  private prevCount = 0;

  private stateOf: [BaseMechanicalState | undefined, BaseMechanicalState | undefined] = [undefined, undefined];
  /** Argument index of each side in getMechanicalStates(), −1 for a side kept constant. */
  private readonly argOf = [0, 1];
  /** First local matrix index of each side (MatrixAccumulator convention), −1 when constant. */
  private readonly offsetOf = [0, 0];
  private states: BaseMechanicalState[] = [];
  /** Scratch: contact point positions. */
  private readonly p1 = new Float64Array(3);
  private readonly p2 = new Float64Array(3);
  private readonly arm = new Float64Array(3);
  /** Scratch for matrix emission: the blocks of g of a contact (up to 8 points), see emitContact. */
  private readonly gRow = new Int32Array(2 * CONTACT_SLOT);
  private readonly gSize = new Int8Array(2 * CONTACT_SLOT);
  private readonly gVec = new Float64Array(12 * CONTACT_SLOT);
  private readonly block = new Float64Array(36);

  /**
   * Sets the states of the two sides; a `constant` side is left out of the solvers' system (its
   * collision model is not simulated).
   */
  setStates(s1: BaseMechanicalState, s2: BaseMechanicalState, constant1: boolean, constant2: boolean): void {
    this.stateOf = [s1, s2];
    this.object1.set(s1);
    this.object2.set(s2);
    this.states = [];
    let offset = 0;
    for (let s = 0; s < 2; s++) {
      const st = this.stateOf[s]!;
      if (s === 0 ? constant1 : constant2) {
        this.argOf[s] = -1;
        this.offsetOf[s] = -1;
        continue;
      }
      this.argOf[s] = this.states.length;
      this.offsetOf[s] = offset;
      this.states.push(st);
      offset += st.size * st.stateType.derivSize;
    }
    this.template = s1.stateType.name;
  }

  override init(): void {
    if (this.stateOf[0]) return;
    const s1 = this.object1.get() ?? contextMechanicalState(this.context);
    if (!s1) throw this.error('no mechanical state: set object1 or put a MechanicalObject in the node or an ancestor');
    const s2 = this.object2.get() ?? s1;
    for (const s of [s1, s2]) {
      const t = s.stateType.name;
      if (t !== 'Vec3d' && t !== 'Rigid3d') throw this.error(`contact points need Vec3d or Rigid3d states, got ${t} (${s.describe()})`);
    }
    this.setStates(s1, s2, false, false);
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  /** Starts a new list of n contacts (ages of the previous list kept for addContact's oldIndex). */
  beginContacts(n: number): void {
    // The ages of the list being replaced become the previous ages (buffers swapped).
    const t = this.prevAge;
    this.prevAge = this.age;
    this.age = t;
    this.prevCount = this.count;
    this.count = 0;
    this.ensure(n);
  }

  /**
   * Appends contact c (its points already attached in sides[0] and sides[1] at slot c): normal,
   * rest distance, stiffness, elements, and oldIndex (1-based index in the previous list, 0 if new).
   */
  addContact(nx: number, ny: number, nz: number, dist: number, ks: number, elem1: number, elem2: number, oldIndex: number): void {
    const c = this.count++;
    this.normal[3 * c] = nx;
    this.normal[3 * c + 1] = ny;
    this.normal[3 * c + 2] = nz;
    this.dist[c] = dist;
    this.ks[c] = ks;
    this.pen[c] = 0;
    this.elem1[c] = elem1;
    this.elem2[c] = elem2;
    this.age[c] = oldIndex > 0 && oldIndex <= this.prevCount ? this.prevAge[oldIndex - 1] + 1 : 0;
  }

  /** Checkpoint: the contacts (from the detection of the step) and their ages. */
  checkpointState(): CheckpointRecord {
    return {
      // the points a contact side holds per slot: the layout of idx and w
      slot: CONTACT_SLOT,
      sides: this.sides.map((s) => ({ n: s.n, idx: s.idx, w: s.w })),
      count: this.count,
      normal: this.normal,
      dist: this.dist,
      ks: this.ks,
      pen: this.pen,
      age: this.age,
      elem1: this.elem1,
      elem2: this.elem2,
      prevAge: this.prevAge,
      prevCount: this.prevCount,
    };
  }

  restoreState(saved: CheckpointReader): void {
    const slot = saved.number('slot');
    if (slot !== CONTACT_SLOT)
      throw this.error(
        `the checkpoint's contacts hold ${slot} points per side, this sofa-ts ${CONTACT_SLOT}: it cannot restore them`,
        'resume from a checkpoint written by this version of sofa-ts',
      );
    saved.records('sides').forEach((r, i) => {
      const s = this.sides[i];
      s.n = r.restoreArray('n', s.n);
      s.idx = r.restoreArray('idx', s.idx);
      s.w = r.restoreArray('w', s.w);
    });
    this.count = saved.number('count');
    this.prevCount = saved.number('prevCount');
    this.normal = saved.restoreArray('normal', this.normal);
    this.dist = saved.restoreArray('dist', this.dist);
    this.ks = saved.restoreArray('ks', this.ks);
    this.pen = saved.restoreArray('pen', this.pen);
    this.age = saved.restoreArray('age', this.age);
    this.elem1 = saved.restoreArray('elem1', this.elem1);
    this.elem2 = saved.restoreArray('elem2', this.elem2);
    this.prevAge = saved.restoreArray('prevAge', this.prevAge);
  }

  /** Makes room for n contacts (sides included). */
  ensure(n: number): void {
    this.sides[0].ensure(n);
    this.sides[1].ensure(n);
    if (this.dist.length >= n) return;
    let cap = this.dist.length;
    while (cap < n) cap *= 2;
    const g = <T extends Float64Array | Int32Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (k: number) => T)(size);
      b.set(a.subarray(0, Math.min(a.length, size)));
      return b;
    };
    this.normal = g(this.normal, 3 * cap);
    this.dist = g(this.dist, cap);
    this.ks = g(this.ks, cap);
    this.pen = g(this.pen, cap);
    this.age = g(this.age, cap);
    this.prevAge = g(this.prevAge, cap);
    this.elem1 = g(this.elem1, cap);
    this.elem2 = g(this.elem2, cap);
  }

  /** Position of contact point c of side s into out (x: the side's positions). */
  private pointOf(s: number, c: number, x: Float64Array, out: Float64Array): void {
    contactPointPosition(out, 0, x, this.sides[s], c);
  }

  /** Lever arm R·l of a rigid contact point (world frame). */
  private armOf(s: number, c: number, x: Float64Array): Float64Array {
    const side = this.sides[s];
    const o = CONTACT_SLOT * c;
    const f = 7 * side.idx[o];
    rotateByQuaternion(this.arm, 0, x[f + 3], x[f + 4], x[f + 5], x[f + 6], side.w[o], side.w[o + 1], side.w[o + 2]);
    return this.arm;
  }

  /** f_side += sign·F at contact point c (spread to the points, or force and torque on the frame). */
  private spread(s: number, c: number, f: Float64Array, x: Float64Array, fx: number, fy: number, fz: number): void {
    const side = this.sides[s];
    const o = CONTACT_SLOT * c;
    const n = side.n[c];
    if (n < 0) {
      const d = 6 * side.idx[o];
      const r = this.armOf(s, c, x);
      f[d] += fx;
      f[d + 1] += fy;
      f[d + 2] += fz;
      f[d + 3] += r[1] * fz - r[2] * fy;
      f[d + 4] += r[2] * fx - r[0] * fz;
      f[d + 5] += r[0] * fy - r[1] * fx;
      return;
    }
    for (let k = 0; k < n; k++) {
      const i = 3 * side.idx[o + k];
      const w = side.w[o + k];
      f[i] += w * fx;
      f[i + 1] += w * fy;
      f[i + 2] += w * fz;
    }
  }

  /** n·(displacement of contact point c of side s for the dof increment dx). */
  private normalDisplacement(s: number, c: number, dx: Float64Array, x: Float64Array, nx: number, ny: number, nz: number): number {
    const side = this.sides[s];
    const o = CONTACT_SLOT * c;
    const n = side.n[c];
    if (n < 0) {
      const d = 6 * side.idx[o];
      const r = this.armOf(s, c, x);
      // dp = v + ω × r
      const px = dx[d] + dx[d + 4] * r[2] - dx[d + 5] * r[1];
      const py = dx[d + 1] + dx[d + 5] * r[0] - dx[d + 3] * r[2];
      const pz = dx[d + 2] + dx[d + 3] * r[1] - dx[d + 4] * r[0];
      return nx * px + ny * py + nz * pz;
    }
    let acc = 0;
    for (let k = 0; k < n; k++) {
      const i = 3 * side.idx[o + k];
      acc += side.w[o + k] * (nx * dx[i] + ny * dx[i + 1] + nz * dx[i + 2]);
    }
    return acc;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const a1 = this.argOf[0],
      a2 = this.argOf[1];
    const x1 = a1 >= 0 ? x[a1] : this.stateOf[0]!.x;
    const x2 = a2 >= 0 ? x[a2] : this.stateOf[1]!.x;
    const p1 = this.p1,
      p2 = this.p2;
    for (let c = 0; c < this.count; c++) {
      this.pointOf(0, c, x1, p1);
      this.pointOf(1, c, x2, p2);
      const nx = this.normal[3 * c],
        ny = this.normal[3 * c + 1],
        nz = this.normal[3 * c + 2];
      // pen = d − (p2 − p1)·n
      const pen = this.dist[c] - ((p2[0] - p1[0]) * nx + (p2[1] - p1[1]) * ny + (p2[2] - p1[2]) * nz);
      this.pen[c] = pen;
      if (!(pen > 0)) continue;
      const fN = this.ks[c] * pen;
      // F1 = −fN·n on p1, −F1 on p2
      if (a1 >= 0) this.spread(0, c, f[a1], x1, -nx * fN, -ny * fN, -nz * fN);
      if (a2 >= 0) this.spread(1, c, f[a2], x2, nx * fN, ny * fN, nz * fN);
    }
  }

  /**
   * addForce outside the solvers: the sides whose contact points SOFA maps (barycentric points on
   * segments, triangles and quads, points fixed in a rigid frame) get their forces when the solver
   * asks (deferred, in contact order, as SOFA's mapping Jᵀ adds them after the force fields); the
   * sides on the points themselves (identity mapper) get them now.
   */
  override addIsolatedForce(
    f: readonly Float64Array[],
    x: readonly Float64Array[],
    _v: readonly Float64Array[],
    defer: (arg: number, add: (f: Float64Array) => void) => void,
  ): void {
    const a = [this.argOf[0], this.argOf[1]];
    const xs = [a[0] >= 0 ? x[a[0]] : this.stateOf[0]!.x, a[1] >= 0 ? x[a[1]] : this.stateOf[1]!.x];
    this.isolatedX = xs;
    if (this.fN.length < this.count) this.fN = new Float64Array(this.pen.length);
    const p1 = this.p1,
      p2 = this.p2;
    const mapped = [false, false];
    for (let c = 0; c < this.count; c++) {
      this.pointOf(0, c, xs[0], p1);
      this.pointOf(1, c, xs[1], p2);
      const nx = this.normal[3 * c],
        ny = this.normal[3 * c + 1],
        nz = this.normal[3 * c + 2];
      const pen = this.dist[c] - ((p2[0] - p1[0]) * nx + (p2[1] - p1[1]) * ny + (p2[2] - p1[2]) * nz);
      this.pen[c] = pen;
      const fN = pen > 0 ? this.ks[c] * pen : 0;
      this.fN[c] = fN;
      if (!(pen > 0)) continue;
      for (let s = 0; s < 2; s++) {
        if (a[s] < 0) continue;
        if (this.sides[s].n[c] !== 1) mapped[s] = true;
        else {
          const sg = s === 0 ? -1 : 1;
          this.spread(s, c, f[a[s]], xs[s], sg * nx * fN, sg * ny * fN, sg * nz * fN);
        }
      }
    }
    for (let s = 0; s < 2; s++) if (mapped[s]) defer(a[s], this.deferredSide[s]);
  }

  /** Per-contact normal force magnitudes of the last addIsolatedForce, and the positions it read. */
  private fN = new Float64Array(16);
  private isolatedX: Float64Array[] = [];
  /** The deferred forces of side s: its mapped contact points' forces, in contact order. */
  private readonly deferredSide = [0, 1].map((s) => (f: Float64Array): void => {
    const sg = s === 0 ? -1 : 1;
    for (let c = 0; c < this.count; c++) {
      if (!(this.pen[c] > 0) || this.sides[s].n[c] === 1) continue;
      const fN = this.fN[c];
      this.spread(
        s,
        c,
        f,
        this.isolatedX[s],
        sg * this.normal[3 * c] * fN,
        sg * this.normal[3 * c + 1] * fN,
        sg * this.normal[3 * c + 2] * fN,
      );
    }
  });

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    const a1 = this.argOf[0],
      a2 = this.argOf[1];
    const x1 = this.stateOf[0]!.x,
      x2 = this.stateOf[1]!.x;
    for (let c = 0; c < this.count; c++) {
      if (!(this.pen[c] > 0)) continue;
      const nx = this.normal[3 * c],
        ny = this.normal[3 * c + 1],
        nz = this.normal[3 * c + 2];
      // dpen = n·dp1 − n·dp2;  dF1 = −k·ks·dpen·n
      let dpen = 0;
      if (a1 >= 0) dpen += this.normalDisplacement(0, c, dx[a1], x1, nx, ny, nz);
      if (a2 >= 0) dpen -= this.normalDisplacement(1, c, dx[a2], x2, nx, ny, nz);
      const dfN = this.ks[c] * dpen * k;
      if (a1 >= 0) this.spread(0, c, df[a1], x1, -nx * dfN, -ny * dfN, -nz * dfN);
      if (a2 >= 0) this.spread(1, c, df[a2], x2, nx * dfN, ny * dfN, nz * dfN);
    }
  }

  /**
   * Emits kFactor·K = −kFactor·ks·g·gᵀ per contact, block by block over the contact's points
   * (zero values for contacts not penetrating, so the sequence only depends on the contact list).
   */
  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    for (let c = 0; c < this.count; c++) this.emitContact(acc, c, this.pen[c] > 0 ? -kFactor * this.ks[c] : 0);
  }

  /**
   * The blocks with a side kept out of the solvers' system (a non-simulated collision model), for
   * SOFA's assembled linear systems: SOFA's contact has a state on that side too (the points its
   * contact mapper makes there), and its buildStiffnessMatrix gives ∂f_o/∂x_i = ∂f_i/∂x_o =
   * ks·n·gᵢᵀ-like blocks for the penetrating contacts (here kFactor·s_o·ks·n·g_i, g_i = ∂pen/∂x_i,
   * s_o = −1 when the outside side is object1, +1 otherwise; both equal +kFactor·ks·n·nᵀ·J_i).
   * The outside dof is 3·sofaPoint + axis, SOFA's numbering of its contact state (ContactSide).
   * Every contact emits its entries, zero when it does not penetrate (a sequence fixed by the list).
   */
  override addOutsideStateKToMatrix(acc: OutsideStateAccumulator, kFactor: number): void {
    const argOf: readonly number[] = this.argOf;
    if (argOf[0] < 0 === argOf[1] < 0) return;
    const o = argOf[0] < 0 ? 0 : 1;
    const inside = 1 - o,
      arg = argOf[inside],
      off = (this.offsetOf as readonly number[])[inside];
    const so = o === 0 ? -1 : 1;
    const g = this.gVec;
    for (let c = 0; c < this.count; c++) {
      const factor = this.pen[c] > 0 ? kFactor * so * this.ks[c] : 0;
      const base = 3 * this.sides[o as 0 | 1].sofaPoint[c];
      const nb = this.gBlocks(c);
      for (let a = 0; a < 3; a++) {
        const na = this.normal[3 * c + a];
        for (let k = 0; k < nb; k++) {
          const row = this.gRow[k] - off,
            size = this.gSize[k];
          for (let j = 0; j < size; j++) {
            const v = factor * na * g[6 * k + j];
            acc.addOutsideRow(base + a, arg, row + j, v);
            acc.addOutsideCol(arg, row + j, base + a, v);
          }
        }
      }
    }
  }

  /** Fills the blocks of g for contact c (row of each dof block, its size 3 or 6, its vector). */
  private gBlocks(c: number): number {
    let nb = 0;
    const nx = this.normal[3 * c],
      ny = this.normal[3 * c + 1],
      nz = this.normal[3 * c + 2];
    for (let s = 0; s < 2; s++) {
      if (this.argOf[s] < 0) continue;
      const side = this.sides[s];
      const sign = s === 0 ? 1 : -1;
      const off = this.offsetOf[s];
      const o = CONTACT_SLOT * c;
      const n = side.n[c];
      if (n < 0) {
        const r = this.armOf(s, c, this.stateOf[s]!.x);
        this.gRow[nb] = off + 6 * side.idx[o];
        this.gSize[nb] = 6;
        const v = 6 * nb;
        this.gVec[v] = sign * nx;
        this.gVec[v + 1] = sign * ny;
        this.gVec[v + 2] = sign * nz;
        // rotational part: r × n
        this.gVec[v + 3] = sign * (r[1] * nz - r[2] * ny);
        this.gVec[v + 4] = sign * (r[2] * nx - r[0] * nz);
        this.gVec[v + 5] = sign * (r[0] * ny - r[1] * nx);
        nb++;
        continue;
      }
      for (let k = 0; k < n; k++) {
        const w = sign * side.w[o + k];
        this.gRow[nb] = off + 3 * side.idx[o + k];
        this.gSize[nb] = 3;
        const v = 6 * nb;
        this.gVec[v] = w * nx;
        this.gVec[v + 1] = w * ny;
        this.gVec[v + 2] = w * nz;
        nb++;
      }
    }
    return nb;
  }

  private emitContact(acc: MatrixAccumulator, c: number, factor: number): void {
    const nb = this.gBlocks(c);
    const g = this.gVec;
    for (let a = 0; a < nb; a++) {
      for (let b = 0; b < nb; b++) {
        const sa = this.gSize[a],
          sb = this.gSize[b];
        const ra = this.gRow[a],
          rb = this.gRow[b];
        if (sa === 3 && sb === 3) {
          const blk = this.block;
          for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) blk[3 * i + j] = g[6 * a + i] * g[6 * b + j];
          addBlock3(acc, ra, rb, blk, 0, factor);
          continue;
        }
        for (let i = 0; i < sa; i++) for (let j = 0; j < sb; j++) acc.add(ra + i, rb + j, factor * g[6 * a + i] * g[6 * b + j]);
      }
    }
  }

  /** ½·Σ ks·pen² over the penetrating contacts (the energy of the penalty springs). */
  override getPotentialEnergy(_x: readonly Float64Array[]): number {
    let e = 0;
    for (let c = 0; c < this.count; c++) if (this.pen[c] > 0) e += 0.5 * this.ks[c] * this.pen[c] * this.pen[c];
    return e;
  }
}

export function isPenalityContactForceField(o: unknown): o is PenalityContactForceField {
  return o instanceof PenalityContactForceField;
}
