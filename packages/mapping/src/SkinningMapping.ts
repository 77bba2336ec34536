import { Bool, Enum, Indices, RealArray, UInt, sofaComponent, type MatrixAccumulator, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';
import { nsdProject3 } from './nsd-projection.js';

const templates = ['Rigid3d,Vec3d'];

/**
 * SOFA's SkinningMapping (linear blend skinning, Rigid3 → Vec3): point i follows up to nbRef
 * frames j with weights w_ij,
 *   x_i = Σ_j w_ij·(c_j + R_j·p_ij),  p_ij = R⁰_jᵀ·(x⁰_i − c⁰_j)   (frames at their rest positions,
 *   points at initPos),  J_ij = [w_ij·I  −[r_ij]×],  r_ij = w_ij·R_j·p_ij,
 * the sum stopping at the first non-positive weight of a point, as SOFA. Without weights and
 * indices (one list per point) they are SOFA's: the nbRef nearest frames (rest centres) weighted by
 * 1/d², normalised (a frame on the point gets the largest double). Weights are normalised at init.
 * `weight` and `indices` are read as flat lists of nbRef values per point (brackets and commas are
 * separators). Geometric stiffness (sofa-ts; SOFA computes none for this mapping, the default
 * 'None'): ∂(Jᵀf)/∂θ_j = Σ_i [f_i]×·[r_ij]×, as RigidMapping's.
 */
@sofaComponent({
  name: 'SkinningMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Linear blend skinning: points follow a weighted blend of rigid frames.',
  templates,
})
export class SkinningMapping extends MappingComponent {
  readonly initPos = this.initData({
    name: 'initPos',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'initial child coordinates in the world reference frame',
  });
  readonly nbRef = this.initData({
    name: 'nbRef',
    type: Indices,
    default: Uint32Array.of(4),
    help: 'Number of primitives influencing each point',
  });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'parent indices for each child (nbRef per point)',
  });
  readonly weight = this.initData({
    name: 'weight',
    type: RealArray(1, 'vector<SVector<double>>'),
    default: new Float64Array(0),
    help: 'influence weights of the Dofs (nbRef per point)',
  });
  readonly showFromIndex = this.initData({
    name: 'showFromIndex',
    type: UInt,
    default: 0,
    help: 'Displayed From Index',
    group: 'Visualization',
  });
  readonly showWeights = this.initData({ name: 'showWeights', type: Bool, default: false, help: 'Show influence', group: 'Visualization' });
  readonly geometricStiffness = this.initData({
    name: 'geometricStiffness',
    type: Enum(['None', 'Exact', 'Stabilized']),
    default: 'None',
    help: 'geometric stiffness (sofa-ts; SOFA computes none): None, Exact (non-symmetric), Stabilized (symmetrised, negative semi-definite)',
  });

  /** Per point: its first entry (n + 1); per entry (active weights only): frame, weight, p·w (3), r (3). */
  private ptr = new Int32Array(1);
  private frameOf = new Uint32Array(0);
  private w = new Float64Array(0);
  private local = new Float64Array(0);
  private rotated = new Float64Array(0);
  /** Per entry, its block in its point's row of J (entries of one frame share it). */
  private blockOf = new Int32Array(0);
  /** Per point: first block (n + 1); per block its frame (sorted within a point). */
  private bptr = new Int32Array(1);
  private bframe = new Uint32Array(0);
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private readonly block = new Float64Array(9);
  private readonly eigenVectors = new Float64Array(9);
  private readonly eigenValues = new Float64Array(3);
  private blockK = new Float64Array(0);

  get isLinear(): boolean {
    return false;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(templates);
    const nF = this.from.size;
    const xo = this.outputPositions();
    const n = this.outputSize();
    if (this.initPos.value.length !== 3 * n) this.initPos.value = Float64Array.from(xo.subarray(0, 3 * n));
    const x0 = this.initPos.value,
      rest = this.from.x0;
    const nbRef = this.nbRef.value;
    if (nbRef.length === 0) throw this.error('nbRef is empty');
    const refs = (i: number): number => (nbRef.length === n ? nbRef[i] : nbRef[0]);
    let total = 0;
    for (let i = 0; i < n; i++) total += refs(i);
    let idx = this.indices.value,
      wt = this.weight.value;
    if (idx.length !== total || wt.length !== total) {
      [idx, wt] = this.nearestFrames(n, refs, total, x0, rest);
      this.indices.value = idx;
      this.weight.value = wt;
    }
    // normalise each point's weights (written back, as SOFA's reinit); keep the entries before the first non-positive weight
    wt = Float64Array.from(wt);
    const frames: number[] = [],
      ws: number[] = [],
      ptr = [0];
    let o = 0;
    for (let i = 0; i < n; i++) {
      const m = refs(i);
      let sum = 0;
      for (let j = 0; j < m; j++) sum += wt[o + j];
      if (sum !== 0) for (let j = 0; j < m; j++) wt[o + j] = wt[o + j] / sum;
      for (let j = 0; j < m; j++) {
        const wij = wt[o + j];
        if (!(wij > 0)) break;
        const f = idx[o + j];
        if (f >= nF) throw this.error(`point ${i} is attached to frame ${f}, but the input has ${nF} frames`);
        frames.push(f);
        ws.push(wij);
      }
      o += m;
      ptr.push(frames.length);
    }
    this.weight.value = wt;
    this.ptr = Int32Array.from(ptr);
    this.frameOf = Uint32Array.from(frames);
    this.w = Float64Array.from(ws);
    const nE = frames.length;
    // p·w = R⁰ᵀ·(x⁰ − c⁰)·w
    this.local = new Float64Array(3 * nE);
    this.rotated = new Float64Array(3 * nE);
    for (let i = 0; i < n; i++) {
      for (let e = this.ptr[i]; e < this.ptr[i + 1]; e++) {
        const c = 7 * this.frameOf[e];
        rotate(this.local, 3 * e, rest, c + 3, x0[3 * i] - rest[c], x0[3 * i + 1] - rest[c + 1], x0[3 * i + 2] - rest[c + 2], true);
        for (let k = 0; k < 3; k++) this.local[3 * e + k] *= this.w[e];
      }
    }
    this.buildPattern(n, nF);
    this.blockK = new Float64Array(9 * nF);
    this.resizeOutput(n);
    this.apply();
    const out = this.getTo();
    if (out) this.applyJ(out.v, [this.from.v]);
    if (this.applyRestPosition.value && out) this.mapPositions(out.x0, this.from.x0, this.rotated);
  }

  /** SOFA's updateWeights: per point the nbRef frames of largest 1/d² (rest centres), normalised. */
  private nearestFrames(
    n: number,
    refs: (i: number) => number,
    total: number,
    x0: Float64Array,
    rest: Float64Array,
  ): [Uint32Array, Float64Array] {
    const idx = new Uint32Array(total),
      wt = new Float64Array(total);
    let o = 0;
    for (let i = 0; i < n; i++) {
      const m = refs(i);
      for (let f = 0; f < this.from.size; f++) {
        const d2 = (x0[3 * i] - rest[7 * f]) ** 2 + (x0[3 * i + 1] - rest[7 * f + 1]) ** 2 + (x0[3 * i + 2] - rest[7 * f + 2]) ** 2;
        const w = d2 !== 0 ? 1 / d2 : Number.MAX_VALUE;
        let k = 0;
        while (k !== m && wt[o + k] > w) k++;
        if (k === m) continue;
        for (let q = m - 1; q > k; q--) {
          wt[o + q] = wt[o + q - 1];
          idx[o + q] = idx[o + q - 1];
        }
        wt[o + k] = w;
        idx[o + k] = f;
      }
      let sum = 0;
      for (let j = 0; j < m; j++) sum += wt[o + j];
      if (sum !== 0) for (let j = 0; j < m; j++) wt[o + j] = wt[o + j] / sum;
      o += m;
    }
    return [idx, wt];
  }

  /** J's pattern: per point, one block per distinct frame (sorted), 3 rows × (3 translation + 2 rotation columns). */
  private buildPattern(n: number, nF: number): void {
    const bptr = [0],
      bframe: number[] = [];
    this.blockOf = new Int32Array(this.frameOf.length);
    for (let i = 0; i < n; i++) {
      const fs = Array.from(new Set(this.frameOf.subarray(this.ptr[i], this.ptr[i + 1]))).sort((a, b) => a - b);
      for (let e = this.ptr[i]; e < this.ptr[i + 1]; e++) this.blockOf[e] = bframe.length + fs.indexOf(this.frameOf[e]);
      bframe.push(...fs);
      bptr.push(bframe.length);
    }
    this.bptr = Int32Array.from(bptr);
    this.bframe = Uint32Array.from(bframe);
    const rowPtr = new Int32Array(3 * n + 1);
    const cols: number[] = [];
    const skew = [
      [4, 5],
      [3, 5],
      [3, 4],
    ];
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < 3; a++) {
        for (let b = this.bptr[i]; b < this.bptr[i + 1]; b++) {
          const f = 6 * this.bframe[b];
          cols.push(f + a, f + skew[a][0], f + skew[a][1]);
        }
        rowPtr[3 * i + a + 1] = cols.length;
      }
    }
    this.J = createCsr(3 * n, 6 * nF, rowPtr, Int32Array.from(cols));
  }

  private mapPositions(out: Float64Array, xin: Float64Array, rotated: Float64Array): void {
    const n = this.ptr.length - 1;
    for (let i = 0; i < n; i++) {
      let x = 0,
        y = 0,
        z = 0;
      for (let e = this.ptr[i]; e < this.ptr[i + 1]; e++) {
        const c = 7 * this.frameOf[e],
          w = this.w[e];
        rotate(rotated, 3 * e, xin, c + 3, this.local[3 * e], this.local[3 * e + 1], this.local[3 * e + 2], false);
        x += w * xin[c] + rotated[3 * e];
        y += w * xin[c + 1] + rotated[3 * e + 1];
        z += w * xin[c + 2] + rotated[3 * e + 2];
      }
      out[3 * i] = x;
      out[3 * i + 1] = y;
      out[3 * i + 2] = z;
    }
  }

  apply(): void {
    this.mapPositions(this.outputPositions(), this.from.x, this.rotated);
    // J values: per row a of point i, per block: (w, then −[r]× row a's two rotation columns)
    const v = this.J.values,
      rp = this.J.rowPtr,
      n = this.ptr.length - 1,
      r = this.rotated;
    v.fill(0);
    for (let i = 0; i < n; i++) {
      for (let e = this.ptr[i]; e < this.ptr[i + 1]; e++) {
        const b = this.blockOf[e] - this.bptr[i],
          w = this.w[e];
        const x = r[3 * e],
          y = r[3 * e + 1],
          z = r[3 * e + 2];
        // rows x: (w, z, −y), y: (w, −z, x), z: (w, y, −x)
        const r0 = rp[3 * i] + 3 * b,
          r1 = rp[3 * i + 1] + 3 * b,
          r2 = rp[3 * i + 2] + 3 * b;
        v[r0] += w;
        v[r0 + 1] += z;
        v[r0 + 2] -= y;
        v[r1] += w;
        v[r1 + 1] -= z;
        v[r1 + 2] += x;
        v[r2] += w;
        v[r2 + 1] += y;
        v[r2 + 2] -= x;
      }
    }
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const vin = ins[0],
      r = this.rotated,
      n = this.ptr.length - 1;
    for (let i = 0; i < n; i++) {
      let x = 0,
        y = 0,
        z = 0;
      for (let e = this.ptr[i]; e < this.ptr[i + 1]; e++) {
        const o = 6 * this.frameOf[e],
          w = this.w[e];
        const wx = vin[o + 3],
          wy = vin[o + 4],
          wz = vin[o + 5];
        const rx = r[3 * e],
          ry = r[3 * e + 1],
          rz = r[3 * e + 2];
        x += w * vin[o] + (wy * rz - wz * ry);
        y += w * vin[o + 1] + (wz * rx - wx * rz);
        z += w * vin[o + 2] + (wx * ry - wy * rx);
      }
      out[3 * i] = x;
      out[3 * i + 1] = y;
      out[3 * i + 2] = z;
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const fin = ins[0],
      r = this.rotated,
      n = this.ptr.length - 1;
    for (let i = 0; i < n; i++) {
      const fx = out[3 * i],
        fy = out[3 * i + 1],
        fz = out[3 * i + 2];
      for (let e = this.ptr[i]; e < this.ptr[i + 1]; e++) {
        const o = 6 * this.frameOf[e],
          w = this.w[e];
        const x = r[3 * e],
          y = r[3 * e + 1],
          z = r[3 * e + 2];
        fin[o] += w * fx;
        fin[o + 1] += w * fy;
        fin[o + 2] += w * fz;
        fin[o + 3] += y * fz - z * fy;
        fin[o + 4] += z * fx - x * fz;
        fin[o + 5] += x * fy - y * fx;
      }
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }

  /** Per frame, Σ_entries [f_i]×·[r_ij]× into blockK (9 per frame), symmetrised and NSD-projected when Stabilized. */
  private frameBlocks(childForce: Float64Array): Float64Array {
    const K = this.blockK,
      r = this.rotated,
      n = this.ptr.length - 1;
    K.fill(0);
    for (let i = 0; i < n; i++) {
      const fx = childForce[3 * i],
        fy = childForce[3 * i + 1],
        fz = childForce[3 * i + 2];
      for (let e = this.ptr[i]; e < this.ptr[i + 1]; e++) {
        const o = 9 * this.frameOf[e];
        const x = r[3 * e],
          y = r[3 * e + 1],
          z = r[3 * e + 2];
        // [f]×[r]× = r·fᵀ − (f·r)·I
        const d = fx * x + fy * y + fz * z;
        K[o] += x * fx - d;
        K[o + 1] += x * fy;
        K[o + 2] += x * fz;
        K[o + 3] += y * fx;
        K[o + 4] += y * fy - d;
        K[o + 5] += y * fz;
        K[o + 6] += z * fx;
        K[o + 7] += z * fy;
        K[o + 8] += z * fz - d;
      }
    }
    if (this.geometricStiffness.value === 'Stabilized') {
      const b = this.block;
      for (let f = 0; f < this.from.size; f++) {
        const o = 9 * f;
        for (let k = 0; k < 9; k++) b[k] = K[o + k];
        const s01 = 0.5 * (b[1] + b[3]),
          s02 = 0.5 * (b[2] + b[6]),
          s12 = 0.5 * (b[5] + b[7]);
        b[1] = b[3] = s01;
        b[2] = b[6] = s02;
        b[5] = b[7] = s12;
        nsdProject3(b, this.eigenVectors, this.eigenValues);
        for (let k = 0; k < 9; k++) K[o + k] = b[k];
      }
    }
    return K;
  }

  override applyDJT(dfIns: readonly Float64Array[], dxIns: readonly Float64Array[], childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    const df = dfIns[0],
      dx = dxIns[0],
      K = this.frameBlocks(childForce);
    for (let f = 0; f < this.from.size; f++) {
      const o = 6 * f + 3,
        k = 9 * f;
      const a = dx[o],
        b = dx[o + 1],
        c = dx[o + 2];
      df[o] += kFactor * (K[k] * a + K[k + 1] * b + K[k + 2] * c);
      df[o + 1] += kFactor * (K[k + 3] * a + K[k + 4] * b + K[k + 5] * c);
      df[o + 2] += kFactor * (K[k + 6] * a + K[k + 7] * b + K[k + 8] * c);
    }
  }

  override addGeometricStiffness(acc: MatrixAccumulator, childForce: Float64Array, kFactor: number): void {
    if (this.geometricStiffness.value === 'None') return;
    const K = this.frameBlocks(childForce);
    for (let f = 0; f < this.from.size; f++) {
      const o = 6 * f + 3;
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) acc.add(o + a, o + b, kFactor * K[9 * f + 3 * a + b]);
    }
  }
}

/**
 * out[off..off+2] = R(q)·(x, y, z), or Rᵀ(q)·(x, y, z) when `inverse`, for the unit quaternion
 * q = (qx, qy, qz, qw) at xin[qoff..qoff+3].
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
