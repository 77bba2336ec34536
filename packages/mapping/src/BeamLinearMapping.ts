import { Bool, isMechanicalState, sofaComponent, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from './mapping-component.js';

/**
 * SOFA's BeamLinearMapping: points along a chain of Rigid3 frames 0, 1, …, n − 1 (the beam nodes
 * in order), each following the two frames of its beam segment. A point has local coordinates
 * p = (s, p_y, p_z) in beam units: s = j + t on segment j (t ∈ [0, 1]), lengths in units of the
 * segment's rest length ℓ_j (localCoord, the default: the output positions at init are these
 * coordinates; otherwise they are computed from the positions in the frame of node 0, walking
 * along the segments). Then, with the cubic blend h = 3t² − 2t³:
 *   r₀ = ℓ_j·R_j·(t, p_y, p_z),  r₁ = ℓ_j·R_{j+1}·(t − 1, p_y, p_z),
 *   x = (1 − h)·(c_j + r₀) + h·(c_{j+1} + r₁),
 *   v = (1 − h)·(v_j + ω_j × r₀) + h·(v_{j+1} + ω_{j+1} × r₁)   (J, applyJ and applyJT alike;
 *   SOFA's assembled J leaves the translation blocks unweighted, this one is the derivative).
 * Segment lengths ℓ_j = |c_j − c_{j+1}| at init, the last one repeated.
 */
@sofaComponent({
  name: 'BeamLinearMapping',
  category: 'Mapping',
  module: 'Sofa.Component.Mapping.Linear',
  description: 'Points along a chain of Rigid3 beam frames, blended between the two frames of their segment.',
  templates: ['Rigid3d,Vec3d'],
})
export class BeamLinearMapping extends MappingComponent {
  readonly localCoord = this.initData({
    name: 'localCoord',
    type: Bool,
    default: true,
    help: 'the initial output coordinates are in the beam local system (a point at (10, 0, 0) is on frame 10); else they are world positions, measured along the beam from frame 0',
  });

  /** Local coordinates (nOut × 3) in beam units. */
  private points = new Float64Array(0);
  /** Segment of each point (nOut), its blend h (nOut), and ℓ_j per frame (nIn). */
  private segment = new Int32Array(0);
  private blend = new Float64Array(0);
  private beamLength = new Float64Array(0);
  /** r₀, r₁ per point at the last apply (nOut × 6). */
  private rotated = new Float64Array(0);
  /** (3·nOut × 6·nIn) Jacobian, 6 entries per row (3 per frame). */
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private readonly scratch = new Float64Array(3);

  get isLinear(): boolean {
    return false;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(['Rigid3d,Vec3d']);
    const xin = this.from.x,
      nIn = this.from.size;
    if (nIn < 2) throw this.error(`the input ${this.from.describe()} has ${nIn} frame(s); a beam needs at least 2`);
    this.beamLength = new Float64Array(nIn);
    for (let i = 0; i + 1 < nIn; i++)
      this.beamLength[i] = Math.hypot(xin[7 * i] - xin[7 * i + 7], xin[7 * i + 1] - xin[7 * i + 8], xin[7 * i + 2] - xin[7 * i + 9]);
    this.beamLength[nIn - 1] = this.beamLength[nIn - 2];
    const n = this.outputSize();
    const x = this.outputPositions();
    const pts = Float64Array.from(x.subarray(0, 3 * n));
    if (!this.localCoord.value) {
      // world → beam units, measured from frame 0 along the segments
      const v = new Float64Array(3);
      for (let i = 0; i < n; i++) {
        for (let c = 0; c < 3; c++) v[c] = pts[3 * i + c] - xin[c];
        rotateInverse(pts, 3 * i, xin, 3, v);
        let j = 0;
        while (j < nIn && pts[3 * i] >= this.beamLength[j]) {
          pts[3 * i] -= this.beamLength[j];
          j++;
        }
        const l = this.beamLength[Math.min(j, nIn - 1)];
        for (let c = 0; c < 3; c++) pts[3 * i + c] = pts[3 * i + c] / l;
        pts[3 * i] += j;
      }
    }
    this.points = pts;
    this.segment = new Int32Array(n);
    this.blend = new Float64Array(n);
    this.rotated = new Float64Array(6 * n);
    for (let i = 0; i < n; i++) {
      let j = Math.floor(pts[3 * i]);
      if (j < 0) j = 0;
      else if (j > nIn - 2) j = nIn - 2;
      this.segment[i] = j;
      const t = pts[3 * i] - j;
      this.blend[i] = 3 * t * t - 2 * t * t * t;
    }
    const rowPtr = new Int32Array(3 * n + 1),
      cols: number[] = [];
    const skew = [
      [4, 5],
      [3, 5],
      [3, 4],
    ];
    for (let i = 0; i < n; i++)
      for (let a = 0; a < 3; a++) {
        for (const f of [this.segment[i], this.segment[i] + 1]) cols.push(6 * f + a, 6 * f + skew[a][0], 6 * f + skew[a][1]);
        rowPtr[3 * i + a + 1] = cols.length;
      }
    this.J = createCsr(3 * n, 6 * nIn, rowPtr, Int32Array.from(cols));
    this.resizeOutput(n);
    this.apply();
    if (isMechanicalState(this.to)) this.applyJ(this.to.v, [this.from.v]);
  }

  apply(): void {
    const xin = this.from.x,
      out = this.outputPositions(),
      n = this.segment.length,
      r = this.rotated,
      p = this.points,
      Jv = this.J.values;
    const u = this.scratch;
    for (let i = 0; i < n; i++) {
      const j = this.segment[i],
        l = this.beamLength[j],
        h = this.blend[i],
        t = p[3 * i] - j;
      // r₀ = ℓ·R_j·(t, p_y, p_z), r₁ = ℓ·R_{j+1}·(t − 1, p_y, p_z)
      u[0] = t * l;
      u[1] = p[3 * i + 1] * l;
      u[2] = p[3 * i + 2] * l;
      rotateBy(r, 6 * i, xin, 7 * j + 3, u);
      u[0] = (t - 1) * l;
      rotateBy(r, 6 * i + 3, xin, 7 * (j + 1) + 3, u);
      for (let c = 0; c < 3; c++)
        out[3 * i + c] = (1 - h) * (xin[7 * j + c] + r[6 * i + c]) + h * (xin[7 * (j + 1) + c] + r[6 * i + 3 + c]);
      // J rows: w·[I, −[r]×] for each frame (w = 1 − h, h); columns (a, then the two rotation columns)
      for (let f = 0; f < 2; f++) {
        const w = f === 0 ? 1 - h : h,
          o = 6 * i + 3 * f;
        const x = r[o],
          y = r[o + 1],
          z = r[o + 2];
        const b = 18 * i + 3 * f;
        Jv[b] = w;
        Jv[b + 1] = w * z;
        Jv[b + 2] = -w * y;
        Jv[b + 6] = w;
        Jv[b + 7] = -w * z;
        Jv[b + 8] = w * x;
        Jv[b + 12] = w;
        Jv[b + 13] = w * y;
        Jv[b + 14] = -w * x;
      }
    }
    this.touchOutput();
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const vin = ins[0],
      n = this.segment.length,
      r = this.rotated;
    for (let i = 0; i < n; i++) {
      const j = this.segment[i],
        h = this.blend[i];
      out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = 0;
      for (let f = 0; f < 2; f++) {
        const w = f === 0 ? 1 - h : h,
          o = 6 * (j + f),
          ro = 6 * i + 3 * f;
        const wx = vin[o + 3],
          wy = vin[o + 4],
          wz = vin[o + 5],
          x = r[ro],
          y = r[ro + 1],
          z = r[ro + 2];
        // w·(v + ω × r)
        out[3 * i] += w * (vin[o] + wy * z - wz * y);
        out[3 * i + 1] += w * (vin[o + 1] + wz * x - wx * z);
        out[3 * i + 2] += w * (vin[o + 2] + wx * y - wy * x);
      }
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const fin = ins[0],
      n = this.segment.length,
      r = this.rotated;
    for (let i = 0; i < n; i++) {
      const j = this.segment[i],
        h = this.blend[i];
      const fx = out[3 * i],
        fy = out[3 * i + 1],
        fz = out[3 * i + 2];
      for (let f = 0; f < 2; f++) {
        const w = f === 0 ? 1 - h : h,
          o = 6 * (j + f),
          ro = 6 * i + 3 * f;
        const x = r[ro],
          y = r[ro + 1],
          z = r[ro + 2];
        // w·(f, r × f)
        fin[o] += w * fx;
        fin[o + 1] += w * fy;
        fin[o + 2] += w * fz;
        fin[o + 3] += w * (y * fz - z * fy);
        fin[o + 4] += w * (z * fx - x * fz);
        fin[o + 5] += w * (x * fy - y * fx);
      }
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }
}

/** out[o..o+3] = R(q)·v, q (x y z w) at qs[qo..qo+4]. */
function rotateBy(out: Float64Array, o: number, qs: ArrayLike<number>, qo: number, v: ArrayLike<number>): void {
  const x = qs[qo],
    y = qs[qo + 1],
    z = qs[qo + 2],
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

/** out[o..o+3] = R(q)ᵀ·v. */
function rotateInverse(out: Float64Array, o: number, qs: ArrayLike<number>, qo: number, v: ArrayLike<number>): void {
  const q = [-qs[qo], -qs[qo + 1], -qs[qo + 2], qs[qo + 3]];
  rotateBy(out, o, q, 0, v);
}
