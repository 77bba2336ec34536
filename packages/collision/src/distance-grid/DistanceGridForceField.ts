import {
  Bool,
  contextMeshTopology,
  Int,
  nonNegative,
  Real,
  RealArray,
  sofaComponent,
  SingleStateForceField,
  Str,
  VecN,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import type { DistanceGrid } from './distance-grid.js';
import { loadDistanceGrid } from './load-distance-grid.js';

/**
 * SOFA's DistanceGridForceField (plugin SofaDistanceGrid), Vec3d: penalties from the distance grid
 * φ of an object's mesh (see distance-grid.ts; g = grad φ, in distance per cell, not normalised).
 *   points   for each point (of a triangle of the topology when there are triangles and
 *            stiffnessArea ≠ 0, SOFA's pOnBorder) with d = eval(x): inside (d < 0, −d < maxdist)
 *            k = stiffnessIn, outside (0 < d < maxdist) k = stiffnessOut; with F = −k·d:
 *              f = F·g − F·damping·v,   K = F·g·gᵀ
 *   area     (stiffnessArea kA ≠ 0) for each triangle (a, b, c) of the topology, B = b − a,
 *            C = c − a, s = ĝ at its centre (negated when flipNormals), A = ½(B×C)·s; when
 *            A < minArea:  f_b = kA(minArea − A)·(C×s), f_c = kA(minArea − A)·(s×B), f_a = −f_b − f_c
 *   volume   (stiffnessVolume kV ≠ 0) for each tetrahedron, A, B, C its edges from the first point,
 *            V = A·(B×C)/6; when V < minVolume: f = kV(minVolume − V)/6 · (B×C, C×A, A×B) on the
 *            three last points, minus their sum on the first
 * The derivatives are SOFA's addDForce (s held fixed); flipNormals is SOFA's: the sign of
 * ½(g·(B×C)) of the last triangle at the rest positions. The grid is built from the OBJ file as
 * SOFA builds it (nx × ny × nz values, the mesh's box + 10%).
 */
@sofaComponent({
  name: 'DistanceGridForceField',
  category: 'ForceField',
  module: 'SofaDistanceGrid',
  description: 'Penalty forces pushing points out of (or into) an object given by its distance grid.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class DistanceGridForceField extends SingleStateForceField {
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    aliases: ['fileDistanceGrid'],
    help: 'OBJ mesh of the object the distance grid is built from',
  });
  readonly scale = this.initData({ name: 'scale', type: Real, default: 1, help: 'scaling factor for input file' });
  readonly box = this.initData({
    name: 'box',
    type: RealArray(6),
    default: new Float64Array(6),
    help: "Field bounding box defined by xmin,ymin,zmin, xmax,ymax,zmax (as in SOFA, used only when xmin > xmax, to enlarge the mesh's box; otherwise the mesh's box + 10% is the grid)",
  });
  readonly nx = this.initData({ name: 'nx', type: Int, default: 64, help: 'number of values on X axis' });
  readonly ny = this.initData({ name: 'ny', type: Int, default: 64, help: 'number of values on Y axis' });
  readonly nz = this.initData({ name: 'nz', type: Int, default: 64, help: 'number of values on Z axis' });
  readonly stiffnessIn = this.initData({
    name: 'stiffnessIn',
    type: Real,
    default: 500,
    aliases: ['stiffness'],
    help: "force stiffness when inside of the object (SOFA's alias 'stiffness' also sets stiffnessOut; in sofa-ts it sets stiffnessIn only)",
  });
  readonly stiffnessOut = this.initData({
    name: 'stiffnessOut',
    type: Real,
    default: 0,
    help: 'force stiffness when outside of the object',
  });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 0.01, help: 'force damping coefficient' });
  readonly maxdist = this.initData({
    name: 'maxdist',
    type: Real,
    default: 1,
    unit: 'm',
    range: nonNegative,
    help: 'max distance of the surface after which no more force is applied',
  });
  readonly minArea = this.initData({
    name: 'minArea',
    type: Real,
    default: 0,
    help: 'minimal area for each triangle, as seen from the direction of the local surface (i.e. a flipped triangle will have a negative area)',
  });
  readonly stiffnessArea = this.initData({
    name: 'stiffnessArea',
    type: Real,
    default: 100,
    help: 'force stiffness if a triangle have an area less than minArea',
  });
  readonly minVolume = this.initData({
    name: 'minVolume',
    type: Real,
    default: 0,
    help: 'minimal volume for each tetrahedron (a flipped triangle will have a negative volume)',
  });
  readonly stiffnessVolume = this.initData({
    name: 'stiffnessVolume',
    type: Real,
    default: 0,
    help: 'force stiffness if a tetrahedron have an volume less than minVolume',
  });
  readonly color = this.initData({
    name: 'color',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(0, 0.5, 0.2, 1),
    help: 'display color (not drawn by sofa-ts)',
    group: 'Visualization',
  });
  readonly draw = this.initData({
    name: 'draw',
    type: Bool,
    default: false,
    help: 'enable/disable drawing of distancegrid (not drawn by sofa-ts)',
    group: 'Visualization',
  });
  readonly drawPoints = this.initData({
    name: 'drawPoints',
    type: Bool,
    default: false,
    help: 'enable/disable drawing of distancegrid points (not drawn by sofa-ts)',
    group: 'Visualization',
  });
  readonly drawSize = this.initData({
    name: 'drawSize',
    type: Real,
    default: 10,
    help: 'display size if draw is enabled (not drawn by sofa-ts)',
    group: 'Visualization',
  });
  readonly localRange = this.initData({
    name: 'localRange',
    type: VecN(2, 'Vec2i'),
    default: Float64Array.of(-1, -1),
    help: 'optional range of local DOF indices. Any computation involving only indices outside of this range are discarded',
  });

  /** The grid, after init. */
  grid: DistanceGrid | undefined;
  /** 1 for the points of a triangle (SOFA's pOnBorder), empty when every point is tested. */
  private onBorder = new Uint8Array(0);
  private flipNormals = false;
  private triangles: Uint32Array = new Uint32Array(0);
  private tetrahedra: Uint32Array = new Uint32Array(0);
  /** Point contacts of the last addForce: point, g (3), F. */
  private nContacts = 0;
  private cIndex = new Uint32Array(0);
  private cNormal = new Float64Array(0);
  private cFact = new Float64Array(0);
  /** Triangle contacts: triangle, s (3), B (3), C (3), minArea − A. */
  private nTContacts = 0;
  private tIndex = new Uint32Array(0);
  private tData = new Float64Array(0);
  /** Tetrahedron contacts: tetrahedron, A, B, C (9), minVolume − V. */
  private nVContacts = 0;
  private vIndex = new Uint32Array(0);
  private vData = new Float64Array(0);
  private readonly g = new Float64Array(3);
  private readonly q = new Float64Array(3);
  /** Scratch of addDForce: edge increments, a tetrahedron's point offsets. */
  private readonly dB = new Float64Array(3);
  private readonly dC = new Float64Array(3);
  private readonly dT = new Float64Array(9);
  private readonly p4 = new Int32Array(4);

  override init(): void {
    super.init();
    const s = this.states[0];
    if (s.stateType.name !== 'Vec3d') throw this.error(`needs a Vec3d mechanical state, got ${s.stateType.name}`);
    this.template = 'Vec3d';
    const name = this.filename.value.trim();
    if (name === '') throw this.error('DistanceGridForceField requires an input filename', "give the OBJ mesh of the object in 'filename'");
    const b = this.box.value;
    this.grid = loadDistanceGrid(
      this,
      name,
      this.scale.value,
      [this.nx.value, this.ny.value, this.nz.value],
      [b.subarray(0, 3), b.subarray(3, 6)],
    );
    const topo = contextMeshTopology(this.context);
    this.triangles = topo?.getTriangles() ?? new Uint32Array(0);
    this.tetrahedra = topo?.getTetrahedra() ?? new Uint32Array(0);
    const n = s.size;
    this.cIndex = new Uint32Array(n);
    this.cNormal = new Float64Array(3 * n);
    this.cFact = new Float64Array(n);
    this.tIndex = new Uint32Array(this.triangles.length / 3);
    this.tData = new Float64Array(10 * this.tIndex.length);
    this.vIndex = new Uint32Array(this.tetrahedra.length / 4);
    this.vData = new Float64Array(10 * this.vIndex.length);
    this.onBorder = new Uint8Array(0);
    if (this.stiffnessArea.value !== 0) {
      const t = this.triangles;
      if (t.length === 0) this.warnAbout(this.stiffnessArea, 'no triangles found in the topology: no area term');
      else {
        const x0 = s.x0;
        this.onBorder = new Uint8Array(n);
        let sArea = 0;
        for (let k = 0; k < t.length; k += 3) {
          const a = 3 * t[k],
            bb = 3 * t[k + 1],
            c = 3 * t[k + 2];
          for (let j = 0; j < 3; j++) this.q[j] = (x0[a + j] + x0[bb + j] + x0[c + j]) * (1 / 3);
          this.grid.grad(this.q, 0, this.g);
          // SOFA keeps the last triangle's value only (an assignment in its loop)
          sArea = dotCross(this.g, x0, a, bb, c) * 0.5;
          this.onBorder[t[k]] = this.onBorder[t[k + 1]] = this.onBorder[t[k + 2]] = 1;
        }
        this.flipNormals = sArea < 0;
      }
    }
    if (this.stiffnessVolume.value !== 0 && this.tetrahedra.length === 0)
      this.warnAbout(this.stiffnessVolume, 'no tetrahedra found in the topology: no volume term');
  }

  /** [begin, end) of the points considered. */
  private range(size: number): [number, number] {
    const r = this.localRange.value;
    const b = r[0] >= 0 ? r[0] : 0;
    const e = r[1] >= 0 && r[1] + 1 < size ? r[1] + 1 : size;
    return [b, e];
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const grid = this.grid!;
    const fs = f[0],
      xs = x[0],
      vs = v[0];
    const size = xs.length / 3;
    const kIn = this.stiffnessIn.value,
      kOut = this.stiffnessOut.value,
      damp = this.damping.value,
      maxd = this.maxdist.value;
    const g = this.g;
    const [b, e] = this.range(size);
    this.nContacts = 0;
    for (let i = b; i < e; i++) {
      if (i < this.onBorder.length && !this.onBorder[i]) continue;
      const d = grid.eval(xs, 3 * i);
      let k: number;
      if (d > 0) {
        if (d >= maxd || kOut === 0) continue;
        k = kOut;
      } else if (d < 0) {
        if (-d >= maxd || kIn === 0) continue;
        k = kIn;
      } else continue;
      grid.grad(xs, 3 * i, g);
      const F = -k * d;
      const Fd = F * damp;
      for (let j = 0; j < 3; j++) fs[3 * i + j] += g[j] * F - vs[3 * i + j] * Fd;
      const c = this.nContacts++;
      this.cIndex[c] = i;
      this.cNormal.set(g, 3 * c);
      this.cFact[c] = F;
    }
    this.nTContacts = 0;
    const kA = this.stiffnessArea.value,
      minA = this.minArea.value;
    if (kA !== 0) {
      const t = this.triangles;
      const s = this.q;
      for (let ti = 0; ti < t.length / 3; ti++) {
        const a = 3 * t[3 * ti],
          bb = 3 * t[3 * ti + 1],
          c = 3 * t[3 * ti + 2];
        for (let j = 0; j < 3; j++) s[j] = (xs[a + j] + xs[bb + j] + xs[c + j]) * (1 / 3);
        grid.grad(s, 0, s);
        if (this.flipNormals) for (let j = 0; j < 3; j++) s[j] = -s[j];
        normalize(s);
        const area = dotCross(s, xs, a, bb, c) * 0.5;
        if (!(area < minA)) continue;
        const o = 10 * this.nTContacts;
        this.tIndex[this.nTContacts++] = ti;
        const D = this.tData;
        for (let j = 0; j < 3; j++) {
          D[o + j] = s[j];
          D[o + 3 + j] = xs[bb + j] - xs[a + j];
          D[o + 6 + j] = xs[c + j] - xs[a + j];
        }
        D[o + 9] = minA - area;
        const F = kA * (minA - area);
        // f_b = F·(C×s), f_c = F·(s×B), f_a = −f_b − f_c
        const fb0 = (D[o + 7] * s[2] - D[o + 8] * s[1]) * F,
          fb1 = (D[o + 8] * s[0] - D[o + 6] * s[2]) * F,
          fb2 = (D[o + 6] * s[1] - D[o + 7] * s[0]) * F;
        const fc0 = (s[1] * D[o + 5] - s[2] * D[o + 4]) * F,
          fc1 = (s[2] * D[o + 3] - s[0] * D[o + 5]) * F,
          fc2 = (s[0] * D[o + 4] - s[1] * D[o + 3]) * F;
        fs[bb] += fb0;
        fs[bb + 1] += fb1;
        fs[bb + 2] += fb2;
        fs[c] += fc0;
        fs[c + 1] += fc1;
        fs[c + 2] += fc2;
        fs[a] += -(fb0 + fc0);
        fs[a + 1] += -(fb1 + fc1);
        fs[a + 2] += -(fb2 + fc2);
      }
    }
    this.nVContacts = 0;
    const kV = this.stiffnessVolume.value,
      minV = this.minVolume.value;
    if (kV !== 0) {
      const t = this.tetrahedra;
      const D = this.vData;
      for (let ti = 0; ti < t.length / 4; ti++) {
        const p = this.p4;
        for (let k = 0; k < 4; k++) p[k] = 3 * t[4 * ti + k];
        const o = 10 * this.nVContacts;
        for (let j = 0; j < 3; j++) {
          D[o + j] = xs[p[1] + j] - xs[p[0] + j];
          D[o + 3 + j] = xs[p[2] + j] - xs[p[0] + j];
          D[o + 6 + j] = xs[p[3] + j] - xs[p[0] + j];
        }
        const vol = triple(D, o, o + 3, o + 6) * (1 / 6);
        if (!(vol < minV)) continue;
        this.vIndex[this.nVContacts++] = ti;
        D[o + 9] = minV - vol;
        const F = (1 / 6) * (kV * (minV - vol));
        // f_1 = F·(B×C), f_2 = F·(C×A), f_3 = F·(A×B), f_0 = −Σ
        for (let j = 0; j < 3; j++) {
          const j1 = (j + 1) % 3,
            j2 = (j + 2) % 3;
          const fA = (D[o + 3 + j1] * D[o + 6 + j2] - D[o + 3 + j2] * D[o + 6 + j1]) * F;
          const fB = (D[o + 6 + j1] * D[o + j2] - D[o + 6 + j2] * D[o + j1]) * F;
          const fC = (D[o + j1] * D[o + 3 + j2] - D[o + j2] * D[o + 3 + j1]) * F;
          fs[p[1] + j] += fA;
          fs[p[2] + j] += fB;
          fs[p[3] + j] += fC;
          fs[p[0] + j] += -(fA + fB + fC);
        }
      }
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const fact = this.kFactorWithRayleigh(kFactor, bFactor);
    const dfs = df[0],
      dxs = dx[0];
    // point contacts: df = g·(g·dx)·F·k
    for (let c = 0; c < this.nContacts; c++) {
      const i = 3 * this.cIndex[c],
        o = 3 * c,
        g = this.cNormal;
      const dd = dxs[i] * g[o] + dxs[i + 1] * g[o + 1] + dxs[i + 2] * g[o + 2];
      const s = dd * this.cFact[c] * fact;
      for (let j = 0; j < 3; j++) dfs[i + j] += g[o + j] * s;
    }
    // triangle contacts (SOFA's addDForce): dA = ½((C×s)·dB + (s×B)·dC),
    // df_b = (C×s)·(fA·dA) − (dC×s)·(fA·m), df_c = (s×B)·(fA·dA) − (s×dB)·(fA·m), fA = −kA·k
    const fA = -this.stiffnessArea.value * fact;
    const t = this.triangles,
      D = this.tData;
    const dB = this.dB,
      dC = this.dC;
    for (let k = 0; k < this.nTContacts; k++) {
      const ti = this.tIndex[k],
        o = 10 * k;
      const a = 3 * t[3 * ti],
        b = 3 * t[3 * ti + 1],
        c = 3 * t[3 * ti + 2];
      for (let j = 0; j < 3; j++) {
        dB[j] = dxs[b + j] - dxs[a + j];
        dC[j] = dxs[c + j] - dxs[a + j];
      }
      let cs = 0,
        sb = 0;
      for (let j = 0; j < 3; j++) {
        const j1 = (j + 1) % 3,
          j2 = (j + 2) % 3;
        cs += (D[o + 6 + j1] * D[o + j2] - D[o + 6 + j2] * D[o + j1]) * dB[j];
        sb += (D[o + j1] * D[o + 3 + j2] - D[o + j2] * D[o + 3 + j1]) * dC[j];
      }
      const darea = 0.5 * (cs + sb);
      const m = D[o + 9];
      for (let j = 0; j < 3; j++) {
        const j1 = (j + 1) % 3,
          j2 = (j + 2) % 3;
        const dfb =
          (D[o + 6 + j1] * D[o + j2] - D[o + 6 + j2] * D[o + j1]) * (fA * darea) - (dC[j1] * D[o + j2] - dC[j2] * D[o + j1]) * (fA * m);
        const dfc =
          (D[o + j1] * D[o + 3 + j2] - D[o + j2] * D[o + 3 + j1]) * (fA * darea) - (D[o + j1] * dB[j2] - D[o + j2] * dB[j1]) * (fA * m);
        dfs[a + j] += -(dfb + dfc);
        dfs[b + j] += dfb;
        dfs[c + j] += dfc;
      }
    }
    if (this.nVContacts > 0) this.addVolumeDForce(dfs, dxs, -this.stiffnessVolume.value * (1 / 6) * fact);
  }

  /** SOFA's volume term of addDForce, factV = −kV/6·k. */
  private addVolumeDForce(dfs: Float64Array, dxs: Float64Array, factV: number): void {
    const t = this.tetrahedra,
      D = this.vData;
    const d = this.dT;
    const p = this.p4;
    for (let k = 0; k < this.nVContacts; k++) {
      const ti = this.vIndex[k],
        o = 10 * k;
      for (let q = 0; q < 4; q++) p[q] = 3 * t[4 * ti + q];
      for (let j = 0; j < 3; j++) for (let e = 0; e < 3; e++) d[3 * e + j] = dxs[p[e + 1] + j] - dxs[p[0] + j];
      let dv = 0;
      for (let j = 0; j < 3; j++)
        dv += d[j] * cr(D, o + 3, D, o + 6, j) + d[3 + j] * cr(D, o + 6, D, o, j) + d[6 + j] * cr(D, o, D, o + 3, j);
      dv *= 1 / 6;
      const m = D[o + 9];
      for (let j = 0; j < 3; j++) {
        const dfA = cr(D, o + 3, D, o + 6, j) * (factV * dv) - (cr(d, 3, D, o + 6, j) + cr(D, o + 3, d, 6, j)) * (factV * m);
        const dfB = cr(D, o + 6, D, o, j) * (factV * dv) - (cr(d, 6, D, o, j) + cr(D, o + 6, d, 0, j)) * (factV * m);
        const dfC = cr(D, o, D, o + 3, j) * (factV * dv) - (cr(d, 0, D, o + 3, j) + cr(D, o, d, 3, j)) * (factV * m);
        dfs[p[1] + j] += dfA;
        dfs[p[2] + j] += dfB;
        dfs[p[3] + j] += dfC;
        dfs[p[0] + j] += -(dfA + dfB + dfC);
      }
    }
  }

  /**
   * kFactor·K of the point contacts (SOFA's addKToMatrix: F·g·gᵀ per point), on every point's
   * diagonal block so that the pattern stays fixed. The area and volume terms are applied by
   * addDForce only, as in SOFA (a matrix-free solver sees them, an assembled one does not); a
   * warning says so at the first assembly where they are active.
   */
  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const n = this.cFact.length;
    let c = 0;
    for (let i = 0; i < n; i++) {
      const on = c < this.nContacts && this.cIndex[c] === i;
      const F = on ? this.cFact[c] * kFactor : 0;
      const o = 3 * c;
      for (let r = 0; r < 3; r++)
        for (let q = 0; q < 3; q++) acc.add(3 * i + r, 3 * i + q, on ? this.cNormal[o + r] * F * this.cNormal[o + q] : 0);
      if (on) c++;
    }
    if ((this.nTContacts > 0 || this.nVContacts > 0) && !this.warnedAssembly) {
      this.warnedAssembly = true;
      this.warn(
        'the area and volume penalties are not in the assembled matrix (as in SOFA, whose addKToMatrix leaves them out): an assembled linear solver sees only the point contacts',
      );
    }
  }
  private warnedAssembly = false;
}

