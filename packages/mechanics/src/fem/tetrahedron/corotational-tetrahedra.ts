/*
 * Linear and corotational tetrahedra (CorotationalTetrahedra, below).
 * Long file: one element store (rest data, materials, rotations) read by the force, the product,
 * the assembled blocks, plasticity and the topological changes, held in JavaScript or in the
 * WebAssembly kernel's memory; what reads it alone is apart (corotational-forces.ts,
 * tetrahedra-in-place-dforce.ts, tetrahedra-topology-change.ts, tetrahedron-plasticity.ts).
 */
import {
  BaseForceField,
  Bool,
  RealArray,
  applyRemoval,
  isTopology,
  removalIndexMap,
  inHalfOpen,
  nonNegative,
  orReset,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type InPlaceDForce,
  type MatrixAccumulator,
  type TopologyChange,
  type TopologyHandler,
} from '@sofa-ts/core';
import { emitSymmetricElements, rotatedElementStiffness } from '../element-matrix.js';
import { addLargeForces, addRotatedDForce } from './corotational-forces.js';
import { TetrahedraInPlaceDForce } from './tetrahedra-in-place-dforce.js';
import { renameInPlace, sumAt, withAddedElements, withoutRemovedElements } from './tetrahedra-topology-change.js';
import { elasticStrain } from './tetrahedron-plasticity.js';
import {
  frameOfEdges,
  rotatedTetrahedronStiffnessUpper,
  sameElements,
  strainDisplacement,
  tetrahedronStiffness,
} from './tetrahedron-element.js';
import { polarDecomposition, polarDecompositionStable } from '../polar-decomposition.js';
import { TetrahedronDForceWasm } from '../tetrahedron-dforce-kernel.js';
import { ELEMENT_BATCH, mat3Invert } from '@sofa-ts/linalg';
import {
  checkedPoissonRatios,
  checkedYoungModuli,
  DEFAULT_POISSON_RATIO,
  DEFAULT_YOUNG_MODULUS,
  initLinearElasticVolume,
  isotropicHooke,
  valueInElement,
} from '../volume-elasticity.js';

const EMPTY = new Float64Array(0);

/** One element's rest data (gradients 12, rest shape 12, material 3). */
interface ElementScratch {
  grad: Float64Array;
  rest: Float64Array;
  mat: Float64Array;
}

/** Below this many elements addDForce stays in JavaScript (copying dx and df in and out would cost more). */
export const WASM_MIN_ELEMENTS = 32;

/**
 * How the rotation of each element is found (SOFA's `method`); 'polarF' is the orthogonal factor of
 * the deformation gradient F (FastTetrahedralCorotationalForceField's "polar"), with the rest frame
 * the identity.
 */
export type TetrahedronMethod = 'small' | 'large' | 'polar' | 'svd' | 'polarF';

/**
 * Linear tetrahedra, small or corotational, formulated exactly as SOFA's TetrahedronFEMForceField and
 * TetrahedralCorotationalFEMForceField (the two share this class).
 *
 * Per element with nodes (a, b, c, d) and rest positions X:
 *   J (12×6) = the strain-displacement matrix times 6V: for node i with cofactor gradient
 *     (αᵢ, βᵢ, γᵢ) = 6V·∇Nᵢ, rows x: (α,0,0,β,0,γ), y: (0,β,0,α,γ,0), z: (0,0,γ,0,β,α),
 *     strain in SOFA's Voigt order (εxx, εyy, εzz, γxy, γyz, γzx);
 *   K (6×6) = Hooke's matrix / (36V), so that J·K·Jᵀ = V·Bᵀ·D·B;
 *   R = element rotation (rows = the element frame in world axes):
 *     small: identity;
 *     large: frame of the edges: x̂ ∥ (b − a), ẑ ∥ x̂ × (c − a), ŷ = ẑ × x̂;
 *     polar: orthogonal factor of A = [b − a; c − a; d − a] (rows), A = Q·S;
 *     svd:   polar, or for flat/inverted elements (det(A·A₀⁻¹) < 1e-6) the rotation U·Vᵀ of a
 *            rotation-preserving SVD of A·A₀⁻¹, composed with the rest rotation;
 *   D = R₀·X − R·x (R₀ the rest rotation; 'large' measures it from node a, with the components
 *       that the frame makes zero left out), F = J·K·Jᵀ·D, f_node += Rᵀ·F_node.
 * addDForce and addKToMatrix use the rotations of the last addForce and the rest stiffness:
 *   K_e = −Rᵀ·(J·K·Jᵀ)·R  (no derivative of R: exact at rigidly moved rest shapes, as in SOFA).
 *
 * Topological changes of a tetrahedron container (as SOFA's TetrahedralCorotationalFEMForceField
 * handles them): a removed element's data slot receives the last element's (each element keeps
 * its rest shape, material and plastic strain), an added element is initialised from the rest
 * positions, the rest points follow the point changes. Other topology changes rebuild everything.
 *
 * The base of TetrahedronFEMForceField, TetrahedralCorotationalFEMForceField and
 * FastTetrahedralCorotationalForceField. Its parts live beside it: the element mathematics
 * (tetrahedron-element.ts), the step loops that need no `this` (corotational-forces.ts: 'large'
 * on locals and the JavaScript product), the plasticity (tetrahedron-plasticity.ts), the element
 * arrays through topological changes (tetrahedra-topology-change.ts) and the in-place product of
 * the matrix-free CG (tetrahedra-in-place-dforce.ts). This file stays over 700 lines for one
 * reason: what is left (rest state, general force loop, WebAssembly orchestration with the
 * threads' hooks) reads and writes the same per-element arrays, which subclasses also read.
 */
