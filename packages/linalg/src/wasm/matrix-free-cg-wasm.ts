import type { CgKernel, CgParams, CgResult, CgStopReason } from '../conjugate-gradient.js';
import { matrixFreeCgWasm } from './kernels/matrix-free-cg.wasm.js';
import { compileKernel, wasmApi, type WasmMemory } from './wasm-module.js';

/**
 * The vectors and vector operations of a matrix-free conjugate gradient on one state of 3D points
 * (SOFA's GraphScattered system of a Vec3 MechanicalObject), in the WebAssembly memory of the
 * product that computes q = A·p (a force field's kernel): p and q are that product's input and
 * output, so an iteration copies nothing between JavaScript arrays and the kernel's memory.
 * Every operation is the one of the JavaScript path, in its order, so the iterates are the same bit
 * for bit:
 *   - dots sum as MechanicalSystem.dot sums a Vec3 state: per node a₀b₀ + a₁b₁ + a₂b₂, the nodes
 *     accumulated in order from 0, the state's sum added to 0;
 *   - element-wise operations on a node's (x, y) run as one f64x2 operation (the same IEEE
 *     operations lane by lane), z alone;
 *   - mfMass: q = 0 + (p·mᵢ)·m, DiagonalMass's addMDx into a cleared vector;
 *   - mfZero: q[dof] = 0 for a list of dofs (FixedProjectiveConstraint's projection);
 *   - mfDirection: p = p·β + r; mfUpdate: x += p·α, r += q·(−α), then r·r;
 *   - mfSolve: conjugateGradient's whole loop (kernelIterations) with these operations, the
 *     product being q = 0 or the mass product, then the imported `product(k)` (the force field's
 *     in-place addDForce: a WebAssembly function of the same memory, or JavaScript), then the
 *     zeroed dofs. One call per solve: nothing crosses between JavaScript and WebAssembly per
 *     iteration when the product is WebAssembly.
 * Functions take byte addresses; the dots are stored at a result address. They are written in
 * kernels/matrix-free-cg.wat.
 */
let cached: object | undefined;

/** Stop reasons of mfSolve, by code. */
const REASONS: readonly CgStopReason[] = ['iterations', 'tolerance', 'threshold', 'zero-denominator'];

/** The compiled module (once per process), or undefined without WebAssembly SIMD. */
function matrixFreeCgModule(): object | undefined {
  if (cached) return cached;
  cached = compileKernel(matrixFreeCgWasm);
  return cached;
}

/** Where a matrix-free CG lives: the product's memory, its input p and output q, and a free area. */
export interface MatrixFreeCgPlace {
  readonly memory: WasmMemory | { buffer: ArrayBufferLike };
  /** Byte addresses of p (the product's input) and q (its output), 3·nodes f64 each. */
  readonly p: number;
  readonly q: number;
  /** Byte address (16-aligned) of a free area of at least MatrixFreeCgWasm.bytes(nodes) bytes. */
  readonly area: number;
  readonly areaBytes: number;
}

/**
 * The force field's part of the product, q += k·K·p in place: a WebAssembly function of the same
 * memory (called directly from mfSolve), or a JavaScript function.
 */
export type InPlaceProduct = ((k: number) => void) | object;

/** What the products of the next solve do (MatrixFreeCgWasm.config, set by the owner). */
export interface MatrixFreeProductConfig {
  /** q = 0 + (p·mᵢ)·m with the masses (true), or q = 0. */
  useMass: boolean;
  m: number;
  /** Whether the product function runs, and its argument. */
  useProduct: boolean;
  k: number;
  /** The first dofCount entries of `dofs` are zeroed in q. */
  dofCount: number;
}

/**
 * A matrix-free conjugate gradient's vectors and operations in a product's WebAssembly memory (see
 * the module comment). The owner fills `masses` and `dofs`, and says what the product does in
 * `config`; the product is q = P·(m·M + k·K)·p: the mass product or q = 0, then the
 * `product` given at creation, then the zeroed dofs.
 */
export class MatrixFreeCgWasm implements CgKernel {
  readonly x: Float64Array;
  readonly r: Float64Array;
  readonly p: Float64Array;
  readonly q: Float64Array;
  /** (nodes) the diagonal masses, for massProduct. */
  readonly masses: Float64Array;
  /** (3·nodes) scalar dof indices, for zeroDofs. */
  readonly dofs: Int32Array;
  /** What the products of the next solve do. */
  readonly config: MatrixFreeProductConfig = { useMass: false, m: 0, useProduct: false, k: 0, dofCount: 0 };
  private readonly a: { x: number; r: number; p: number; q: number; masses: number; dofs: number; out: number };
  private readonly outView: Float64Array;
  private readonly outInts: Int32Array;
  private readonly fnProduct: (k: number) => void;
  private readonly fnDot: (a: number, b: number, n: number, out: number) => void;
  private readonly fnMass: (q: number, p: number, mass: number, n: number, m: number) => void;
  private readonly fnZero: (q: number, dofs: number, count: number) => void;
  private readonly fnDirection: (p: number, r: number, n: number, beta: number) => void;
  private readonly fnUpdate: (x: number, r: number, p: number, q: number, n: number, alpha: number, out: number) => void;
  private readonly fnSolve: (...args: number[]) => void;

