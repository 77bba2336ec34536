import {
  AnimateEndEvent,
  Bool,
  Enum,
  Int,
  Real,
  RealArray,
  Str,
  sofaComponent,
  type BaseMeshTopology,
  type SofaEvent,
} from '@sofa-ts/core';
import { polarDecomposition } from '../polar-decomposition.js';
import { CorotationalTetrahedra, type TetrahedronMethod } from './corotational-tetrahedra.js';
import { frameOfEdges, tetrahedraOfTopology } from './tetrahedron-element.js';
import { nodeRotationsOfElements } from '../node-rotations.js';

/**
 * SOFA's TetrahedronFEMForceField: linear elasticity on tetrahedra, small displacements or
 * corotational ('large': frame of the first edges, 'polar': polar decomposition of the edge matrix,
 * 'svd': polar with a rotation-preserving SVD for inverted elements). See CorotationalTetrahedra for
 * the equations: f = Rᵀ·J·K·Jᵀ·(R₀·X − R·x), K_e = −Rᵀ·J·K·Jᵀ·R, Hooke's law in SOFA's Voigt order.
 * Optional plasticity (Jᵀ·D minus a plastic strain that creeps towards the total strain beyond
 * plasticYieldThreshold and is clamped to plasticMaxThreshold). A topology with hexahedra only is
 * split in 6 tetrahedra per hexahedron as SOFA does.
 * computeVonMisesStress (1: from the corotational displacement D, 2: from the Green strain of
 * U = x − X) fills vonMisesPerElement with √(σ:σ − …) of σ = λ·tr(ε)·I + 2μ·ε, and vonMisesPerNode
 * with the mean over the tetrahedra around each point, at init and at the end of each step.
 */
@sofaComponent({
  name: 'TetrahedronFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Linear elastic tetrahedra, small displacements or corotational (large, polar, svd).',
  templates: ['Vec3d'],
})
export class TetrahedronFEMForceField extends CorotationalTetrahedra {
  /** SOFA's BaseRotationFinder: warped preconditioners (RotationMatrixSystem) ask for node rotations. */
  readonly isRotationFinder = true;

  /** out (n·9) = the rotation of each node since rest (node-rotations.ts), from the last addForce. */
  getNodeRotations(out: Float64Array): void {
    nodeRotationsOfElements(out, out.length / 9, this.elems, 4, this.rot, this.rot0);
  }