export abstract class CorotationalTetrahedra extends BaseForceField implements TopologyHandler {
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
  readonly localStiffnessFactor = this.initData({
    name: 'localStiffnessFactor',
    type: RealArray(1),
    default: new Float64Array(0),
    help: 'factors of the Young modulus per element: with N elements and M values, element i uses value i·M/N',
  });
  readonly updateStiffnessMatrix = this.initData({
    name: 'updateStiffnessMatrix',
    type: Bool,
    default: false,
    help: 'recompute the strain-displacement matrices from the deformed elements at every force evaluation',
  });
  readonly computeGlobalMatrix = this.initData({
    name: 'computeGlobalMatrix',
    type: Bool,
    default: false,
    help: "SOFA's old assembled path ('small' and 'large' only; with 'polar' or 'svd' SOFA computes no force)",
    aliases: ['assembling'],
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the tetrahedra (default: the topology of this node)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  /** The method in force, read at init from the subclass's `method` Data. */
  protected abstract methodName(): TetrahedronMethod;

  protected mstate: BaseMechanicalState | undefined;
  protected topo: BaseMeshTopology | undefined;
  private topoRevision = -1;
  protected activeMethod: TetrahedronMethod = 'large';
  /** Plasticity thresholds (TetrahedronFEMForceField only); max 0 disables it. */
  protected plasticMax = 0;
  protected plasticYield = 0;
  protected plasticCreepFactor = 0;

  // Per element, struct of arrays (nElem = number of tetrahedra):
  /** Node indices (nElem × 4). */
  protected elems = new Uint32Array(0);
  /** Cofactor gradients (αᵢ, βᵢ, γᵢ) of the 4 nodes = 6V·∇Nᵢ in the rest frame (nElem × 12), m²; see gradInKernel. */
  private _grad: Float64Array = new Float64Array(0);
  /** Hooke's matrix / 36V as (D00, D01, D33) (nElem × 3), Pa/m³. */
  private _mat: Float64Array = new Float64Array(0);
  /** Lamé coefficients (λ, μ) per element (nElem × 2), Pa. */
  protected lame = new Float64Array(0);
  /** Rest positions in the rest frame R₀·X (nElem × 12), m; for 'large' relative to node a. */
  private _rest: Float64Array = new Float64Array(0);
  /**
   * The WebAssembly kernel of 'large' holds the gradients and materials (gradInKernel) and the
   * rest shapes (restInKernel), and the JavaScript arrays were dropped (the matrix-free step reads
   * the kernel's copies only): they are copied back out of the kernel when read (the assembled
   * stiffness reads the gradients and materials, no step of 'large' reads the rest shapes).
   * 'large' reads 6 of the 12 rest components (the others are 0 by construction of the frame,
   * LARGE_REST_COMPONENTS), the 6 the kernel holds; the others come back as 0 and no computation
   * reads them.
   */
  private gradInKernel = false;
  private restInKernel = false;

  protected get grad(): Float64Array {
    if (this.gradInKernel) this.gradientsFromKernel();
    return this._grad;
  }
  protected set grad(g: Float64Array) {
    if (this.gradInKernel) this.gradientsFromKernel();
    this._grad = g;
  }
  protected get mat(): Float64Array {
    if (this.gradInKernel) this.gradientsFromKernel();
    return this._mat;
  }
  protected set mat(m: Float64Array) {
    if (this.gradInKernel) this.gradientsFromKernel();
    this._mat = m;
  }
  protected get rest(): Float64Array {
    if (this.restInKernel) this.restFromKernel();
    return this._rest;
  }
  protected set rest(r: Float64Array) {
    this.restInKernel = false;
    this._rest = r;
  }

  /** The gradients and materials copied back out of the kernel (see gradInKernel). */
  private gradientsFromKernel(): void {
    this.gradInKernel = false;
    const n = this.elementCount;
    this._grad = new Float64Array(12 * n);
    this._mat = new Float64Array(3 * n);
    (this.wasm as TetrahedronDForceWasm).copyMaterials(this._grad, this._mat);
  }

  /** The rest shapes copied back out of the kernel (see gradInKernel). */
  private restFromKernel(): void {
    this.restInKernel = false;
    this._rest = new Float64Array(12 * this.elementCount);
    (this.wasm as TetrahedronDForceWasm).copyRestShapes(this._rest);
  }
  /** Current rotation R (rows = element frame), set by addForce (nElem × 9); see `rot`. */
  private _rot: Float64Array = new Float64Array(0);
  /** The WebAssembly force wrote the newest rotations into its memory only (copied into _rot when read). */
  private rotInKernel = false;
  /**
   * No force has set the rotations since init: they are the rest rotations rot0, and _rot is made
   * (a copy of rot0) only when read; the matrix-free step of the WebAssembly 'large' force never
   * reads it, so its 9 f64 per element are not allocated there.
   */
  private rotAtRest = true;
  /** Rest rotation R₀ (nElem × 9); see rot0. */
  private _rot0: Float64Array = new Float64Array(0);
  /** 'large': R₀ is not stored until read (the frames of the rest points' edges, made again then: the same bits). */
  private rot0Lazy = false;

  /** Rest rotation R₀ (nElem × 9). */
  protected get rot0(): Float64Array {
    if (this.rot0Lazy) this.makeRestFrames();
    return this._rot0;
  }
  protected set rot0(r: Float64Array) {
    this.rot0Lazy = false;
    this._rot0 = r;
  }

  /** R₀ of 'large': the frame of each element's rest edges (initElement's frameOfEdges on the same rest points). */
  private makeRestFrames(): void {
    this.rot0Lazy = false;
    const n = this.elementCount,
      el = this.elems,
      R = this.restFrame;
    const r0 = new Float64Array(9 * n);
    for (let e = 0; e < n; e++) {
      frameOfEdges(R, this.restPoints, el[4 * e], el[4 * e + 1], el[4 * e + 2]);
      r0.set(R, 9 * e);
    }
    this._rot0 = r0;
  }
  private readonly restFrame = new Float64Array(9);
  /** 'svd': inverse of the rest edge matrix A₀ (nElem × 9). */
  protected restInv = new Float64Array(0);
  /** Plastic strain per element (nElem × 6), allocated when plasticity is first on (empty before: all zero). */
  protected plastic = new Float64Array(0);
  /** Checkpoint: the plastic strains (they evolve with the run). */
  readonly checkpointFields = ['plastic'] as const;
  /** Rest positions copied at init (SOFA's initialPoints), read by 'small' (nPoints × 3), m. */
  protected restPoints = new Float64Array(0);
  /** Sum of the rest volumes (m³). */
  restVolume = 0;
  /** Rest volume of each element (nElem), m³. */
  protected vol = new Float64Array(0);

  /**
   * Current rotation R (rows = element frame), set by addForce (nElem × 9). After the WebAssembly
   * force of 'large' it is copied from the kernel's memory at the first read (the product reads the
   * kernel's own copy, so a step of the matrix-free CG never needs it).
   */
  protected get rot(): Float64Array {
    if (this.rotInKernel) {
      this.rotInKernel = false;
      this.rotAtRest = false;
      // the kernel's elements (a topological change may have moved elems on already)
      const w = this.wasm as TetrahedronDForceWasm;
      if (this._rot.length !== 9 * w.nElem) this._rot = new Float64Array(9 * w.nElem);
      w.copyRotations(this._rot);
    } else if (this.rotAtRest) {
      this.rotAtRest = false;
      this._rot = Float64Array.from(this.rot0);
    }
    return this._rot;
  }
  protected set rot(r: Float64Array) {
    this._rot = r;
    this.rotInKernel = false;
    this.rotAtRest = false;
  }

  /** The current rotations without making the JavaScript copy when they are still the rest ones. */
  private rotOrRest(): Float64Array {
    return this.rotAtRest && !this.rotInKernel ? this.rot0 : this.rot;
  }

  /**
   * Which loop computes addDForce: 'wasm' (the WebAssembly SIMD kernel, the same operations in the
   * same order, bit for bit the JavaScript result) where WebAssembly is available and the mesh has
   * at least WASM_MIN_ELEMENTS elements, or 'js'. Tests set 'js' to compare the two.
   */
  productKernel: 'auto' | 'js' = 'auto';
  /** The WebAssembly product of these elements (null: not made yet; undefined: unavailable). */
  protected wasm: TetrahedronDForceWasm | undefined | null = null;
  /** Set by a topological change: the product's elements are laid out again before its next use. */
  private wasmStale = false;
  /** Versions of rot (bumped by addForce) and of grad/mat (reinit, materials), and the kernel's copies. */
  protected rotVersion = 0;
  protected materialVersion = 0;
  private wasmRot = -1;
  private wasmMaterial = -1;

  // Scratch (no allocation in the step)
  private readonly D = new Float64Array(12);
  private readonly F = new Float64Array(12);
  private readonly A = new Float64Array(9);
  private readonly Q = new Float64Array(9);
  private readonly blk = new Float64Array(144);
  private readonly hooke = new Float64Array(3);
  /** The strain of an element, handed to the plasticity. */
  private readonly strain = new Float64Array(6);

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.mstate ? [this.mstate] : [];
  }

  get elementCount(): number {
    return this.elems.length / 4;
  }

  /** The tetrahedra this force field acts on (nElem × 4), after init. */
  get tetrahedra(): Uint32Array {
    return this.elems;
  }

  override init(): void {
    const { state, topology } = initLinearElasticVolume(this, 'tetrahedral topology');
    this.mstate = state;
    this.topo = topology;
    this.reinit();
    // the elements are the topology's tetrahedra themselves: their changes are followed one by one
    if (sameElements(topology.getTetrahedra(), this.elems)) topology.addTopologyHandler(this);
  }

  // ---- topological changes ------------------------------------------------------------------------

  handleTopologyChange(change: TopologyChange, topology: BaseMeshTopology): void {
    if (topology !== this.topo) return;
    const n = this.elems.length / 4;
    // the WebAssembly product holds copies of the elements, rotations and materials: laid out again
    this.wasmStale = true;
    if (change.type === 'elementsRemoved' && change.kind === 'tetrahedron') {
      // each removed slot receives the last element's data
      const removed = change.indices;
      this.restVolume -= sumAt(this.vol, removed, n);
      const keep = <T extends Float64Array | Uint32Array>(a: T, stride: number): T => withoutRemovedElements(a, stride, n, removed);
      this.elems = keep(this.elems, 4);
      // the kernel's element data follow in the kernel (no copy of them out and back)
      if (this.gradInKernel || this.restInKernel) (this.wasm as TetrahedronDForceWasm).removeElementMaterials(n, removed);
      if (!this.gradInKernel) {
        this.grad = keep(this.grad, 12);
        this.mat = keep(this.mat, 3);
      }
      if (!this.restInKernel) this.rest = keep(this.rest, 12);
      this.lame = keep(this.lame, 2);
      this.rot = keep(this.rot, 9);
      if (!this.rot0Lazy) this.rot0 = keep(this.rot0, 9);
      this.restInv = keep(this.restInv, 9);
      this.plastic = keep(this.plastic, 6);
      this.vol = keep(this.vol, 1);
    } else if (change.type === 'elementsAdded' && change.kind === 'tetrahedron') {
      const k = change.indices.length;
      const grow = <T extends Float64Array | Uint32Array>(a: T, stride: number): T => withAddedElements(a, stride, n, k);
      this.elems = grow(this.elems, 4);
      this.elems.set(change.elements, 4 * n);
      this.grad = grow(this.grad, 12);
      this.mat = grow(this.mat, 3);
      this.lame = grow(this.lame, 2);
      this.rest = grow(this.rest, 12);
      this.rot = grow(this.rot, 9);
      if (!this.rot0Lazy) this.rot0 = grow(this.rot0, 9);
      this.restInv = grow(this.restInv, 9);
      this.plastic = grow(this.plastic, 6);
      this.vol = grow(this.vol, 1);
      this.restPoints = this.restPointsWithNew();
      const E = this.youngModulus.value,
        nu = this.poissonRatio.value,
        lsf = this.localStiffnessFactor.value;
      for (let e = n; e < n + k; e++) this.restVolume += this.initElement(e, this.elems, this.restPoints, n + k, E, nu, lsf);
    } else if (change.type === 'pointsRemoved') {
      // the last point moves into each removed slot: rename the elements' points the same way
      const np = this.restPoints.length / 3;
      renameInPlace(this.elems, removalIndexMap(np, change.indices));
      const left = applyRemoval(this.restPoints, 3, np, change.indices);
      this.restPoints = this.restPoints.subarray(0, 3 * left) as Float64Array<ArrayBuffer>;
    } else if (change.type === 'pointsAdded') {
      this.restPoints = this.restPointsWithNew();
    } else if (change.type === 'endOfChanges') {
      this.afterTopologyChange();
    }
  }

  /** The rest points, extended with the state's rest positions of points it has beyond them. */
  private restPointsWithNew(): Float64Array<ArrayBuffer> {
    const x0 = this.mstate!.x0;
    if (x0.length <= this.restPoints.length) return this.restPoints;
    const b = new Float64Array(x0.length);
    b.set(this.restPoints);
    b.set(x0.subarray(this.restPoints.length), this.restPoints.length);
    return b;
  }

  /** Called after the elements followed a topological change (subclasses' own per-element data). */
  protected afterTopologyChange(): void {}

  /** The tetrahedra of the topology (subclasses may derive them from hexahedra). */
  protected elementsOf(topo: BaseMeshTopology): Uint32Array {
    return topo.getTetrahedra();
  }

  /** Recomputes every rest quantity from the topology and the rest positions x0. */
  reinit(): void {
    // the kernel is made again: its copies of the element data are not read back
    this.gradInKernel = this.restInKernel = false;
    const topo = this.topo!;
    const ms = this.mstate!;
    this.topoRevision = topo.revision;
    this.activeMethod = this.methodName();
    const elems = Uint32Array.from(this.elementsOf(topo));
    const n = elems.length / 4;
    const x0 = Float64Array.from(ms.x0);
    this.restPoints = x0;
    for (let i = 0; i < elems.length; i++) {
      if (elems[i] >= ms.size)
        throw this.error(`tetrahedron ${Math.floor(i / 4)} uses point ${elems[i]}, but ${ms.describe()} has ${ms.size} points`);
    }
    this.elems = elems;
    this._grad = this._mat = this._rest = EMPTY;
    this.lame = new Float64Array(2 * n);
    // the rotations start at the rest ones (rot0): _rot is made when first read
    this._rot = new Float64Array(0);
    this.rotInKernel = false;
    this.rotAtRest = true;
    this.rot0 = this.activeMethod === 'large' ? EMPTY : new Float64Array(9 * n);
    this.rot0Lazy = this.activeMethod === 'large';
    this.restInv = this.activeMethod === 'svd' || this.activeMethod === 'polarF' ? new Float64Array(9 * n) : new Float64Array(0);
    // zero plastic strains: allocated when plasticity is first on (plasticStrains)
    this.plastic = new Float64Array(0);
    this.restVolume = 0;
    this.vol = new Float64Array(n);
    this.wasm = null;
    this.rotVersion++;
    this.materialVersion++;
    const E = this.youngModulus.value;
    const nu = this.poissonRatio.value;
    const lsf = this.localStiffnessFactor.value;
    // 'large' with the WebAssembly kernel: the element data are written straight into the kernel's
    // memory (the kernel made now), never into arrays of all the elements
    const w =
      this.activeMethod === 'large' && this.productKernel === 'auto' && n >= WASM_MIN_ELEMENTS && this.kernelAtInit()
        ? this.createWasmProduct()
        : undefined;
    if (w) {
      const one = this.elementScratch;
      let notFinite = -1;
      for (let e = 0; e < n; e++) {
        this.restVolume += this.initElement(e, elems, x0, n, E, nu, lsf, one);
        w.setElementMaterial(e, one.grad, one.mat, one.rest);
        if (notFinite < 0 && !this.scratchStiffnessIsFinite(one)) notFinite = e;
      }
      this.wasm = w;
      this.wasmRot = -1;
      this.wasmMaterial = this.materialVersion;
      this.gradInKernel = this.restInKernel = true;
      if (notFinite >= 0) this.refuseStiffness(E, notFinite);
      return;
    }
    this._grad = new Float64Array(12 * n);
    this._mat = new Float64Array(3 * n);
    this._rest = new Float64Array(12 * n);
    for (let e = 0; e < n; e++) this.restVolume += this.initElement(e, elems, x0, n, E, nu, lsf);
    // A material that overflows once multiplied by the element's shape (youngModulus="1e308")
    // would make every force NaN: refused here, at youngModulus.
    for (let e = 0; e < n; e++) {
      if (!this.elementStiffness(this.kScratch, e).every(Number.isFinite)) this.refuseStiffness(E, e);
    }
  }

  private refuseStiffness(E: Float64Array, e: number): never {
    throw this.dataError(
      this.youngModulus,
      `the stiffness of tetrahedron ${e} is not finite (youngModulus ${valueInElement(E, e, DEFAULT_YOUNG_MODULUS)} overflows, or the element is degenerate)`,
    );
  }

  /** One element's gradients, rest shape and material, on their way into the kernel. */
  private readonly elementScratch: ElementScratch = { grad: new Float64Array(12), rest: new Float64Array(12), mat: new Float64Array(3) };

  /** elementStiffness's finiteness for the element in the scratch, at its rest rotation (the same operations). */
  private scratchStiffnessIsFinite(one: ElementScratch): boolean {
    const blk = this.blk;
    tetrahedronStiffness(blk, one.grad, 0, one.mat[0], one.mat[1], one.mat[2]);
    // the rest rotation initElement left in its scratch (this.A)
    return rotatedElementStiffness(this.kScratch, blk, 0, 4, this.A, 0).every(Number.isFinite);
  }

  /** Whether reinit may make the WebAssembly kernel (subclasses whose kernel needs threads make it at first use). */
  protected kernelAtInit(): boolean {
    return true;
  }

  /** The rest quantities of element e (of n) from the rest positions x0; returns its volume. */
  private initElement(
    e: number,
    elems: Uint32Array,
    x0: Float64Array,
    n: number,
    E: Float64Array,
    nu: Float64Array,
    lsf: Float64Array,
    into?: ElementScratch,
  ): number {
    const R = this.A;
    const X = this.D;
    // where the gradients, rest shape and material go: the arrays, or one element's scratch (the kernel's path)
    const G = into ? into.grad : this._grad,
      P = into ? into.rest : this._rest,
      go = into ? 0 : 12 * e;
    const a = elems[4 * e],
      b = elems[4 * e + 1],
      c = elems[4 * e + 2],
      d = elems[4 * e + 3];
    const ux = x0[3 * b] - x0[3 * a],
      uy = x0[3 * b + 1] - x0[3 * a + 1],
      uz = x0[3 * b + 2] - x0[3 * a + 2];
    const vx = x0[3 * c] - x0[3 * a],
      vy = x0[3 * c + 1] - x0[3 * a + 1],
      vz = x0[3 * c + 2] - x0[3 * a + 2];
    const wx = x0[3 * d] - x0[3 * a],
      wy = x0[3 * d + 1] - x0[3 * a + 1],
      wz = x0[3 * d + 2] - x0[3 * a + 2];
    const vol = this.elementMaterial(e, E, nu, lsf, n, into ? into.mat : this._mat, into ? 0 : 3 * e);
    this.vol[e] = vol;
    // rest rotation R₀ and rest shape in its frame
    if (this.activeMethod === 'small' || this.activeMethod === 'polarF') {
      if (this.activeMethod === 'polarF') {
        // A₀ (rows: the edges from node a) inverted, for F = (A₀⁻¹·A)ᵀ
        R[0] = ux;
        R[1] = uy;
        R[2] = uz;
        R[3] = vx;
        R[4] = vy;
        R[5] = vz;
        R[6] = wx;
        R[7] = wy;
        R[8] = wz;
        mat3Invert(this.restInv, R, 9 * e); // det ≠ 0: elementMaterial refused a zero rest volume
      }
      R.fill(0);
      R[0] = R[4] = R[8] = 1;
      for (let k = 0; k < 4; k++) {
        const p = elems[4 * e + k];
        X[3 * k] = x0[3 * p];
        X[3 * k + 1] = x0[3 * p + 1];
        X[3 * k + 2] = x0[3 * p + 2];
      }
    } else {
      if (this.activeMethod === 'large') frameOfEdges(R, x0, a, b, c);
      else {
        R[0] = ux;
        R[1] = uy;
        R[2] = uz;
        R[3] = vx;
        R[4] = vy;
        R[5] = vz;
        R[6] = wx;
        R[7] = wy;
        R[8] = wz;
        if (this.activeMethod === 'svd') mat3Invert(this.restInv, R, 9 * e); // det ≠ 0: elementMaterial refused a zero rest volume
        polarDecomposition(R, R);
      }
      for (let k = 0; k < 4; k++) {
        const p = elems[4 * e + k];
        const px = x0[3 * p],
          py = x0[3 * p + 1],
          pz = x0[3 * p + 2];
        X[3 * k] = R[0] * px + R[1] * py + R[2] * pz;
        X[3 * k + 1] = R[3] * px + R[4] * py + R[5] * pz;
        X[3 * k + 2] = R[6] * px + R[7] * py + R[8] * pz;
      }
      if (this.activeMethod === 'large') {
        for (let k = 3; k < 12; k++) X[k] = X[k] - X[k % 3];
        X[0] = X[1] = X[2] = 0;
      }
    }
    for (let k = 0; k < 12; k++) P[go + k] = X[k];
    if (!this.rot0Lazy) for (let k = 0; k < 9; k++) this._rot0[9 * e + k] = R[k];
    // an element added after the rotations were made starts at its rest rotation too
    if (!this.rotAtRest) for (let k = 0; k < 9; k++) this.rot[9 * e + k] = R[k];
    strainDisplacement(G, go, X);
    return vol;
  }

  /**
   * The material of element e from the Young moduli, Poisson ratios and local stiffness factors:
   * Hooke's matrix over 36 V (mat) and the Lamé coefficients (lame). Returns the rest volume V.
   */
  private elementMaterial(
    e: number,
    E: Float64Array,
    nu: Float64Array,
    lsf: Float64Array,
    n: number,
    M: Float64Array = this._mat,
    mo: number = 3 * e,
  ): number {
    const x0 = this.restPoints,
      el = this.elems;
    const a = el[4 * e],
      b = el[4 * e + 1],
      c = el[4 * e + 2],
      d = el[4 * e + 3];
    const young = (lsf.length === 0 ? 1 : lsf[Math.floor((e * lsf.length) / n)]) * valueInElement(E, e, DEFAULT_YOUNG_MODULUS);
    isotropicHooke(this.hooke, young, valueInElement(nu, e, DEFAULT_POISSON_RATIO));
    const ux = x0[3 * b] - x0[3 * a],
      uy = x0[3 * b + 1] - x0[3 * a + 1],
      uz = x0[3 * b + 2] - x0[3 * a + 2];
    const vx = x0[3 * c] - x0[3 * a],
      vy = x0[3 * c + 1] - x0[3 * a + 1],
      vz = x0[3 * c + 2] - x0[3 * a + 2];
    const wx = x0[3 * d] - x0[3 * a],
      wy = x0[3 * d + 1] - x0[3 * a + 1],
      wz = x0[3 * d + 2] - x0[3 * a + 2];
    const vol = Math.abs((uy * vz - uz * vy) * wx + (uz * vx - ux * vz) * wy + (ux * vy - uy * vx) * wz) / 6;
    if (!(vol > 0)) throw this.error(`tetrahedron ${e} (${a} ${b} ${c} ${d}) has zero volume at rest`);
    // material: Hooke / (36 V)
    const s = 1 / (vol * 36);
    this.lame[2 * e] = this.hooke[1];
    this.lame[2 * e + 1] = this.hooke[2];
    M[mo] = this.hooke[0] * s;
    M[mo + 1] = this.hooke[1] * s;
    M[mo + 2] = this.hooke[2] * s;
    if (!(Number.isFinite(M[mo]) && Number.isFinite(M[mo + 1]) && Number.isFinite(M[mo + 2]))) {
      throw this.dataError(
        this.youngModulus,
        `the stiffness of tetrahedron ${e} is not finite (youngModulus ${young} over a volume of ${vol} overflows)`,
      );
    }
    return vol;
  }

  /**
   * Recomputes the materials of every element from youngModulus, poissonRatio and
   * localStiffnessFactor as they are now (rest shapes, rotations and plastic strains are kept).
   */
  protected updateMaterials(): void {
    // the materials are rewritten in the arrays (out of the kernel first where they are there)
    void this.mat;
    const n = this.elementCount;
    const E = checkedYoungModuli(this.youngModulus.value.length > 0 ? this.youngModulus.value : Float64Array.of(DEFAULT_YOUNG_MODULUS));
    const nu = checkedPoissonRatios(this.poissonRatio.value);
    const lsf = this.localStiffnessFactor.value;
    for (let e = 0; e < n; e++) this.elementMaterial(e, E, nu, lsf, n);
    this.materialVersion++;
  }

  /** A new topology revision: rebuild only if the elements changed. */
  private topologyChanged(): void {
    const topo = this.topo!;
    if (sameElements(this.elementsOf(topo), this.elems)) this.topoRevision = topo.revision;
    else this.reinit();
  }

  /** Called at the start of every addForce (parameters SOFA reads at each evaluation). */
  protected beforeForces(): void {}

  // ---- forces ---------------------------------------------------------------------------------

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    if (this.topo && this.topo.revision !== this.topoRevision) this.topologyChanged();
    this.beforeForces();
    const ff = f[0],
      p = x[0];
    const method = this.activeMethod;
    // SOFA's assembled path computes no force with 'polar' or 'svd'.
    if (this.computeGlobalMatrix.value && (method === 'polar' || method === 'svd')) return;
    const update = this.updateStiffnessMatrix.value;
    if (method !== 'small') this.rotVersion++;
    if (update) this.materialVersion++;
    if (method === 'large' && !update && this.plasticMax === 0) {
      // the WebAssembly kernel writes the frames where the product reads them: no copy of rot then
      this.wasmRot = this.rotVersion;
      const w = this.wasmProduct();
      if (w && p.length === w.vinView.length) {
        w.forceLarge(ff, p);
        this.rotInKernel = true;
      } else {
        this.wasmRot = -1;
        addLargeForces(ff, p, this.elems, this.rot, this.rest, this.grad, this.mat);
      }
      return;
    }
    this.addForceElements(ff, p, method, update);
  }

