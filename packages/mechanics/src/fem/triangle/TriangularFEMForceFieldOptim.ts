import {
  BaseForceField,
  Bool,
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
import { DEFAULT_POISSON_RATIO, DEFAULT_YOUNG_MODULUS, valueInElement } from '../volume-elasticity.js';

/**
 * SOFA's TriangularFEMForceFieldOptim: co-rotational linear triangles in plane stress, written for
 * speed (SOFA's "large" method only; another `method` is warned about and ignored).
 *
 * Per triangle (A, B, C), at rest in its own frame: A = 0, B = (bx, 0), C = (cx, cy) (edges scaled by
 * restScale when it is set), det = bx·cy = 2·area. The frame of the current triangle has rows
 *   ex = AB/|AB|,  ey = (AB × AC) × AB / |…|  (the in-plane normal to AB).
 * The shape gradients times det are g_A = (−cy, cx − bx), g_B = (cy, −cx), g_C = (0, bx); with the
 * displacement u = rest − current in the frame (u_A = 0, u_By = 0):
 *   ε = (Σ gx·ux, Σ gy·uy, Σ gy·ux + gx·uy)                        (times det)
 *   σ = [[γ + μ, γ, 0], [γ, γ + μ, 0], [0, 0, μ/2]]·ε · ½/det       μ = E/(1 + ν), γ = Eν/(1 − ν²)
 *   f_node += ex·(gx·σ0 + gy·σ2) + ey·(gy·σ1 + gx·σ2)
 * which is area·Bᵀ·D·B·u with D the plane-stress Hooke matrix. The stiffness is SOFA's: the rest
 * element matrix in the frame of the last addForce, K_ij = −½/det·Fᵀ·(B_iᵀ·D·B_j)·F with F the
 * (2×3) frame (no derivative of the frame), the same for addDForce and addKToMatrix.
 */
@sofaComponent({
  name: 'TriangularFEMForceFieldOptim',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Co-rotational linear triangles in plane stress (the optimised "large" method).',
  templates: ['Vec3d'],
})
export class TriangularFEMForceFieldOptim extends BaseForceField {
  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the triangles (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology',
  });
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: RealArray(1),
    default: Float64Array.of(DEFAULT_YOUNG_MODULUS),
    unit: 'Pa',
    help: "Young's modulus in Hooke's law: one value, or one per triangle",
  });
  readonly poissonRatio = this.initData({
    name: 'poissonRatio',
    type: RealArray(1),
    default: Float64Array.of(DEFAULT_POISSON_RATIO),
    help: "Poisson's ratio in Hooke's law, in [0, 0.5): one value, or one per triangle",
  });
  readonly method = this.initData({
    name: 'method',
    type: Str,
    default: 'large',
    help: 'only "large" (co-rotational) is implemented, as in SOFA; another value is warned about and ignored',
  });
  readonly damping = this.initData({
    name: 'damping',
    type: Real,
    default: 0,
    help: 'ratio damping/stiffness (declared by SOFA, unused by its force)',
  });
  readonly restScale = this.initData({
    name: 'restScale',
    type: Real,
    default: 1,
    help: 'scale of the rest edges (pre-stretched materials); applied when set',
  });
  readonly computePrincipalStress = this.initData({
    name: 'computePrincipalStress',
    type: Bool,
    default: false,
    help: 'compute the principal stress of each triangle at every force evaluation',
  });
  readonly stressMaxValue = this.initData({
    name: 'stressMaxValue',
    type: Real,
    default: 0,
    help: 'largest principal stress over the triangles (output, with computePrincipalStress)',
  });
  readonly showStressVector = this.initData({
    name: 'showStressVector',
    type: Bool,
    default: false,
    help: 'draw the stress directions (computes the principal stress)',
    group: 'Visualization',
  });
  readonly showStressThreshold = this.initData({
    name: 'showStressThreshold',
    type: Real,
    default: 0,
    help: 'draw only stress vectors above this value',
    group: 'Visualization',
  });

  private states: BaseMechanicalState[] = [];
  private topoRevision = -1;
  /** Vertices per triangle (nT × 3). */
  private tri = new Uint32Array(0);
  /** Rest shape per triangle: bx, cx, cy, ½/det (nT × 4), m and 1/m². */
  private info = new Float64Array(0);
  /** Material per triangle: μ = E/(1+ν), γ = Eν/(1−ν²) (nT × 2), Pa. */
  private material = new Float64Array(0);
  /** Frame of each triangle at the last addForce, rows ex, ey (nT × 6). */
  private frame = new Float64Array(0);
  /** Stress per triangle at the last addForce, σxx, σyy, σxy in the frame, SOFA's sign (nT × 3). */
  stress = new Float64Array(0);
  /** Principal values of the stored stress (largest magnitude first) per triangle, with computePrincipalStress (nT × 2). */
  principalStress = new Float64Array(0);
  private readonly blk = new Float64Array(9);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  get elementCount(): number {
    return this.tri.length / 3;
  }

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.isRigid || s.stateType.derivSize !== 3) throw this.error(`needs a Vec3d state (got ${s.stateType.name})`);
    this.states = [s];
    if (!this.template) this.template = s.stateType.name;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: put a triangle topology in the node (or set topology="@path")');
    this.topology.set(topo);
    if (this.method.isSet && this.method.value !== 'large')
      this.warn(`method "${this.method.value}" is not implemented by TriangularFEMForceFieldOptim (only "large"); ignored`);
    if (topo.getTriangles().length === 0)
      this.warn(
        `no triangles in ${topo.describe()}${topo.getQuads().length > 0 ? ' (it has quads only; this force field needs triangles)' : ''}`,
      );
    this.reinit();
  }

  /** Rest shapes and materials from the topology's triangles and the rest positions. */
  reinit(): void {
    const topo = this.topology.require(),
      s = this.states[0];
    this.topoRevision = topo.revision;
    const tris = topo.getTriangles();
    const nT = Math.floor(tris.length / 3);
    this.tri = Uint32Array.from(tris.subarray(0, 3 * nT));
    for (const v of this.tri) if (v >= s.size) throw this.error(`the topology names point ${v}, but ${s.describe()} has ${s.size} points`);
    this.info = new Float64Array(4 * nT);
    this.material = new Float64Array(2 * nT);
    this.frame = new Float64Array(6 * nT);
    this.stress = new Float64Array(3 * nT);
    this.principalStress = new Float64Array(2 * nT);
    const x0 = s.x0,
      x = s.x;
    const scale = this.restScale.isSet ? this.restScale.value : 1;
    const E = this.youngModulus.value,
      nu = this.poissonRatio.value;
    for (let e = 0; e < nT; e++) {
      const f = this.frame;
      triangleFrame2(f, 6 * e, x0, 3 * this.tri[3 * e], 3 * this.tri[3 * e + 1], 3 * this.tri[3 * e + 2], scale);
      const a = 3 * this.tri[3 * e],
        b = 3 * this.tri[3 * e + 1],
        c = 3 * this.tri[3 * e + 2],
        o = 6 * e;
      let bx = 0,
        cx = 0,
        cy = 0;
      for (let k = 0; k < 3; k++) {
        const ab = (x0[b + k] - x0[a + k]) * scale,
          ac = (x0[c + k] - x0[a + k]) * scale;
        bx += f[o + k] * ab;
        cx += f[o + k] * ac;
        cy += f[o + 3 + k] * ac;
      }
      if (!(Math.abs(bx * cy) > 0)) throw this.error(`triangle ${e} (${a / 3}, ${b / 3}, ${c / 3}) is degenerate at rest (null area)`);
      this.info.set([bx, cx, cy, 0.5 / (bx * cy)], 4 * e);
      const young = valueInElement(E, e, DEFAULT_YOUNG_MODULUS),
        p = valueInElement(nu, e, DEFAULT_POISSON_RATIO);
      this.material[2 * e] = young / (1 + p);
      this.material[2 * e + 1] = (young * p) / (1 - p * p);
      // the frame of the current positions, as SOFA's initTriangleState
      triangleFrame2(f, o, x, a, b, c, 1);
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const topo = this.topology.get();
    if (topo && topo.revision !== this.topoRevision) this.reinit();
    const ff = f[0],
      p = x[0],
      info = this.info,
      fr = this.frame,
      mat = this.material,
      st = this.stress;
    const nT = this.elementCount;
    for (let e = 0; e < nT; e++) {
      const a = 3 * this.tri[3 * e],
        b = 3 * this.tri[3 * e + 1],
        c = 3 * this.tri[3 * e + 2],
        o = 6 * e;
      triangleFrame2(fr, o, p, a, b, c, 1);
      const bx = info[4 * e],
        cx = info[4 * e + 1],
        cy = info[4 * e + 2],
        ss = info[4 * e + 3];
      // u = rest − current in the frame (u_A = 0, u_By = 0)
      let pbx = 0,
        pcx = 0,
        pcy = 0;
      for (let k = 0; k < 3; k++) {
        const ab = p[b + k] - p[a + k],
          ac = p[c + k] - p[a + k];
        pbx += fr[o + k] * ab;
        pcx += fr[o + k] * ac;
        pcy += fr[o + 3 + k] * ac;
      }
      const dbx = bx - pbx,
        dcx = cx - pcx,
        dcy = cy - pcy;
      // ε·det, then σ = D·ε·½/det
      const e0 = cy * dbx,
        e1 = bx * dcy,
        e2 = bx * dcx - cx * dbx;
      const mu = mat[2 * e],
        gm = mat[2 * e + 1],
        g01 = gm * (e0 + e1);
      const s0 = (mu * e0 + g01) * ss,
        s1 = (mu * e1 + g01) * ss,
        s2 = 0.5 * mu * e2 * ss;
      st[3 * e] = s0;
      st[3 * e + 1] = s1;
      st[3 * e + 2] = s2;
      // f_B, f_C in the frame; f_A = −f_B − f_C
      const fbx = cy * s0 - cx * s2,
        fby = cy * s2 - cx * s1,
        fcx = bx * s2,
        fcy = bx * s1;
      for (let k = 0; k < 3; k++) {
        const ex = fr[o + k],
          ey = fr[o + 3 + k];
        const vb = ex * fbx + ey * fby,
          vc = ex * fcx + ey * fcy;
        ff[b + k] += vb;
        ff[c + k] += vc;
        ff[a + k] -= vb + vc;
      }
    }
    if (this.computePrincipalStress.value || this.showStressVector.value) this.updatePrincipalStress();
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k === 0) return;
    const out = df[0],
      d = dx[0],
      info = this.info,
      fr = this.frame,
      mat = this.material;
    const nT = this.elementCount;
    for (let e = 0; e < nT; e++) {
      const a = 3 * this.tri[3 * e],
        b = 3 * this.tri[3 * e + 1],
        c = 3 * this.tri[3 * e + 2],
        o = 6 * e;
      const bx = info[4 * e],
        cx = info[4 * e + 1],
        cy = info[4 * e + 2],
        ss = info[4 * e + 3];
      let dbx = 0,
        dby = 0,
        dcx = 0,
        dcy = 0;
      for (let q = 0; q < 3; q++) {
        const ab = d[b + q] - d[a + q],
          ac = d[c + q] - d[a + q];
        dbx += fr[o + q] * ab;
        dby += fr[o + 3 + q] * ab;
        dcx += fr[o + q] * ac;
        dcy += fr[o + 3 + q] * ac;
      }
      const e0 = cy * dbx,
        e1 = bx * dcy - cx * dby,
        e2 = bx * dcx - cx * dbx + cy * dby;
      const mu = mat[2 * e],
        gm = mat[2 * e + 1],
        g01 = gm * (e0 + e1),
        s = ss * k;
      const s0 = (mu * e0 + g01) * s,
        s1 = (mu * e1 + g01) * s,
        s2 = 0.5 * mu * e2 * s;
      // df = −(forces of the displacement dx)
      const fbx = cy * s0 - cx * s2,
        fby = cy * s2 - cx * s1,
        fcx = bx * s2,
        fcy = bx * s1;
      for (let q = 0; q < 3; q++) {
        const ex = fr[o + q],
          ey = fr[o + 3 + q];
        const vb = ex * fbx + ey * fby,
          vc = ex * fcx + ey * fcy;
        out[b + q] -= vb;
        out[c + q] -= vc;
        out[a + q] += vb + vc;
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const info = this.info,
      fr = this.frame,
      mat = this.material,
      blk = this.blk;
    const nT = this.elementCount;
    const gx = [0, 0, 0],
      gy = [0, 0, 0];
    for (let e = 0; e < nT; e++) {
      const o = 6 * e;
      const bx = info[4 * e],
        cx = info[4 * e + 1],
        cy = info[4 * e + 2],
        ss = info[4 * e + 3];
      gx[0] = -cy;
      gy[0] = cx - bx;
      gx[1] = cy;
      gy[1] = -cx;
      gx[2] = 0;
      gy[2] = bx;
      const mu = mat[2 * e],
        gm = mat[2 * e + 1];
      const d00 = gm + mu,
        d01 = gm,
        g = 0.5 * mu,
        s = -kFactor * ss;
      for (let i = 0; i < 3; i++) {
        const ri = 3 * this.tri[3 * e + i];
        for (let j = 0; j < 3; j++) {
          // k = B_iᵀ·D·B_j (2×2, in the frame)
          const k00 = (gx[i] * d00 * gx[j] + gy[i] * g * gy[j]) * s;
          const k01 = (gx[i] * d01 * gy[j] + gy[i] * g * gx[j]) * s;
          const k10 = (gy[i] * d01 * gx[j] + gx[i] * g * gy[j]) * s;
          const k11 = (gy[i] * d00 * gy[j] + gx[i] * g * gx[j]) * s;
          // world block Fᵀ·k·F, F rows ex, ey
          for (let p = 0; p < 3; p++) {
            const xp = fr[o + p],
              yp = fr[o + 3 + p];
            const t0 = xp * k00 + yp * k10,
              t1 = xp * k01 + yp * k11;
            for (let q = 0; q < 3; q++) blk[3 * p + q] = t0 * fr[o + q] + t1 * fr[o + 3 + q];
          }
          addBlock3(acc, ri, 3 * this.tri[3 * e + j], blk, 0, 1);
        }
      }
    }
  }

  /** Principal stresses of each triangle (eigenvalues of [[σxx, σxy], [σxy, σyy]], larger magnitude first). */
  private updatePrincipalStress(): void {
    const nT = this.elementCount,
      st = this.stress,
      ps = this.principalStress;
    let max = 0;
    for (let e = 0; e < nT; e++) {
      const s0 = st[3 * e],
        s1 = st[3 * e + 1],
        s2 = st[3 * e + 2];
      const tr = s0 + s1,
        det = s0 * s1 - s2 * s2;
      const delta = Math.sqrt(Math.max(0, tr * tr - 4 * det));
      const l1 = (tr + delta) / 2,
        l2 = (tr - delta) / 2;
      const big = Math.abs(l1) > Math.abs(l2);
      ps[2 * e] = big ? l1 : l2;
      ps[2 * e + 1] = big ? l2 : l1;
      max = Math.max(max, l1, l2);
    }
    this.stressMaxValue.value = max;
  }

  /** The frame of triangle e at the last addForce: rows ex, ey (6 values). */
  getFrame(e: number): Float64Array {
    return this.frame.subarray(6 * e, 6 * e + 6);
  }
}

/** SOFA's threshold under which Vec::normalize leaves a vector unchanged. */
const EPSILON = Number.EPSILON;

/**
 * The 2-row frame of triangle (a, b, c) of positions p into out[o..o+6): ex = AB/|AB|,
 * ey = (AB × AC) × AB normalised (the edges scaled by `scale`, which does not change the frame).
 */
function triangleFrame2(out: Float64Array, o: number, p: ArrayLike<number>, a: number, b: number, c: number, scale: number): void {
  const abx = (p[b] - p[a]) * scale,
    aby = (p[b + 1] - p[a + 1]) * scale,
    abz = (p[b + 2] - p[a + 2]) * scale;
  const acx = (p[c] - p[a]) * scale,
    acy = (p[c + 1] - p[a + 1]) * scale,
    acz = (p[c + 2] - p[a + 2]) * scale;
  const nx = aby * acz - abz * acy,
    ny = abz * acx - abx * acz,
    nz = abx * acy - aby * acx;
  let yx = ny * abz - nz * aby,
    yy = nz * abx - nx * abz,
    yz = nx * aby - ny * abx;
  const lx = Math.sqrt(abx * abx + aby * aby + abz * abz),
    ly = Math.sqrt(yx * yx + yy * yy + yz * yz);
  // SOFA's Vec::normalize: each coordinate divided by the norm, left as is below machine epsilon
  if (lx > EPSILON) {
    out[o] = abx / lx;
    out[o + 1] = aby / lx;
    out[o + 2] = abz / lx;
  } else {
    out[o] = abx;
    out[o + 1] = aby;
    out[o + 2] = abz;
  }
  if (ly > EPSILON) {
    yx /= ly;
    yy /= ly;
    yz /= ly;
  }
  out[o + 3] = yx;
  out[o + 4] = yy;
  out[o + 5] = yz;
}