  /** Bytes of the free area the vectors of `nodes` points need. */
  static bytes(nodes: number): number {
    return 32 + 2 * 24 * nodes + 8 * nodes + 12 * nodes + 16;
  }

  private constructor(
    module: object,
    readonly place: MatrixFreeCgPlace,
    readonly nodes: number,
    product: InPlaceProduct,
  ) {
    const api = wasmApi()!;
    const buf = place.memory.buffer;
    const align = (b: number) => Math.ceil(b / 16) * 16;
    const out = place.area,
      x = out + 32,
      r = align(x + 24 * nodes),
      masses = align(r + 24 * nodes),
      dofs = align(masses + 8 * nodes);
    this.a = { x, r, p: place.p, q: place.q, masses, dofs, out };
    this.outView = new Float64Array(buf, out, 2);
    this.outInts = new Int32Array(buf, out + 16, 2);
    this.x = new Float64Array(buf, x, 3 * nodes);
    this.r = new Float64Array(buf, r, 3 * nodes);
    this.p = new Float64Array(buf, place.p, 3 * nodes);
    this.q = new Float64Array(buf, place.q, 3 * nodes);
    this.masses = new Float64Array(buf, masses, nodes);
    this.dofs = new Int32Array(buf, dofs, 3 * nodes);
    const e = new api.Instance(module, { env: { memory: place.memory, product } }).exports;
    this.fnProduct = product as (k: number) => void;
    this.fnDot = e.mfDot as typeof this.fnDot;
    this.fnMass = e.mfMass as typeof this.fnMass;
    this.fnZero = e.mfZero as typeof this.fnZero;
    this.fnDirection = e.mfDirection as typeof this.fnDirection;
    this.fnUpdate = e.mfUpdate as typeof this.fnUpdate;
    this.fnSolve = e.mfSolve as typeof this.fnSolve;
  }

  /**
   * The CG of `nodes` points in `place`, or undefined without WebAssembly or room. `product` adds
   * k·K·p to q in place (see InPlaceProduct).
   */
  static create(place: MatrixFreeCgPlace, nodes: number, product: InPlaceProduct): MatrixFreeCgWasm | undefined {
    if (place.areaBytes < MatrixFreeCgWasm.bytes(nodes) || place.area % 16 !== 0) return undefined;
    const module = matrixFreeCgModule();
    if (!module) return undefined;
    try {
      return new MatrixFreeCgWasm(module, place, nodes, product);
    } catch {
      return undefined;
    }
  }

  /** q = 0 + (p·mᵢ)·m with the masses of `masses`. */
  massProduct(m: number): void {
    this.fnMass(this.a.q, this.a.p, this.a.masses, this.nodes, m);
  }

  /** q = 0. */
  zeroQ(): void {
    this.q.fill(0);
  }

  /** q[dofs[j]] = 0 for j < count. */
  zeroDofs(count: number): void {
    if (count > 0) this.fnZero(this.a.q, this.a.dofs, count);
  }

  /** CgKernel: p = p·β + r. */
  direction(beta: number): void {
    this.fnDirection(this.a.p, this.a.r, 3 * this.nodes, beta);
  }

  /** CgKernel: q = A·p (the configured product), returning the node-wise p·q. */
  productDot(): number {
    const c = this.config;
    if (c.useMass) this.massProduct(c.m);
    else this.zeroQ();
    if (c.useProduct) this.fnProduct(c.k);
    this.zeroDofs(c.dofCount);
    this.fnDot(this.a.p, this.a.q, this.nodes, this.a.out);
    return this.outView[0];
  }

  /** CgKernel: x += α·p, r −= α·q, returning the node-wise r·r. */
  update(alpha: number): number {
    const a = this.a;
    this.fnUpdate(a.x, a.r, a.p, a.q, this.nodes, alpha, a.out);
    return this.outView[0];
  }

  /** CgKernel: the node-wise r·r. */
  residualDot(): number {
    this.fnDot(this.a.r, this.a.r, this.nodes, this.a.out);
    return this.outView[0];
  }

  /** CgKernel: the whole loop in one call of mfSolve (the operations of direction, productDot and update). */
  iterate(rho0: number, normb: number, params: CgParams, result: CgResult): number {
    const a = this.a,
      c = this.config;
    this.fnSolve(
      a.x,
      a.r,
      a.p,
      a.q,
      a.masses,
      this.nodes,
      c.m,
      c.useMass ? 1 : 0,
      c.k,
      c.useProduct ? 1 : 0,
      a.dofs,
      c.dofCount,
      rho0,
      normb,
      Math.min(params.maxIterations, 0x7fffffff),
      params.tolerance,
      params.threshold,
      params.firstSolve ? 1 : 0,
      a.out,
    );
    result.residual = this.outView[1];
    result.reason = REASONS[this.outInts[1]];
    return this.outInts[0];
  }
}
