import { isMechanicalState, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from '@sofa-ts/mapping';
import { SplineScratch, controlPoints, interpolateFrame, quatToMatrix } from './beam-frames.js';
import type { BeamSet } from './beam-set.js';

/** Where a mapped point is: on beam `beam` of `set` at barycentric coordinate `bary`, offset (y, z) in the beam frame. */
export interface BeamPointPlace {
  set: BeamSet | undefined;
  beam: number;
  bary: number;
  y: number;
  z: number;
}

/**
 * The points of BeamAdapter's beam mappings (AdaptiveBeamMapping, MultiAdaptiveBeamMapping): each
 * output point is placed by `locate` on a beam of a beam set; on beam b (end frames (p_0, R_0),
 * (p_1, R_1), rest length L, Bézier control points P_k, weights a_k of t):
 *   x = P(t) + R(t)·(0, y, z), R(t) the frame the spline interpolates at t (beam-frames.ts);
 *   J: v = Σ a_k V_k + (a_0 + a_1)·ω_0 × R_0ℓ + (a_2 + a_3)·ω_1 × R_1ℓ, ℓ = (0, y, z),
 *      V_0 = v_0, V_1 = v_0 + ω_0 × R_0·(L/3, 0, 0), V_2 = v_1 − ω_1 × R_1·(L/3, 0, 0), V_3 = v_1
 *   (BeamAdapter's applyJonPoint: the derivative for points on the centre line; off it the lever
 *   turns with the end frames rather than with R(t)). A point with no beam (nothing deployed) is at 0.
 * J's pattern follows the beams; when it changes for a mechanical output, the node reports a
 * topological change so that the solvers rebuild their patterns.
 */
export abstract class BeamPointMapping extends MappingComponent {
  /** Frames of each point's beam (2 per point, −1: none) and J's weights and levers (w0, c0, w1, c1: 8 per point). */
  private frames = new Int32Array(0);
  private jac = new Float64Array(0);
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private readonly w = new SplineScratch();
  private readonly E = new Float64Array(14);
  private readonly R = new Float64Array(18);
  private readonly pq = new Float64Array(7);
  protected readonly place: BeamPointPlace = { set: undefined, beam: 0, bary: 0, y: 0, z: 0 };

  get isLinear(): boolean {
    return false;
  }

  /** Where point i is for the current beams (fills this.place; set undefined: no beam). */
  protected abstract locate(i: number): void;

  /** Number of mapped points. */
  protected abstract get pointCount(): number;

  /** Sizes the per-point arrays and the output for n points. */
  protected allocatePoints(n: number): void {
    this.resizeOutput(n);
    this.frames = new Int32Array(2 * n).fill(-1);
    this.jac = new Float64Array(8 * n);
    this.J = this.buildJ();
  }

  private buildJ(): CsrMatrix {
    const n = this.frames.length / 2,
      rowPtr = new Int32Array(3 * n + 1),
      cols: number[] = [];
    for (let i = 0; i < n; i++) {
      const f0 = this.frames[2 * i],
        f1 = this.frames[2 * i + 1];
      const fs = f0 < 0 ? [] : f0 === f1 ? [f0] : [Math.min(f0, f1), Math.max(f0, f1)];
      for (let r = 0; r < 3; r++) {
        for (const f of fs) for (let c = 0; c < 6; c++) cols.push(6 * f + c);
        rowPtr[3 * i + r + 1] = cols.length;
      }
    }
    return createCsr(3 * n, 6 * this.from.size, rowPtr, Int32Array.from(cols));
  }

  apply(): void {
    const x = this.from.x,
      out = this.outputPositions(),
      n = this.pointCount,
      E = this.E,
      R = this.R,
      pq = this.pq,
      jac = this.jac,
      P = this.w.P,
      pl = this.place;
    let changed = false;
    for (let i = 0; i < n; i++) {
      this.locate(i);
      const set = pl.set;
      if (!set) {
        out.fill(0, 3 * i, 3 * i + 3);
        if (this.frames[2 * i] !== -1) changed = true;
        this.frames[2 * i] = this.frames[2 * i + 1] = -1;
        continue;
      }
      const b = pl.beam,
        t = pl.bary,
        y = pl.y,
        z = pl.z;
      const f0 = set.nodes[2 * b],
        f1 = set.nodes[2 * b + 1];
      if (this.frames[2 * i] !== f0 || this.frames[2 * i + 1] !== f1) changed = true;
      this.frames[2 * i] = f0;
      this.frames[2 * i + 1] = f1;
      set.endFrames(E, x, b);
      const L = set.lengths[b];
      const u = 1 - t,
        a0 = u * u * u,
        a1 = 3 * t * u * u,
        a2 = 3 * t * t * u,
        a3 = t * t * t;
      if (y !== 0 || z !== 0) {
        interpolateFrame(pq, 0, pq, 3, E, 0, 7, L, t, this.w);
        quatToMatrix(R, 0, pq, 3);
        for (let c = 0; c < 3; c++) out[3 * i + c] = pq[c] + R[3 * c + 1] * y + R[3 * c + 2] * z;
      } else {
        controlPoints(P, E, 0, 7, L, R);
        for (let c = 0; c < 3; c++) out[3 * i + c] = a0 * P[c] + a1 * P[3 + c] + a2 * P[6 + c] + a3 * P[9 + c];
      }
      // c0 = a1·R0·(L/3, 0, 0) + (a0 + a1)·R0·ℓ, c1 = −a2·R1·(L/3, 0, 0) + (a2 + a3)·R1·ℓ
      quatToMatrix(R, 0, E, 3);
      quatToMatrix(R, 9, E, 10);
      const w0 = a0 + a1,
        w1 = a2 + a3,
        o = 8 * i;
      jac[o] = w0;
      jac[o + 4] = w1;
      for (let c = 0; c < 3; c++) {
        jac[o + 1 + c] = (a1 * L * R[3 * c]) / 3 + w0 * (R[3 * c + 1] * y + R[3 * c + 2] * z);
        jac[o + 5 + c] = (-a2 * L * R[9 + 3 * c]) / 3 + w1 * (R[9 + 3 * c + 1] * y + R[9 + 3 * c + 2] * z);
      }
    }
    if (changed) {
      this.J = this.buildJ();
      if (isMechanicalState(this.to) && this.hasContext) this.context.topologyChanged();
    }
    this.fillJ();
    this.touchOutput();
  }

  /** J's values: rows [w·I, −[c]×] per frame (the two frames' blocks summed when they are one frame). */
  private fillJ(): void {
    const J = this.J,
      vals = J.values,
      cols = J.colInd,
      jac = this.jac,
      n = this.frames.length / 2;
    vals.fill(0);
    for (let i = 0; i < n; i++) {
      for (let r = 0; r < 3; r++) {
        const row = 3 * i + r,
          k0 = J.rowPtr[row],
          k1 = J.rowPtr[row + 1];
        for (let f = 0; f < 2; f++) {
          const fr = this.frames[2 * i + f];
          if (fr < 0) continue;
          let k = k0;
          while (k < k1 && cols[k] !== 6 * fr) k++;
          const o = 8 * i + 4 * f,
            cx = jac[o + 1],
            cy = jac[o + 2],
            cz = jac[o + 3];
          vals[k + r] += jac[o];
          const sk = r === 0 ? [0, cz, -cy] : r === 1 ? [-cz, 0, cx] : [cy, -cx, 0];
          for (let c = 0; c < 3; c++) vals[k + 3 + c] += sk[c];
        }
      }
    }
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const v = ins[0],
      jac = this.jac,
      n = this.frames.length / 2;
    for (let i = 0; i < n; i++) {
      out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = 0;
      for (let f = 0; f < 2; f++) {
        const fr = this.frames[2 * i + f];
        if (fr < 0) continue;
        const d = 6 * fr,
          o = 8 * i + 4 * f,
          wgt = jac[o],
          cx = jac[o + 1],
          cy = jac[o + 2],
          cz = jac[o + 3];
        const wx = v[d + 3],
          wy = v[d + 4],
          wz = v[d + 5];
        // w·v + ω × c
        out[3 * i] += wgt * v[d] + wy * cz - wz * cy;
        out[3 * i + 1] += wgt * v[d + 1] + wz * cx - wx * cz;
        out[3 * i + 2] += wgt * v[d + 2] + wx * cy - wy * cx;
      }
    }
  }

  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    const fIn = ins[0],
      jac = this.jac,
      n = this.frames.length / 2;
    for (let i = 0; i < n; i++) {
      const fx = out[3 * i],
        fy = out[3 * i + 1],
        fz = out[3 * i + 2];
      for (let f = 0; f < 2; f++) {
        const fr = this.frames[2 * i + f];
        if (fr < 0) continue;
        const d = 6 * fr,
          o = 8 * i + 4 * f,
          wgt = jac[o],
          cx = jac[o + 1],
          cy = jac[o + 2],
          cz = jac[o + 3];
        // (w·f, c × f)
        fIn[d] += wgt * fx;
        fIn[d + 1] += wgt * fy;
        fIn[d + 2] += wgt * fz;
        fIn[d + 3] += cy * fz - cz * fy;
        fIn[d + 4] += cz * fx - cx * fz;
        fIn[d + 5] += cx * fy - cy * fx;
      }
    }
  }

  getJ(_input: number): SparseMatrixLike {
    return this.J;
  }
}

/**
 * Beam and barycentric coordinate of curvilinear abscissa s on the beams of `set` (BeamAdapter's
 * getBeamAtCurvAbs): s_b = s + Σ L − ℓ_total measured along the beams from the first; before it,
 * the start of beam 0; past them, the end of the last. Writes place.beam and place.bary.
 */
export function beamAtAbscissa(set: BeamSet, s: number, place: BeamPointPlace): void {
  const n = set.beamCount,
    Ls = set.lengths;
  let total = 0;
  for (let b = 0; b < n; b++) total += Ls[b];
  const xi = s + total - set.restTotalLength;
  place.beam = 0;
  place.bary = 0;
  if (xi < 0) return;
  let acc = 0;
  for (let e = 0; e < n; e++) {
    acc += Ls[e];
    if (acc > xi) {
      place.beam = e;
      place.bary = (xi - (acc - Ls[e])) / Ls[e];
      return;
    }
  }
  place.beam = n - 1;
  place.bary = 1;
}
