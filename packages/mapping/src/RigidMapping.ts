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
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';
import { nsdProject3 } from './nsd-projection.js';

/**
 * SOFA's RigidMapping (Rigid3d → Vec3d): points attached to rigid frames. With frame (c, q) of
 * rotation R, a point of local coordinates p maps to
 *   x = c + R·p,      r = R·p (the "rotated point"),
 *   J = [ I  −[r]× ]  per point (v_out = v_c + ω × r),   Jᵀ·f = (f, r × f).
 * ω is the angular velocity in the world frame, as the Rigid3d integration uses it.
 * Geometric stiffness (for a fixed child force f): ∂(Jᵀf)/∂x acts on the frame's rotation only,
 *   K_geo = Σ_points [f]×·[r]×   (r × f changes by (δθ × r) × f = [f]×[r]× δθ),
 * not symmetric ('Exact'); 'Stabilized' symmetrises it and projects it on the negative
 * semi-definite matrices; 'None' (SOFA's default for this mapping) ignores it.
 * Local coordinates: `initialPoints`, else the output positions at init (taken as local
 * coordinates, or converted with Rᵀ·(x − c) when globalToLocalCoords), or the output's rest
 * positions at every step with useX0. Frame of point i: rigidIndexPerPoint[i] when it has one
 * entry per point, else `index` (counted from the end with indexFromEnd).
 */