  /**
   * addForce's element loop for every method and option (the frames, D = R₀X − R·x, the element
   * force with plasticity, f += Rᵀ·F); kept out of addForce so that the common path stays a small
   * function, quick for the JIT to compile.
   */
  private addForceElements(ff: Float64Array, p: Float64Array, method: TetrahedronMethod, update: boolean): void {
    const x0 = this.restPoints;
    const n = this.elems.length / 4;
    const elems = this.elems,
      rot = this.rot,
      rest = this.rest;
    const D = this.D,
      F = this.F,
      A = this.A,
      Q = this.Q;
    for (let e = 0; e < n; e++) {
      const a = 3 * elems[4 * e],
        b = 3 * elems[4 * e + 1],
        c = 3 * elems[4 * e + 2],
        d = 3 * elems[4 * e + 3];
      const o = 12 * e,
        r = 9 * e;
      if (method === 'small') {
        // D = (X − X_a) − (x − x_a), node a left at 0
        D[0] = D[1] = D[2] = 0;
        for (let k = 0; k < 3; k++) {
          D[3 + k] = x0[b + k] - x0[a + k] - p[b + k] + p[a + k];
          D[6 + k] = x0[c + k] - x0[a + k] - p[c + k] + p[a + k];
          D[9 + k] = x0[d + k] - x0[a + k] - p[d + k] + p[a + k];
        }
        this.elementForce(e, D, F);
        for (let k = 0; k < 3; k++) {
          ff[a + k] += F[k];
          ff[b + k] += F[3 + k];
          ff[c + k] += F[6 + k];
          ff[d + k] += F[9 + k];
        }
        continue;
      }
      if (method === 'large') {
        // frame of the edges, rows x̂ ŷ ẑ
        let ex = p[b] - p[a],
          ey = p[b + 1] - p[a + 1],
          ez = p[b + 2] - p[a + 2];
        const inv = 1 / Math.sqrt(ex * ex + ey * ey + ez * ez);
        ex *= inv;
        ey *= inv;
        ez *= inv;
        const yx = p[c] - p[a],
          yy = p[c + 1] - p[a + 1],
          yz = p[c + 2] - p[a + 2];
        let zx = ey * yz - ez * yy,
          zy = ez * yx - ex * yz,
          zz = ex * yy - ey * yx;
        const iz = 1 / Math.sqrt(zx * zx + zy * zy + zz * zz);
        zx *= iz;
        zy *= iz;
        zz *= iz;
        rot[r] = ex;
        rot[r + 1] = ey;
        rot[r + 2] = ez;
        rot[r + 3] = zy * ez - zz * ey;
        rot[r + 4] = zz * ex - zx * ez;
        rot[r + 5] = zx * ey - zy * ex;
        rot[r + 6] = zx;
        rot[r + 7] = zy;
        rot[r + 8] = zz;
      } else {
        A[0] = p[b] - p[a];
        A[1] = p[b + 1] - p[a + 1];
        A[2] = p[b + 2] - p[a + 2];
        A[3] = p[c] - p[a];
        A[4] = p[c + 1] - p[a + 1];
        A[5] = p[c + 2] - p[a + 2];
        A[6] = p[d] - p[a];
        A[7] = p[d + 1] - p[a + 1];
        A[8] = p[d + 2] - p[a + 2];
        if (method === 'polarF') {
          // rot = polar factor of Fᵀ = A₀⁻¹·A, i.e. R_Fᵀ (rows: the rest axes in the current frame)
          const M = this.restInv,
            mo = 9 * e,
            F9 = this.F9;
          for (let i = 0; i < 3; i++)
            for (let j = 0; j < 3; j++) F9[3 * i + j] = M[mo + 3 * i] * A[j] + M[mo + 3 * i + 1] * A[3 + j] + M[mo + 3 * i + 2] * A[6 + j];
          polarDecomposition(Q, F9);
          for (let k = 0; k < 9; k++) rot[r + k] = Q[k];
        } else if (method === 'svd' && this.deformationIsDegenerate(e, A)) {
          // Q = U·Vᵀ of F = A·A₀⁻¹, then R = Q·R₀
          polarDecompositionStable(Q, this.F9);
          const r0 = this.rot0;
          for (let i = 0; i < 3; i++)
            for (let j = 0; j < 3; j++)
              rot[r + 3 * i + j] = Q[3 * i] * r0[r + j] + Q[3 * i + 1] * r0[r + 3 + j] + Q[3 * i + 2] * r0[r + 6 + j];
        } else {
          polarDecomposition(Q, A);
          for (let k = 0; k < 9; k++) rot[r + k] = Q[k];
        }
      }
      // deformed positions in the element frame, D = R₀X − R·x
      const r0 = rot[r],
        r1 = rot[r + 1],
        r2 = rot[r + 2],
        r3 = rot[r + 3],
        r4 = rot[r + 4],
        r5 = rot[r + 5],
        r6 = rot[r + 6],
        r7 = rot[r + 7],
        r8 = rot[r + 8];
      for (let k = 0; k < 4; k++) {
        const q = k === 0 ? a : k === 1 ? b : k === 2 ? c : d;
        const px = p[q],
          py = p[q + 1],
          pz = p[q + 2];
        F[3 * k] = r0 * px + r1 * py + r2 * pz;
        F[3 * k + 1] = r3 * px + r4 * py + r5 * pz;
        F[3 * k + 2] = r6 * px + r7 * py + r8 * pz;
      }
      if (method === 'large') {
        D[0] = D[1] = D[2] = 0;
        D[3] = rest[o + 3] - (F[3] - F[0]);
        D[4] = 0;
        D[5] = 0;
        D[6] = rest[o + 6] - (F[6] - F[0]);
        D[7] = rest[o + 7] - (F[7] - F[1]);
        D[8] = 0;
        D[9] = rest[o + 9] - (F[9] - F[0]);
        D[10] = rest[o + 10] - (F[10] - F[1]);
        D[11] = rest[o + 11] - (F[11] - F[2]);
        if (update) {
          // strain-displacement of the deformed element in its frame (node a at the origin)
          for (let k = 3; k < 12; k++) F[k] = F[k] - F[k % 3];
          F[0] = F[1] = F[2] = 0;
          strainDisplacement(this.grad, o, F);
        }
      } else {
        for (let k = 0; k < 12; k++) D[k] = rest[o + k] - F[k];
        if (update) strainDisplacement(this.grad, o, F);
      }
      this.elementForce(e, D, F);
      // f += Rᵀ·F
      for (let k = 0; k < 4; k++) {
        const q = k === 0 ? a : k === 1 ? b : k === 2 ? c : d;
        const fx = F[3 * k],
          fy = F[3 * k + 1],
          fz = F[3 * k + 2];
        ff[q] += r0 * fx + r3 * fy + r6 * fz;
        ff[q + 1] += r1 * fx + r4 * fy + r7 * fz;
        ff[q + 2] += r2 * fx + r5 * fy + r8 * fz;
      }
    }
  }

