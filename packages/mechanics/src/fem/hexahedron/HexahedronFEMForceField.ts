import { ELEMENT_BATCH } from '@sofa-ts/linalg';
import { nodeRotationsOfElements } from '../node-rotations.js';
import {
  BaseForceField,
  Bool,
  Enum,
  Real,
  RealArray,
  Str,
  isTopology,
  sofaComponent,
  inHalfOpen,
  nonNegative,
  orReset,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import {
  ElementMatrixPool,
  emitSymmetricElements,
  matVec24,
  restShapeKey,
  rotatedElementStiffness,
  rotatedElementStiffnessUpper,
} from '../element-matrix.js';
import { hexahedronFrame, hexahedronMeanEdges, hexahedronStiffness } from '../hexahedron-kernels.js';
import { sameElements } from '../tetrahedron/tetrahedron-element.js';
import { HEXAHEDRON_UPPER_VALUES, HexahedraKernel } from './hexahedra-kernel.js';
import { polarDecomposition } from '../polar-decomposition.js';
import {
  DEFAULT_POISSON_RATIO,
  DEFAULT_YOUNG_MODULUS,
  initLinearElasticVolume,
  isotropicHooke,
  valueInElement,
} from '../volume-elasticity.js';

/** Optional per-element stiffness coefficients of sparse grids (fraction of the cell inside). */
interface StiffnessCoefficients {
  getStiffnessCoef(element: number): number;
}

function hasStiffnessCoefficients(t: unknown): t is StiffnessCoefficients {
  return typeof (t as { getStiffnessCoef?: unknown }).getStiffnessCoef === 'function';
}

/**
 * Elements per distinct element matrix for which the WebAssembly kernel is made: its copy of the
 * matrices (4.6 KB each) stays small against the rest of the force field's data.
 */
export const KERNEL_ELEMENTS_PER_MATRIX = 8;

/**
 * SOFA's HexahedronFEMForceField: trilinear hexahedra (8 nodes, SOFA's vertex order) with linear
 * elasticity, corotational ('large': frame of the mean edges, x̂ ∥ mean of the 4 x-edges,
 * ẑ ∥ x̂ × mean of the 4 y-edges, ŷ = ẑ × x̂; 'polar': orthogonal factor of the mean-edge matrix) or
 * with small displacements.
 *   K_e (24×24) = Σ over the 2×2×2 Gauss points (±1/√3) of Bᵀ·D·B·det J, computed in the rest frame
 *     (B from ∂N/∂X = J⁻¹·∂N/∂ξ; J constant when the element is a parallelepiped), D Hooke's matrix
 *     in SOFA's Voigt order (εxx, εyy, εzz, γxy, γyz, γzx);
 *   f_node += Rᵀ·(K_e·(R₀·X − R·x))_node;  df = −k·Rᵀ·K_e·R·dx (rotations of the last addForce,
 *     no derivative of R).
 * Elements of the same rest shape and material share one K_e (regular grids store a single matrix).
 */
@sofaComponent({
  name: 'HexahedronFEMForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.FEM.Elastic',
  description: 'Linear elastic hexahedra, corotational (large, polar) or small displacements.',
  templates: ['Vec3d'],
})
export class HexahedronFEMForceField extends BaseForceField {
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: RealArray(1),
    default: Float64Array.of(DEFAULT_YOUNG_MODULUS),
    unit: 'Pa',
    range: orReset(nonNegative, DEFAULT_YOUNG_MODULUS),
    help: "Young's modulus of Hooke's law: one value, or one per element",
  });
  readonly poissonRatio = this.initData({
    name: 'poissonRatio',
    type: RealArray(1),
    default: Float64Array.of(DEFAULT_POISSON_RATIO),
    range: orReset(inHalfOpen(0, 0.5), DEFAULT_POISSON_RATIO),
    help: "Poisson's ratio of Hooke's law, in [0, 0.5): one value, or one per element",
  });
  readonly method = this.initData({
    name: 'method',
    type: Enum(['large', 'polar', 'small'] as const),
    default: 'large',
    help: "'large' (frame of the mean edges), 'polar' or 'small' displacements",
  });
  readonly updateStiffnessMatrix = this.initData({
    name: 'updateStiffnessMatrix',
    type: Bool,
    default: false,
    help: 'recompute the element stiffness from the deformed element at every force evaluation',
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
  readonly drawing = this.initData({ name: 'drawing', type: Bool, default: true, help: 'draw the force field', group: 'Visualization' });
  readonly drawPercentageOffset = this.initData({
    name: 'drawPercentageOffset',
    type: Real,
    default: 0.15,
    help: 'shrink of the drawn hexahedra',
    group: 'Visualization',
  });
  readonly initialPoints = this.initData({
    name: 'initialPoints',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'rest positions the elements were initialised from (output)',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the hexahedra (default: the topology of this node)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  protected mstate: BaseMechanicalState | undefined;
  protected topo: BaseMeshTopology | undefined;
  private topoRevision = -1;
  private methodInUse: 'large' | 'polar' | 'small' = 'large';

  /** Node indices (nElem × 8). */
  protected elems = new Uint32Array(0);
  /** Rest positions in the rest frame R₀·X (nElem × 24), m. */
  protected rest = new Float64Array(0);
  /** Current rotation R, rows = element frame (nElem × 9); R₀ until the first addForce. */
  protected rot: Float64Array = new Float64Array(0);
  /** (n·9) rotations of the elements at rest (rows = element frame). */
  protected rot0 = new Float64Array(0);
  /** Hooke's matrix (D00, D01, D33) per element (nElem × 3), Pa. */
  private hooke = new Float64Array(0);
  /** Element stiffness matrices, shared (nK × 576), N/m; kOf[e] indexes them. */
  protected kPool = new Float64Array(0);
  protected kOf = new Uint32Array(0);
  /** Energy ½·Σ Fᵀ·D at the last addForce (J). */
  private energy = 0;

  private readonly X = new Float64Array(24);
  private readonly F = new Float64Array(24);
  private readonly A = new Float64Array(9);
  private readonly kScratch = new Float64Array(576);
  /** The 36 upper 3x3 blocks of an element's stiffness (upperBlockIndex layout). */
  private readonly upperScratch = new Float64Array(324 * ELEMENT_BATCH);
  private readonly blockScratch = new Float64Array(9);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.mstate ? [this.mstate] : [];
  }

  get elementCount(): number {
    return this.elems.length / 8;
  }

  /** Number of distinct element stiffness matrices stored. */
  get stiffnessMatrixCount(): number {
    return this.kPool.length / 576;
  }

  override init(): void {
    const { state, topology } = initLinearElasticVolume(this, 'hexahedral topology (e.g. RegularGridTopology)');
    this.mstate = state;
    this.topo = topology;
    if (topology.getHexahedra().length === 0) throw this.error(`the topology ${topology.describe()} has no hexahedra`);
    this.reinit();
  }

  /** Recomputes rotations, rest shapes and element stiffness matrices from x0 and the topology. */
  reinit(): void {
    const topo = this.topo!,
      ms = this.mstate!;
    this.topoRevision = topo.revision;
    this.methodInUse = this.method.value as 'large' | 'polar' | 'small';
    const elems = Uint32Array.from(topo.getHexahedra());
    const n = elems.length / 8;
    for (let i = 0; i < elems.length; i++) {
      if (elems[i] >= ms.size)
        throw this.error(`hexahedron ${Math.floor(i / 8)} uses point ${elems[i]}, but ${ms.describe()} has ${ms.size} points`);
    }
    const x0 = ms.x0;
    this.initialPoints.value = Float64Array.from(x0);
    this.elems = elems;
    this.rest = new Float64Array(24 * n);
    this.rot = new Float64Array(9 * n);
    this.hooke = new Float64Array(3 * n);
    this.kOf = new Uint32Array(n);
    const E = this.youngModulus.value,
      nu = this.poissonRatio.value;
    const coef = hasStiffnessCoefficients(topo) ? topo : undefined;
    const shared = !this.updateStiffnessMatrix.value;
    const pool = new ElementMatrixPool(576);
    const h = new Float64Array(3);
    const nodes = this.X;
    for (let e = 0; e < n; e++) {
      for (let k = 0; k < 8; k++) {
        const p = 3 * elems[8 * e + k];
        nodes[3 * k] = x0[p];
        nodes[3 * k + 1] = x0[p + 1];
        nodes[3 * k + 2] = x0[p + 2];
      }
      this.elementRotation(this.rot, 9 * e, nodes);
      const r = 9 * e,
        R = this.rot;
      for (let k = 0; k < 8; k++) {
        const px = nodes[3 * k],
          py = nodes[3 * k + 1],
          pz = nodes[3 * k + 2];
        this.rest[24 * e + 3 * k] = R[r] * px + R[r + 1] * py + R[r + 2] * pz;
        this.rest[24 * e + 3 * k + 1] = R[r + 3] * px + R[r + 4] * py + R[r + 5] * pz;
        this.rest[24 * e + 3 * k + 2] = R[r + 6] * px + R[r + 7] * py + R[r + 8] * pz;
      }
      isotropicHooke(h, valueInElement(E, e, DEFAULT_YOUNG_MODULUS), valueInElement(nu, e, DEFAULT_POISSON_RATIO));
      this.hooke.set(h, 3 * e);
      const factor = coef ? coef.getStiffnessCoef(e) : 1;
      const restShape = this.rest.subarray(24 * e, 24 * e + 24);
      // elements of the same rest shape and material share one matrix (unless it is updated per element)
      const key = shared && this.sharesStiffness ? restShapeKey(restShape, 8, [h[0], h[1], h[2], factor]) : undefined;
      this.kOf[e] = pool.indexOf(key, (K) => {
        this.restElementStiffness(K, e, restShape, h, factor);
        if (!K.every(Number.isFinite))
          throw this.dataError(
            this.youngModulus,
            `the stiffness of hexahedron ${e} is not finite (youngModulus ${valueInElement(E, e, DEFAULT_YOUNG_MODULUS)} overflows, or the element is degenerate)`,
          );
      });
    }
    this.kPool = pool.pack();
    this.rot0 = Float64Array.from(this.rot);
    this.kernel = this.makeKernel(n);
  }

  /**
   * The WebAssembly kernel of the products and the stiffness blocks (HexahedraKernel), when the
   * element matrices are fixed and shared (at most one for KERNEL_ELEMENTS_PER_MATRIX elements: its
   * copy of them by row pairs then costs little memory); `rot` becomes its view. Undefined otherwise
   * and where WebAssembly SIMD is missing: the JavaScript loops, the same values.
   */
  private makeKernel(n: number): HexahedraKernel | undefined {
    const matrices = this.kPool.length / 576;
    if (this.productKernel === 'js' || this.updateStiffnessMatrix.value || n === 0 || matrices * KERNEL_ELEMENTS_PER_MATRIX > n)
      return undefined;
    const kernel = HexahedraKernel.create(n, matrices);
    if (!kernel) return undefined;
    kernel.setMatrices(this.kPool, this.kOf);
    kernel.rot.set(this.rot);
    this.rot = kernel.rot;
    return kernel;
  }

  private kernel: HexahedraKernel | undefined;
  /** 'js': no kernel at the next reinit (tests compare the two paths). */
  productKernel: 'auto' | 'js' = 'auto';

  /** False when an element's stiffness depends on more than its rest shape and material (no sharing). */
  protected sharesStiffness = true;

  /**
   * K (24 × 24) of element e at its rest shape in its frame (24), for Hooke's (λ + 2μ, λ, μ) in h,
   * scaled by the topology's stiffness coefficient `factor` (sparse grids).
   */
  protected restElementStiffness(K: Float64Array, _e: number, restShape: Float64Array, h: Float64Array, factor: number): void {
    hexahedronStiffness(K, h[0], h[1], h[2], restShape);
    if (factor !== 1) for (let k = 0; k < 576; k++) K[k] = K[k] * factor;
  }

  /** Rotation of the element whose 8 positions are nodes, into out[o .. o+9). */
  private elementRotation(out: Float64Array, o: number, nodes: Float64Array): void {
    const m = this.methodInUse;
    if (m === 'small') {
      out.fill(0, o, o + 9);
      out[o] = out[o + 4] = out[o + 8] = 1;
      return;
    }
    const A = this.A;
    if (m === 'large') {
      hexahedronFrame(out, o, nodes, A);
      return;
    }
    // polar: orthogonal factor of the mean-edge matrix
    hexahedronMeanEdges(A, nodes);
    polarDecomposition(A, A);
    for (let k = 0; k < 9; k++) out[o + k] = A[k];
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    if (this.topo && this.topo.revision !== this.topoRevision) {
      // a new topology revision: rebuild only if the hexahedra changed
      if (sameElements(this.topo.getHexahedra(), this.elems)) this.topoRevision = this.topo.revision;
      else this.reinit();
    }
    const ff = f[0],
      p = x[0];
    const n = this.elems.length / 8;
    const elems = this.elems,
      rot = this.rot,
      rest = this.rest,
      pool = this.kPool,
      kOf = this.kOf;
    const kernel = this.kernel;
    // F = D and KD = K·D: the kernel's input and output when it computes the product
    const X = this.X,
      F = kernel ? kernel.x : this.F,
      KD = kernel ? kernel.out : X;
    const update = this.updateStiffnessMatrix.value;
    let energy = 0;
    for (let e = 0; e < n; e++) {
      const r = 9 * e,
        o = 24 * e;
      for (let k = 0; k < 8; k++) {
        const q = 3 * elems[8 * e + k];
        X[3 * k] = p[q];
        X[3 * k + 1] = p[q + 1];
        X[3 * k + 2] = p[q + 2];
      }
      this.elementRotation(rot, r, X);
      const r0 = rot[r],
        r1 = rot[r + 1],
        r2 = rot[r + 2],
        r3 = rot[r + 3],
        r4 = rot[r + 4],
        r5 = rot[r + 5],
        r6 = rot[r + 6],
        r7 = rot[r + 7],
        r8 = rot[r + 8];
      // deformed positions in the element frame; D = R₀X − R·x kept in F
      for (let k = 0; k < 8; k++) {
        const px = X[3 * k],
          py = X[3 * k + 1],
          pz = X[3 * k + 2];
        X[3 * k] = r0 * px + r1 * py + r2 * pz;
        X[3 * k + 1] = r3 * px + r4 * py + r5 * pz;
        X[3 * k + 2] = r6 * px + r7 * py + r8 * pz;
      }
      const ko = 576 * kOf[e];
      if (update) {
        const h = this.hooke;
        hexahedronStiffness(this.kScratch, h[3 * e], h[3 * e + 1], h[3 * e + 2], X);
        pool.set(this.kScratch, ko);
      }
      for (let k = 0; k < 24; k++) F[k] = rest[o + k] - X[k];
      if (kernel) kernel.matVec(kOf[e], 1);
      else matVec24(KD, pool, ko, F, 1);
      for (let i = 0; i < 24; i++) energy += KD[i] * F[i];
      // f += Rᵀ·(K·D)
      for (let k = 0; k < 8; k++) {
        const q = 3 * elems[8 * e + k];
        const fx = KD[3 * k],
          fy = KD[3 * k + 1],
          fz = KD[3 * k + 2];
        ff[q] += r0 * fx + r3 * fy + r6 * fz;
        ff[q + 1] += r1 * fx + r4 * fy + r7 * fz;
        ff[q + 2] += r2 * fx + r5 * fy + r8 * fz;
      }
    }
    this.energy = energy / 2;
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const out = df[0],
      v = dx[0];
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k === 0) return;
    const n = this.elems.length / 8;
    const elems = this.elems,
      rot = this.rot,
      pool = this.kPool,
      kOf = this.kOf;
    const kernel = this.kernel;
    // X = R·dx and F = −k·K·X: the kernel's input and output when it computes the product
    const X = kernel ? kernel.x : this.X,
      F = kernel ? kernel.out : this.F;
    for (let e = 0; e < n; e++) {
      const r = 9 * e;
      const r0 = rot[r],
        r1 = rot[r + 1],
        r2 = rot[r + 2],
        r3 = rot[r + 3],
        r4 = rot[r + 4],
        r5 = rot[r + 5],
        r6 = rot[r + 6],
        r7 = rot[r + 7],
        r8 = rot[r + 8];
      // X = R·dx
      for (let c = 0; c < 8; c++) {
        const q = 3 * elems[8 * e + c];
        const px = v[q],
          py = v[q + 1],
          pz = v[q + 2];
        X[3 * c] = r0 * px + r1 * py + r2 * pz;
        X[3 * c + 1] = r3 * px + r4 * py + r5 * pz;
        X[3 * c + 2] = r6 * px + r7 * py + r8 * pz;
      }
      // F = −k·K·X
      if (kernel) kernel.matVec(kOf[e], -k);
      else matVec24(F, pool, 576 * kOf[e], X, -k);
      // df += Rᵀ·F
      for (let c = 0; c < 8; c++) {
        const q = 3 * elems[8 * e + c];
        const fx = F[3 * c],
          fy = F[3 * c + 1],
          fz = F[3 * c + 2];
        out[q] += r0 * fx + r3 * fy + r6 * fz;
        out[q + 1] += r1 * fx + r4 * fy + r7 * fz;
        out[q + 2] += r2 * fx + r5 * fy + r8 * fz;
      }
    }
  }

  /** The 24×24 stiffness −Rᵀ·K_e·R of element e (row-major into out), rotation of the last addForce. */
  elementStiffness(out: Float64Array, e: number): Float64Array {
    return rotatedElementStiffness(out, this.kPool, 576 * this.kOf[e], 8, this.rot, 9 * e);
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    this.emitStiffness(acc, kFactor);
  }

  private emitStiffness(acc: MatrixAccumulator, factor: number): void {
    const n = this.elems.length / 8;
    const K = this.kScratch,
      elems = this.elems,
      blk = this.blockScratch;
    for (let e0 = 0; e0 < n; e0 += ELEMENT_BATCH) {
      const count = Math.min(ELEMENT_BATCH, n - e0);
      // the batch's blocks j ≥ i of elementStiffness (it mirrors them), written where the accumulator
      // reads them when it offers a buffer (its WebAssembly refill then takes the whole batch)
      const buffer = acc.symmetricElementBuffer?.(8, count);
      if (this.kernel) {
        // the kernel's blocks (two elements at once), copied into the accumulator's memory
        const Uk = this.kernel.upper(e0, count);
        if (buffer) buffer.set(Uk);
        emitSymmetricElements(acc, buffer ?? Uk, elems, e0, count, 8, factor, K, blk);
        continue;
      }
      const U = buffer ?? this.upperScratch;
      for (let k = 0; k < count; k++)
        rotatedElementStiffnessUpper(U, this.kPool, 576 * this.kOf[e0 + k], 8, this.rot, 9 * (e0 + k), HEXAHEDRON_UPPER_VALUES * k);
      emitSymmetricElements(acc, U, elems, e0, count, 8, factor, K, blk);
    }
  }

  /** ½·Σ Dᵀ·K_e·D at the last addForce (SOFA's HexahedronFEMForceField reports that value). */
  override getPotentialEnergy(_x: readonly Float64Array[]): number {
    return this.energy;
  }

  /** SOFA's BaseRotationFinder: warped preconditioners (RotationMatrixSystem) ask for node rotations. */
  readonly isRotationFinder = true;

  /** out (n·9) = the rotation of each node since rest (node-rotations.ts), from the last addForce. */
  getNodeRotations(out: Float64Array): void {
    nodeRotationsOfElements(out, this.mstate ? this.mstate.size : out.length / 9, this.elems, 8, this.rot, this.rot0);
  }

  /** Rotation R of element e at the last addForce (rows = element frame), copied into out. */
  getElementRotation(out: Float64Array, e: number): Float64Array {
    for (let k = 0; k < 9; k++) out[k] = this.rot[9 * e + k];
    return out;
  }
}