@sofaComponent({
  name: 'RigidMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.NonLinear',
  description: 'Points (Vec3) rigidly attached to rigid frames (Rigid3).',
  templates: ['Rigid3d,Vec3d'],
})
export class RigidMapping extends MappingComponent {
  readonly initialPoints = this.initData({ name: 'initialPoints', type: RealArray(3, 'vector<Vec3d>'), default: new Float64Array(0), help: 'local coordinates of the points' });
  readonly index = this.initData({ name: 'index', type: UInt, default: 0, help: 'input DOF index' });
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'Xsp file where rigid mapping information can be loaded from', aliases: ['fileRigidMapping'] });
  readonly useX0 = this.initData({ name: 'useX0', type: Bool, default: false, help: 'use x0 instead of local copy of initial positions (to support topo changes)' });
  readonly indexFromEnd = this.initData({ name: 'indexFromEnd', type: Bool, default: false, help: 'input DOF index starts from the end of input DOFs vector' });
  readonly rigidIndexPerPoint = this.initData({ name: 'rigidIndexPerPoint', type: Indices, default: new Uint32Array(0), help: 'for each mapped point, the index of the Rigid it is mapped from' });
  readonly globalToLocalCoords = this.initData({ name: 'globalToLocalCoords', type: Bool, default: false, help: 'are the output DOFs initially expressed in global coordinates' });
  readonly geometricStiffness = this.initData({ name: 'geometricStiffness', type: Enum(['None', 'Exact', 'Stabilized']), default: 'None', help: 'method used to compute the geometric stiffness: None (not computed), Exact (non-symmetric), Stabilized (symmetrised, negative semi-definite projection)' });
  readonly repartition = this.initData({ name: 'repartition', type: Indices, default: new Uint32Array(0), help: 'deprecated: number of consecutive points attached to each frame (use rigidIndexPerPoint)' });

  /** (nOut) frame index of each point. */
  private frame: Uint32Array = new Uint32Array(0);
  /** (nOut × 3) local coordinates, (nOut × 3) rotated points r = R·p at the last apply. */
  private local: Float64Array = new Float64Array(0);
  private rotated: Float64Array = new Float64Array(0);
  /** (3·nOut × 6·nIn) Jacobian; each row holds 3 entries: the identity and two of −[r]×. */
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
    this.checkTemplates(['Rigid3d,Vec3d']);
    if (this.filename.value !== '') throw this.error(`loading points from a file ('${this.filename.value}') is not supported`, 'give the points as initialPoints or as the output positions');
    const nIn = this.from.size;
    if (this.useX0.value && !isMechanicalState(this.to)) throw this.error('useX0 needs a MechanicalObject as output (it reads its rest positions)');
    // Local coordinates (SOFA's reinit): initialPoints, else the output's positions.
    let pts = this.initialPoints.value;
    const fromOutput = !this.useX0.value && pts.length === 0;
    if (this.useX0.value) pts = this.restOfOutput();
    else if (fromOutput) pts = Float64Array.from(this.outputPositions().subarray(0, this.outputSize() * 3));
    const n = pts.length / 3;
    this.frame = this.frameIndices(n, nIn);
    if (fromOutput && this.globalToLocalCoords.value) {
      // p = Rᵀ·(x − c) with the frame at init.
      const xf = this.from.x;
      for (let i = 0; i < n; i++) {
        const o = 7 * this.frame[i]!;
        const dx = pts[3 * i]! - xf[o]!, dy = pts[3 * i + 1]! - xf[o + 1]!, dz = pts[3 * i + 2]! - xf[o + 2]!;
        rotate(pts, 3 * i, xf, o + 3, dx, dy, dz, true);
      }
    }
    this.local = pts;
    if (fromOutput) this.initialPoints.value = pts;
    this.rotated = new Float64Array(3 * n);
    this.groupByFrame(n);
    this.buildJPattern(n, nIn);
    this.resizeOutput(n);
    this.apply();
    if (isMechanicalState(this.to)) this.applyJ(this.to.v, [this.from.v]);
    if (this.applyRestPosition.value && isMechanicalState(this.to)) this.mapPositions(this.to.x0, this.from.x0, undefined);
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
        const count = rep.length === 1 ? rep[0]! : (rep[f] ?? 0);
        if (count === 0 && (rep.length === 1 || f >= rep.length)) break;
        for (let j = 0; j < count && i < n; j++) per[i++] = f;
      }
      this.rigidIndexPerPoint.value = per;
    }
    const out = new Uint32Array(n);
    const fixed = this.indexFromEnd.value ? nIn - 1 - this.index.value : this.index.value;
    for (let i = 0; i < n; i++) out[i] = per.length === n ? per[i]! : fixed;
    for (let i = 0; i < n; i++) {
      if (out[i]! >= nIn) throw this.error(`point ${i} is attached to frame ${out[i]}, but the input has ${nIn} frames`);
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

  /** Pattern of J: row 3i+a holds column 6f+a and the two off-diagonal columns of −[r]× (sorted). */
  private buildJPattern(n: number, nIn: number): void {
    const rowPtr = new Int32Array(3 * n + 1);
    const colInd = new Int32Array(9 * n);
    const skewCols = [
      [4, 5],
      [3, 5],
      [3, 4],
    ];
    for (let i = 0; i < n; i++) {
      const f6 = 6 * this.frame[i]!;
      for (let a = 0; a < 3; a++) {
        const r = 3 * i + a;
        colInd[3 * r] = f6 + a;
        colInd[3 * r + 1] = f6 + skewCols[a]![0]!;
        colInd[3 * r + 2] = f6 + skewCols[a]![1]!;
        rowPtr[r + 1] = 3 * (r + 1);
      }
    }
    this.J = createCsr(3 * n, 6 * nIn, rowPtr, colInd);
  }

  get isLinear(): boolean {
    return false;
  }

  /** x_out = c + R·p for every point; keeps r = R·p in `rotated` when given. */
  private mapPositions(out: Float64Array, xin: Float64Array, rotated: Float64Array | undefined): void {
    const pts = this.useX0.value ? this.restOfOutput() : this.local;
    const r = rotated ?? new Float64Array(3);
    const n = this.frame.length;
    for (let i = 0; i < n; i++) {
      const o = 7 * this.frame[i]!;
      const ri = rotated ? 3 * i : 0;
      rotate(r, ri, xin, o + 3, pts[3 * i]!, pts[3 * i + 1]!, pts[3 * i + 2]!, false);
      out[3 * i] = xin[o]! + r[ri]!;
      out[3 * i + 1] = xin[o + 1]! + r[ri + 1]!;
      out[3 * i + 2] = xin[o + 2]! + r[ri + 2]!;
    }
  }

  apply(): void {
    this.mapPositions(this.outputPositions(), this.from.x, this.rotated);
    // J values: 1 on the translation, −[r]× on the rotation: rows x: (z, −y), y: (−z, x), z: (y, −x).
    const v = this.J.values;
    const r = this.rotated;
    for (let i = 0; i < this.frame.length; i++) {
      const x = r[3 * i]!, y = r[3 * i + 1]!, z = r[3 * i + 2]!;
      const b = 9 * i;
      v[b] = 1; v[b + 1] = z; v[b + 2] = -y;
      v[b + 3] = 1; v[b + 4] = -z; v[b + 5] = x;
      v[b + 6] = 1; v[b + 7] = y; v[b + 8] = -x;
    }
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const vin = ins[0]!;
    const r = this.rotated;
    for (let i = 0; i < this.frame.length; i++) {
      const o = 6 * this.frame[i]!;
      const wx = vin[o + 3]!, wy = vin[o + 4]!, wz = vin[o + 5]!;
      const x = r[3 * i]!, y = r[3 * i + 1]!, z = r[3 * i + 2]!;
      // v + ω × r
      out[3 * i] = vin[o]! + (wy * z - wz * y);
      out[3 * i + 1] = vin[o + 1]! + (wz * x - wx * z);
      out[3 * i + 2] = vin[o + 2]! + (wx * y - wy * x);
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const fin = ins[0]!;
    const r = this.rotated;
    for (let i = 0; i < this.frame.length; i++) {
      const o = 6 * this.frame[i]!;
      const fx = out[3 * i]!, fy = out[3 * i + 1]!, fz = out[3 * i + 2]!;
      const x = r[3 * i]!, y = r[3 * i + 1]!, z = r[3 * i + 2]!;
      fin[o] += fx;
      fin[o + 1] += fy;
      fin[o + 2] += fz;
      // torque += r × f
      fin[o + 3] += y * fz - z * fy;
      fin[o + 4] += z * fx - x * fz;
      fin[o + 5] += x * fy - y * fx;
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
    for (let k = this.framePtr[j]!; k < this.framePtr[j + 1]!; k++) {
      const i = this.byFrame[k]!;
      const fx = childForce[3 * i]!, fy = childForce[3 * i + 1]!, fz = childForce[3 * i + 2]!;
      const x = r[3 * i]!, y = r[3 * i + 1]!, z = r[3 * i + 2]!;
      // [f]×[r]× = r·fᵀ − (f·r)·I
      const d = fx * x + fy * y + fz * z;
      K[0] += x * fx - d; K[1] += x * fy; K[2] += x * fz;
      K[3] += y * fx; K[4] += y * fy - d; K[5] += y * fz;
      K[6] += z * fx; K[7] += z * fy; K[8] += z * fz - d;
    }
    if (this.geometricStiffness.value === 'Stabilized') {
      // symmetrise: the pairs (1, 3), (2, 6), (5, 7) of the row-major 3x3
      const s01 = 0.5 * (K[1]! + K[3]!), s02 = 0.5 * (K[2]! + K[6]!), s12 = 0.5 * (K[5]! + K[7]!);
      K[1] = K[3] = s01;
      K[2] = K[6] = s02;
      K[5] = K[7] = s12;
      nsdProject3(K, this.eigenVectors, this.eigenValues);
    }
    return K;
  }

  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    const df = dfIns[0]!;
    const dx = dxIns[0]!;
    for (let j = 0; j < this.frames.length; j++) {
      const o = 6 * this.frames[j]!;
      const K = this.frameBlock(j, childForce);
      const a = dx[o + 3]!, b = dx[o + 4]!, c = dx[o + 5]!;
      df[o + 3] += kFactor * (K[0]! * a + K[1]! * b + K[2]! * c);
      df[o + 4] += kFactor * (K[3]! * a + K[4]! * b + K[5]! * c);
      df[o + 5] += kFactor * (K[6]! * a + K[7]! * b + K[8]! * c);
    }
  }

  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    for (let j = 0; j < this.frames.length; j++) {
      const o = 6 * this.frames[j]! + 3;
      const K = this.frameBlock(j, childForce);
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) acc.add(o + a, o + b, kFactor * K[3 * a + b]!);
    }
  }
}