  readonly initialPoints = this.initData({
    name: 'initialPoints',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'rest positions the elements were initialised from (output)',
  });
  readonly method = this.initData({
    name: 'method',
    type: Enum(['large', 'small', 'polar', 'svd'] as const),
    default: 'large',
    help: "'small' displacements, 'large' (frame of the edges), 'polar' or 'svd' corotational",
  });
  readonly plasticMaxThreshold = this.initData({
    name: 'plasticMaxThreshold',
    type: Real,
    default: 0,
    help: 'largest 2-norm of the plastic strain (0: no plasticity)',
  });
  readonly plasticYieldThreshold = this.initData({
    name: 'plasticYieldThreshold',
    type: Real,
    default: 0.0001,
    help: 'elastic strain 2-norm beyond which the plastic strain creeps',
  });
  readonly plasticCreep = this.initData({
    name: 'plasticCreep',
    type: Real,
    default: 0.9,
    help: 'fraction of the elastic strain turned plastic per evaluation (depends on dt), in [0, 1]',
  });
  readonly gatherPt = this.initData({
    name: 'gatherPt',
    type: Str,
    default: ' ',
    help: 'points accumulated per thread in the gather operation (GPU versions only; accepted)',
  });
  readonly gatherBsize = this.initData({
    name: 'gatherBsize',
    type: Str,
    default: ' ',
    help: 'block size of the gather operation (GPU versions only; accepted)',
  });
  readonly drawHeterogeneousTetra = this.initData({
    name: 'drawHeterogeneousTetra',
    type: Bool,
    default: false,
    help: 'draw heterogeneous tetrahedra in different colors',
    group: 'Visualization',
  });
  readonly computeVonMisesStress = this.initData({
    name: 'computeVonMisesStress',
    type: Int,
    default: 0,
    help: 'von Mises stress: 0 none, 1 from the corotational strain, 2 from the full Green strain',
  });
  readonly vonMisesPerElement = this.initData({
    name: 'vonMisesPerElement',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'von Mises stress per element (output)',
  });
  readonly vonMisesPerNode = this.initData({
    name: 'vonMisesPerNode',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'von Mises stress per node (output)',
  });
  readonly vonMisesStressColors = this.initData({
    name: 'vonMisesStressColors',
    type: RealArray(4, 'vector<RGBAColor>'),
    default: new Float64Array(0),
    help: 'colors showing the von Mises stress (output)',
    group: 'Visualization',
  });
  readonly showStressColorMap = this.initData({
    name: 'showStressColorMap',
    type: Str,
    default: 'Blue to Red',
    help: 'color map used to show stress values',
    group: 'Visualization',
  });
  readonly showStressAlpha = this.initData({
    name: 'showStressAlpha',
    type: Real,
    default: 1,
    help: 'alpha of the von Mises display',
    group: 'Visualization',
  });
  readonly showVonMisesStressPerNode = this.initData({
    name: 'showVonMisesStressPerNode',
    type: Bool,
    default: false,
    help: 'draw points showing the von Mises stress at the nodes',
    group: 'Visualization',
  });
  readonly showVonMisesStressPerNodeColorMap = this.initData({
    name: 'showVonMisesStressPerNodeColorMap',
    type: Bool,
    default: false,
    help: 'draw elements colored by the von Mises stress interpolated at the nodes',
    group: 'Visualization',
  });
  readonly showVonMisesStressPerElement = this.initData({
    name: 'showVonMisesStressPerElement',
    type: Bool,
    default: false,
    help: 'draw elements colored by their von Mises stress',
    group: 'Visualization',
  });
  readonly showElementGapScale = this.initData({
    name: 'showElementGapScale',
    type: Real,
    default: 0.333,
    help: 'gap drawn between elements, in [0, 1]',
    group: 'Visualization',
  });
  readonly updateStiffness = this.initData({
    name: 'updateStiffness',
    type: Bool,
    default: false,
    help: 'recompute the material stiffness from youngModulus/poissonRatio at each time step (when they changed: a script or a linked engine sets them)',
  });

  protected methodName(): TetrahedronMethod {
    return this.method.value as TetrahedronMethod;
  }

  protected override elementsOf(topo: BaseMeshTopology): Uint32Array {
    return tetrahedraOfTopology(topo);
  }

  /** Inverse of [1 X₀ᵀ] (rows = nodes) per element, for the von Mises stress (nElem × 16). */
  private shapeInverse: Float64Array = new Float64Array(0);
  private vonMisesDirty = false;

  override init(): void {
    const v = this.computeVonMisesStress.value;
    if (v < 0 || v > 2) throw this.error(`computeVonMisesStress must be 0, 1 or 2 (got ${v})`);
    super.init();
  }

  override reinit(): void {
    super.reinit();
    this.materialCounters = [this.youngModulus.counter, this.poissonRatio.counter];
    this.initialPoints.value = this.restPoints;
    if (this.elementCount === 0) throw this.error(`the topology ${this.topo!.describe()} has no tetrahedra nor hexahedra`);
    const mode = this.computeVonMisesStress.value;
    if (mode === 1 && this.activeMethod === 'small')
      throw this.error("computeVonMisesStress=1 (corotational strain) needs method 'large', 'polar' or 'svd'; use 2 with 'small'");
    if (mode === 1 || mode === 2) {
      this.shapeInverse = shapeFunctionInverses(this.elems, this.restPoints);
      this.updateVonMises(this.mstate!.x);
    }
  }

  protected override afterTopologyChange(): void {
    this.initialPoints.value = this.restPoints;
    const mode = this.computeVonMisesStress.value;
    if (mode === 1 || mode === 2) this.shapeInverse = shapeFunctionInverses(this.elems, this.restPoints);
  }

