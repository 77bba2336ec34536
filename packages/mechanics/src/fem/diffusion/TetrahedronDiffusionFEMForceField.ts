import {
  BaseForceField,
  Bool,
  contextMeshTopology,
  isMechanicalState,
  isTopology,
  nonNegative,
  Real,
  RealArray,
  sofaComponent,
  Str,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type BaseObject,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { mstateLink } from '../../state-link.js';

/** The six edges (k, l) of a tetrahedron in its local vertex numbering. */
const TETRA_EDGES = [
  [0, 1],
  [0, 2],
  [0, 3],
  [1, 2],
  [1, 3],
  [2, 3],
] as const;

/**
 * SOFA's TetrahedronDiffusionFEMForceField: the heat (diffusion) equation on linear tetrahedra for
 * a scalar field u stored as the positions of a Vec1d state (Vec2d, Vec3d: each component diffuses
 * on its own with the same operator).
 *
 * With N_k the linear shape functions of a tetrahedron e of volume V_e (measured at init on the
 * positions of the Vec3d state tagged `tagMechanics`) and D_e its diffusion coefficient, the
 * stiffness (Laplacian) matrix is
 *   L = Σ_e D_e·V_e·∇N_kᵀ·A_e·∇N_l,  A_e = I + (r − 1)·a_e·a_eᵀ,
 * r = anisotropyRatio (r = 1: isotropic, A = I) and a_e the tetrahedron's transverseAnisotropyArray
 * direction, used as given (SOFA does not normalise it). L is stored per edge: c_kl = L_kl, and
 *   f_l += c_kl·(u_l − u_k),  f_k −= c_kl·(u_l − u_k),  i.e. f = −L·u,
 * so SOFA's K = ∂f/∂u = −L (negative semi-definite, rows summing to 0); the mass (MeshMatrixMass,
 * DiagonalMass) gives M·du/dt = −L·u. Coefficients are computed once at init (SOFA's reinit does
 * nothing).
 */
@sofaComponent({
  name: 'TetrahedronDiffusionFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.Diffusion',
  description:
    'Isotropic or transversely anisotropic diffusion (heat equation) on a tetrahedral mesh, for a scalar field in a Vec1d state (Vec2d, Vec3d: per component); ' +
    'volumes and gradients from the Vec3d MechanicalObject tagged tagMechanics, in this node or above. drawConduc is inert (drawing). ' +
    'Unlike SOFA: the potential energy is ½·uᵀ·L·u (SOFA: 0); a missing tagged state, mis-sized per-tetrahedron Data or a flat tetrahedron is a located error.',
  templates: ['Vec1d', 'Vec2d', 'Vec3d'],
})
export class TetrahedronDiffusionFEMForceField extends BaseForceField {
  readonly constantDiffusionCoefficient = this.initData({
    name: 'constantDiffusionCoefficient',
    type: Real,
    default: 1,
    range: nonNegative,
    help: 'diffusion coefficient D of every tetrahedron (when tetraDiffusionCoefficient is empty)',
  });
  readonly tetraDiffusionCoefficient = this.initData({
    name: 'tetraDiffusionCoefficient',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'diffusion coefficient of each tetrahedron; empty: constantDiffusionCoefficient for all (filled at init)',
  });
  readonly anisotropyRatio = this.initData({
    name: 'anisotropyRatio',
    type: Real,
    default: 1,
    range: nonNegative,
    help: 'transverse anisotropy ratio r: the diffusion along the tetrahedron direction a is r·D (for a unit a); 1 = isotropic',
  });
  readonly transverseAnisotropyArray = this.initData({
    name: 'transverseAnisotropyArray',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'anisotropy direction a of each tetrahedron (3 numbers each), used when anisotropyRatio ≠ 1, as given (not normalised, as in SOFA)',
  });
  readonly tagMechanics = this.initData({
    name: 'tagMechanics',
    type: Str,
    default: 'meca',
    help: 'tag of the Vec3d MechanicalObject giving the mesh geometry (searched in this node and its ancestors)',
  });
  readonly drawConduc = this.initData({
    name: 'drawConduc',
    type: Bool,
    default: false,
    help: 'display the conductivity map (drawing only: inert in sofa-ts)',
    group: 'Visualization',
  });

  readonly mstate = this.initLink(mstateLink());
  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container giving the tetrahedra (default: the one of this node or an ancestor)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  private states: BaseMechanicalState[] = [];
  /** Components per point of the diffusing state (1 for Vec1d). */
  private d = 1;
  /** Edges of the tetrahedra (nE × 2) and their coefficients c = L_kl (nE). */
  private edges = new Uint32Array(0);
  private coefficients = new Float64Array(0);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  /** The edge coefficients c_kl = L_kl (read-only view, for tests and tools), valid after init. */
  get edgeCoefficients(): { readonly edges: Uint32Array; readonly coefficients: Float64Array } {
    return { edges: this.edges, coefficients: this.coefficients };
  }

  override init(): void {
    const s = this.mstate.require();
    const t = s.stateType;
    if (t.isRigid || t.coordSize !== t.derivSize || t.derivSize > 3)
      throw this.error(`needs a Vec1d, Vec2d or Vec3d state (got ${t.name})`);
    this.states = [s];
    if (!this.template) this.template = t.name;
    this.d = t.derivSize;

    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: put a tetrahedral topology in the node or above, or set topology="@path"');
    this.topology.set(topo);
    const tets = topo.getTetrahedra();
    const nT = tets.length / 4;
    if (nT === 0) this.warn(`no tetrahedra in ${topo.describe()}: the force field does nothing`);

    const geometry = this.findGeometry();
    const X = geometry.x;
    for (const v of tets) {
      if (v >= s.size) throw this.error(`the topology names point ${v}, but ${s.describe()} has ${s.size} points`);
      if (v >= geometry.size)
        throw this.error(`the topology names point ${v}, but the geometry ${geometry.describe()} has ${geometry.size} points`);
    }

    const D = this.elementCoefficients(nT);
    const r = this.anisotropyRatio.value;
    const dirs = this.transverseAnisotropyArray.value;
    if (r !== 1) {
      if (dirs.length !== 3 * nT)
        throw this.dataError(
          this.anisotropyRatio,
          `anisotropyRatio = ${r} needs one transverseAnisotropyArray direction per tetrahedron: ${nT} expected, got ${dirs.length / 3}`,
        );
      for (let e = 0; e < nT; e++) {
        const n2 = dirs[3 * e] ** 2 + dirs[3 * e + 1] ** 2 + dirs[3 * e + 2] ** 2;
        if (Math.abs(n2 - 1) > 1e-6) {
          this.warnAbout(
            this.transverseAnisotropyArray,
            `the direction of tetrahedron ${e} has length ${Math.sqrt(n2).toPrecision(6)}; it is used as given, as SOFA does (the diffusion along it is (1 + (r − 1)·|a|²)·D)`,
            'give unit directions',
          );
          break;
        }
      }
    } else if (dirs.length > 0) {
      this.warnAbout(this.transverseAnisotropyArray, 'transverseAnisotropyArray is ignored: anisotropyRatio is 1 (isotropic diffusion)');
    }

    this.buildEdges(tets, s.size);
    this.computeCoefficients(tets, X, D, r === 1 ? undefined : dirs, r);
  }

  /** The Vec3d state tagged tagMechanics, in this node or above (SOFA's context search up by tag). */
  private findGeometry(): BaseMechanicalState {
    const tag = this.tagMechanics.value;
    const tagged = (o: BaseObject): o is BaseMechanicalState => isMechanicalState(o) && o.tags.value.includes(tag);
    const found = this.context.getObject(tagged, 'up');
    if (!found)
      throw this.dataError(
        this.tagMechanics,
        `no MechanicalObject tagged '${tag}' in this node or above: the diffusion needs the Vec3d positions of the mesh`,
        `tag the Vec3d MechanicalObject of the mesh with tags="${tag}", or set tagMechanics`,
      );
    if (found.stateType.name !== 'Vec3d')
      throw this.dataError(
        this.tagMechanics,
        `the MechanicalObject tagged '${tag}' (${found.describe()}) is ${found.stateType.name}; the mesh geometry must be Vec3d`,
      );
    return found;
  }

  /** D_e per tetrahedron: tetraDiffusionCoefficient, else constantDiffusionCoefficient written into it (as SOFA does). */
  private elementCoefficients(nT: number): Float64Array {
    const given = this.tetraDiffusionCoefficient.value;
    if (given.length === 0) {
      const D = new Float64Array(nT).fill(this.constantDiffusionCoefficient.value);
      this.tetraDiffusionCoefficient.value = D;
      return Float64Array.from(D);
    }
    if (given.length !== nT)
      throw this.dataError(
        this.tetraDiffusionCoefficient,
        `tetraDiffusionCoefficient needs one value per tetrahedron: ${nT} expected, got ${given.length}`,
      );
    for (let e = 0; e < nT; e++)
      if (!(given[e] >= 0))
        throw this.dataError(
          this.tetraDiffusionCoefficient,
          `the diffusion coefficient of tetrahedron ${e} is ${given[e]}; it must be >= 0`,
        );
    return Float64Array.from(given);
  }

  /** The unique edges of the tetrahedra; edgeOf[6e + j] is the edge index of local edge j of tetrahedron e. */
  private edgeOf = new Uint32Array(0);

  private buildEdges(tets: Uint32Array, n: number): void {
    const nT = tets.length / 4;
    const index = new Map<number, number>();
    const edges: number[] = [];
    this.edgeOf = new Uint32Array(6 * nT);
    for (let e = 0; e < nT; e++) {
      for (let j = 0; j < 6; j++) {
        const [k, l] = TETRA_EDGES[j];
        const p = tets[4 * e + k],
          q = tets[4 * e + l];
        const key = Math.min(p, q) * n + Math.max(p, q);
        let id = index.get(key);
        if (id === undefined) {
          id = edges.length / 2;
          index.set(key, id);
          edges.push(p, q);
        }
        this.edgeOf[6 * e + j] = id;
      }
    }
    this.edges = Uint32Array.from(edges);
    this.coefficients = new Float64Array(edges.length / 2);
  }

  /**
   * c_kl += D_e·V_e·∇N_k·(∇N_l + (r − 1)·a·(a·∇N_l)) for every edge (k, l) of every tetrahedron,
   * with ∇N_1 = (b×c)/S, ∇N_2 = (c×a)/S, ∇N_3 = (a×b)/S, ∇N_0 = −Σ, where a, b, c are the edges
   * from vertex 0 and S = a·(b×c) = 6·V (signed).
   */
  private computeCoefficients(tets: Uint32Array, X: Float64Array, D: Float64Array, dirs: Float64Array | undefined, r: number): void {
    const g = new Float64Array(12);
    const c = this.coefficients;
    c.fill(0);
    for (let e = 0; e < tets.length / 4; e++) {
      const i0 = 3 * tets[4 * e],
        i1 = 3 * tets[4 * e + 1],
        i2 = 3 * tets[4 * e + 2],
        i3 = 3 * tets[4 * e + 3];
      const ax = X[i1] - X[i0],
        ay = X[i1 + 1] - X[i0 + 1],
        az = X[i1 + 2] - X[i0 + 2];
      const bx = X[i2] - X[i0],
        by = X[i2 + 1] - X[i0 + 1],
        bz = X[i2 + 2] - X[i0 + 2];
      const cx = X[i3] - X[i0],
        cy = X[i3 + 1] - X[i0 + 1],
        cz = X[i3 + 2] - X[i0 + 2];
      const bcx = by * cz - bz * cy,
        bcy = bz * cx - bx * cz,
        bcz = bx * cy - by * cx;
      const S = ax * bcx + ay * bcy + az * bcz;
      if (!(Math.abs(S) > 0))
        throw this.error(
          `tetrahedron ${e} (points ${tets[4 * e]} ${tets[4 * e + 1]} ${tets[4 * e + 2]} ${tets[4 * e + 3]}) has zero volume: its shape-function gradients are undefined`,
        );
      g[3] = bcx / S;
      g[4] = bcy / S;
      g[5] = bcz / S;
      g[6] = (cy * az - cz * ay) / S;
      g[7] = (cz * ax - cx * az) / S;
      g[8] = (cx * ay - cy * ax) / S;
      g[9] = (ay * bz - az * by) / S;
      g[10] = (az * bx - ax * bz) / S;
      g[11] = (ax * by - ay * bx) / S;
      for (let m = 0; m < 3; m++) g[m] = -(g[3 + m] + g[6 + m] + g[9 + m]);
      const w = (D[e] * Math.abs(S)) / 6;
      for (let j = 0; j < 6; j++) {
        const [k, l] = TETRA_EDGES[j];
        const gk = 3 * k,
          gl = 3 * l;
        let dot = g[gk] * g[gl] + g[gk + 1] * g[gl + 1] + g[gk + 2] * g[gl + 2];
        if (dirs) {
          const dx = dirs[3 * e],
            dy = dirs[3 * e + 1],
            dz = dirs[3 * e + 2];
          dot += (r - 1) * (g[gk] * dx + g[gk + 1] * dy + g[gk + 2] * dz) * (g[gl] * dx + g[gl + 1] * dy + g[gl + 2] * dz);
        }
        c[this.edgeOf[6 * e + j]] += w * dot;
      }
    }
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    this.accumulate(f[0], x[0], 1);
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k !== 0) this.accumulate(df[0], dx[0], k);
  }

  /** out_l += factor·c·(u_l − u_k), out_k −= the same, per edge (k, l) and component. */
  private accumulate(out: Float64Array, u: Float64Array, factor: number): void {
    const E = this.edges,
      C = this.coefficients,
      d = this.d;
    for (let e = 0; e < C.length; e++) {
      const a = d * E[2 * e],
        b = d * E[2 * e + 1],
        w = C[e] * factor;
      for (let m = 0; m < d; m++) {
        const dp = (u[b + m] - u[a + m]) * w;
        out[b + m] += dp;
        out[a + m] -= dp;
      }
    }
  }

  /** kFactor·K, K = ∂f/∂u = −L: per edge (k, l), (k, k) and (l, l) += c, (k, l) and (l, k) −= c. */
  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const E = this.edges,
      C = this.coefficients,
      d = this.d;
    for (let e = 0; e < C.length; e++) {
      const a = d * E[2 * e],
        b = d * E[2 * e + 1],
        w = C[e] * kFactor;
      for (let m = 0; m < d; m++) {
        acc.add(b + m, a + m, -w);
        acc.add(a + m, b + m, -w);
        acc.add(a + m, a + m, w);
        acc.add(b + m, b + m, w);
      }
    }
  }

  /** The Dirichlet energy ½·uᵀ·L·u = −½·Σ_edges c·|u_l − u_k|², whose −gradient is addForce's f (SOFA returns 0). */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const u = x[0],
      E = this.edges,
      C = this.coefficients,
      d = this.d;
    let energy = 0;
    for (let e = 0; e < C.length; e++) {
      const a = d * E[2 * e],
        b = d * E[2 * e + 1];
      for (let m = 0; m < d; m++) energy -= 0.5 * C[e] * (u[b + m] - u[a + m]) ** 2;
    }
    return energy;
  }
}
