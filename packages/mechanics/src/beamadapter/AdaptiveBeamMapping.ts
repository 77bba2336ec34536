import { Bool, Real, RealArray, isMechanicalState, sofaComponent, BaseObject, type SparseMatrixLike } from '@sofa-ts/core';
import { createCsr, type CsrMatrix } from '@sofa-ts/linalg';
import { MappingComponent } from '@sofa-ts/mapping';
import { SplineScratch, controlPoints, interpolateFrame, quatToMatrix } from './beam-frames.js';
import { isBeamSet, type BeamSet } from './beam-set.js';

/**
 * SOFA's AdaptiveBeamMapping (BeamAdapter plugin): points along the beams of a BeamInterpolation or
 * a WireBeamInterpolation. Point i is (s_i, y_i, z_i): the output's positions at init unless
 * `points` is given. With useCurvAbs, s_i is a curvilinear abscissa on the instrument, placed at
 * each step on the beams deployed (BeamAdapter's getBeamAtCurvAbs: s + Σ L_b − ℓ_total along the
 * beams from the base; before the first beam: its start); else s_i = beam + barycentric coordinate.
 * On beam b (end frames (p_0, R_0), (p_1, R_1), rest length L, Bézier P_k, weights a_k of t):
 *   x = P(t) + R(t)·(0, y, z), R(t) the frame the spline interpolates at t (beam-frames.ts);
 *   J: v = Σ a_k V_k + (a_0 + a_1)·ω_0 × R_0ℓ + (a_2 + a_3)·ω_1 × R_1ℓ, ℓ = (0, y, z),
 *      V_0 = v_0, V_1 = v_0 + ω_0 × R_0·(L/3, 0, 0), V_2 = v_1 − ω_1 × R_1·(L/3, 0, 0), V_3 = v_1
 *   (as BeamAdapter: the derivative for points on the centre line; for points off it, the lever
 *   turns with the end frames rather than with R(t)). Points left when no beam is deployed are at 0.
 */
@sofaComponent({
  name: 'AdaptiveBeamMapping',
  category: 'Mapping',
  module: 'BeamAdapter',
  description:
    'Points along the Bézier beams of a BeamInterpolation or WireBeamInterpolation (visual, collision or mechanical models of instruments).',
  templates: ['Rigid3d,Vec3d'],
})
export class AdaptiveBeamMapping extends MappingComponent {
  readonly useCurvAbs = this.initData({
    name: 'useCurvAbs',
    type: Bool,
    default: true,
    help: 'if true, the first coordinate of a point is its curvilinear abscissa (kept as the beams change); else beam index + barycentric coordinate',
  });
  readonly points = this.initData({
    name: 'points',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'mapped points (abscissa or beam coordinate, then y, z in the beam frame); default: the output positions at init',
  });
  readonly proximity = this.initData({
    name: 'proximity',
    type: Real,
    default: 0,
    help: 'lever of constraints at the surface of the beams: not implemented (an error when > 0)',
  });
  readonly nbPointsPerBeam = this.initData({
    name: 'nbPointsPerBeam',
    type: Real,
    default: 0,
    help: 'points resampled on every beam: not implemented (an error when > 0)',
  });
  readonly contactDuplicate = this.initData({
    name: 'contactDuplicate',
    type: Bool,
    default: false,
    help: 'copy of another mapping gathering contact points: not implemented (an error when true)',
  });
  readonly parallelMapping = this.initData({
    name: 'parallelMapping',
    type: Bool,
    default: false,
    help: 'parallel computation in BeamAdapter; sequential here (the result is the same)',
  });
  readonly interpolation = this.initLink<BeamSet & BaseObject>({
    name: 'interpolation',
    help: 'the BeamInterpolation or WireBeamInterpolation (default: the first one of the input state’s node)',
    accepts: (o): o is BeamSet & BaseObject => isBeamSet(o) && o instanceof BaseObject,
    expected: 'a BeamInterpolation or a WireBeamInterpolation',
    search: 'none',
  });

