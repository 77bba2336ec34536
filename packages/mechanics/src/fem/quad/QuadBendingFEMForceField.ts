import {
  BaseForceField,
  Real,
  RealArray,
  Str,
  addBlock3,
  contextMeshTopology,
  isTopology,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { mstateLink } from '../../state-link.js';

/** Reference corners (ξᵢ, ηᵢ) of the quad nodes 0..3. */
const CORNERS = [
  [-1, -1],
  [1, -1],
  [1, 1],
  [-1, 1],
] as const;
const GAUSS = Math.sqrt(3) / 3;

/**
 * SOFA's QuadBendingFEMForceField (method "small", the only one SOFA implements): bilinear quads
 * (nodes 0-1-2-3, edge 0→1 along x, 0→3 along y) of half sizes a = |x₁ − x₀|/2, b = |x₃ − x₀|/2
 * measured on the current positions, acting in the world axes as SOFA does:
 *   membrane (u, v): K_m = Σ over 2×2 Gauss points of a·b·Bᵢᵀ·C_m·Bⱼ, B the plane strain-displacement
 *     of ∂N/∂x = ξᵢ(1 + ηᵢη)/(4a), ∂N/∂y = ηᵢ(1 + ξᵢξ)/(4b), C_m = E·t/(1 − ν²)·[[1, ν, 0], [ν, 1, 0], [0, 0, (1 − ν)/2]];
 *   transverse (w): the shear term of a Mindlin plate with the rotations held at zero, one Gauss
 *     point (weight 4): K_w,ij = 4ab·k·G·t·(∂Nᵢ/∂x ∂Nⱼ/∂x + ∂Nᵢ/∂y ∂Nⱼ/∂y) at the centre, k = 5/6,
 *     G = E/(2(1 + ν)) (SOFA keeps no rotational degrees of freedom, so the bending term has no effect);
 *   f = K·D with D = (X − X_c) − (x − x_c) per node (X_c, x_c the midpoints of the diagonal 0–2),
 *   df = −k·K·dx with K of the last addForce (no derivative of a, b: exact at rest and for translations).
 */
@sofaComponent({
  name: 'QuadBendingFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: "Bilinear quads: plane-stress membrane and transverse shear stiffness in the world axes (SOFA's small method).",
  templates: ['Vec3d'],
})
export class QuadBendingFEMForceField extends BaseForceField {
  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the quads (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });
  readonly method = this.initData({
    name: 'method',
    type: Str,
    default: 'small',
    help: '"small" displacements (the only method SOFA implements)',
  });
  readonly poissonRatio = this.initData({
    name: 'poissonRatio',
    type: RealArray(1),
    default: Float64Array.of(0.45),
    help: "Poisson's ratio: one value, or one per quad",
  });
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: RealArray(1),
    default: Float64Array.of(1000),
    unit: 'Pa',
    help: "Young's modulus: one value, or one per quad",
  });
  readonly thickness = this.initData({ name: 'thickness', type: Real, default: 1, unit: 'm', help: 'thickness of the elements' });

  private states: BaseMechanicalState[] = [];
  /** Vertices per quad (nQ × 4). */
  private quads = new Uint32Array(0);
  /** Rest positions relative to the rest centroid (nQ × 12), m. */
  private rest = new Float64Array(0);
  /** Material per quad: E·t/(1 − ν²), ν, k·G·t (nQ × 3). */
  private material = new Float64Array(0);
  /** Membrane stiffness on (u, v) of the 4 nodes (nQ × 64, row-major 8×8) and transverse on w (nQ × 16), at the last addForce. */
  private km = new Float64Array(0);
  private kw = new Float64Array(0);
  private readonly D = new Float64Array(12);
  private readonly blk = new Float64Array(9);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  get elementCount(): number {
    return this.quads.length / 4;
  }

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.isRigid || s.stateType.derivSize !== 3) throw this.error(`needs a Vec3d state (got ${s.stateType.name})`);
    this.states = [s];
    if (!this.template) this.template = s.stateType.name;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: put a quad topology in the node (or set topology="@path")');
    this.topology.set(topo);
    if (this.method.value !== 'small')
      this.warn(`method "${this.method.value}" is not implemented (SOFA implements "small" only); "small" is used`);
    const quads = topo.getQuads();
    if (quads.length === 0) this.warn(`no quads in ${topo.describe()}`);
    this.quads = Uint32Array.from(quads);
    for (const v of this.quads)
      if (v >= s.size) throw this.error(`the topology names point ${v}, but ${s.describe()} has ${s.size} points`);
    const n = this.elementCount,
      X = s.x0;
    this.rest = new Float64Array(12 * n);
    this.material = new Float64Array(3 * n);
    this.km = new Float64Array(64 * n);
    this.kw = new Float64Array(16 * n);
    const E = this.youngModulus.value,
      nu = this.poissonRatio.value,
      t = this.thickness.value;
    if (E.length === 0 || nu.length === 0) throw this.error('youngModulus and poissonRatio need at least one value');
    for (let e = 0; e < n; e++) {
      this.centred(this.rest, 12 * e, X, e);
      const y = E.length > e ? E[e] : E[0],
        p = nu.length > e ? nu[e] : nu[0];
      this.material[3 * e] = (y * t) / (1 - p * p);
      this.material[3 * e + 1] = p;
      this.material[3 * e + 2] = ((5 / 6) * y * t) / (2 + 2 * p);
      this.stiffness(e, X);
    }
  }

  /** Positions of quad e relative to the midpoint of its diagonal 0–2, into out[o..o+12). */
  private centred(out: Float64Array, o: number, x: Float64Array, e: number): void {
    const q = this.quads,
      i0 = 3 * q[4 * e],
      i2 = 3 * q[4 * e + 2];
    for (let k = 0; k < 4; k++) {
      const i = 3 * q[4 * e + k];
      for (let c = 0; c < 3; c++) out[o + 3 * k + c] = x[i + c] - (x[i0 + c] + x[i2 + c]) / 2;
    }
  }

  /** K_m and K_w of quad e from the positions x (its current half sizes). */
  private stiffness(e: number, x: Float64Array): void {
    const q = this.quads,
      i0 = 3 * q[4 * e],
      i1 = 3 * q[4 * e + 1],
      i3 = 3 * q[4 * e + 3];
    const a = Math.hypot(x[i1] - x[i0], x[i1 + 1] - x[i0 + 1], x[i1 + 2] - x[i0 + 2]) / 2;
    const b = Math.hypot(x[i3] - x[i0], x[i3 + 1] - x[i0 + 1], x[i3 + 2] - x[i0 + 2]) / 2;
    const c0 = this.material[3 * e],
      nu = this.material[3 * e + 1],
      kG = this.material[3 * e + 2];
    const c01 = nu * c0,
      c22 = (c0 * (1 - nu)) / 2,
      ab = a * b;
    const km = this.km,
      kw = this.kw,
      om = 64 * e,
      ow = 16 * e;
    km.fill(0, om, om + 64);
    for (const xi of [GAUSS, -GAUSS])
      for (const eta of [GAUSS, -GAUSS])
        for (let i = 0; i < 4; i++) {
          const nxi = (CORNERS[i][0] * (1 + CORNERS[i][1] * eta)) / (4 * a),
            nyi = (CORNERS[i][1] * (1 + CORNERS[i][0] * xi)) / (4 * b);
          for (let j = 0; j < 4; j++) {
            const nxj = (CORNERS[j][0] * (1 + CORNERS[j][1] * eta)) / (4 * a),
              nyj = (CORNERS[j][1] * (1 + CORNERS[j][0] * xi)) / (4 * b);
            const r = om + 8 * (2 * i) + 2 * j;
            km[r] += ab * (nxi * c0 * nxj + nyi * c22 * nyj);
            km[r + 1] += ab * (nxi * c01 * nyj + nyi * c22 * nxj);
            km[r + 8] += ab * (nyi * c01 * nxj + nxi * c22 * nyj);
            km[r + 9] += ab * (nyi * c0 * nyj + nxi * c22 * nxj);
          }
        }
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) {
        const nxi = CORNERS[i][0] / (4 * a),
          nyi = CORNERS[i][1] / (4 * b),
          nxj = CORNERS[j][0] / (4 * a),
          nyj = CORNERS[j][1] / (4 * b);
        kw[ow + 4 * i + j] = 4 * ab * kG * (nxi * nxj + nyi * nyj);
      }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const ff = f[0],
      p = x[0],
      n = this.elementCount,
      q = this.quads,
      D = this.D,
      km = this.km,
      kw = this.kw;
    for (let e = 0; e < n; e++) {
      this.stiffness(e, p);
      // D = (X − X_c) − (x − x_c)
      this.centred(D, 0, p, e);
      for (let k = 0; k < 12; k++) D[k] = this.rest[12 * e + k] - D[k];
      const om = 64 * e,
        ow = 16 * e;
      for (let i = 0; i < 4; i++) {
        let fu = 0,
          fv = 0,
          fw = 0;
        for (let j = 0; j < 4; j++) {
          const r = om + 8 * (2 * i) + 2 * j;
          fu += km[r] * D[3 * j] + km[r + 1] * D[3 * j + 1];
          fv += km[r + 8] * D[3 * j] + km[r + 9] * D[3 * j + 1];
          fw += kw[ow + 4 * i + j] * D[3 * j + 2];
        }
        const o = 3 * q[4 * e + i];
        ff[o] += fu;
        ff[o + 1] += fv;
        ff[o + 2] += fw;
      }
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k === 0) return;
    const out = df[0],
      d = dx[0],
      n = this.elementCount,
      q = this.quads,
      km = this.km,
      kw = this.kw;
    for (let e = 0; e < n; e++) {
      const om = 64 * e,
        ow = 16 * e;
      for (let i = 0; i < 4; i++) {
        let fu = 0,
          fv = 0,
          fw = 0;
        for (let j = 0; j < 4; j++) {
          const o = 3 * q[4 * e + j],
            r = om + 8 * (2 * i) + 2 * j;
          fu += km[r] * d[o] + km[r + 1] * d[o + 1];
          fv += km[r + 8] * d[o] + km[r + 9] * d[o + 1];
          fw += kw[ow + 4 * i + j] * d[o + 2];
        }
        const o = 3 * q[4 * e + i];
        out[o] -= k * fu;
        out[o + 1] -= k * fv;
        out[o + 2] -= k * fw;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const n = this.elementCount,
      q = this.quads,
      km = this.km,
      kw = this.kw,
      blk = this.blk;
    for (let e = 0; e < n; e++)
      for (let i = 0; i < 4; i++)
        for (let j = 0; j < 4; j++) {
          const r = 64 * e + 8 * (2 * i) + 2 * j;
          blk[0] = -kFactor * km[r];
          blk[1] = -kFactor * km[r + 1];
          blk[2] = 0;
          blk[3] = -kFactor * km[r + 8];
          blk[4] = -kFactor * km[r + 9];
          blk[5] = 0;
          blk[6] = 0;
          blk[7] = 0;
          blk[8] = -kFactor * kw[16 * e + 4 * i + j];
          addBlock3(acc, 3 * q[4 * e + i], 3 * q[4 * e + j], blk, 0, 1);
        }
  }
}