/**
 * out[off..off+2] = R(q)·(x, y, z), or Rᵀ(q)·(x, y, z) when `inverse`, for the unit quaternion
 * q = (qx, qy, qz, qw) at xin[qoff..qoff+3]: R = I + 2w·[u]× + 2·[u]×², u = (qx, qy, qz).
 */
function rotate(out: Float64Array, off: number, xin: Float64Array, qoff: number, x: number, y: number, z: number, inverse: boolean): void {
  const qx = xin[qoff]!, qy = xin[qoff + 1]!, qz = xin[qoff + 2]!;
  const qw = inverse ? -xin[qoff + 3]! : xin[qoff + 3]!;
  const r00 = 1 - 2 * (qy * qy + qz * qz), r01 = 2 * (qx * qy - qz * qw), r02 = 2 * (qz * qx + qy * qw);
  const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qz * qz + qx * qx), r12 = 2 * (qy * qz - qx * qw);
  const r20 = 2 * (qz * qx - qy * qw), r21 = 2 * (qy * qz + qx * qw), r22 = 1 - 2 * (qy * qy + qx * qx);
  out[off] = r00 * x + r01 * y + r02 * z;
  out[off + 1] = r10 * x + r11 * y + r12 * z;
  out[off + 2] = r20 * x + r21 * y + r22 * z;
}
