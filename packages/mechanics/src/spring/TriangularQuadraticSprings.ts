import {
  addBlock3,
  BaseForceField,
  Bool,
  contextMeshTopology,
  isTopology,
  Real,
  RealArray,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { mstateLink } from '../state-link.js';

/**
 * Delingette's triangular springs (SOFA's TriangularQuadraticSpringsForceField and
 * TriangularBiquadraticSpringsForceField): a membrane law written on the edges of each triangle.
 * Edge e has a measure m_e (its length L, or L² for the biquadratic law), a rest value m_e⁰ and a
 * strain δ_e = m_e − m_e⁰ + ρ·(dv·dp)/|dp|ᵖ (ρ = dampingRatio, p = 1 or 2, dp = x_a − x_b).
 * From the rest shape of each triangle (area A, squared rest lengths, cot of its angles, Lamé
 * coefficients λ = Eν/(1−ν²), μ = E(1−ν)/(1−ν²) as SOFA), edge j opposite vertex j gets
 *   k_j = s_j·(2·cot_j²·(λ+μ) + μ)/(c·A),   γ_j = s'_j·(2·cot_k·cot_l·(λ+μ) − μ)/(c·A)
 * (quadratic: s_j = L_j², s'_j = L_k·L_l, c = 8; biquadratic: s = s' = 1, c = 16). An edge's
 * stiffness k_e sums its triangles'. The energy W = Σ_e ½·k_e·δ_e² + Σ_T Σ_j γ_j·δ_k·δ_l gives the
 * force along each edge F_e = ∂W/∂δ_e = k_e·δ_e + Σ_T (γ·δ of its two neighbours) (the angular
 * springs, useAngularSprings), applied as f_a −= F_e·g_e, f_b += F_e·g_e with g_e = u_e (unit edge
 * vector) for the quadratic law and g_e = dp_e for the biquadratic one. The biquadratic law adds, on
 * compressed triangles (J = A/A⁰ < 1, compressible), f_i −= 3(λ+μ)·(J−1)³·∂A/∂x_i.
 * With these coefficients the biquadratic edge energy is exactly the plane-stress St Venant–Kirchhoff
 * membrane energy A⁰·(λ/2·tr(E)² + μ′·tr(E²)), μ′ = E/(2(1+ν)) = μ/2 (SOFA's μ is twice the shear modulus).
 *
 * K is the exact derivative of these forces (SOFA's DfDx and its matrixRegularization are not
 * used), B = ∂f/∂v from the damping ratio (SOFA emits none). Rest lengths come from the rest
 * positions, as SOFA's; initialPoints is filled with them.
 */
abstract class TriangularSpringsBase extends BaseForceField {
  readonly initialPoints = this.initData({
    name: 'initialPoints',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'Initial Position',
  });
  readonly poissonRatio = this.initData({ name: 'poissonRatio', type: Real, default: 0.3, help: "Poisson ratio in Hooke's law" });
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: Real,
    default: 1000,
    unit: 'Pa',
    help: "Young modulus in Hooke's law",
  });
  readonly dampingRatio = this.initData({ name: 'dampingRatio', type: Real, default: 0, help: 'Ratio damping/stiffness' });
  readonly useAngularSprings = this.initData({
    name: 'useAngularSprings',
    type: Bool,
    default: true,
    help: 'If Angular Springs should be used or not',
  });

  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a triangle topology',
  });

  /** 1: lengths (quadratic law), 2: squared lengths (biquadratic law). */
  protected abstract readonly power: 1 | 2;

  protected states: BaseMechanicalState[] = [];
  /** Edges (a, b), (nE × 2); per triangle its 3 vertices and the edge opposite each, (nT × 3). */
  protected edges = new Uint32Array(0);
  protected tris = new Uint32Array(0);
  protected triEdges = new Uint32Array(0);
  /** Per edge: rest measure, stiffness k_e; per triangle: γ (3), rest area. */
  protected restMeasure = new Float64Array(0);
  protected kEdge = new Float64Array(0);
  protected gamma = new Float64Array(0);
  protected restArea = new Float64Array(0);
  /** Per edge at the last addForce: δ, F, |dp|, g (3), h = ∂δ/∂dp (3), w = ∂δ/∂dv (3). */
  protected delta = new Float64Array(0);
  protected F = new Float64Array(0);
  protected len = new Float64Array(0);
  protected g = new Float64Array(0);
  protected h = new Float64Array(0);
  protected w = new Float64Array(0);
  /** Scratch for K·dx: per edge h·(dx_a − dx_b) and its coupled sum. */
  private s = new Float64Array(0);
  private sv = new Float64Array(0);
  private readonly blk = new Float64Array(9);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  get lambda(): number {
    const nu = this.poissonRatio.value;
    return (this.youngModulus.value * nu) / (1 - nu * nu);
  }

  get mu(): number {
    const nu = this.poissonRatio.value;
    return (this.youngModulus.value * (1 - nu)) / (1 - nu * nu);
  }

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed, ${s.describe()} is ${s.stateType.name}`);
    this.template = 'Vec3d';
    this.states = [s];
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: a triangle topology is needed in its node (or set topology="@path")');
    this.topology.set(topo);
    if (topo.getTriangles().length === 0) this.warn(`the topology ${topo.describe()} has no triangles`);
    this.build(topo, s);
    this.builtRevision = topo.changeRevision;
  }

  /** The topology's changeRevision the springs were built for: a topological change builds them again (rest measures from the rest positions). */
  private builtRevision = -1;

  /** Edges (the topology's, completed by the triangles' sides), rest measures and the triangles' coefficients. */
  private build(topo: BaseMeshTopology, s: BaseMechanicalState): void {
    const n = s.size,
      x0 = s.x0;
    const tris = Uint32Array.from(topo.getTriangles());
    for (let i = 0; i < tris.length; i++)
      if (tris[i] >= n) throw this.error(`triangle ${Math.floor(i / 3)} names point ${tris[i]}, beyond the ${n} points of ${s.describe()}`);
    const te = topo.getEdges();
    const list: number[] = [];
    const edgeOf = new Map<number, number>();
    const edgeId = (p: number, q: number): number => {
      const key = p < q ? p * n + q : q * n + p;
      let e = edgeOf.get(key);
      if (e === undefined) {
        e = list.length / 2;
        list.push(p, q);
        edgeOf.set(key, e);
      }
      return e;
    };
    for (let e = 0; e + 1 < te.length; e += 2) edgeId(te[e], te[e + 1]);
    const nT = tris.length / 3;
    this.triEdges = new Uint32Array(3 * nT);
    for (let t = 0; t < nT; t++)
      for (let j = 0; j < 3; j++) this.triEdges[3 * t + j] = edgeId(tris[3 * t + ((j + 1) % 3)], tris[3 * t + ((j + 2) % 3)]);
    this.tris = tris;
    this.edges = Uint32Array.from(list);
    const nE = this.edges.length / 2;
    this.restMeasure = new Float64Array(nE);
    for (let e = 0; e < nE; e++) {
      const a = 3 * this.edges[2 * e],
        b = 3 * this.edges[2 * e + 1];
      const l2 = (x0[a] - x0[b]) ** 2 + (x0[a + 1] - x0[b + 1]) ** 2 + (x0[a + 2] - x0[b + 2]) ** 2;
      this.restMeasure[e] = this.power === 1 ? Math.sqrt(l2) : l2;
    }
    this.kEdge = new Float64Array(nE);
    this.gamma = new Float64Array(3 * nT);
    this.restArea = new Float64Array(nT);
    const lam = this.lambda,
      mu = this.mu;
    for (let t = 0; t < nT; t++) {
      const L2 = [0, 1, 2].map((j) =>
        this.power === 1 ? this.restMeasure[this.triEdges[3 * t + j]] ** 2 : this.restMeasure[this.triEdges[3 * t + j]],
      );
      let a = 0;
      for (let j = 0; j < 3; j++) a += L2[j] * (L2[(j + 1) % 3] + L2[(j + 2) % 3] - L2[j]);
      const area = Math.sqrt(a) / 4;
      if (!(area > 0))
        throw this.error(`triangle ${t} (points ${tris[3 * t]}, ${tris[3 * t + 1]}, ${tris[3 * t + 2]}) has a zero rest area`);
      this.restArea[t] = area;
      const cot = [0, 1, 2].map((j) => (L2[(j + 1) % 3] + L2[(j + 2) % 3] - L2[j]) / (4 * area));
      const c = this.power === 1 ? 8 : 16;
      for (let j = 0; j < 3; j++) {
        const k = (j + 1) % 3,
          l = (j + 2) % 3;
        const sG = this.power === 1 ? Math.sqrt(L2[k] * L2[l]) : 1;
        const sK = this.power === 1 ? L2[j] : 1;
        this.gamma[3 * t + j] = (sG * (2 * cot[k] * cot[l] * (lam + mu) - mu)) / (c * area);
        this.kEdge[this.triEdges[3 * t + j]] += (sK * (2 * cot[j] * cot[j] * (lam + mu) + mu)) / (c * area);
      }
    }
    if (this.initialPoints.value.length === 0) this.initialPoints.value = Float64Array.from(x0);
    this.delta = new Float64Array(nE);
    this.F = new Float64Array(nE);
    this.len = new Float64Array(nE);
    this.g = new Float64Array(3 * nE);
    this.h = new Float64Array(3 * nE);
    this.w = new Float64Array(3 * nE);
    this.s = new Float64Array(nE);
    this.sv = new Float64Array(nE);
    this.buildExtra(nT);
  }

  /** Per-triangle buffers of a subclass. */
  protected buildExtra(_nT: number): void {}

  /** F_e += Σ coupling·δ (k_e on itself, γ across a triangle's other edges). */
  private coupled(out: Float64Array, d: Float64Array): void {
    const nE = this.edges.length / 2,
      k = this.kEdge;
    for (let e = 0; e < nE; e++) out[e] = k[e] * d[e];
    if (!this.useAngularSprings.value) return;
    const te = this.triEdges,
      gm = this.gamma;
    for (let t = 0; t < te.length / 3; t++) {
      for (let j = 0; j < 3; j++) {
        const k1 = (j + 1) % 3,
          l = (j + 2) % 3;
        out[te[3 * t + j]] += gm[3 * t + l] * d[te[3 * t + k1]] + gm[3 * t + k1] * d[te[3 * t + l]];
      }
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const topo = this.topology.get();
    if (topo && topo.changeRevision !== this.builtRevision) {
      this.build(topo, this.states[0]);
      this.builtRevision = topo.changeRevision;
    }
    const ff = f[0],
      xx = x[0],
      vv = v[0],
      E = this.edges,
      rho = this.dampingRatio.value,
      p2 = this.power === 2;
    const nE = E.length / 2;
    const g = this.g,
      h = this.h,
      w = this.w;
    for (let e = 0; e < nE; e++) {
      const a = 3 * E[2 * e],
        b = 3 * E[2 * e + 1];
      const dx = xx[a] - xx[b],
        dy = xx[a + 1] - xx[b + 1],
        dz = xx[a + 2] - xx[b + 2];
      const dvx = vv[a] - vv[b],
        dvy = vv[a + 1] - vv[b + 1],
        dvz = vv[a + 2] - vv[b + 2];
      const l2 = dx * dx + dy * dy + dz * dz,
        l = Math.sqrt(l2);
      this.len[e] = l;
      const dvdp = dvx * dx + dvy * dy + dvz * dz;
      const o = 3 * e;
      if (!p2) {
        // δ = L − L0 + ρ·(dv·dp)/L;  g = u;  h = u + ρ·(I − uuᵀ)·dv/L;  w = ρ·u
        const ux = dx / l,
          uy = dy / l,
          uz = dz / l;
        this.delta[e] = l - this.restMeasure[e] + (rho * dvdp) / l;
        g[o] = ux;
        g[o + 1] = uy;
        g[o + 2] = uz;
        const du = dvx * ux + dvy * uy + dvz * uz;
        h[o] = ux + (rho * (dvx - du * ux)) / l;
        h[o + 1] = uy + (rho * (dvy - du * uy)) / l;
        h[o + 2] = uz + (rho * (dvz - du * uz)) / l;
        w[o] = rho * ux;
        w[o + 1] = rho * uy;
        w[o + 2] = rho * uz;
      } else {
        // δ = L² − L0² + ρ·(dv·dp)/L²;  g = dp;  h = 2dp + ρ·(dv/L² − 2(dv·dp)·dp/L⁴);  w = ρ·dp/L²
        this.delta[e] = l2 - this.restMeasure[e] + (rho * dvdp) / l2;
        g[o] = dx;
        g[o + 1] = dy;
        g[o + 2] = dz;
        const c = (2 * rho * dvdp) / (l2 * l2);
        h[o] = 2 * dx + (rho * dvx) / l2 - c * dx;
        h[o + 1] = 2 * dy + (rho * dvy) / l2 - c * dy;
        h[o + 2] = 2 * dz + (rho * dvz) / l2 - c * dz;
        w[o] = (rho * dx) / l2;
        w[o + 1] = (rho * dy) / l2;
        w[o + 2] = (rho * dz) / l2;
      }
    }
    this.coupled(this.F, this.delta);
    for (let e = 0; e < nE; e++) {
      const a = 3 * E[2 * e],
        b = 3 * E[2 * e + 1],
        Fe = this.F[e],
        o = 3 * e;
      for (let k = 0; k < 3; k++) {
        ff[a + k] -= Fe * g[o + k];
        ff[b + k] += Fe * g[o + k];
      }
    }
    this.addExtraForce(ff, xx);
  }

  /** Forces of a subclass beyond the edge law (the biquadratic area term). */
  protected addExtraForce(_f: Float64Array, _x: Float64Array): void {}

  private readonly gv = new Float64Array(3);

  /** F_e·(∂g/∂dp of edge e)·q into this.gv. */
  private geometric(e: number, qx: number, qy: number, qz: number): Float64Array {
    const Fe = this.F[e],
      out = this.gv;
    if (this.power === 2) {
      out[0] = Fe * qx;
      out[1] = Fe * qy;
      out[2] = Fe * qz;
      return out;
    }
    const o = 3 * e,
      l = this.len[e],
      ux = this.g[o],
      uy = this.g[o + 1],
      uz = this.g[o + 2];
    const uq = ux * qx + uy * qy + uz * qz;
    out[0] = (Fe * (qx - uq * ux)) / l;
    out[1] = (Fe * (qy - uq * uy)) / l;
    out[2] = (Fe * (qz - uq * uz)) / l;
    return out;
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const d = df[0],
      q = dx[0],
      E = this.edges,
      nE = E.length / 2,
      k = this.kFactorWithRayleigh(kFactor, bFactor);
    const h = this.h,
      w = this.w,
      g = this.g,
      s = this.s,
      sv = this.sv;
    // s_e = k·h_e·(dx_a − dx_b) + b·w_e·(dx_a − dx_b); its coupled sum changes F
    for (let e = 0; e < nE; e++) {
      const a = 3 * E[2 * e],
        b = 3 * E[2 * e + 1],
        o = 3 * e;
      const rx = q[a] - q[b],
        ry = q[a + 1] - q[b + 1],
        rz = q[a + 2] - q[b + 2];
      s[e] = k * (h[o] * rx + h[o + 1] * ry + h[o + 2] * rz) + bFactor * (w[o] * rx + w[o + 1] * ry + w[o + 2] * rz);
    }
    this.coupled(sv, s);
    for (let e = 0; e < nE; e++) {
      const a = 3 * E[2 * e],
        b = 3 * E[2 * e + 1],
        o = 3 * e;
      const gq = this.geometric(e, q[a] - q[b], q[a + 1] - q[b + 1], q[a + 2] - q[b + 2]);
      const vx = sv[e] * g[o] + k * gq[0],
        vy = sv[e] * g[o + 1] + k * gq[1],
        vz = sv[e] * g[o + 2] + k * gq[2];
      d[a] -= vx;
      d[a + 1] -= vy;
      d[a + 2] -= vz;
      d[b] += vx;
      d[b + 1] += vy;
      d[b + 2] += vz;
    }
    this.addExtraDForce(d, q, k);
  }

  protected addExtraDForce(_df: Float64Array, _dx: Float64Array, _k: number): void {}

  /** Emits c·(g_j ⊗ vec_m) (+ the geometric term when j = m) at the four vertex pairs of edges j and m. */
  private emitPair(acc: MatrixAccumulator, j: number, m: number, c: number, vec: Float64Array, geo: boolean, factor: number): void {
    const B = this.blk,
      g = this.g,
      oj = 3 * j,
      om = 3 * m;
    for (let r = 0; r < 3; r++) for (let cc = 0; cc < 3; cc++) B[3 * r + cc] = c * g[oj + r] * vec[om + cc];
    if (geo) {
      for (let cc = 0; cc < 3; cc++) {
        const gq = this.geometric(j, cc === 0 ? 1 : 0, cc === 1 ? 1 : 0, cc === 2 ? 1 : 0);
        B[cc] += gq[0];
        B[3 + cc] += gq[1];
        B[6 + cc] += gq[2];
      }
    }
    const E = this.edges,
      aj = 3 * E[2 * j],
      bj = 3 * E[2 * j + 1],
      am = 3 * E[2 * m],
      bm = 3 * E[2 * m + 1];
    addBlock3(acc, aj, am, B, 0, -factor);
    addBlock3(acc, aj, bm, B, 0, factor);
    addBlock3(acc, bj, am, B, 0, factor);
    addBlock3(acc, bj, bm, B, 0, -factor);
  }

  private emit(acc: MatrixAccumulator, factor: number, vec: Float64Array, geo: boolean): void {
    const nE = this.edges.length / 2;
    for (let e = 0; e < nE; e++) this.emitPair(acc, e, e, this.kEdge[e], vec, geo, factor);
    if (!this.useAngularSprings.value) return;
    const te = this.triEdges,
      gm = this.gamma;
    for (let t = 0; t < te.length / 3; t++) {
      for (let j = 0; j < 3; j++) {
        const k1 = (j + 1) % 3,
          l = (j + 2) % 3;
        // F_{e_j} gets γ_l·δ_{e_k} + γ_k·δ_{e_l}
        this.emitPair(acc, te[3 * t + j], te[3 * t + k1], gm[3 * t + l], vec, false, factor);
        this.emitPair(acc, te[3 * t + j], te[3 * t + l], gm[3 * t + k1], vec, false, factor);
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    this.emit(acc, kFactor, this.h, true);
    this.addExtraKToMatrix(acc, kFactor);
  }

  protected addExtraKToMatrix(_acc: MatrixAccumulator, _kFactor: number): void {}

  override addBToMatrix(acc: MatrixAccumulator, bFactor: number): void {
    if (this.dampingRatio.value === 0) return;
    this.emit(acc, bFactor, this.w, false);
  }

  /**
   * The edge law's energy at the last evaluation (no damping): W = ½·Σ_e F_e·δ_e for lengths; for
   * squared lengths the force is F·dp = ½·F·∂δ/∂x, so W = ¼·Σ_e F_e·δ_e (the biquadratic one adds its area term).
   */
  override getPotentialEnergy(): number {
    let e2 = 0;
    for (let e = 0; e < this.F.length; e++) e2 += this.F[e] * this.delta[e];
    return (0.5 / this.power) * e2;
  }
}

@sofaComponent({
  name: 'TriangularQuadraticSpringsForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Quadratic springs on the edges of triangles, coupled across each triangle (a membrane law).',
  templates: ['Vec3d'],
})
export class TriangularQuadraticSpringsForceField extends TriangularSpringsBase {
  protected readonly power = 1;
}

@sofaComponent({
  name: 'TriangularBiquadraticSpringsForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description:
    'Biquadratic springs (on squared edge lengths) of triangles, coupled across each triangle, with an optional compression penalty.',
  templates: ['Vec3d'],
})
export class TriangularBiquadraticSpringsForceField extends TriangularSpringsBase {
  protected readonly power = 2;
  readonly compressible = this.initData({
    name: 'compressible',
    type: Bool,
    default: true,
    help: 'If additional energy penalizing compressibility should be used',
  });
  readonly matrixRegularization = this.initData({
    name: 'matrixRegularization',
    type: Real,
    default: 0.4,
    help: "Regularization of the Stiffnes Matrix (between 0 and 1); unused: sofa-ts's K is the exact derivative",
  });

  /** Per triangle at the last addForce: compressed (1) or not, and the 9 blocks ∂²W_A/∂x_i∂x_j (81 numbers). */
  private compressed = new Uint8Array(0);
  private hess = new Float64Array(0);
  /** W_A = Σ over compressed triangles of (λ+μ)·3·A⁰·(J−1)⁴/4 at the last addForce (∂W_A/∂A = c). */
  private areaEnergy = 0;

  protected override buildExtra(nT: number): void {
    this.compressed = new Uint8Array(nT);
    this.hess = new Float64Array(81 * nT);
  }

  /** The edge law's energy plus the compression penalty's (SOFA reports none for this component). */
  override getPotentialEnergy(): number {
    return super.getPotentialEnergy() + this.areaEnergy;
  }

  /**
   * On compressed triangles (J = A/A⁰ < 1): f_i −= c·∂A/∂x_i with c = 3(λ+μ)·(J−1)³ and
   * ∂A/∂x_i = ½·n × e_i (e_i = x_l − x_k, the edge opposite i); the Hessian of W_A = c·A⁰·(J−1)/4·…
   * is kept as c′·∇A_i·∇A_jᵀ + c·∇²A_ij, c′ = 9(λ+μ)(J−1)²/A⁰,
   * ∇²A_ij = ½·([e_i]×ᵀ·(I − nnᵀ)·[e_j]×/|N| + H_ij), H_ij = −[n]× for i = j − 1, +[n]× for i = j + 1 (mod 3).
   */
  protected override addExtraForce(f: Float64Array, x: Float64Array): void {
    this.compressed.fill(0);
    this.areaEnergy = 0;
    if (!this.useAngularSprings.value || !this.compressible.value) return;
    const T = this.tris,
      nT = T.length / 3,
      kA = 3 * (this.lambda + this.mu);
    const e = sc18,
      gr = sc9b,
      H = this.hess;
    for (let t = 0; t < nT; t++) {
      const p0 = 3 * T[3 * t],
        p1 = 3 * T[3 * t + 1],
        p2 = 3 * T[3 * t + 2];
      const ax = x[p1] - x[p0],
        ay = x[p1 + 1] - x[p0 + 1],
        az = x[p1 + 2] - x[p0 + 2];
      const bx = x[p2] - x[p0],
        by = x[p2 + 1] - x[p0 + 1],
        bz = x[p2 + 2] - x[p0 + 2];
      let nx = ay * bz - az * by,
        ny = az * bx - ax * bz,
        nz = ax * by - ay * bx;
      const N = Math.hypot(nx, ny, nz);
      const J = N / 2 / this.restArea[t];
      if (!(J < 1) || N === 0) continue;
      this.compressed[t] = 1;
      this.areaEnergy += (kA * this.restArea[t] * (J - 1) ** 4) / 4;
      nx /= N;
      ny /= N;
      nz /= N;
      const c = kA * (J - 1) ** 3,
        c2 = (3 * kA * (J - 1) ** 2) / this.restArea[t];
      // edges opposite each vertex and the area gradients
      for (let i = 0; i < 3; i++) {
        const k = 3 * T[3 * t + ((i + 1) % 3)],
          l = 3 * T[3 * t + ((i + 2) % 3)];
        const ex = x[l] - x[k],
          ey = x[l + 1] - x[k + 1],
          ez = x[l + 2] - x[k + 2];
        e[3 * i] = ex;
        e[3 * i + 1] = ey;
        e[3 * i + 2] = ez;
        gr[3 * i] = 0.5 * (ny * ez - nz * ey);
        gr[3 * i + 1] = 0.5 * (nz * ex - nx * ez);
        gr[3 * i + 2] = 0.5 * (nx * ey - ny * ex);
        const v = 3 * T[3 * t + i];
        f[v] -= c * gr[3 * i];
        f[v + 1] -= c * gr[3 * i + 1];
        f[v + 2] -= c * gr[3 * i + 2];
      }
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          const sgn = (i + 1) % 3 === j ? -1 : (j + 1) % 3 === i ? 1 : 0;
          const o = 81 * t + 27 * i + 9 * j;
          for (let cc = 0; cc < 3; cc++) {
            // a = e_j × e_cc;  v = (I − nnᵀ)·a;  w = [e_i]×ᵀ·v = v × e_i
            const ejx = e[3 * j],
              ejy = e[3 * j + 1],
              ejz = e[3 * j + 2];
            const a0 = cc === 1 ? -ejz : cc === 2 ? ejy : 0;
            const a1 = cc === 2 ? -ejx : cc === 0 ? ejz : 0;
            const a2 = cc === 0 ? -ejy : cc === 1 ? ejx : 0;
            const na = nx * a0 + ny * a1 + nz * a2;
            const v0 = a0 - na * nx,
              v1 = a1 - na * ny,
              v2 = a2 - na * nz;
            const eix = e[3 * i],
              eiy = e[3 * i + 1],
              eiz = e[3 * i + 2];
            const w0 = v1 * eiz - v2 * eiy,
              w1 = v2 * eix - v0 * eiz,
              w2 = v0 * eiy - v1 * eix;
            // [n]×·e_cc = n × e_cc
            const h0 = cc === 1 ? -nz : cc === 2 ? ny : 0;
            const h1 = cc === 2 ? -nx : cc === 0 ? nz : 0;
            const h2 = cc === 0 ? -ny : cc === 1 ? nx : 0;
            const gj = gr[3 * j + cc];
            H[o + cc] = c2 * gr[3 * i] * gj + c * 0.5 * (w0 / N + sgn * h0);
            H[o + 3 + cc] = c2 * gr[3 * i + 1] * gj + c * 0.5 * (w1 / N + sgn * h1);
            H[o + 6 + cc] = c2 * gr[3 * i + 2] * gj + c * 0.5 * (w2 / N + sgn * h2);
          }
        }
      }
    }
  }

  protected override addExtraDForce(df: Float64Array, dx: Float64Array, k: number): void {
    const T = this.tris,
      nT = T.length / 3,
      H = this.hess;
    for (let t = 0; t < nT; t++) {
      if (this.compressed[t] === 0) continue;
      for (let i = 0; i < 3; i++) {
        const vi = 3 * T[3 * t + i];
        for (let j = 0; j < 3; j++) {
          const vj = 3 * T[3 * t + j],
            o = 81 * t + 27 * i + 9 * j;
          for (let r = 0; r < 3; r++)
            df[vi + r] -= k * (H[o + 3 * r] * dx[vj] + H[o + 3 * r + 1] * dx[vj + 1] + H[o + 3 * r + 2] * dx[vj + 2]);
        }
      }
    }
  }

  /** The area term's blocks of every triangle (zeros when not compressed: the pattern stays the same). */
  protected override addExtraKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    if (!this.useAngularSprings.value || !this.compressible.value) return;
    const T = this.tris,
      nT = T.length / 3,
      H = this.hess;
    for (let t = 0; t < nT; t++) {
      const z = this.compressed[t] === 0;
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++)
          addBlock3(acc, 3 * T[3 * t + i], 3 * T[3 * t + j], z ? ZERO9 : H, z ? 0 : 81 * t + 27 * i + 9 * j, -kFactor);
      }
    }
  }
}

const sc18 = new Float64Array(9);
const sc9b = new Float64Array(9);
const ZERO9 = new Float64Array(9);
