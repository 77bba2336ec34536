import {
  AnimateEndEvent,
  BaseForceField,
  Real,
  UInt,
  VecN,
  contextMechanicalState,
  contextMeshTopology,
  inOpen,
  nonNegative,
  positive,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
  type SofaEvent,
} from '@sofa-ts/core';
import { emitElementMatrix } from '../element-matrix.js';
import { lameCoefficients, TLEDNeoHookean } from './tled-neo-hookean.js';

/**
 * The elements a TLED force field integrates, precomputed in the reference configuration X (the
 * rest positions): per element its n nodes, the shape-function gradients ∇N_a (constant over the
 * element: one integration point), its volume V, and for hexahedra the hourglass matrix.
 */
export interface TLEDElements {
  /** Nodes per element (4 or 8). */
  readonly n: number;
  /** Node indices (count × n). */
  readonly nodes: Uint32Array;
  /** ∇N_a in the reference configuration (count × n × 3), 1/m. */
  readonly grad: Float64Array;
  /** Reference volumes (count), m³. */
  readonly volume: Float64Array;
  /**
   * Hourglass shape per element (count × n × n) or none: Γ = V·(Σ_a |∇N_a|²)/8 · Σ_α γ_α·γ_αᵀ, to be
   * multiplied by κ·(λ + 2μ) (see CudaHexahedronTLEDForceField).
   */
  readonly hourglass?: Float64Array;
}

/** SofaCUDA's hourglass coefficient κ (hard-coded in CudaHexahedronTLEDForceField::ComputeHGParams). */
export const HOURGLASS_KAPPA = 0.5;

/**
 * Prony series of the viscoelastic option, as SofaCUDA hard-codes it: one isochoric term
 * (α = 0.5, τ = 0.58 s, liver values of Taylor et al. 2009), no volumetric term.
 */
const PRONY_ALPHA = 0.5,
  PRONY_TAU = 0.58;

/**
 * Total Lagrangian explicit dynamics (TLED: Miller, Joldes, Lance, Wittek 2007; Taylor, Cheng,
 * Ourselin 2008), SofaCUDA's CudaTetrahedronTLEDForceField and CudaHexahedronTLEDForceField on the
 * CPU. Everything is measured in the reference configuration X (rest positions): with u = x − X,
 *   F = I + Σ_a u_a ⊗ ∇N_a,  C = FᵀF,  J = det F,  S = S(C) (tled-neo-hookean.ts),
 *   f_a = −V·F·S·∇N_a − Σ_b κ(λ + 2μ)·Γ_ab·u_b     (Γ: the hexahedra's hourglass term, else 0),
 * λ, μ from youngModulus and poissonRatio. The energy is Σ V·W(C) + ½·κ(λ + 2μ)·Σ uᵀΓu.
 * (SofaCUDA takes ∇N_a and V from the positions at init and u from the rest positions, the same
 * configuration in its scenes; sofa-ts takes both from the rest positions.)
 *
 * TLED is an explicit method and SofaCUDA's addDForce adds nothing (its stiffness is 0 under an
 * implicit solver); sofa-ts gives the exact tangent instead, so that an implicit solver integrates
 * the same material:
 *   ∂f_a/∂x_b = −V·[(∇N_bᵀ·S·∇N_a)·I + F·dS[∇N_b ⊗ F_m + F_m ⊗ ∇N_b]·∇N_a as column m] − κ(λ + 2μ)·Γ_ab·I
 * (F_m the m-th row of F), recomputed from the positions of the last addForce (nothing stored per
 * element).
 *
 * isViscoelastic adds SofaCUDA's Prony term to S: S ← S − D with D_{n} = A·S_iso + B·D_{n−1},
 * A = Δt·α/(Δt + τ), B = τ/(Δt + τ), Δt = `timestep` (Taylor et al. 2009). D advances once per time
 * step (at AnimateEndEvent, from the last addForce; SofaCUDA advances it at each addForce, the same
 * thing under an explicit solver that computes the forces once per step).
 */