  private interp: BeamSet | undefined;
  private pts: Float64Array = new Float64Array(0);
  /** Beam and barycentric coordinate of each point (−1: none deployed). */
  private beamOf = new Int32Array(0);
  private baryOf = new Float64Array(0);
  /** Per point: weights w0, w1 and levers c0, c1 of J (8 numbers). */
  private jac = new Float64Array(0);
  private J: CsrMatrix = createCsr(0, 0, new Int32Array(1), new Int32Array(0));
  private jRevision = -1;
  private readonly w = new SplineScratch();
  private readonly E = new Float64Array(14);
  private readonly R = new Float64Array(18);
  private readonly pq = new Float64Array(7);

  get isLinear(): boolean {
    return false;
  }

  override init(): void {
    this.resolveEnds();
    this.checkTemplates(['Rigid3d,Vec3d']);
    if (this.proximity.value > 0) throw this.dataError(this.proximity, 'proximity (constraint levers) is not implemented in sofa-ts');
    if (this.nbPointsPerBeam.value > 0)
      throw this.dataError(this.nbPointsPerBeam, 'nbPointsPerBeam (resampled points) is not implemented in sofa-ts');
    if (this.contactDuplicate.value) throw this.dataError(this.contactDuplicate, 'contactDuplicate is not implemented in sofa-ts');
    let interp = this.interpolation.get();
    if (!interp) {
      const node = this.from.context;
      interp = node.getObjects((o): o is BeamSet & BaseObject => isBeamSet(o) && o instanceof BaseObject)[0];
      if (!interp) throw this.error(`no BeamInterpolation or WireBeamInterpolation beside ${this.from.describe()}: set interpolation="@…"`);
      this.interpolation.set(interp);
    }
    interp.prepare();
    if (interp.getState() !== this.from)
      throw this.error(
        `the interpolation ${(interp as BaseObject).describe()} is on ${interp.getState().describe()}, the input is ${this.from.describe()}`,
      );
    this.interp = interp;
  }

  /** The points, from the output once every component placed it (Edge2QuadTopologicalMapping, loaders). */
  override bwdInit(): void {
    let pts: Float64Array = this.points.value;
    if (pts.length === 0) {
      const n = this.outputSize();
      pts = Float64Array.from(this.outputPositions().subarray(0, 3 * n));
      if (n === 0) this.warn('no point to map: the output is empty and points="…" is not given');
      this.points.value = pts;
    }
    this.pts = pts;
    const n = pts.length / 3;
    this.resizeOutput(n);
    this.beamOf = new Int32Array(n);
    this.baryOf = new Float64Array(n);
    this.jac = new Float64Array(8 * n);
    const rowPtr = new Int32Array(3 * n + 1);
    for (let r = 0; r <= 3 * n; r++) rowPtr[r] = 12 * r;
    this.J = createCsr(3 * n, 6 * this.from.size, rowPtr, new Int32Array(36 * n));
    this.jRevision = -1;
    this.apply();
    if (isMechanicalState(this.to)) this.applyJ(this.to.v, [this.from.v]);
  }

  /** Beam and barycentric coordinate of every point for the current beams. */
  private distribute(): void {
    const it = this.interp!,
      nB = it.beamCount,
      p = this.pts,
      n = this.beamOf.length;
    let total = 0;
    for (let b = 0; b < nB; b++) total += it.lengths[b];
    const rest = it.restTotalLength;
    for (let i = 0; i < n; i++) {
      const s = p[3 * i];
      if (nB === 0) {
        this.beamOf[i] = -1;
        continue;
      }
      if (!this.useCurvAbs.value) {
        const b = Math.floor(s);
        if (b > nB - 1 || b < 0) {
          this.warnAbout(this.points, `point ${i} is on beam ${b}, outside the ${nB} beams: it is placed at the end of the last`);
          this.beamOf[i] = b < 0 ? 0 : nB - 1;
          this.baryOf[i] = b < 0 ? 0 : 1;
        } else {
          this.beamOf[i] = b;
          this.baryOf[i] = s - b;
        }
        continue;
      }
      const xi = s + total - rest;
      let b = 0,
        bary = 0;
      if (xi >= 0) {
        let acc = 0;
        b = nB - 1;
        bary = 1;
        for (let e = 0; e < nB; e++) {
          acc += it.lengths[e];
          if (acc > xi) {
            b = e;
            bary = (xi - (acc - it.lengths[e])) / it.lengths[e];
            break;
          }
        }
      }
      this.beamOf[i] = b;
      this.baryOf[i] = bary;
    }
  }