  override addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    super.addForce(f, x, v);
    this.vonMisesDirty = true;
  }

  /** Counters of youngModulus and poissonRatio when the materials were last computed. */
  private materialCounters = [-1, -1];

  /**
   * updateStiffness (SOFA): the element materials follow youngModulus and poissonRatio at each
   * evaluation; they are recomputed when either changed since the last one (the same result as
   * recomputing them every time).
   */
  protected override beforeForces(): void {
    this.setPlasticity(this.plasticMaxThreshold.value, this.plasticYieldThreshold.value, this.plasticCreep.value);
    if (!this.updateStiffness.value) return;
    const ce = this.youngModulus.counter,
      cn = this.poissonRatio.counter;
    if (ce !== this.materialCounters[0] || cn !== this.materialCounters[1]) {
      this.updateMaterials();
      this.materialCounters = [ce, cn];
    }
  }

  override handleEvent(event: SofaEvent): void {
    const mode = this.computeVonMisesStress.value;
    if (event instanceof AnimateEndEvent && (mode === 1 || mode === 2) && this.vonMisesDirty) this.updateVonMises(this.mstate!.x);
  }

  /**
   * von Mises stress per element from positions x (SOFA computeVonMisesStress): the displacement
   * gradient ∇U = Σ_m U_m ⊗ ∇N_m with the rest shape functions, ε = sym(∇U) (mode 1, U = the
   * corotational D) or ε = sym(∇U) + ½∇Uᵀ∇U (mode 2, U = x − X), then per node the mean over the
   * tetrahedra around it.
   */
  updateVonMises(x: Float64Array): void {
    const mode = this.computeVonMisesStress.value;
    const n = this.elementCount,
      elems = this.elems,
      X0 = this.restPoints,
      shf = this.shapeInverse;
    const perElement = new Float64Array(n);
    const U = new Float64Array(12),
      R = new Float64Array(9),
      A = new Float64Array(9),
      G = new Float64Array(9);
    for (let e = 0; e < n; e++) {
      if (mode === 2) {
        for (let m = 0; m < 4; m++) {
          const q = 3 * elems[4 * e + m];
          for (let k = 0; k < 3; k++) U[3 * m + k] = x[q + k] - X0[q + k];
        }
      } else {
        this.corotationalDisplacement(U, e, x, R, A);
      }
      // G[k][l] = ∂U_k/∂X_l
      for (let k = 0; k < 3; k++)
        for (let l = 0; l < 3; l++) {
          let g = 0;
          for (let m = 0; m < 4; m++) g += shf[16 * e + 4 * (l + 1) + m] * U[3 * m + k];
          G[3 * k + l] = g;
        }
      const exx = strainOf(G, 0, 0, mode),
        eyy = strainOf(G, 1, 1, mode),
        ezz = strainOf(G, 2, 2, mode);
      const eyz = strainOf(G, 1, 2, mode),
        exz = strainOf(G, 0, 2, mode),
        exy = strainOf(G, 0, 1, mode);
      const lambda = this.lame[2 * e],
        mu = this.lame[2 * e + 1];
      const tr = exx + eyy + ezz;
      const s0 = 2 * mu * exx + lambda * tr,
        s1 = 2 * mu * eyy + lambda * tr,
        s2 = 2 * mu * ezz + lambda * tr;
      const s3 = 2 * mu * eyz,
        s4 = 2 * mu * exz,
        s5 = 2 * mu * exy;
      let vm = Math.sqrt(s0 * s0 + s1 * s1 + s2 * s2 - s0 * s1 - s1 * s2 - s2 * s0 + 3 * (s3 * s3 + s4 * s4 + s5 * s5));
      if (vm < 1e-10) vm = 0;
      perElement[e] = vm;
    }
    // mean over the tetrahedra around each point
    const np = X0.length / 3;
    const perNode = new Float64Array(np),
      count = new Uint32Array(np);
    for (let e = 0; e < n; e++)
      for (let m = 0; m < 4; m++) {
        const p = elems[4 * e + m];
        perNode[p] += perElement[e];
        count[p]++;
      }
    for (let p = 0; p < np; p++) if (count[p] > 0) perNode[p] /= count[p];
    this.vonMisesPerElement.value = perElement;
    this.vonMisesPerNode.value = perNode;
    this.vonMisesDirty = false;
  }

  /** SOFA's corotational D = R₀X − R·x of element e for the von Mises stress ('svd' uses polar). */
  private corotationalDisplacement(D: Float64Array, e: number, p: Float64Array, R: Float64Array, A: Float64Array): void {
    const el = this.elems,
      rest = this.rest,
      o = 12 * e,
      def = this.deformed;
    const a = el[4 * e],
      pa = 3 * a;
    if (this.activeMethod === 'large') frameOfEdges(R, p, a, el[4 * e + 1], el[4 * e + 2]);
    else {
      for (let r = 0; r < 3; r++) {
        const q = 3 * el[4 * e + r + 1];
        for (let c = 0; c < 3; c++) A[3 * r + c] = p[q + c] - p[pa + c];
      }
      polarDecomposition(R, A);
    }
    for (let k = 0; k < 4; k++) {
      const q = 3 * el[4 * e + k];
      for (let r = 0; r < 3; r++) def[3 * k + r] = R[3 * r] * p[q] + R[3 * r + 1] * p[q + 1] + R[3 * r + 2] * p[q + 2];
    }
    if (this.activeMethod === 'large') {
      D.fill(0);
      D[3] = rest[o + 3] - (def[3] - def[0]);
      D[6] = rest[o + 6] - (def[6] - def[0]);
      D[7] = rest[o + 7] - (def[7] - def[1]);
      for (let c = 0; c < 3; c++) D[9 + c] = rest[o + 9 + c] - (def[9 + c] - def[c]);
    } else {
      for (let k = 0; k < 12; k++) D[k] = rest[o + k] - def[k];
    }
  }

  private readonly deformed = new Float64Array(12);
}