/** Component j of u × w, u and w at offsets uo and wo. */
function cr(u: ArrayLike<number>, uo: number, w: ArrayLike<number>, wo: number, j: number): number {
  return u[uo + ((j + 1) % 3)] * w[wo + ((j + 2) % 3)] - u[uo + ((j + 2) % 3)] * w[wo + ((j + 1) % 3)];
}

/** (B×C)·s with B = x_b − x_a, C = x_c − x_a (offsets a, b, c in x). */
function dotCross(s: Float64Array, x: Float64Array, a: number, b: number, c: number): number {
  const bx = x[b] - x[a],
    by = x[b + 1] - x[a + 1],
    bz = x[b + 2] - x[a + 2];
  const cx = x[c] - x[a],
    cy = x[c + 1] - x[a + 1],
    cz = x[c + 2] - x[a + 2];
  return (by * cz - bz * cy) * s[0] + (bz * cx - bx * cz) * s[1] + (bx * cy - by * cx) * s[2];
}

/** A·(B×C) of the vectors at offsets a, b, c of D. */
function triple(D: Float64Array, a: number, b: number, c: number): number {
  return (
    D[a] * (D[b + 1] * D[c + 2] - D[b + 2] * D[c + 1]) +
    D[a + 1] * (D[b + 2] * D[c] - D[b] * D[c + 2]) +
    D[a + 2] * (D[b] * D[c + 1] - D[b + 1] * D[c])
  );
}

/** SOFA's Vec::normalize: divided by its norm when that norm exceeds the machine epsilon. */
function normalize(v: Float64Array): void {
  const r = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (r > Number.EPSILON) for (let j = 0; j < 3; j++) v[j] /= r;
}