export abstract class BaseTLEDForceField extends BaseForceField {
  readonly poissonRatio = this.initData({
    name: 'poissonRatio',
    type: Real,
    default: 0.45,
    range: inOpen(-1, 0.5),
    help: "Poisson ratio in Hooke's law",
  });
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: Real,
    default: 3000,
    unit: 'Pa',
    range: nonNegative,
    help: "Young modulus in Hooke's law",
  });
  readonly timestep = this.initData({
    name: 'timestep',
    type: Real,
    default: 0.001,
    unit: 's',
    range: positive,
    help: 'Simulation timestep (the time step of the viscoelastic Prony series update; read only when isViscoelastic is set)',
  });
  readonly isViscoelastic = this.initData({
    name: 'isViscoelastic',
    type: UInt,
    default: 0,
    help: 'Viscoelasticity flag: a one-term isochoric Prony series (α = 0.5, τ = 0.58 s, as SofaCUDA hard-codes it)',
  });
  readonly isAnisotropic = this.initData({
    name: 'isAnisotropic',
    type: UInt,
    default: 0,
    help: 'Anisotropy flag (transverse isotropy): not supported, SofaCUDA never sets its material constant (an error when set)',
  });
  readonly preferredDirection = this.initData({
    name: 'preferredDirection',
    type: VecN(3, 'Vec3f'),
    default: new Float64Array(3),
    help: 'Transverse isotropy direction (read only with isAnisotropic, which is not supported)',
  });

  /** The viscous stresses D of the last completed step and of the last addForce (count × 9). */
  readonly checkpointFields = ['visco'] as const;
  protected visco = new Float64Array(0);
  private viscoNext = new Float64Array(0);

  private mstate: BaseMechanicalState | undefined;
  protected elements: TLEDElements | undefined;
  private readonly material = new TLEDNeoHookean();
  /** Positions of the last addForce, where addDForce and addKToMatrix take the tangent. */
  private xLast = new Float64Array(0);
  private x0 = new Float64Array(0);
  private hasForce = false;
  private A = 0;
  private B = 0;

  // per-element scratch
  private readonly F = new Float64Array(9);
  private readonly C = new Float64Array(9);
  private readonly S = new Float64Array(9);
  private readonly Siso = new Float64Array(9);
  private readonly dF = new Float64Array(9);
  private readonly H = new Float64Array(9);
  private readonly dS = new Float64Array(9);
  private readonly dSiso = new Float64Array(9);
  private readonly dP = new Float64Array(9);
  private Ke = new Float64Array(0);
  private readonly blk = new Float64Array(9);

  /** The elements of the topology, precomputed at the rest positions X. */
  protected abstract buildElements(topo: BaseMeshTopology, X: Float64Array, pointCount: number): TLEDElements;

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.mstate ? [this.mstate] : [];
  }

  get elementCount(): number {
    return this.elements ? this.elements.volume.length : 0;
  }

  override init(): void {
    const ms = contextMechanicalState(this.context);
    if (!ms) throw this.error('no mechanical state: put a MechanicalObject in the node or an ancestor');
    if (ms.stateType.derivSize !== 3 || ms.stateType.isRigid) throw this.error(`needs a Vec3 mechanical state, not ${ms.stateType.name}`);
    if (!this.template) this.template = ms.stateType.name;
    this.mstate = ms;
    const topo = contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: put a topology with the elements in the node or an ancestor');
    if (this.isAnisotropic.value !== 0)
      throw this.error(
        'isAnisotropic is not supported: SofaCUDA reads a transverse-isotropy constant η that no Data sets (its InitGPU_…Aniso is empty) and never uploads preferredDirection',
        'remove isAnisotropic (the isotropic neo-Hookean material is used with 0)',
      );
    this.warn(
      `SofaCUDA's GPU kernels are not used: this is sofa-ts's TLED on the CPU, in double precision (SofaCUDA's CudaVec3f computes in float, so its results differ at float precision)`,
    );
    const el = this.buildElements(topo, ms.x0, ms.size);
    this.elements = el;
    this.x0 = Float64Array.from(ms.x0);
    this.xLast = Float64Array.from(ms.x0);
    this.Ke = new Float64Array(9 * el.n * el.n);
    const count = el.volume.length;
    if (this.isViscoelastic.value !== 0) {
      this.visco = new Float64Array(9 * count);
      this.viscoNext = new Float64Array(9 * count);
      const dt = this.timestep.value;
      this.A = (dt * PRONY_ALPHA) / (dt + PRONY_TAU);
      this.B = PRONY_TAU / (dt + PRONY_TAU);
      const sceneDt = this.context?.dt.value;
      if (sceneDt !== undefined && sceneDt !== dt)
        this.warnAbout(
          this.timestep,
          `the Prony series is updated with timestep = ${dt} s while the scene's dt is ${sceneDt} s (SofaCUDA does the same: set timestep to dt)`,
        );
      this.listening.value = true;
    }
  }

  /** λ, μ from the Data now, into the material; returns κ·(λ + 2μ), the hourglass factor. */
  private prepareMaterial(): number {
    const { lambda, mu } = lameCoefficients(this.youngModulus.value, this.poissonRatio.value);
    this.material.setLame(lambda, mu);
    return HOURGLASS_KAPPA * (lambda + 2 * mu);
  }

  /** F, C, J of element e at positions x; the material updated, S (and S_iso) computed, with the viscous term. */
  private elementStress(e: number, x: Float64Array, commitVisco: boolean): void {
    const el = this.elements!,
      n = el.n,
      nodes = el.nodes,
      g = el.grad,
      X = this.x0,
      F = this.F,
      C = this.C;
    F.fill(0);
    F[0] = F[4] = F[8] = 1;
    for (let a = 0; a < n; a++) {
      const q = 3 * nodes[n * e + a],
        go = 3 * (n * e + a);
      const gx = g[go],
        gy = g[go + 1],
        gz = g[go + 2];
      for (let i = 0; i < 3; i++) {
        const u = x[q + i] - X[q + i];
        F[3 * i] += u * gx;
        F[3 * i + 1] += u * gy;
        F[3 * i + 2] += u * gz;
      }
    }
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) C[3 * i + j] = F[i] * F[j] + F[3 + i] * F[3 + j] + F[6 + i] * F[6 + j];
    const J = F[0] * (F[4] * F[8] - F[5] * F[7]) - F[1] * (F[3] * F[8] - F[5] * F[6]) + F[2] * (F[3] * F[7] - F[4] * F[6]);
    this.material.update(C, J);
    this.material.stress(this.S, this.Siso);
    if (this.visco.length > 0) {
      const D = this.visco,
        Dn = this.viscoNext,
        o = 9 * e;
      for (let k = 0; k < 9; k++) {
        const d = this.A * this.Siso[k] + this.B * D[o + k];
        if (commitVisco) Dn[o + k] = d;
        this.S[k] -= d;
      }
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const el = this.elements!,
      out = f[0],
      p = x[0],
      n = el.n,
      nodes = el.nodes,
      g = el.grad,
      hg = el.hourglass,
      X = this.x0,
      F = this.F,
      S = this.S,
      count = el.volume.length;
    const kh = this.prepareMaterial();
    for (let e = 0; e < count; e++) {
      this.elementStress(e, p, true);
      const V = el.volume[e];
      for (let a = 0; a < n; a++) {
        const q = 3 * nodes[n * e + a],
          go = 3 * (n * e + a);
        const gx = g[go],
          gy = g[go + 1],
          gz = g[go + 2];
        // f_a −= V·F·(S·∇N_a)
        const s0 = S[0] * gx + S[1] * gy + S[2] * gz,
          s1 = S[3] * gx + S[4] * gy + S[5] * gz,
          s2 = S[6] * gx + S[7] * gy + S[8] * gz;
        let hx = 0,
          hy = 0,
          hz = 0;
        if (hg) {
          // hourglass: f_a −= κ(λ + 2μ)·Σ_b Γ_ab·u_b
          const ho = n * (n * e + a);
          for (let b = 0; b < n; b++) {
            const r = 3 * nodes[n * e + b],
              h = hg[ho + b];
            hx += h * (p[r] - X[r]);
            hy += h * (p[r + 1] - X[r + 1]);
            hz += h * (p[r + 2] - X[r + 2]);
          }
        }
        out[q] -= V * (F[0] * s0 + F[1] * s1 + F[2] * s2) + kh * hx;
        out[q + 1] -= V * (F[3] * s0 + F[4] * s1 + F[5] * s2) + kh * hy;
        out[q + 2] -= V * (F[6] * s0 + F[7] * s1 + F[8] * s2) + kh * hz;
      }
    }
    this.xLast.set(p);
    this.hasForce = true;
  }

  /** dP = dF·S + F·dS with dC = dFᵀF + FᵀdF, at the element's last stress (F, S in place). */
  private stressChange(): void {
    const F = this.F,
      dF = this.dF,
      H = this.H,
      dS = this.dS,
      dP = this.dP,
      S = this.S;
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        H[3 * i + j] =
          dF[i] * F[j] + dF[3 + i] * F[3 + j] + dF[6 + i] * F[6 + j] + F[i] * dF[j] + F[3 + i] * dF[3 + j] + F[6 + i] * dF[6 + j];
    this.material.tangent(dS, this.dSiso, H);
    if (this.visco.length > 0) for (let k = 0; k < 9; k++) dS[k] -= this.A * this.dSiso[k];
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        dP[3 * i + j] =
          dF[3 * i] * S[j] +
          dF[3 * i + 1] * S[3 + j] +
          dF[3 * i + 2] * S[6 + j] +
          F[3 * i] * dS[j] +
          F[3 * i + 1] * dS[3 + j] +
          F[3 * i + 2] * dS[6 + j];
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k === 0) return;
    const el = this.elements!,
      out = df[0],
      d = dx[0],
      n = el.n,
      nodes = el.nodes,
      g = el.grad,
      hg = el.hourglass,
      dF = this.dF,
      dP = this.dP,
      count = el.volume.length;
    const kh = this.prepareMaterial();
    for (let e = 0; e < count; e++) {
      this.elementStress(e, this.xLast, false);
      dF.fill(0);
      for (let a = 0; a < n; a++) {
        const q = 3 * nodes[n * e + a],
          go = 3 * (n * e + a);
        for (let i = 0; i < 3; i++) {
          const u = d[q + i];
          dF[3 * i] += u * g[go];
          dF[3 * i + 1] += u * g[go + 1];
          dF[3 * i + 2] += u * g[go + 2];
        }
      }
      this.stressChange();
      const V = el.volume[e];
      for (let a = 0; a < n; a++) {
        const q = 3 * nodes[n * e + a],
          go = 3 * (n * e + a);
        const gx = g[go],
          gy = g[go + 1],
          gz = g[go + 2];
        let hx = 0,
          hy = 0,
          hz = 0;
        if (hg) {
          const ho = n * (n * e + a);
          for (let b = 0; b < n; b++) {
            const r = 3 * nodes[n * e + b],
              h = hg[ho + b];
            hx += h * d[r];
            hy += h * d[r + 1];
            hz += h * d[r + 2];
          }
        }
        out[q] -= k * (V * (dP[0] * gx + dP[1] * gy + dP[2] * gz) + kh * hx);
        out[q + 1] -= k * (V * (dP[3] * gx + dP[4] * gy + dP[5] * gz) + kh * hy);
        out[q + 2] -= k * (V * (dP[6] * gx + dP[7] * gy + dP[8] * gz) + kh * hz);
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const el = this.elements!,
      n = el.n,
      g = el.grad,
      hg = el.hourglass,
      dF = this.dF,
      dP = this.dP,
      Ke = this.Ke,
      stride = 3 * n,
      count = el.volume.length;
    const kh = this.prepareMaterial();
    for (let e = 0; e < count; e++) {
      this.elementStress(e, this.xLast, false);
      const V = el.volume[e];
      // column (b, m): dx = unit displacement of node b along m, dF = e_m ⊗ ∇N_b
      for (let b = 0; b < n; b++) {
        const gb = 3 * (n * e + b);
        for (let m = 0; m < 3; m++) {
          dF.fill(0);
          dF[3 * m] = g[gb];
          dF[3 * m + 1] = g[gb + 1];
          dF[3 * m + 2] = g[gb + 2];
          this.stressChange();
          const col = 3 * b + m;
          for (let a = 0; a < n; a++) {
            const ga = 3 * (n * e + a);
            const gx = g[ga],
              gy = g[ga + 1],
              gz = g[ga + 2];
            const h = hg ? kh * hg[n * (n * e + a) + b] : 0;
            for (let i = 0; i < 3; i++)
              Ke[(3 * a + i) * stride + col] = -V * (dP[3 * i] * gx + dP[3 * i + 1] * gy + dP[3 * i + 2] * gz) - (i === m ? h : 0);
          }
        }
      }
      emitElementMatrix(acc, Ke, el.nodes, e, n, kFactor, this.blk);
    }
  }

  /** Σ V·W(C) + ½·κ(λ + 2μ)·Σ uᵀΓu at positions x (the elastic energy; the viscous stress has none). */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const el = this.elements;
    if (!el) return 0;
    const p = x[0],
      n = el.n,
      nodes = el.nodes,
      hg = el.hourglass,
      X = this.x0,
      count = el.volume.length;
    const kh = this.prepareMaterial();
    let energy = 0;
    const saved = this.visco;
    this.visco = new Float64Array(0);
    try {
      for (let e = 0; e < count; e++) {
        this.elementStress(e, p, false);
        energy += el.volume[e] * this.material.energy();
        if (hg)
          for (let a = 0; a < n; a++) {
            const qa = 3 * nodes[n * e + a];
            for (let b = 0; b < n; b++) {
              const qb = 3 * nodes[n * e + b],
                h = hg[n * (n * e + a) + b];
              for (let i = 0; i < 3; i++) energy += 0.5 * kh * h * (p[qa + i] - X[qa + i]) * (p[qb + i] - X[qb + i]);
            }
          }
      }
    } finally {
      this.visco = saved;
    }
    return energy;
  }

  /** The viscous stresses advance once per step: D ← D of the step's last addForce. */
  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || this.visco.length === 0 || !this.hasForce) return;
    this.visco.set(this.viscoNext);
    this.hasForce = false;
  }

  override reset(): void {
    this.visco.fill(0);
    this.viscoNext.fill(0);
  }
}