  apply(): void {
    this.distribute();
    const it = this.interp!,
      x = this.from.x,
      out = this.outputPositions(),
      p = this.pts,
      n = this.beamOf.length,
      E = this.E,
      R = this.R,
      pq = this.pq,
      jac = this.jac,
      P = this.w.P;
    const cols = this.J.colInd,
      vals = this.J.values;
    const pattern = this.jRevision !== it.revision;
    for (let i = 0; i < n; i++) {
      const b = this.beamOf[i];
      if (b < 0) {
        out.fill(0, 3 * i, 3 * i + 3);
        jac.fill(0, 8 * i, 8 * i + 8);
        vals.fill(0, 36 * i, 36 * i + 36);
        continue;
      }
      it.endFrames(E, x, b);
      const L = it.lengths[b],
        t = this.baryOf[i],
        y = p[3 * i + 1],
        z = p[3 * i + 2];
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
      // levers of J: c0 = a1·R0·(L/3, 0, 0) + (a0 + a1)·R0·ℓ, c1 = −a2·R1·(L/3, 0, 0) + (a2 + a3)·R1·ℓ
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
      // J rows [w0·I, −[c0]×, w1·I, −[c1]×] on the dofs of the two frames
      const nodes = it.nodes,
        f0 = 6 * nodes[2 * b],
        f1 = 6 * nodes[2 * b + 1];
      for (let r = 0; r < 3; r++) {
        const k = 36 * i + 12 * r;
        for (let f = 0; f < 2; f++) {
          const base = f === 0 ? f0 : f1,
            wgt = jac[o + 4 * f],
            cx = jac[o + 4 * f + 1],
            cy = jac[o + 4 * f + 2],
            cz = jac[o + 4 * f + 3],
            kk = k + 6 * f;
          if (pattern) for (let c = 0; c < 6; c++) cols[kk + c] = base + c;
          for (let c = 0; c < 3; c++) vals[kk + c] = c === r ? wgt : 0;
          // −[c]× row r
          const sk = r === 0 ? [0, cz, -cy] : r === 1 ? [-cz, 0, cx] : [cy, -cx, 0];
          for (let c = 0; c < 3; c++) vals[kk + 3 + c] = sk[c];
        }
      }
    }
    if (pattern) {
      this.jRevision = it.revision;
      this.sortRows();
    }
    this.touchOutput();
  }

  /** Keeps each row's columns ascending (frame 1 may precede frame 0 in the state). */
  private sortRows(): void {
    const cols = this.J.colInd,
      vals = this.J.values;
    for (let r = 0; r < this.J.rows; r++) {
      const k = 12 * r;
      if (cols[k] <= cols[k + 6]) continue;
      for (let c = 0; c < 6; c++) {
        const tc = cols[k + c],
          tv = vals[k + c];
        cols[k + c] = cols[k + 6 + c];
        vals[k + c] = vals[k + 6 + c];
        cols[k + 6 + c] = tc;
        vals[k + 6 + c] = tv;
      }
    }
  }

  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    const v = ins[0],
      it = this.interp!,
      jac = this.jac,
      n = this.beamOf.length;
    for (let i = 0; i < n; i++) {
      const b = this.beamOf[i];
      out[3 * i] = out[3 * i + 1] = out[3 * i + 2] = 0;
      if (b < 0) continue;
      for (let f = 0; f < 2; f++) {
        const d = 6 * it.nodes[2 * b + f],
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
      it = this.interp!,
      jac = this.jac,
      n = this.beamOf.length;
    for (let i = 0; i < n; i++) {
      const b = this.beamOf[i];
      if (b < 0) continue;
      const fx = out[3 * i],
        fy = out[3 * i + 1],
        fz = out[3 * i + 2];
      for (let f = 0; f < 2; f++) {
        const d = 6 * it.nodes[2 * b + f],
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
