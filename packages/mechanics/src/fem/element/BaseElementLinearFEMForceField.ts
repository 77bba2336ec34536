import {
  BaseForceField,
  Enum,
  Real,
  RealArray,
  isTopology,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { sameElements } from '../tetrahedron/tetrahedron-element.js';
import {
  ElementBlockMatrix,
  ElementMatrixPool,
  emitElementMatrix,
  emitSymmetricElements,
  matVec,
  restShapeKey,
  rotatedElementStiffness,
  rotatedElementStiffnessUpper,
} from '../element-matrix.js';
import {
  DEFAULT_POISSON_RATIO,
  DEFAULT_YOUNG_MODULUS,
  initLinearElasticVolume,
  isotropicHooke,
  valueInElement,
} from '../volume-elasticity.js';
import { volumeElementNames, volumeElementOfTemplate, type VolumeElement } from './volume-elements.js';

/** Products per force evaluation from which summing the element blocks first pays (a refill costs a few element passes). */
const BLOCK_PRODUCTS = 8;

/** SOFA's ComputeStrategy items: elements computed in parallel (SOFA's default) or in sequence. */
export const computeStrategies = ['parallel', 'sequenced'] as const;

/** The templates of the element force fields: Vec3 states on volumes, triangles, quads or edges. */
export const elementFemTemplates = volumeElementNames.map((e) => `Vec3d,${e}`);

/** The templates of FEMMass: Vec3 states on volumes. */
export const volumeFemTemplates = volumeElementNames
  .filter((e) => volumeElementOfTemplate(`Vec3d,${e}`)!.dimension === 3)
  .map((e) => `Vec3d,${e}`);

/**
 * SOFA's element-based linear elasticity (BaseElementLinearFEMForceField with FEMForceField, the
 * v26 family): one stiffness matrix per element, K_e = ∫ Bᵀ·D·B dV at the rest positions X in the
 * world frame (D isotropic Hooke in Voigt order; tetrahedra: one point, hexahedra: 2×2×2 Gauss),
 * and per element a rotation R (identity for small strain). With c, c₀ the current and rest centroids:
 *   u_j = Rᵀ·(x_j − c) − (X_j − c₀),   f_j −= R·(K_e·u)_j,
 *   df_j −= k·R·(K_e·Rᵀ·dx)_j,          K = ∂f/∂x ≈ −R·K_e·Rᵀ per element (R of the last addForce,
 *   not differentiated, as SOFA).
 * For small strain (R = I) u = x − X. Elements of the same rest shape and material share K_e.
 * Stored here as Q = Rᵀ per element (row-major), the form the shared kernels take.
 * `computeForceStrategy` / `computeForceDerivStrategy` choose SOFA's multithreading; sofa-ts
 * computes the elements on one thread in both cases (the same result as SOFA's, which sums the
 * element forces in sequence either way).
 */
export abstract class BaseElementLinearFEMForceField extends BaseForceField {
  readonly youngModulus = this.initData({
    name: 'youngModulus',
    type: RealArray(1),
    default: Float64Array.of(DEFAULT_YOUNG_MODULUS),
    unit: 'Pa',
    help: "Young's modulus of Hooke's law: one value, or one per element",
  });
  readonly poissonRatio = this.initData({
    name: 'poissonRatio',
    type: RealArray(1),
    default: Float64Array.of(DEFAULT_POISSON_RATIO),
    help: "Poisson's ratio of Hooke's law, in [0, 0.5): one value, or one per element",
  });
  readonly computeForceStrategy = this.initData({
    name: 'computeForceStrategy',
    type: Enum(computeStrategies),
    default: 'parallel',
    group: 'Multithreading',
    help: "how the element forces are computed: 'parallel' or 'sequenced' (sofa-ts runs both on one thread, same result)",
  });
  readonly computeForceDerivStrategy = this.initData({
    name: 'computeForceDerivStrategy',
    type: Enum(computeStrategies),
    default: 'parallel',
    group: 'Multithreading',
    help: "how the element force derivatives are computed: 'parallel' or 'sequenced' (sofa-ts runs both on one thread, same result)",
  });
  readonly elementSpace = this.initData({
    name: 'elementSpace',
    type: Real,
    default: 0.125,
    group: 'Visualization',
    help: 'space between the drawn elements',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the elements (default: the topology of this node, else of the nearest ancestor)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  /** False for small strain (R = I): the force is K_e·(x − X). */
  protected abstract rotating: boolean;

  protected element!: VolumeElement;
  protected mstate: BaseMechanicalState | undefined;
  protected topo: BaseMeshTopology | undefined;
  private topoRevision = -1;

  /** Nodes per element. */
  protected nodes = 0;
  /** Node indices (nElem × nodes). */
  protected elems = new Uint32Array(0);
  /** Rest positions X (nPoints × 3), m. */
  protected restPoints = new Float64Array(0);
  /** Rest positions from the rest centroid, X_j − c₀ (nElem × 3·nodes), m. */
  protected restRel = new Float64Array(0);
  /** Element stiffness matrices, shared ((3·nodes)² each), N/m; kOf[e] indexes them. */
  protected kPool = new Float64Array(0);
  protected kOf = new Uint32Array(0);
  /** Q = Rᵀ per element (nElem × 9, row-major), set by addForce; identity until then. */
  protected rot = new Float64Array(0);
  /**
   * K = ∂f/∂x summed over the elements as 3×3 blocks, for the products of addDForce: refilled at the
   * first product after a force evaluation that moved the rotations (once for small strain), when
   * the previous evaluation was followed by enough products to pay for it (matrix-free CG).
   */
  private blocks: ElementBlockMatrix | undefined;
  private blocksStale = true;
  /** addDForce calls since the last addForce, and in the cycle before it. */
  private productsSinceForce = 0;
  private productsLastCycle = 0;
  /** Checkpoint: the counters choosing the product's path (its sums' order). */
  readonly checkpointFields = ['productsSinceForce', 'productsLastCycle'] as const;

  // Scratch (sized at init; no allocation in a step)
  /** Positions of one element (3·nodes). */
  protected X = new Float64Array(0);
  private U = new Float64Array(0);
  private F = new Float64Array(0);
  private kScratch = new Float64Array(0);
  /** The n(n+1)/2 upper 3x3 blocks of an element's stiffness (upperBlockIndex layout). */
  private upperScratch = new Float64Array(0);
  private readonly blk = new Float64Array(9);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.mstate ? [this.mstate] : [];
  }

  get elementCount(): number {
    return this.nodes > 0 ? this.elems.length / this.nodes : 0;
  }

  /** Number of distinct element stiffness matrices stored. */
  get stiffnessMatrixCount(): number {
    const n3 = 3 * this.nodes;
    return n3 > 0 ? this.kPool.length / (n3 * n3) : 0;
  }

  override init(): void {
    const element = volumeElementOfTemplate(this.template);
    if (!element) {
      throw this.error(
        this.template.includes(',')
          ? `template '${this.template}': element type not supported (supported: ${elementFemTemplates.join(', ')})`
          : `the template must name the element type: template="Vec3,Tetrahedron", "Vec3,Hexahedron", "Vec3,Pyramid", "Vec3,Prism", "Vec3,Triangle", "Vec3,Quad" or "Vec3,Edge"`,
      );
    }
    this.element = element;
    const { state, topology } = initLinearElasticVolume(this, `topology with ${element.plural}`);
    this.mstate = state;
    this.topo = topology;
    this.reinit();
  }

  /** Rebuilds the elements, the rest shapes and the element stiffness matrices from x0. */
  reinit(): void {
    const topo = this.topo!,
      ms = this.mstate!,
      el = this.element;
    this.topoRevision = topo.revision;
    const nodes = el.nodes,
      n3 = 3 * nodes;
    const elems = Uint32Array.from(el.elementsOf(topo));
    const count = elems.length / nodes;
    if (count === 0) throw this.error(`the topology ${topo.describe()} has no ${el.plural}`);
    for (let i = 0; i < elems.length; i++) {
      if (elems[i] >= ms.size)
        throw this.error(
          `${el.name.toLowerCase()} ${Math.floor(i / nodes)} uses point ${elems[i]}, but ${ms.describe()} has ${ms.size} points`,
        );
    }
    this.nodes = nodes;
    this.elems = elems;
    this.restPoints = Float64Array.from(ms.x0);
    this.restRel = new Float64Array(count * n3);
    this.kOf = new Uint32Array(count);
    this.rot = new Float64Array(9 * count);
    this.X = new Float64Array(n3);
    this.U = new Float64Array(n3);
    this.F = new Float64Array(n3);
    this.kScratch = new Float64Array(n3 * n3);
    this.upperScratch = new Float64Array((9 * this.nodes * (this.nodes + 1)) / 2);
    const E = this.youngModulus.value,
      nu = this.poissonRatio.value;
    const pool = new ElementMatrixPool(n3 * n3);
    const hooke = new Float64Array(3);
    const X = this.X;
    for (let e = 0; e < count; e++) {
      this.gather(X, this.restPoints, e);
      // rest positions from the centroid
      const o = e * n3;
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let j = 0; j < nodes; j++) s += X[3 * j + c];
        s /= nodes;
        for (let j = 0; j < nodes; j++) this.restRel[o + 3 * j + c] = X[3 * j + c] - s;
      }
      isotropicHooke(hooke, valueInElement(E, e, DEFAULT_YOUNG_MODULUS), valueInElement(nu, e, DEFAULT_POISSON_RATIO));
      const rest = this.restRel.subarray(o, o + n3);
      let measure = 1;
      this.kOf[e] = pool.indexOf(restShapeKey(rest, nodes, [hooke[0], hooke[1], hooke[2]]), (K) => {
        measure = el.stiffness(K, rest, hooke[0], hooke[1], hooke[2]);
      });
      if (measure === 0)
        throw this.error(
          `${el.name.toLowerCase()} ${e} (${Array.from(elems.subarray(e * nodes, e * nodes + nodes)).join(' ')}) has zero ${['length', 'area', 'volume'][el.dimension - 1]} at rest`,
        );
      this.rot[9 * e] = this.rot[9 * e + 4] = this.rot[9 * e + 8] = 1;
    }
    this.kPool = pool.pack();
    this.blocks = new ElementBlockMatrix(ms.size, elems, nodes);
    this.blocksStale = true;
    this.initRotations();
  }

  /** Called at the end of reinit: rest quantities of the rotation method. */
  protected initRotations(): void {}

  /**
   * Q = Rᵀ of element e from its current positions X (3·nodes) and their centroid c, into
   * rot[9e .. 9e+9). Only called when `rotating`.
   */
  protected abstract computeRotation(e: number, X: Float64Array, c: ArrayLike<number>): void;

  /** Positions of the nodes of element e from p (nPoints × 3) into out (3·nodes). */
  protected gather(out: Float64Array, p: Float64Array, e: number): void {
    const nodes = this.nodes,
      elems = this.elems;
    for (let j = 0; j < nodes; j++) {
      const q = 3 * elems[nodes * e + j];
      out[3 * j] = p[q];
      out[3 * j + 1] = p[q + 1];
      out[3 * j + 2] = p[q + 2];
    }
  }

  private readonly centroid = new Float64Array(3);

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    if (this.topo && this.topo.revision !== this.topoRevision) {
      // a new topology revision: rebuild only if the elements changed
      if (sameElements(this.element.elementsOf(this.topo), this.elems)) this.topoRevision = this.topo.revision;
      else this.reinit();
    }
    this.productsLastCycle = this.productsSinceForce;
    this.productsSinceForce = 0;
    if (this.rotating) this.blocksStale = true;
    const ff = f[0],
      p = x[0];
    const nodes = this.nodes,
      n3 = 3 * nodes,
      count = this.elems.length / nodes;
    const elems = this.elems,
      pool = this.kPool,
      kOf = this.kOf,
      rot = this.rot,
      restRel = this.restRel,
      X0 = this.restPoints;
    const X = this.X,
      U = this.U,
      F = this.F,
      c = this.centroid;
    const kSize = n3 * n3;
    for (let e = 0; e < count; e++) {
      this.gather(X, p, e);
      if (!this.rotating) {
        // u = x − X
        for (let j = 0; j < nodes; j++) {
          const q = 3 * elems[nodes * e + j];
          U[3 * j] = X[3 * j] - X0[q];
          U[3 * j + 1] = X[3 * j + 1] - X0[q + 1];
          U[3 * j + 2] = X[3 * j + 2] - X0[q + 2];
        }
        matVec(F, pool, kSize * kOf[e], U, n3, 1);
        // f_j −= F_j
        for (let j = 0; j < nodes; j++) {
          const q = 3 * elems[nodes * e + j];
          ff[q] -= F[3 * j];
          ff[q + 1] -= F[3 * j + 1];
          ff[q + 2] -= F[3 * j + 2];
        }
        continue;
      }
      c[0] = c[1] = c[2] = 0;
      for (let j = 0; j < nodes; j++) {
        c[0] += X[3 * j];
        c[1] += X[3 * j + 1];
        c[2] += X[3 * j + 2];
      }
      c[0] /= nodes;
      c[1] /= nodes;
      c[2] /= nodes;
      this.computeRotation(e, X, c);
      const r = 9 * e,
        o = e * n3;
      const q0 = rot[r],
        q1 = rot[r + 1],
        q2 = rot[r + 2],
        q3 = rot[r + 3],
        q4 = rot[r + 4],
        q5 = rot[r + 5],
        q6 = rot[r + 6],
        q7 = rot[r + 7],
        q8 = rot[r + 8];
      // u_j = Q·(x_j − c) − (X_j − c₀)
      for (let j = 0; j < nodes; j++) {
        const dx = X[3 * j] - c[0],
          dy = X[3 * j + 1] - c[1],
          dz = X[3 * j + 2] - c[2];
        U[3 * j] = q0 * dx + q1 * dy + q2 * dz - restRel[o + 3 * j];
        U[3 * j + 1] = q3 * dx + q4 * dy + q5 * dz - restRel[o + 3 * j + 1];
        U[3 * j + 2] = q6 * dx + q7 * dy + q8 * dz - restRel[o + 3 * j + 2];
      }
      matVec(F, pool, kSize * kOf[e], U, n3, 1);
      // f_j −= Qᵀ·F_j
      for (let j = 0; j < nodes; j++) {
        const q = 3 * elems[nodes * e + j];
        const fx = F[3 * j],
          fy = F[3 * j + 1],
          fz = F[3 * j + 2];
        ff[q] -= q0 * fx + q3 * fy + q6 * fz;
        ff[q + 1] -= q1 * fx + q4 * fy + q7 * fz;
        ff[q + 2] -= q2 * fx + q5 * fy + q8 * fz;
      }
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k === 0) return;
    const out = df[0],
      v = dx[0];
    this.productsSinceForce++;
    // many products per force evaluation (or a constant K): one pass over the summed blocks
    if (this.blocks && (!this.rotating || this.productsLastCycle >= BLOCK_PRODUCTS)) {
      if (this.blocksStale) this.refillBlocks();
      this.blocks.multiplyAdd(out, v, k);
      return;
    }
    const nodes = this.nodes,
      n3 = 3 * nodes,
      count = this.elems.length / nodes;
    const elems = this.elems,
      pool = this.kPool,
      kOf = this.kOf,
      rot = this.rot;
    const U = this.U,
      F = this.F,
      kSize = n3 * n3;
    const rotating = this.rotating;
    for (let e = 0; e < count; e++) {
      const r = 9 * e;
      let q0 = 1,
        q1 = 0,
        q2 = 0,
        q3 = 0,
        q4 = 1,
        q5 = 0,
        q6 = 0,
        q7 = 0,
        q8 = 1;
      if (rotating) {
        q0 = rot[r];
        q1 = rot[r + 1];
        q2 = rot[r + 2];
        q3 = rot[r + 3];
        q4 = rot[r + 4];
        q5 = rot[r + 5];
        q6 = rot[r + 6];
        q7 = rot[r + 7];
        q8 = rot[r + 8];
      }
      // U = Q·dx per node
      for (let j = 0; j < nodes; j++) {
        const q = 3 * elems[nodes * e + j];
        const px = v[q],
          py = v[q + 1],
          pz = v[q + 2];
        U[3 * j] = q0 * px + q1 * py + q2 * pz;
        U[3 * j + 1] = q3 * px + q4 * py + q5 * pz;
        U[3 * j + 2] = q6 * px + q7 * py + q8 * pz;
      }
      // F = −k·K_e·U, df_j += Qᵀ·F_j
      matVec(F, pool, kSize * kOf[e], U, n3, -k);
      for (let j = 0; j < nodes; j++) {
        const q = 3 * elems[nodes * e + j];
        const fx = F[3 * j],
          fy = F[3 * j + 1],
          fz = F[3 * j + 2];
        out[q] += q0 * fx + q3 * fy + q6 * fz;
        out[q + 1] += q1 * fx + q4 * fy + q7 * fz;
        out[q + 2] += q2 * fx + q5 * fy + q8 * fz;
      }
    }
  }

  /** blocks ← Σ_e −Qᵀ·K_e·Q with the rotations of the last addForce. */
  private refillBlocks(): void {
    const blocks = this.blocks!,
      K = this.kScratch,
      count = this.elems.length / this.nodes;
    blocks.clear();
    for (let e = 0; e < count; e++) blocks.addElement(e, this.elementStiffness(K, e));
    this.blocksStale = false;
  }

  /** The (3·nodes)² stiffness −Qᵀ·K_e·Q of element e (row-major into out), rotation of the last addForce. */
  elementStiffness(out: Float64Array, e: number): Float64Array {
    const n3 = 3 * this.nodes,
      kSize = n3 * n3,
      ko = kSize * this.kOf[e];
    if (!this.rotating) {
      for (let k = 0; k < kSize; k++) out[k] = -this.kPool[ko + k];
      return out;
    }
    return rotatedElementStiffness(out, this.kPool, ko, this.nodes, this.rot, 9 * e);
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const nodes = this.nodes,
      count = this.elems.length / nodes;
    const K = this.kScratch,
      elems = this.elems,
      blk = this.blk;
    if (this.rotating) {
      // the blocks j ≥ i of elementStiffness (rotatedElementStiffness mirrors them)
      const n3 = 3 * nodes,
        kSize = n3 * n3,
        U = this.upperScratch;
      for (let e = 0; e < count; e++) {
        rotatedElementStiffnessUpper(U, this.kPool, kSize * this.kOf[e], nodes, this.rot, 9 * e);
        emitSymmetricElements(acc, U, elems, e, 1, nodes, kFactor, K, blk);
      }
      return;
    }
    for (let e = 0; e < count; e++) {
      this.elementStiffness(K, e);
      emitElementMatrix(acc, K, elems, e, nodes, kFactor, blk);
    }
  }

  /** ½·Σ uᵀ·K_e·u at positions x, with the rotations of the last addForce (SOFA's energy). */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    const p = x[0];
    const nodes = this.nodes,
      n3 = 3 * nodes,
      count = this.elems.length / nodes;
    const X = this.X,
      U = this.U,
      F = this.F,
      kSize = n3 * n3,
      rot = this.rot,
      X0 = this.restPoints,
      restRel = this.restRel;
    let energy = 0;
    for (let e = 0; e < count; e++) {
      this.gather(X, p, e);
      if (this.rotating) {
        let cx = 0,
          cy = 0,
          cz = 0;
        for (let j = 0; j < nodes; j++) {
          cx += X[3 * j];
          cy += X[3 * j + 1];
          cz += X[3 * j + 2];
        }
        cx /= nodes;
        cy /= nodes;
        cz /= nodes;
        const r = 9 * e,
          o = e * n3;
        for (let j = 0; j < nodes; j++) {
          const dx = X[3 * j] - cx,
            dy = X[3 * j + 1] - cy,
            dz = X[3 * j + 2] - cz;
          for (let i = 0; i < 3; i++)
            U[3 * j + i] = rot[r + 3 * i] * dx + rot[r + 3 * i + 1] * dy + rot[r + 3 * i + 2] * dz - restRel[o + 3 * j + i];
        }
      } else {
        for (let j = 0; j < nodes; j++) {
          const q = 3 * this.elems[nodes * e + j];
          for (let i = 0; i < 3; i++) U[3 * j + i] = X[3 * j + i] - X0[q + i];
        }
      }
      matVec(F, this.kPool, kSize * this.kOf[e], U, n3, 1);
      for (let i = 0; i < n3; i++) energy += U[i] * F[i];
    }
    return energy / 2;
  }

  /** Q = Rᵀ of element e at the last addForce (row-major), copied into out. */
  getElementRotation(out: Float64Array, e: number): Float64Array {
    for (let k = 0; k < 9; k++) out[k] = this.rot[9 * e + k];
    return out;
  }
}
