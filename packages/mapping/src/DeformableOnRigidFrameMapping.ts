import {
  BaseMapping,
  Bool,
  Enum,
  Indices,
  Node,
  Real,
  UInt,
  canonicalTemplate,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type MatrixAccumulator,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';

function isStateOrNode(o: unknown): o is BaseMechanicalState | Node {
  return isMechanicalState(o) || o instanceof Node;
}

/**
 * SOFA's DeformableOnRigidFrameMapping (Vec3 + Rigid3 → Vec3): a deformable object expressed in the
 * frame of a rigid body. With x_i the deformable's points (input1, local coordinates) and frame
 * (c, R) = frame `index` of input2 (counted from the end with indexFromEnd):
 *   y_i = c + R·x_i,  r_i = R·x_i,  v_y = v_c + ω × r_i + R·v_i,
 *   J_def = R per point,  J_rigid = [I  −[r_i]×],  Jᵀf: f_def += Rᵀ·f,  (F, τ) += (f, r_i × f).
 * The output has as many points as input1. SOFA computes no geometric stiffness (the default
 * 'None'); 'Exact' (sofa-ts) adds ∂(Jᵀf)/∂x: (def_i, θ) = Rᵀ·[f_i]×, (θ, def_i) = −[f_i]×·R,
 * (θ, θ) = Σ [f_i]×·[r_i]×. A repartition over several frames (whose J SOFA takes from frame
 * `index` only) and root force scale factors other than 1 are refused.
 */
@sofaComponent({
  name: 'DeformableOnRigidFrameMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'A deformable object (local coordinates) carried by a rigid frame.',
  templates: ['Vec3d,Rigid3d,Vec3d'],
})
export class DeformableOnRigidFrameMapping extends BaseMapping {
  readonly input1 = this.initLink<BaseMechanicalState | Node>({
    name: 'input1',
    help: 'the deformable object (Vec3d, local coordinates; default: the state of the parent node)',
    accepts: isStateOrNode,
    expected: 'a MechanicalObject (Vec3d)',
  });
  readonly input2 = this.initLink<BaseMechanicalState | Node>({
    name: 'input2',
    help: 'the rigid frames (Rigid3d)',
    accepts: isStateOrNode,
    expected: 'a MechanicalObject (Rigid3d)',
    // SOFA reads the frames' position Data at init, wherever their state sits in the scene
    initTargetFirst: true,
  });
  readonly output = this.initLink<BaseMechanicalState | Node>({
    name: 'output',
    help: 'output object (default: the state of this node)',
    accepts: isStateOrNode,
    expected: 'a MechanicalObject (Vec3d)',
  });
  readonly index = this.initData({ name: 'index', type: UInt, default: 0, help: 'input DOF index' });
  readonly indexFromEnd = this.initData({
    name: 'indexFromEnd',
    type: Bool,
    default: false,
    help: 'input DOF index starts from the end of input DOFs vector',
  });
  readonly repartition = this.initData({
    name: 'repartition',
    type: Indices,
    default: new Uint32Array(0),
    help: 'number of dest dofs per entry dof (not supported)',
  });
  readonly globalToLocalCoords = this.initData({
    name: 'globalToLocalCoords',
    type: Bool,
    default: false,
    help: 'are the output DOFs initially expressed in global coordinates (unused, as in SOFA)',
  });
  readonly rootAngularForceScaleFactor = this.initData({
    name: 'rootAngularForceScaleFactor',
    type: Real,
    default: 1,
    help: 'Scale factor applied on the angular force accumulated on the rigid model (1 only)',
  });
  readonly rootLinearForceScaleFactor = this.initData({
    name: 'rootLinearForceScaleFactor',
    type: Real,
    default: 1,
    help: 'Scale factor applied on the linear force accumulated on the rigid model (1 only)',
  });
  readonly mapForces = this.initData({ name: 'mapForces', type: Bool, default: true, help: 'are forces mapped ?' });
  readonly mapConstraints = this.initData({ name: 'mapConstraints', type: Bool, default: true, help: 'are constraints mapped ?' });
  readonly mapMasses = this.initData({ name: 'mapMasses', type: Bool, default: true, help: 'are masses mapped ?' });
  readonly mapMatrices = this.initData({ name: 'mapMatrices', type: Bool, default: false, help: 'are matrix explicit mapped?' });
  readonly applyRestPosition = this.initData({
    name: 'applyRestPosition',
    type: Bool,
    default: false,
    help: 'set to true to apply this mapping to restPosition at init',
  });
  readonly geometricStiffness = this.initData({
    name: 'geometricStiffness',
    type: Enum(['None', 'Exact']),
    default: 'None',
    help: 'geometric stiffness (sofa-ts; SOFA computes none): None, or Exact (non-symmetric)',
  });

  private def!: BaseMechanicalState;
  private rigid!: BaseMechanicalState;
  private to!: BaseMechanicalState;
  private frame = 0;
  /** R of the frame (row-major) and r_i = R·x_i at the last apply. */
  private readonly R = new Float64Array(9);
  private rotated = new Float64Array(0);
  private Jdef: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private Jrig: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));

  get isLinear(): boolean {
    return false;
  }

  getFrom(): readonly BaseMechanicalState[] {
    return [this.def, this.rigid];
  }

  getTo(): BaseMechanicalState | undefined {
    return this.to;
  }

  private resolve(link: BaseMechanicalState | Node | undefined, fallback: Node | undefined, what: string): BaseMechanicalState {
    const node = link instanceof Node ? link : link === undefined ? fallback : undefined;
    const s = node ? node.getObject(isMechanicalState, node === this.context ? 'local' : 'up') : (link as BaseMechanicalState);
    if (!s) throw this.error(`no ${what}`);
    return s;
  }

  override init(): void {
    this.def = this.resolve(this.input1.get(), this.context.parent ?? undefined, 'deformable input: set input1="@path"');
    if (!this.input2.get())
      throw this.error(
        'no rigid input: set input2="@path" to the rigid frames',
        'SOFA then maps the points unchanged (and reports "NO ROOT MODEL"); sofa-ts needs the frames',
      );
    this.rigid = this.resolve(this.input2.get(), undefined, 'rigid input');
    this.to = this.resolve(this.output.get(), this.context, 'output: set output="@path" or put a MechanicalObject in this node');
    if (this.to === this.def || this.to === this.rigid) throw this.error('the output is also an input');
    const actual = `${this.def.stateType.name},${this.rigid.stateType.name},${this.to.stateType.name}`;
    if (actual !== 'Vec3d,Rigid3d,Vec3d') throw this.error(`input1, input2 and output must be Vec3d, Rigid3d and Vec3d (got ${actual})`);
    if (this.template && canonicalTemplate(this.template) !== actual) {
      throw this.error(`template '${this.template}' does not match the states (${actual})`);
    }
    this.template = actual;
    this.input1.set(this.def);
    this.input2.set(this.rigid);
    this.output.set(this.to);
    if (this.repartition.value.length > 0)
      throw this.error(
        'repartition over several frames is not supported',
        "SOFA's velocities and forces use frame `index` only; map each frame with its own mapping",
      );
    if (this.rootAngularForceScaleFactor.value !== 1 || this.rootLinearForceScaleFactor.value !== 1)
      throw this.error('root force scale factors other than 1 are not supported');
    const m = this.rigid.size;
    if (m === 0) throw this.error(`the rigid input ${this.rigid.describe()} has no frame`);
    const idx = this.index.value;
    if (idx >= m) throw this.error(`index ${idx} is out of range (${this.rigid.describe()} has ${m} frames)`);
    this.frame = this.indexFromEnd.value ? m - 1 - idx : idx;
    const n = this.def.size;
    if (this.to.size !== n) {
      const resizable = this.to as BaseMechanicalState & { resize?: (n: number) => void };
      if (typeof resizable.resize !== 'function')
        throw this.error(`output ${this.to.describe()} has ${this.to.size} points, the mapping gives ${n}`);
      resizable.resize(n);
    }
    this.rotated = new Float64Array(3 * n);
    // J_def: 3 entries per row (R's row); J_rigid: 3 rows per point, (1, two −[r]× entries)
    this.Jdef = createCsr(
      3 * n,
      3 * n,
      Int32Array.from({ length: 3 * n + 1 }, (_, r) => 3 * r),
      Int32Array.from({ length: 9 * n }, (_, k) => 3 * Math.floor(k / 9) + (k % 3)),
    );
    const f = 6 * this.frame;
    const skew = [
      [4, 5],
      [3, 5],
      [3, 4],
    ];
    this.Jrig = createCsr(
      3 * n,
      6 * m,
      Int32Array.from({ length: 3 * n + 1 }, (_, r) => 3 * r),
      Int32Array.from({ length: 9 * n }, (_, k) => {
        const a = Math.floor(k / 3) % 3,
          e = k % 3;
        return e === 0 ? f + a : f + skew[a][e - 1];
      }),
    );
    this.apply();
    this.applyJ(this.to.v, [this.def.v, this.rigid.v]);
    if (this.applyRestPosition.value) this.mapPositions(this.to.x0, this.def.x0, this.rigid.x0, false);
  }

  /** y = c + R·x for every point; keeps R and r when `keep`. */
  private mapPositions(out: Float64Array, x: Float64Array, xr: Float64Array, keep: boolean): void {
    const o = 7 * this.frame;
    const qx = xr[o + 3],
      qy = xr[o + 4],
      qz = xr[o + 5],
      qw = xr[o + 6];
    const R = keep ? this.R : new Float64Array(9);
    R[0] = 1 - 2 * (qy * qy + qz * qz);
    R[1] = 2 * (qx * qy - qz * qw);
    R[2] = 2 * (qx * qz + qy * qw);
    R[3] = 2 * (qx * qy + qz * qw);
    R[4] = 1 - 2 * (qx * qx + qz * qz);
    R[5] = 2 * (qy * qz - qx * qw);
    R[6] = 2 * (qx * qz - qy * qw);
    R[7] = 2 * (qy * qz + qx * qw);
    R[8] = 1 - 2 * (qx * qx + qy * qy);
    const n = x.length / 3,
      r = this.rotated;
    for (let i = 0; i < n; i++) {
      const a = x[3 * i],
        b = x[3 * i + 1],
        c = x[3 * i + 2];
      for (let k = 0; k < 3; k++) {
        const rk = R[3 * k] * a + R[3 * k + 1] * b + R[3 * k + 2] * c;
        if (keep) r[3 * i + k] = rk;
        out[3 * i + k] = xr[o + k] + rk;
      }
    }
  }

  apply(): void {
    this.mapPositions(this.to.x, this.def.x, this.rigid.x, true);
    const R = this.R,
      r = this.rotated,
      vd = this.Jdef.values,
      vr = this.Jrig.values,
      n = this.def.size;
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 9; k++) vd[9 * i + k] = R[k];
      const x = r[3 * i],
        y = r[3 * i + 1],
        z = r[3 * i + 2],
        b = 9 * i;
      vr[b] = 1;
      vr[b + 1] = z;
      vr[b + 2] = -y;
      vr[b + 3] = 1;
      vr[b + 4] = -z;
      vr[b + 5] = x;
      vr[b + 6] = 1;
      vr[b + 7] = y;
      vr[b + 8] = -x;
    }
    this.to.touch();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const vd = ins[0],
      vr = ins[1],
      R = this.R,
      r = this.rotated,
      o = 6 * this.frame;
    const vx = vr[o],
      vy = vr[o + 1],
      vz = vr[o + 2],
      wx = vr[o + 3],
      wy = vr[o + 4],
      wz = vr[o + 5];
    for (let i = 0; i < this.def.size; i++) {
      const a = vd[3 * i],
        b = vd[3 * i + 1],
        c = vd[3 * i + 2];
      const x = r[3 * i],
        y = r[3 * i + 1],
        z = r[3 * i + 2];
      out[3 * i] = vx + (wy * z - wz * y) + R[0] * a + R[1] * b + R[2] * c;
      out[3 * i + 1] = vy + (wz * x - wx * z) + R[3] * a + R[4] * b + R[5] * c;
      out[3 * i + 2] = vz + (wx * y - wy * x) + R[6] * a + R[7] * b + R[8] * c;
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const fd = ins[0],
      fr = ins[1],
      R = this.R,
      r = this.rotated,
      o = 6 * this.frame;
    for (let i = 0; i < this.def.size; i++) {
      const fx = out[3 * i],
        fy = out[3 * i + 1],
        fz = out[3 * i + 2];
      fd[3 * i] += R[0] * fx + R[3] * fy + R[6] * fz;
      fd[3 * i + 1] += R[1] * fx + R[4] * fy + R[7] * fz;
      fd[3 * i + 2] += R[2] * fx + R[5] * fy + R[8] * fz;
      const x = r[3 * i],
        y = r[3 * i + 1],
        z = r[3 * i + 2];
      fr[o] += fx;
      fr[o + 1] += fy;
      fr[o + 2] += fz;
      fr[o + 3] += y * fz - z * fy;
      fr[o + 4] += z * fx - x * fz;
      fr[o + 5] += x * fy - y * fx;
    }
  }

  getJ(input: number): SparseMatrixLike {
    return input === 0 ? this.Jdef : this.Jrig;
  }

  /**
   * Visits the non-zero 3×3 blocks of K_geo: (def_i, θ) = Rᵀ·[f]×, (θ, def_i) = −[f]×·R, and the
   * (θ, θ) sum, as (row block offset, column block offset, 9 row-major values) in the concatenated
   * space [input1 (3n), input2 (6m)].
   */
  private forEachBlock(childForce: Float64Array, visit: (row: number, col: number, b: Float64Array) => void): void {
    const R = this.R,
      r = this.rotated,
      n = this.def.size,
      th = 3 * n + 6 * this.frame + 3;
    const b = blockScratch,
      tt = thetaScratch;
    tt.fill(0);
    for (let i = 0; i < n; i++) {
      const fx = childForce[3 * i],
        fy = childForce[3 * i + 1],
        fz = childForce[3 * i + 2];
      // [f]× = [[0, −fz, fy], [fz, 0, −fx], [−fy, fx, 0]]
      // Rᵀ·[f]×: row p = column p of R (R[k][p]) times [f]×
      for (let p = 0; p < 3; p++) {
        const c0 = R[p],
          c1 = R[3 + p],
          c2 = R[6 + p];
        b[3 * p] = c1 * fz - c2 * fy;
        b[3 * p + 1] = -c0 * fz + c2 * fx;
        b[3 * p + 2] = c0 * fy - c1 * fx;
      }
      visit(3 * i, th, b);
      // −[f]×·R = (Rᵀ·[f]×)ᵀ
      for (let p = 0; p < 3; p++)
        for (let q = p + 1; q < 3; q++) {
          const t = b[3 * p + q];
          b[3 * p + q] = b[3 * q + p];
          b[3 * q + p] = t;
        }
      visit(th, 3 * i, b);
      const x = r[3 * i],
        y = r[3 * i + 1],
        z = r[3 * i + 2];
      const d = fx * x + fy * y + fz * z;
      tt[0] += x * fx - d;
      tt[1] += x * fy;
      tt[2] += x * fz;
      tt[3] += y * fx;
      tt[4] += y * fy - d;
      tt[5] += y * fz;
      tt[6] += z * fx;
      tt[7] += z * fy;
      tt[8] += z * fz - d;
    }
    visit(th, th, tt);
  }

  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    const n3 = 3 * this.def.size;
    const at = (arrs: readonly Float64Array[], k: number): [Float64Array, number] => (k < n3 ? [arrs[0], k] : [arrs[1], k - n3]);
    this.forEachBlock(childForce, (row, col, b) => {
      const [dx, c] = at(dxIns, col);
      const [df, rr] = at(dfIns, row);
      for (let p = 0; p < 3; p++) df[rr + p] += kFactor * (b[3 * p] * dx[c] + b[3 * p + 1] * dx[c + 1] + b[3 * p + 2] * dx[c + 2]);
    });
  }

  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    this.forEachBlock(childForce, (row, col, b) => {
      for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) acc.add(row + p, col + q, kFactor * b[3 * p + q]);
    });
  }
}

const blockScratch = new Float64Array(9);
const thetaScratch = new Float64Array(9);
