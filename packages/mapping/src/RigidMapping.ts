import {
  Bool,
  Enum,
  Indices,
  RealArray,
  Str,
  UInt,
  isMechanicalState,
  sofaComponent,
  type MatrixAccumulator,
  type SparseMatrixLike,
} from '@sofa-ts/core';
import { createCsr, quatConjugateMultiplyAt, quatMultiplyAt, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';
import { nsdProject3 } from './nsd-projection.js';

/** The three input → output pairs SOFA instantiates. */
type Variant = 'Rigid3d,Vec3d' | 'Rigid3d,Rigid3d' | 'Rigid2d,Vec2d';
const VARIANTS: readonly Variant[] = ['Rigid3d,Vec3d', 'Rigid3d,Rigid3d', 'Rigid2d,Vec2d'];

/**
 * SOFA's RigidMapping: points (Vec3d), child frames (Rigid3d) or plane points (Vec2d) attached to
 * parent rigid frames. With parent frame (c, q) of rotation R and a child of local coordinates p
 * (and local orientation q_l for a child frame):
 *   Rigid3d → Vec3d:   x = c + R·p,  r = R·p ("rotated point"),  v = v_c + ω × r,
 *                      J = [ I  −[r]× ],   Jᵀ·f = (f, r × f)
 *   Rigid3d → Rigid3d: centre c + R·p, orientation q ⊗ q_l (SOFA's RigidCoord::mult, the old
 *                      RigidRigidMapping); v = (v_c + ω × r, ω),  J = [[I, −[r]×], [0, I]],
 *                      Jᵀ·(f, τ) = (f, τ + r × f)
 *   Rigid2d → Vec2d:   x = c + R(θ)·p,  v = v_c + ω·(−r_y, r_x),  J = [[1, 0, −r_y], [0, 1, r_x]],
 *                      Jᵀ·f = (f, r_x·f_y − r_y·f_x)
 * ω is the angular velocity in the world frame, as the Rigid integration uses it.
 * Geometric stiffness (for a fixed child force f): ∂(Jᵀf)/∂x acts on the frame's rotation only,
 *   K_geo = Σ_points [f]×·[r]×   (r × f changes by (δθ × r) × f = [f]×[r]× δθ),
 * not symmetric ('Exact'); 'Stabilized' symmetrises it and projects it on the negative
 * semi-definite matrices; 'None' (SOFA's default for this mapping) ignores it. A child frame's torque
 * adds nothing to it; SOFA computes none in 2D (a warning when asked).
 * Local coordinates: `initialPoints` (one output coordinate each: 3, 7 or 2 numbers), else the
 * output positions at init (taken as local coordinates, or converted when globalToLocalCoords:
 * p = Rᵀ·(x − c), and q_l = q⁻¹ ⊗ q_out for a child frame), or the output's rest positions at
 * every step with useX0. Frame of point i: rigidIndexPerPoint[i] when it has one entry per point,
 * else `index` (counted from the end with indexFromEnd). Without a template the pair is taken from
 * the input and output states, as SOFA's factory does.
 */
@sofaComponent({
  name: 'RigidMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Points or frames rigidly attached to rigid frames (Rigid3 → Vec3, Rigid3 → Rigid3, Rigid2 → Vec2).',
  templates: [...VARIANTS],
})
export class RigidMapping extends MappingComponent {
  readonly initialPoints = this.initData({
    name: 'initialPoints',
    type: RealArray(0, 'vector<OutCoord>'),
    default: new Float64Array(0),
    help: 'local coordinates of the points (one output coordinate each)',
  });
  readonly index = this.initData({ name: 'index', type: UInt, default: 0, help: 'input DOF index' });
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'Xsp file where rigid mapping information can be loaded from',
    aliases: ['fileRigidMapping'],
  });
  readonly useX0 = this.initData({
    name: 'useX0',
    type: Bool,
    default: false,
    help: 'use x0 instead of local copy of initial positions (to support topo changes)',
  });
  readonly indexFromEnd = this.initData({
    name: 'indexFromEnd',
    type: Bool,
    default: false,
    help: 'input DOF index starts from the end of input DOFs vector',
  });
  readonly rigidIndexPerPoint = this.initData({
    name: 'rigidIndexPerPoint',
    type: Indices,
    default: new Uint32Array(0),
    help: 'for each mapped point, the index of the Rigid it is mapped from',
  });
  readonly globalToLocalCoords = this.initData({
    name: 'globalToLocalCoords',
    type: Bool,
    default: false,
    help: 'are the output DOFs initially expressed in global coordinates',
  });
  readonly geometricStiffness = this.initData({
    name: 'geometricStiffness',
    type: Enum(['None', 'Exact', 'Stabilized']),
    default: 'None',
    help: 'method used to compute the geometric stiffness: None (not computed), Exact (non-symmetric), Stabilized (symmetrised, negative semi-definite projection)',
  });
  readonly repartition = this.initData({
    name: 'repartition',
    type: Indices,
    default: new Uint32Array(0),
    help: 'deprecated: number of consecutive points attached to each frame (use rigidIndexPerPoint)',
  });

  private variant: Variant = 'Rigid3d,Vec3d';
  /** Point dimension (3, or 2 for Rigid2d), coordinate and derivative sizes of input and output. */
  private pd = 3;
  private inC = 7;
  private inD = 6;
  private outC = 3;
  private outD = 3;
  /** (nOut) frame index of each point. */
  private frame: Uint32Array = new Uint32Array(0);
  /** (nOut × outC) local coordinates, (nOut × pd) rotated points r = R·p at the last apply. */
  private local: Float64Array = new Float64Array(0);
  private rotated: Float64Array = new Float64Array(0);
  /** (nOut·outD × nIn·inD) Jacobian, pattern fixed at init (see buildJPattern). */
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  /** Frames that carry points, ascending, and their first/next index into `byFrame` (points grouped by frame). */
  private frames = new Uint32Array(0);
  private framePtr = new Int32Array(1);
  private byFrame = new Uint32Array(0);
  /** Scratch: a 3×3 block, and the NSD projection's workspace. */
  private readonly block = new Float64Array(9);
  private readonly eigenVectors = new Float64Array(9);
  private readonly eigenValues = new Float64Array(3);

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(VARIANTS);
    this.variant = this.template as Variant;
    this.pd = this.variant === 'Rigid2d,Vec2d' ? 2 : 3;
    this.inC = this.inType().coordSize;
    this.inD = this.inType().derivSize;
    this.outC = this.outType().coordSize;
    this.outD = this.outType().derivSize;
    if (this.pd === 2 && this.geometricStiffness.value !== 'None')
      this.warn(`geometricStiffness '${this.geometricStiffness.value}' is ignored: SOFA computes no geometric stiffness in 2D`);
    if (this.filename.value !== '')
      throw this.error(
        `loading points from a file ('${this.filename.value}') is not supported`,
        'give the points as initialPoints or as the output positions',
      );
    const nIn = this.from.size;
    if (this.useX0.value && !isMechanicalState(this.to))
      throw this.error('useX0 needs a MechanicalObject as output (it reads its rest positions)');
    const oc = this.outC;
    // Local coordinates (SOFA's reinit): initialPoints, else the output's positions.
    let pts = this.initialPoints.value;
    if (pts.length % oc !== 0)
      throw this.error(`'initialPoints' has ${pts.length} numbers, not a multiple of ${oc} (${this.outType().name} coordinates)`);
    const fromOutput = !this.useX0.value && pts.length === 0;
    if (this.useX0.value) pts = this.restOfOutput();
    else if (fromOutput) pts = Float64Array.from(this.outputPositions().subarray(0, this.outputSize() * oc));
    const n = pts.length / oc;
    this.frame = this.frameIndices(n, nIn);
    if (fromOutput && this.globalToLocalCoords.value) this.toLocal(pts, n);
    this.local = pts;
    if (fromOutput) this.initialPoints.value = pts;
    this.rotated = new Float64Array(this.pd * n);
    this.groupByFrame(n);
    this.buildJPattern(n, nIn);
    this.resizeOutput(n);
    this.apply();
    if (isMechanicalState(this.to)) this.applyJ(this.to.v, [this.from.v]);
    if (this.applyRestPosition.value && isMechanicalState(this.to)) this.mapPositions(this.to.x0, this.from.x0, undefined);
  }

  /** Local coordinates of the points (n × output coordinate size) and the frame of each. */
  protected get localPoints(): Float64Array {
    return this.local;
  }
  protected get pointFrames(): Uint32Array {
    return this.frame;
  }

  /**
   * Replaces the mapped points by `pts` (local coordinates, n × output coordinate size) on frames
   * `frames` (n): J's pattern is rebuilt and the output resized to n points.
   */
  protected setPoints(pts: Float64Array, frames: Uint32Array): void {
    const n = frames.length;
    this.frame = frames;
    this.local = pts;
    this.rotated = new Float64Array(this.pd * n);
    this.groupByFrame(n);
    this.buildJPattern(n, this.from.size);
    this.resizeOutput(n);
  }

  /** Output coordinates (global at init) → local coordinates of their frames, in place. */
  private toLocal(pts: Float64Array, n: number): void {
    const xf = this.from.x;
    const oc = this.outC;
    for (let i = 0; i < n; i++) {
      const o = this.inC * this.frame[i];
      const a = oc * i;
      if (this.pd === 2) {
        // p = R(−θ)·(x − c)
        const dx = pts[a] - xf[o],
          dy = pts[a + 1] - xf[o + 1];
        const c = Math.cos(xf[o + 2]),
          s = Math.sin(xf[o + 2]);
        pts[a] = c * dx + s * dy;
        pts[a + 1] = -s * dx + c * dy;
        continue;
      }
      // p = Rᵀ·(x − c)
      const dx = pts[a] - xf[o],
        dy = pts[a + 1] - xf[o + 1],
        dz = pts[a + 2] - xf[o + 2];
      rotate(pts, a, xf, o + 3, dx, dy, dz, true);
      // q_l = q⁻¹ ⊗ q_out
      if (oc === 7) quatConjugateMultiplyAt(pts, a + 3, xf, o + 3, pts, a + 3);
    }
  }

  /** Rest positions of a mechanical output (useX0). */
  private restOfOutput(): Float64Array {
    if (!isMechanicalState(this.to)) throw this.error('useX0 needs a MechanicalObject as output (it reads its rest positions)');
    return this.to.x0;
  }

  /** Frame of each point, by SOFA's rule (rigidIndexPerPoint, the deprecated repartition, or index). */
  private frameIndices(n: number, nIn: number): Uint32Array {
    let per = this.rigidIndexPerPoint.value;
    const rep = this.repartition.value;
    if (per.length === 0 && rep.length > 0) {
      // repartition: one count per frame (a single count applies to every frame in turn).
      per = new Uint32Array(n);
      let i = 0;
      for (let f = 0; i < n; f++) {
        const count = rep.length === 1 ? rep[0] : (rep[f] ?? 0);
        if (count === 0 && (rep.length === 1 || f >= rep.length)) break;
        for (let j = 0; j < count && i < n; j++) per[i++] = f;
      }
      this.rigidIndexPerPoint.value = per;
    }
    const out = new Uint32Array(n);
    const fixed = this.indexFromEnd.value ? nIn - 1 - this.index.value : this.index.value;
    for (let i = 0; i < n; i++) out[i] = per.length === n ? per[i] : fixed;
    for (let i = 0; i < n; i++) {
      if (out[i] >= nIn) throw this.error(`point ${i} is attached to frame ${out[i]}, but the input has ${nIn} frames`);
    }
    return out;
  }

  private groupByFrame(n: number): void {
    const frames = Array.from(new Set(this.frame)).sort((a, b) => a - b);
    this.frames = Uint32Array.from(frames);
    this.framePtr = new Int32Array(frames.length + 1);
    this.byFrame = new Uint32Array(n);
    let k = 0;
    frames.forEach((f, j) => {
      for (let i = 0; i < n; i++) if (this.frame[i] === f) this.byFrame[k++] = i;
      this.framePtr[j + 1] = k;
    });
  }

  /**
   * Pattern of J, columns sorted in each row. 3D: row a < 3 of a point holds column a of its frame
   * and the two off-diagonal columns of −[r]× (3 entries); a child frame's rotation rows a ≥ 3 hold
   * column a (1 entry). 2D: row a holds column a and the rotation column 2 (2 entries).
   */
  private buildJPattern(n: number, nIn: number): void {
    const od = this.outD,
      id = this.inD;
    const rowPtr = new Int32Array(od * n + 1);
    const cols: number[] = [];
    const skewCols = [
      [4, 5],
      [3, 5],
      [3, 4],
    ];
    for (let i = 0; i < n; i++) {
      const f = id * this.frame[i];
      for (let a = 0; a < od; a++) {
        if (this.pd === 2) cols.push(f + a, f + 2);
        else if (a < 3) cols.push(f + a, f + skewCols[a][0], f + skewCols[a][1]);
        else cols.push(f + a);
        rowPtr[od * i + a + 1] = cols.length;
      }
    }
    this.J = createCsr(od * n, id * nIn, rowPtr, Int32Array.from(cols));
  }

  get isLinear(): boolean {
    return false;
  }

  /** Output coordinates from the frames xin; keeps r = R·p in `rotated` when given. */
  protected mapPositions(out: Float64Array, xin: Float64Array, rotated: Float64Array | undefined): void {
    const pts = this.useX0.value ? this.restOfOutput() : this.local;
    const pd = this.pd,
      oc = this.outC,
      ic = this.inC;
    const r = rotated ?? new Float64Array(pd);
    const n = this.frame.length;
    for (let i = 0; i < n; i++) {
      const o = ic * this.frame[i];
      const ri = rotated ? pd * i : 0;
      const a = oc * i;
      if (pd === 2) {
        // x = c + R(θ)·p
        const c = Math.cos(xin[o + 2]),
          s = Math.sin(xin[o + 2]);
        r[ri] = c * pts[a] - s * pts[a + 1];
        r[ri + 1] = s * pts[a] + c * pts[a + 1];
        out[a] = xin[o] + r[ri];
        out[a + 1] = xin[o + 1] + r[ri + 1];
        continue;
      }
      rotate(r, ri, xin, o + 3, pts[a], pts[a + 1], pts[a + 2], false);
      out[a] = xin[o] + r[ri];
      out[a + 1] = xin[o + 1] + r[ri + 1];
      out[a + 2] = xin[o + 2] + r[ri + 2];
      // child frame: q_out = q ⊗ q_l
      if (oc === 7) quatMultiplyAt(out, a + 3, xin, o + 3, pts, a + 3);
    }
  }

  apply(): void {
    this.mapPositions(this.outputPositions(), this.from.x, this.rotated);
    const v = this.J.values;
    const r = this.rotated;
    const n = this.frame.length;
    if (this.pd === 2) {
      // rows x: (1, −r_y), y: (1, r_x)
      for (let i = 0; i < n; i++) {
        const b = 4 * i;
        v[b] = 1;
        v[b + 1] = -r[2 * i + 1];
        v[b + 2] = 1;
        v[b + 3] = r[2 * i];
      }
    } else {
      // 1 on the translation, −[r]× on the rotation: rows x: (z, −y), y: (−z, x), z: (y, −x);
      // a child frame's rotation rows: 1.
      const per = this.outD === 6 ? 12 : 9;
      for (let i = 0; i < n; i++) {
        const x = r[3 * i],
          y = r[3 * i + 1],
          z = r[3 * i + 2];
        const b = per * i;
        v[b] = 1;
        v[b + 1] = z;
        v[b + 2] = -y;
        v[b + 3] = 1;
        v[b + 4] = -z;
        v[b + 5] = x;
        v[b + 6] = 1;
        v[b + 7] = y;
        v[b + 8] = -x;
        if (per === 12) v[b + 9] = v[b + 10] = v[b + 11] = 1;
      }
    }
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const vin = ins[0];
    const r = this.rotated;
    const id = this.inD,
      od = this.outD;
    for (let i = 0; i < this.frame.length; i++) {
      const o = id * this.frame[i];
      const a = od * i;
      if (this.pd === 2) {
        // v + ω·(−r_y, r_x)
        const w = vin[o + 2];
        out[a] = vin[o] - w * r[2 * i + 1];
        out[a + 1] = vin[o + 1] + w * r[2 * i];
        continue;
      }
      const wx = vin[o + 3],
        wy = vin[o + 4],
        wz = vin[o + 5];
      const x = r[3 * i],
        y = r[3 * i + 1],
        z = r[3 * i + 2];
      // v + ω × r
      out[a] = vin[o] + (wy * z - wz * y);
      out[a + 1] = vin[o + 1] + (wz * x - wx * z);
      out[a + 2] = vin[o + 2] + (wx * y - wy * x);
      if (od === 6) {
        out[a + 3] = wx;
        out[a + 4] = wy;
        out[a + 5] = wz;
      }
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const fin = ins[0];
    const r = this.rotated;
    const id = this.inD,
      od = this.outD;
    for (let i = 0; i < this.frame.length; i++) {
      const o = id * this.frame[i];
      const a = od * i;
      if (this.pd === 2) {
        const fx = out[a],
          fy = out[a + 1];
        fin[o] += fx;
        fin[o + 1] += fy;
        // torque += r × f (its z component)
        fin[o + 2] += r[2 * i] * fy - r[2 * i + 1] * fx;
        continue;
      }
      const fx = out[a],
        fy = out[a + 1],
        fz = out[a + 2];
      const x = r[3 * i],
        y = r[3 * i + 1],
        z = r[3 * i + 2];
      fin[o] += fx;
      fin[o + 1] += fy;
      fin[o + 2] += fz;
      // torque += r × f (+ the child frame's torque)
      fin[o + 3] += y * fz - z * fy;
      fin[o + 4] += z * fx - x * fz;
      fin[o + 5] += x * fy - y * fx;
      if (od === 6) {
        fin[o + 3] += out[a + 3];
        fin[o + 4] += out[a + 4];
        fin[o + 5] += out[a + 5];
      }
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }

  /** block = Σ_{points of frame j} [f]×·[r]× (row-major), symmetrised and NSD-projected when Stabilized. */
  private frameBlock(j: number, childForce: Float64Array): Float64Array {
    const K = this.block;
    K.fill(0);
    const r = this.rotated;
    for (let k = this.framePtr[j]; k < this.framePtr[j + 1]; k++) {
      const i = this.byFrame[k];
      const od = this.outD;
      const fx = childForce[od * i],
        fy = childForce[od * i + 1],
        fz = childForce[od * i + 2];
      const x = r[3 * i],
        y = r[3 * i + 1],
        z = r[3 * i + 2];
      // [f]×[r]× = r·fᵀ − (f·r)·I
      const d = fx * x + fy * y + fz * z;
      K[0] += x * fx - d;
      K[1] += x * fy;
      K[2] += x * fz;
      K[3] += y * fx;
      K[4] += y * fy - d;
      K[5] += y * fz;
      K[6] += z * fx;
      K[7] += z * fy;
      K[8] += z * fz - d;
    }
    if (this.geometricStiffness.value === 'Stabilized') {
      // symmetrise: the pairs (1, 3), (2, 6), (5, 7) of the row-major 3x3
      const s01 = 0.5 * (K[1] + K[3]),
        s02 = 0.5 * (K[2] + K[6]),
        s12 = 0.5 * (K[5] + K[7]);
      K[1] = K[3] = s01;
      K[2] = K[6] = s02;
      K[5] = K[7] = s12;
      nsdProject3(K, this.eigenVectors, this.eigenValues);
    }
    return K;
  }

  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None' || this.pd === 2) return;
    const df = dfIns[0];
    const dx = dxIns[0];
    for (let j = 0; j < this.frames.length; j++) {
      const o = 6 * this.frames[j];
      const K = this.frameBlock(j, childForce);
      const a = dx[o + 3],
        b = dx[o + 4],
        c = dx[o + 5];
      df[o + 3] += kFactor * (K[0] * a + K[1] * b + K[2] * c);
      df[o + 4] += kFactor * (K[3] * a + K[4] * b + K[5] * c);
      df[o + 5] += kFactor * (K[6] * a + K[7] * b + K[8] * c);
    }
  }

  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None' || this.pd === 2) return;
    for (let j = 0; j < this.frames.length; j++) {
      const o = 6 * this.frames[j] + 3;
      const K = this.frameBlock(j, childForce);
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) acc.add(o + a, o + b, kFactor * K[3 * a + b]);
    }
  }
}