/** Per element the inverse of the 4×4 matrix with rows (1, X₀ of node m) (nElem × 16, row-major). */
function shapeFunctionInverses(elems: Uint32Array, X0: Float64Array): Float64Array {
  const n = elems.length / 4;
  const out = new Float64Array(16 * n);
  const M = new Float64Array(16);
  for (let e = 0; e < n; e++) {
    for (let m = 0; m < 4; m++) {
      const q = 3 * elems[4 * e + m];
      M[4 * m] = 1;
      M[4 * m + 1] = X0[q];
      M[4 * m + 2] = X0[q + 1];
      M[4 * m + 3] = X0[q + 2];
    }
    invert4(out, 16 * e, M);
  }
  return out;
}

/** out[o..o+16) = m⁻¹ by Gauss-Jordan elimination with partial pivoting. */
function invert4(out: Float64Array, o: number, m: Float64Array): void {
  const a = Array.from({ length: 4 }, (_, r) => [
    m[4 * r],
    m[4 * r + 1],
    m[4 * r + 2],
    m[4 * r + 3],
    r === 0 ? 1 : 0,
    r === 1 ? 1 : 0,
    r === 2 ? 1 : 0,
    r === 3 ? 1 : 0,
  ]);
  for (let c = 0; c < 4; c++) {
    let piv = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) piv = r;
    [a[c], a[piv]] = [a[piv], a[c]];
    const d = a[c][c];
    for (let k = 0; k < 8; k++) a[c][k] /= d;
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = a[r][c];
      if (f !== 0) for (let k = 0; k < 8; k++) a[r][k] -= f * a[c][k];
    }
  }
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) out[o + 4 * r + c] = a[r][4 + c];
}

/** ε_ij = ½(G_ij + G_ji), plus ½·Σ_k G_ki·G_kj for the Green strain (mode 2). */
function strainOf(G: Float64Array, i: number, j: number, mode: number): number {
  let s = 0.5 * (G[3 * i + j] + G[3 * j + i]);
  if (mode === 2) for (let k = 0; k < 3; k++) s += 0.5 * G[3 * k + i] * G[3 * k + j];
  return s;
}