  /** 'svd' scratch: F = A·A₀⁻¹. */
  private readonly F9 = new Float64Array(9);

  /** Computes F9 = A·A₀⁻¹ and tells whether det(F9) < 1e-6 (flat or inverted element). */
  private deformationIsDegenerate(e: number, A: Float64Array): boolean {
    const M = this.restInv,
      o = 9 * e,
      F9 = this.F9;
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) F9[3 * i + j] = A[3 * i] * M[o + j] + A[3 * i + 1] * M[o + 3 + j] + A[3 * i + 2] * M[o + 6 + j];
    const det = F9[0] * (F9[4] * F9[8] - F9[5] * F9[7]) - F9[1] * (F9[3] * F9[8] - F9[5] * F9[6]) + F9[2] * (F9[3] * F9[7] - F9[4] * F9[6]);
    return det < 1e-6;
  }

  /** Plasticity on: the thresholds SOFA reads at every force evaluation. */
  protected setPlasticity(max: number, yieldThreshold: number, creep: number): void {
    // the plastic strains, all zero until now, are stored from the first evaluation with plasticity
    if (max > 0 && this.plastic.length === 0) this.plastic = new Float64Array(6 * this.elementCount);
    this.plasticMax = max;
    this.plasticYield = yieldThreshold;
    this.plasticCreepFactor = creep;
  }

  /** F = J·K·(Jᵀ·D − plastic strain) for element e (the plastic strain evolves when enabled). */
  private elementForce(e: number, D: Float64Array, F: Float64Array): void {
    const g = this.grad,
      o = 12 * e;
    // strain s = Jᵀ·D
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0,
      s4 = 0,
      s5 = 0;
    for (let i = 0; i < 4; i++) {
      const al = g[o + 3 * i],
        be = g[o + 3 * i + 1],
        ga = g[o + 3 * i + 2];
      const dx = D[3 * i],
        dy = D[3 * i + 1],
        dz = D[3 * i + 2];
      s0 += al * dx;
      s1 += be * dy;
      s2 += ga * dz;
      s3 += be * dx + al * dy;
      s4 += ga * dy + be * dz;
      s5 += ga * dx + al * dz;
    }
    if (this.plasticMax > 0) {
      // the elastic part: total − plastic, the plastic strain evolving (tetrahedron-plasticity.ts)
      const s = this.strain;
      s[0] = s0;
      s[1] = s1;
      s[2] = s2;
      s[3] = s3;
      s[4] = s4;
      s[5] = s5;
      elasticStrain(s, this.plastic, 6 * e, this.plasticYield, this.plasticMax, this.plasticCreepFactor);
      s0 = s[0];
      s1 = s[1];
      s2 = s[2];
      s3 = s[3];
      s4 = s[4];
      s5 = s[5];
    }
    const m = this.mat,
      mo = 3 * e;
    const A = m[mo],
      B = m[mo + 1],
      C = m[mo + 2];
    const k0 = A * s0 + B * s1 + B * s2;
    const k1 = B * s0 + A * s1 + B * s2;
    const k2 = B * s0 + B * s1 + A * s2;
    const k3 = C * s3,
      k4 = C * s4,
      k5 = C * s5;
    for (let i = 0; i < 4; i++) {
      const al = g[o + 3 * i],
        be = g[o + 3 * i + 1],
        ga = g[o + 3 * i + 2];
      F[3 * i] = al * k0 + be * k3 + ga * k5;
      F[3 * i + 1] = be * k1 + al * k3 + ga * k4;
      F[3 * i + 2] = ga * k2 + be * k4 + al * k5;
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const out = df[0],
      v = dx[0];
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k === 0) return;
    const w = this.wasmProduct();
    if (w) {
      this.applyWasmProduct(w, out, v, k);
      return;
    }
    addRotatedDForce(out, v, k, this.elems, this.activeMethod === 'small' ? undefined : this.rot, this.grad, this.mat);
  }

  /** The WebAssembly product with the element data of now, or undefined for the JavaScript loop. */
  protected wasmProduct(): TetrahedronDForceWasm | undefined {
    if (this.productKernel === 'js') return undefined;
    if (this.wasmStale) {
      // the same memory when it has room for the new elements (no new kernel to allocate); the
      // kernel's rotations and element data read out first (the layout changes)
      void this.rot;
      this.wasmStale = false;
      const current = this.wasmMaterial === this.materialVersion && (this.gradInKernel || this.restInKernel);
      const refitted = this.wasm && this.elementCount >= WASM_MIN_ELEMENTS && this.refitWasmProduct(this.wasm);
      if (!refitted) {
        // a new kernel: the element data out of this one first (laid out already for the remaining elements)
        void this.grad;
        void this.rest;
        this.wasm = null;
      }
      this.wasmRot = -1;
      // the kernel's element data, current before, are the elements' still (a removal moved them there too)
      this.wasmMaterial = refitted && current ? this.materialVersion : -1;
    }
    if (this.wasm === null) {
      this.wasm = this.elementCount >= WASM_MIN_ELEMENTS ? this.createWasmProduct() : undefined;
      this.wasmRot = this.wasmMaterial = -1;
    }
    const w = this.wasm;
    if (!w) return undefined;
    if (this.wasmRot !== this.rotVersion) {
      w.setRotations(this.rotOrRest());
      this.wasmRot = this.rotVersion;
    }
    if (this.wasmMaterial !== this.materialVersion) {
      w.setMaterials(this.grad, this.mat, this.rest);
      this.wasmMaterial = this.materialVersion;
      // the kernel's copies are what 'large' reads from now on (while the stiffness stays the rest one)
      if (this.activeMethod === 'large' && !this.updateStiffnessMatrix.value && this.plasticMax === 0) {
        this._grad = this._mat = this._rest = EMPTY;
        this.gradInKernel = this.restInKernel = true;
      }
    }
    return w;
  }

  /** df += −k·Σ Rᵀ·J·K·Jᵀ·R·dx with the WebAssembly kernel (on this thread; subclasses use threads). */
  protected applyWasmProduct(w: TetrahedronDForceWasm, df: Float64Array, dx: Float64Array, k: number): void {
    w.apply(df, dx, k);
  }

  /** applyWasmProductInPlace as a WebAssembly function (k), or undefined where it needs JavaScript (subclasses' threads). */
  protected wasmProductFunction(w: TetrahedronDForceWasm): object | undefined {
    return w.wasmApplyInPlace;
  }

  /** vout += −k·Σ Rᵀ·J·K·Jᵀ·R·vin in the kernel's memory (on this thread; subclasses use threads). */
  protected applyWasmProductInPlace(w: TetrahedronDForceWasm, k: number): void {
    w.applyInPlace(k);
  }

  private inPlace: TetrahedraInPlaceDForce | undefined = undefined;

  /** addDForce in the WebAssembly kernel's memory (its vin and vout), brought up to date; undefined for the JavaScript loop. */
  override inPlaceDForce(): InPlaceDForce | undefined {
    const w = this.wasmProduct();
    if (!w) return undefined;
    if (this.inPlace?.kernel !== w) {
      const fn = this.wasmProductFunction(w);
      const wasmAdd = fn ? { fn, factor: (kFactor: number, bFactor: number) => this.kFactorWithRayleigh(kFactor, bFactor) } : undefined;
      this.inPlace = new TetrahedraInPlaceDForce(w, (kFactor, bFactor) => this.addDForceInPlace(w, kFactor, bFactor), wasmAdd);
    }
    return this.inPlace;
  }

  /** addDForce's steps on the kernel's vin and vout (the rotations were copied in by inPlaceDForce). */
  private addDForceInPlace(w: TetrahedronDForceWasm, kFactor: number, bFactor: number): void {
    const k = this.kFactorWithRayleigh(kFactor, bFactor);
    if (k === 0) return;
    this.applyWasmProductInPlace(w, k);
  }

  /** Lays the elements out again in the product's memory after a topological change; false: make a new product. */
  protected refitWasmProduct(w: TetrahedronDForceWasm): boolean {
    return w.refit(this.elems, this.mstate!.size);
  }

  /** Makes the WebAssembly product of the elements (subclasses add the threads' buffers). */
  protected createWasmProduct(): TetrahedronDForceWasm | undefined {
    return TetrahedronDForceWasm.create(this.elems, this.mstate!.size);
  }

  /**
   * The 12×12 stiffness −Rᵀ·(J·K·Jᵀ)·R of element e (row-major into out, node-major rows), with the
   * rotation of the last addForce (identity for 'small').
   */
  elementStiffness(out: Float64Array, e: number): Float64Array {
    const m = this.mat,
      blk = this.blk;
    tetrahedronStiffness(blk, this.grad, 12 * e, m[3 * e], m[3 * e + 1], m[3 * e + 2]);
    if (this.activeMethod === 'small') {
      for (let k = 0; k < 144; k++) out[k] = -blk[k];
      return out;
    }
    // out_ij = −Rᵀ·blk_ij·R
    return rotatedElementStiffness(out, blk, 0, 4, this.rotOrRest(), 9 * e);
  }

  private readonly kScratch = new Float64Array(144);
  private readonly blockScratch = new Float64Array(9);
  /** The 10 upper 3x3 blocks of the stiffness of each element of a batch (upperBlockIndex layout). */
  private readonly upperScratch = new Float64Array(90 * ELEMENT_BATCH);

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    this.emitStiffness(acc, kFactor);
  }

  private emitStiffness(acc: MatrixAccumulator, factor: number): void {
    const n = this.elems.length / 4;
    const K = this.kScratch,
      elems = this.elems,
      blk = this.blockScratch;
    // Data the WebAssembly kernel holds are read from it a batch at a time (exact copies), so that
    // no JavaScript copy of every element's gradients, materials or frames is made.
    const w = this.wasm as TetrahedronDForceWasm | undefined;
    const gradK = this.gradInKernel && w !== undefined;
    const rotK = this.activeMethod !== 'small' && this.rotInKernel && w !== undefined;
    const R = this.activeMethod === 'small' ? undefined : rotK ? this.batchRot : this.rot;
    const grad = gradK ? this.batchGrad : this.grad,
      mat = gradK ? this.batchMat : this.mat;
    for (let e0 = 0; e0 < n; e0 += ELEMENT_BATCH) {
      const count = Math.min(ELEMENT_BATCH, n - e0);
      if (gradK && rotK) {
        // everything in the kernel: its blocks (tetK2, two elements at once), copied where the
        // accumulator reads them when it offers a buffer (another WebAssembly memory)
        const Uk = w.upperStiffness(e0, count);
        const buffer = acc.symmetricElementBuffer?.(4, count);
        // (a view of the part of a last, shorter batch: one per step)
        if (buffer) buffer.set(90 * count === Uk.length ? Uk : Uk.subarray(0, 90 * count));
        emitSymmetricElements(acc, buffer ?? Uk, elems, e0, count, 4, factor, K, blk);
        continue;
      }
      // offsets into the batch's copies, or into the whole arrays
      const g0 = gradK ? e0 : 0,
        r0 = rotK ? e0 : 0;
      if (gradK) w.copyMaterials(grad, mat, e0, count);
      if (rotK) w.copyRotations(R!, e0, count);
      // the batch's blocks, written where the accumulator reads them when it offers a buffer
      const U = acc.symmetricElementBuffer?.(4, count) ?? this.upperScratch;
      for (let k = 0; k < count; k++) {
        const e = e0 + k;
        rotatedTetrahedronStiffnessUpper(U, 90 * k, grad, 12 * (e - g0), mat, 3 * (e - g0), R, 9 * (e - r0));
      }
      emitSymmetricElements(acc, U, elems, e0, count, 4, factor, K, blk);
    }
  }

  /** A batch's gradients, materials and frames read from the kernel (emitStiffness). */
  private readonly batchGrad = new Float64Array(12 * ELEMENT_BATCH);
  private readonly batchMat = new Float64Array(3 * ELEMENT_BATCH);
  private readonly batchRot = new Float64Array(9 * ELEMENT_BATCH);

  /** ½·Σ Dᵀ·J·K·Jᵀ·D for 'small' (SOFA computes it for that method only), else 0. */
  override getPotentialEnergy(x: readonly Float64Array[]): number {
    if (this.activeMethod !== 'small' || this.computeGlobalMatrix.value) return 0;
    const p = x[0],
      x0 = this.restPoints,
      D = this.D,
      F = this.F;
    const n = this.elems.length / 4;
    const saved = this.plasticMax;
    this.plasticMax = 0;
    let energy = 0;
    for (let e = 0; e < n; e++) {
      const a = 3 * this.elems[4 * e];
      for (let k = 0; k < 4; k++) {
        const q = 3 * this.elems[4 * e + k];
        for (let c = 0; c < 3; c++) D[3 * k + c] = x0[q + c] - x0[a + c] - p[q + c] + p[a + c];
      }
      this.elementForce(e, D, F);
      for (let k = 0; k < 12; k++) energy += F[k] * D[k];
    }
    this.plasticMax = saved;
    return energy / 2;
  }

  override reset(): void {
    this.plastic.fill(0);
  }

  /** Rotation R of element e at the last addForce (rows = element frame), copied into out. */
  getElementRotation(out: Float64Array, e: number): Float64Array {
    for (let k = 0; k < 9; k++) out[k] = this.rot[9 * e + k];
    return out;
  }
}