/**
 * out[off..off+2] = R(q)·(x, y, z), or Rᵀ(q)·(x, y, z) when `inverse`, for the unit quaternion
 * q = (qx, qy, qz, qw) at xin[qoff..qoff+3]: R = I + 2w·[u]× + 2·[u]×², u = (qx, qy, qz).
 */
function rotate(out: Float64Array, off: number, xin: Float64Array, qoff: number, x: number, y: number, z: number, inverse: boolean): void {
  const qx = xin[qoff],
    qy = xin[qoff + 1],
    qz = xin[qoff + 2];
  const qw = inverse ? -xin[qoff + 3] : xin[qoff + 3];
  const r00 = 1 - 2 * (qy * qy + qz * qz),
    r01 = 2 * (qx * qy - qz * qw),
    r02 = 2 * (qz * qx + qy * qw);
  const r10 = 2 * (qx * qy + qz * qw),
    r11 = 1 - 2 * (qz * qz + qx * qx),
    r12 = 2 * (qy * qz - qx * qw);
  const r20 = 2 * (qz * qx - qy * qw),
    r21 = 2 * (qy * qz + qx * qw),
    r22 = 1 - 2 * (qy * qy + qx * qx);
  out[off] = r00 * x + r01 * y + r02 * z;
  out[off + 1] = r10 * x + r11 * y + r12 * z;
  out[off + 2] = r20 * x + r21 * y + r22 * z;
}
