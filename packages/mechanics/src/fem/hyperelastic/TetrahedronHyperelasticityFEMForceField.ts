import {
  BaseForceField,
  Bool,
  Enum,
  RealArray,
  contextMechanicalState,
  contextMeshTopology,
  isTopology,
  sofaComponent,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { emitElementMatrix, matVec12 } from '../element-matrix.js';
import {
  createMaterial,
  MATERIAL_NAMES,
  updateStrainState,
  type HyperelasticMaterial,
  type MaterialName,
  type StrainState,
} from './hyperelastic-materials.js';

/**
 * SOFA's TetrahedronHyperelasticityFEMForceField: linear tetrahedra with a hyperelastic material
 * (see hyperelastic-materials.ts for the materials and their ParameterSet).
 * Per tetrahedron with rest positions X₀..X₃, shape gradients ∇Nⱼ and rest volume V:
 *   F = Σⱼ (xⱼ − x₀) ⊗ ∇Nⱼ (j = 1..3),  C = FᵀF,  J = det F,
 *   f_a = −V·F·S·∇N_a  (S the second Piola-Kirchhoff stress of the material),
 *   ∂f_a/∂x_b = −V·[(∇N_b·S·∇N_a)·I + F·dS[H_m]·∇N_a as column m],  H_m = ∇N_b ⊗ F_m + F_m ⊗ ∇N_b
 * (F_m the m-th row of F): the exact derivative, as SOFA's edge-based tangent. The element
 * matrices are rebuilt at the first product after each addForce.
 * Costa (an anisotropic exponential law) is not implemented: naming it is an error.
 */
@sofaComponent({
  name: 'TetrahedronHyperelasticityFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.HyperElastic',
  description:
    'Hyperelastic tetrahedra (St Venant-Kirchhoff, Neo-Hookean, Mooney-Rivlin, Arruda-Boyce, Veronda-Westman, Ogden, stable Neo-Hookean).',
  templates: ['Vec3d'],
})
export class TetrahedronHyperelasticityFEMForceField extends BaseForceField {
  readonly materialName = this.initData({
    name: 'materialName',
    type: Enum(MATERIAL_NAMES),
    default: 'ArrudaBoyce',
    help: "the material: 'ArrudaBoyce', 'StVenantKirchhoff', 'NeoHookean', 'MooneyRivlin', 'VerondaWestman', 'Costa' (not implemented), 'Ogden', 'StableNeoHookean'",
  });
  readonly parameterSet = this.initData({
    name: 'ParameterSet',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'the material parameters (their number and meaning depend on the material)',
  });
  readonly anisotropySet = this.initData({
    name: 'AnisotropyDirections',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'directions of anisotropy (read by anisotropic materials only: none of the implemented ones)',
  });
  readonly matrixRegularization = this.initData({
    name: 'matrixRegularization',
    type: Bool,
    default: false,
    help: 'regularization of the stiffness matrix (declared by SOFA, which does not use it)',
  });
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the tetrahedra (default: the topology of this node)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private mstate: BaseMechanicalState | undefined;
  private material: HyperelasticMaterial | undefined;
  private params = new Float64Array(0);
  /** Node indices (nElem × 4). */
  private elems = new Uint32Array(0);
  /** Shape gradients ∇N₀..∇N₃ at rest (nElem × 12), 1/m. */
  private grad = new Float64Array(0);
  /** Rest volumes (nElem), m³; inverse of 6× the signed rest volume (nElem). */
  private volume = new Float64Array(0);
  private volScale = new Float64Array(0);
  /** Deformation gradient and J at the last addForce (nElem × 10). */
  private defo = new Float64Array(0);
  /** Element stiffness matrices ∂f/∂x at the last addForce (nElem × 144), N/m; valid when !dirty. */
  private K = new Float64Array(0);
  private dirty = true;

  private readonly state: StrainState = { C: new Float64Array(9), Cinv: new Float64Array(9), I1: 0, I2: 0, J: 1 };
  private readonly S = new Float64Array(9);
  private readonly H = new Float64Array(9);
  private readonly T = new Float64Array(9);
  private readonly xe = new Float64Array(12);
  private readonly fe = new Float64Array(12);
  private readonly blk = new Float64Array(9);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.mstate ? [this.mstate] : [];
  }

  get elementCount(): number {
    return this.elems.length / 4;
  }

  override init(): void {
    const ms = contextMechanicalState(this.context);
    if (!ms) throw this.error('no mechanical state: put a MechanicalObject in the node or an ancestor');
    if (ms.stateType.derivSize !== 3 || ms.stateType.isRigid) throw this.error(`needs a Vec3 mechanical state, not ${ms.stateType.name}`);
    if (!this.template) this.template = ms.stateType.name;
    this.mstate = ms;
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: link one with topology="@..." or put a tetrahedral topology in the node');
    this.topology.set(topo);
    const name = this.materialName.value as MaterialName;
    const material = createMaterial(name);
    if (!material)
      throw this.error(
        `the material '${name}' is not implemented`,
        "use one of 'ArrudaBoyce', 'StVenantKirchhoff', 'NeoHookean', 'MooneyRivlin', 'VerondaWestman', 'Ogden', 'StableNeoHookean'",
      );
    this.material = material;
    this.params = Float64Array.from(this.parameterSet.value);
    if (this.params.length < material.parameterCount)
      throw this.error(`the material '${name}' needs ${material.parameterCount} values in ParameterSet (got ${this.params.length})`);
    if (this.anisotropySet.value.length > 0) this.warn(`AnisotropyDirections is not read by the material '${name}'`);
    this.elems = Uint32Array.from(topo.getTetrahedra());
    if (this.elems.length === 0) throw this.error(`the topology ${topo.describe()} has no tetrahedra`);
    for (const v of this.elems)
      if (v >= ms.size) throw this.error(`the topology names point ${v}, but ${ms.describe()} has ${ms.size} points`);
    this.initRest(ms.x0);
  }

  /** Shape gradients and volumes from the rest positions (SOFA's createTetrahedronRestInformation). */
  private initRest(X: Float64Array): void {
    const n = this.elementCount,
      el = this.elems;
    this.grad = new Float64Array(12 * n);
    this.volume = new Float64Array(n);
    this.volScale = new Float64Array(n);
    this.defo = new Float64Array(10 * n);
    this.K = new Float64Array(144 * n);
    const p = new Float64Array(12);
    for (let e = 0; e < n; e++) {
      for (let j = 0; j < 4; j++) for (let c = 0; c < 3; c++) p[3 * j + c] = X[3 * el[4 * e + j] + c];
      // 6·V (signed) = ((p2 − p0) × (p3 − p0))·(p1 − p0)
      const vol6 = tripleProduct(p, 0, 2, 3, 1);
      if (!(Math.abs(vol6) > 0))
        throw this.error(`tetrahedron ${e} (${Array.from(el.subarray(4 * e, 4 * e + 4)).join(' ')}) has zero volume at rest`);
      this.volScale[e] = 1 / vol6;
      this.volume[e] = Math.abs(vol6 / 6);
      // ∇Nⱼ = ±((p_{j+2} − p_{j+1}) × (p_{j+3} − p_{j+1})) / 6V, indices mod 4
      for (let j = 0; j < 4; j++) {
        const a = (j + 1) % 4,
          b = (j + 2) % 4,
          c = (j + 3) % 4,
          sign = j % 2 ? 1 : -1;
        const ux = p[3 * b] - p[3 * a],
          uy = p[3 * b + 1] - p[3 * a + 1],
          uz = p[3 * b + 2] - p[3 * a + 2];
        const vx = p[3 * c] - p[3 * a],
          vy = p[3 * c + 1] - p[3 * a + 1],
          vz = p[3 * c + 2] - p[3 * a + 2];
        const o = 12 * e + 3 * j,
          k = sign / vol6;
        this.grad[o] = (uy * vz - uz * vy) * k;
        this.grad[o + 1] = (uz * vx - ux * vz) * k;
        this.grad[o + 2] = (ux * vy - uy * vx) * k;
      }
      const o = 10 * e;
      this.defo[o] = this.defo[o + 4] = this.defo[o + 8] = this.defo[o + 9] = 1;
    }
    this.dirty = true;
  }

  /** F (9, row-major) and J of element e at positions x, into defo. */
  private deformation(e: number, x: Float64Array): void {
    const el = this.elems,
      g = this.grad,
      d = this.defo,
      o = 10 * e;
    const i0 = 3 * el[4 * e];
    d.fill(0, o, o + 9);
    for (let j = 1; j < 4; j++) {
      const ij = 3 * el[4 * e + j],
        go = 12 * e + 3 * j;
      for (let k = 0; k < 3; k++) {
        const dp = x[ij + k] - x[i0 + k];
        d[o + 3 * k] += dp * g[go];
        d[o + 3 * k + 1] += dp * g[go + 1];
        d[o + 3 * k + 2] += dp * g[go + 2];
      }
    }
    // J = ((x2 − x0) × (x3 − x0))·(x1 − x0) / 6V
    const p = this.xe;
    for (let j = 0; j < 4; j++) for (let c = 0; c < 3; c++) p[3 * j + c] = x[3 * el[4 * e + j] + c];
    d[o + 9] = tripleProduct(p, 0, 2, 3, 1) * this.volScale[e];
  }

  /** C, C⁻¹, invariants of element e from its stored F and J; the material prepared and S computed. */
  private strainOf(e: number): void {
    const d = this.defo,
      o = 10 * e,
      C = this.state.C;
    for (let k = 0; k < 3; k++)
      for (let l = 0; l < 3; l++) C[3 * k + l] = d[o + k] * d[o + l] + d[o + 3 + k] * d[o + 3 + l] + d[o + 6 + k] * d[o + 6 + l];
    updateStrainState(this.state, d[o + 9]);
    this.material!.prepare(this.state, this.params);
    this.material!.stress(this.S, this.state, this.params);
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    const ff = f[0],
      p = x[0],
      n = this.elementCount,
      el = this.elems,
      g = this.grad,
      d = this.defo,
      S = this.S;
    for (let e = 0; e < n; e++) {
      this.deformation(e, p);
      this.strainOf(e);
      const o = 10 * e,
        V = this.volume[e];
      // f_a −= V·F·(S·∇N_a)
      for (let a = 0; a < 4; a++) {
        const go = 12 * e + 3 * a,
          q = 3 * el[4 * e + a];
        const gx = g[go],
          gy = g[go + 1],
          gz = g[go + 2];
        const s0 = S[0] * gx + S[1] * gy + S[2] * gz,
          s1 = S[3] * gx + S[4] * gy + S[5] * gz,
          s2 = S[6] * gx + S[7] * gy + S[8] * gz;
        for (let k = 0; k < 3; k++) ff[q + k] -= V * (d[o + 3 * k] * s0 + d[o + 3 * k + 1] * s1 + d[o + 3 * k + 2] * s2);
      }
    }
    this.dirty = true;
  }

  /** ∂f/∂x of every element at the last addForce (12×12 each, node-major rows). */
  private updateStiffness(): void {
    const n = this.elementCount,
      g = this.grad,
      d = this.defo,
      S = this.S,
      H = this.H,
      T = this.T,
      K = this.K;
    for (let e = 0; e < n; e++) {
      this.strainOf(e);
      const o = 10 * e,
        V = this.volume[e],
        ko = 144 * e;
      for (let b = 0; b < 4; b++) {
        const gb = 12 * e + 3 * b;
        for (let m = 0; m < 3; m++) {
          // H = ∇N_b ⊗ F_m + F_m ⊗ ∇N_b, T = dS[H]
          for (let r = 0; r < 3; r++)
            for (let c = 0; c < 3; c++) H[3 * r + c] = g[gb + r] * d[o + 3 * m + c] + d[o + 3 * m + r] * g[gb + c];
          this.material!.tangent(T, H, this.state, this.params);
          for (let a = 0; a < 4; a++) {
            const ga = 12 * e + 3 * a;
            const ax = g[ga],
              ay = g[ga + 1],
              az = g[ga + 2];
            const t0 = T[0] * ax + T[1] * ay + T[2] * az,
              t1 = T[3] * ax + T[4] * ay + T[5] * az,
              t2 = T[6] * ax + T[7] * ay + T[8] * az;
            for (let u = 0; u < 3; u++)
              K[ko + 12 * (3 * a + u) + 3 * b + m] = -V * (d[o + 3 * u] * t0 + d[o + 3 * u + 1] * t1 + d[o + 3 * u + 2] * t2);
            // geometric part (∇N_b·S·∇N_a)·I
            const geo =
              g[gb] * (S[0] * ax + S[1] * ay + S[2] * az) +
              g[gb + 1] * (S[3] * ax + S[4] * ay + S[5] * az) +
              g[gb + 2] * (S[6] * ax + S[7] * ay + S[8] * az);
            K[ko + 12 * (3 * a + m) + 3 * b + m] -= V * geo;
          }
        }
      }
    }
    this.dirty = false;
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k === 0) return;
    if (this.dirty) this.updateStiffness();
    const out = df[0],
      v = dx[0],
      n = this.elementCount,
      el = this.elems,
      xe = this.xe,
      fe = this.fe;
    for (let e = 0; e < n; e++) {
      for (let a = 0; a < 4; a++) {
        const q = 3 * el[4 * e + a];
        xe[3 * a] = v[q];
        xe[3 * a + 1] = v[q + 1];
        xe[3 * a + 2] = v[q + 2];
      }
      matVec12(fe, this.K, 144 * e, xe, k);
      for (let a = 0; a < 4; a++) {
        const q = 3 * el[4 * e + a];
        out[q] += fe[3 * a];
        out[q + 1] += fe[3 * a + 1];
        out[q + 2] += fe[3 * a + 2];
      }
    }
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    if (this.dirty) this.updateStiffness();
    const n = this.elementCount;
    for (let e = 0; e < n; e++) emitElementMatrix(acc, this.K.subarray(144 * e, 144 * e + 144), this.elems, e, 4, kFactor, this.blk);
  }

  /** Σ V·W(C) at positions x. */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const n = this.elementCount,
      p = x[0];
    const saved = Float64Array.from(this.defo);
    let energy = 0;
    for (let e = 0; e < n; e++) {
      this.deformation(e, p);
      this.strainOf(e);
      energy += this.volume[e] * this.material!.energy(this.state, this.params);
    }
    this.defo.set(saved);
    return energy;
  }

  /** Deformation gradient F of element e at the last addForce (row-major 9 values). */
  deformationGradient(e: number): Float64Array {
    return this.defo.subarray(10 * e, 10 * e + 9);
  }
}

/** ((p_b − p_a) × (p_c − p_a))·(p_d − p_a) for points a..d of p (12 numbers). */
function tripleProduct(p: Float64Array, a: number, b: number, c: number, d: number): number {
  const ux = p[3 * b] - p[3 * a],
    uy = p[3 * b + 1] - p[3 * a + 1],
    uz = p[3 * b + 2] - p[3 * a + 2];
  const vx = p[3 * c] - p[3 * a],
    vy = p[3 * c + 1] - p[3 * a + 1],
    vz = p[3 * c + 2] - p[3 * a + 2];
  const wx = p[3 * d] - p[3 * a],
    wy = p[3 * d + 1] - p[3 * a + 1],
    wz = p[3 * d + 2] - p[3 * a + 2];
  return (uy * vz - uz * vy) * wx + (uz * vx - ux * vz) * wy + (ux * vy - uy * vx) * wz;
}
