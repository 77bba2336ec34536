import type { CgKernel, CgParams, CgResult, CgStopReason } from '../conjugate-gradient.js';
import { FunctionBuilder, WasmType, wasmApi, wasmModuleBytes, type WasmMemory } from './wasm-module.js';

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
 * Functions take byte addresses; the dots are stored at a result address.
 */
let cached: object | undefined;

const I = WasmType.i32, F = WasmType.f64, V = WasmType.v128;

/** Function indices: the imported product first, then the module's functions in wasmModuleBytes' order. */
const PRODUCT = 0, DOT = 1, MASS = 2, ZERO = 3, DIRECTION = 4, UPDATE = 5;

/** Stop reasons of mfSolve, by code. */
const REASONS: readonly CgStopReason[] = ['iterations', 'tolerance', 'threshold', 'zero-denominator'];

/**
 * mfSolve(x, r, p, q, masses, nNodes, m, useMass, k, useProduct, dofs, dofCount, ρ₀, |b|, maxIt,
 * tolerance, threshold, firstSolve, out): conjugateGradient's loop (see kernelIterations there),
 * x and r holding the start (x = 0, r = b, or the warm start's), ρ₀ = r·r. At out: +0 the dots'
 * scratch, +8 the last relative residual (0 when no iteration ran), +16 the iteration counter at
 * exit (i32), +20 the stop reason's code (REASONS).
 */
function solveFunction(): FunctionBuilder {
  const fb = new FunctionBuilder('mfSolve', [I, I, I, I, I, I, F, I, F, I, I, I, F, F, I, F, F, I, I]);
  const [x, r, p, q, masses, nNodes, m, useMass, k, useProduct, dofs, dofCount, rho0, normb, maxIt, tol, thr, first, out] = Array.from({ length: 19 }, (_, i) => fb.param(i));
  const it = fb.local(I), bytes = fb.local(I), rho = fb.local(F), rhoPrev = fb.local(F), rhoNext = fb.local(F), err = fb.local(F), den = fb.local(F);
  // a stop test may not stop iteration 1 of the first solve: (it ≠ 1) | (first = 0)
  const mayStop = () => fb.get(it).i32Const(1).i32Ne().get(first).i32Eqz().i32Or();
  const stop = (code: number) => fb.get(out).i32Const(code).i32Store(20).br(2);
  fb.get(nNodes).i32Const(24).i32Mul().set(bytes);
  fb.f64Const(0).set(rhoPrev);
  fb.get(rho0).set(rhoNext);
  fb.i32Const(1).set(it);
  fb.get(out).f64Const(0).f64Store(8);
  fb.get(out).i32Const(0).i32Store(20);
  fb.block().loop();
  fb.get(it).get(maxIt).i32GtS().brIf(1);
  fb.get(rhoNext).set(rho);
  fb.get(rho).f64Sqrt().get(normb).f64Div().set(err);
  fb.get(out).get(err).f64Store(8);
  fb.get(err).get(tol).f64Le();
  mayStop();
  fb.i32And().if();
  stop(1);
  fb.end();
  // p = r at the first iteration, else p = p·(ρ/ρ_prev) + r
  fb.get(it).i32Const(1).i32Eq().if();
  fb.get(p).get(r).get(bytes).memoryCopy();
  fb.else();
  fb.get(p).get(r).get(nNodes).i32Const(3).i32Mul().get(rho).get(rhoPrev).f64Div().call(DIRECTION);
  fb.end();
  // q = P·(m·M + b·B + k·K)·p, as MechanicalSystem.applyMBK
  fb.get(useMass).if();
  fb.get(q).get(p).get(masses).get(nNodes).get(m).call(MASS);
  fb.else();
  fb.get(q).i32Const(0).get(bytes).memoryFill();
  fb.end();
  fb.get(useProduct).if();
  fb.get(k).call(PRODUCT);
  fb.end();
  fb.get(dofCount).if();
  fb.get(q).get(dofs).get(dofCount).call(ZERO);
  fb.end();
  fb.get(p).get(q).get(nNodes).get(out).call(DOT);
  fb.get(out).f64Load(0).set(den);
  fb.get(den).f64Const(0).f64Eq().if();
  stop(3);
  fb.end();
  fb.get(den).f64Abs().get(thr).f64Le();
  mayStop();
  fb.i32And().if();
  stop(2);
  fb.end();
  // x += α·p; r −= α·q; ρ = r·r
  fb.get(x).get(r).get(p).get(q).get(nNodes).get(rho).get(den).f64Div().get(out).call(UPDATE);
  fb.get(out).f64Load(0).set(rhoNext);
  fb.get(rho).set(rhoPrev);
  fb.get(it).i32Const(1).i32Add().set(it);
  fb.br(0).end().end();
  fb.get(out).get(it).i32Store(16);
  return fb;
}

/**
 * a₀b₀ + a₁b₁ of a node, (a₀b₀, a₁b₁) computed as one f64x2 product: pushes the sum (the scalar
 * operations of the JavaScript dot, lane by lane). `a`/`b` push the node's addresses.
 */
function xyDot(fb: FunctionBuilder, a: () => void, b: () => void): void {
  const t = fb.local(V);
  a();
  fb.v128Load(0);
  b();
  fb.v128Load(0).f64x2Mul().set(t);
  fb.get(t).f64x2ExtractLane(0).get(t).f64x2ExtractLane(1).f64Add();
}

/** mfDot(a, b, nNodes, out): the node-wise a·b stored at out. */
function dotFunction(): FunctionBuilder {
  const fb = new FunctionBuilder('mfDot', [I, I, I, I]);
  const a = fb.param(0), b = fb.param(1), n = fb.param(2), out = fb.param(3);
  const end = fb.local(I), acc = fb.local(F);
  fb.f64Const(0).set(acc);
  fb.get(a).get(n).i32Const(24).i32Mul().i32Add().set(end);
  fb.block().loop();
  fb.get(a).get(end).i32GeU().brIf(1);
  fb.get(acc);
  xyDot(fb, () => fb.get(a), () => fb.get(b));
  fb.get(a).f64Load(16).get(b).f64Load(16).f64Mul().f64Add();
  fb.f64Add().set(acc);
  fb.get(a).i32Const(24).i32Add().set(a);
  fb.get(b).i32Const(24).i32Add().set(b);
  fb.br(0).end().end();
  fb.get(out).f64Const(0).get(acc).f64Add().f64Store(0);
  return fb;
}

/** mfMass(q, p, mass, nNodes, m): q_3i+c = 0 + (p_3i+c·mass_i)·m ((x, y) as one f64x2). */
function massFunction(): FunctionBuilder {
  const fb = new FunctionBuilder('mfMass', [I, I, I, I, F]);
  const q = fb.param(0), p = fb.param(1), mass = fb.param(2), n = fb.param(3), m = fb.param(4);
  const end = fb.local(I), mi = fb.local(F), zero = fb.local(V), m2 = fb.local(V);
  fb.f64Const(0).f64x2Splat().set(zero);
  fb.get(m).f64x2Splat().set(m2);
  fb.get(mass).get(n).i32Const(3).i32Shl().i32Add().set(end);
  fb.block().loop();
  fb.get(mass).get(end).i32GeU().brIf(1);
  fb.get(mass).f64Load(0).set(mi);
  fb.get(q).get(zero).get(p).v128Load(0).get(mi).f64x2Splat().f64x2Mul().get(m2).f64x2Mul().f64x2Add().v128Store(0);
  fb.get(q).f64Const(0).get(p).f64Load(16).get(mi).f64Mul().get(m).f64Mul().f64Add().f64Store(16);
  fb.get(mass).i32Const(8).i32Add().set(mass);
  fb.get(p).i32Const(24).i32Add().set(p);
  fb.get(q).i32Const(24).i32Add().set(q);
  fb.br(0).end().end();
  return fb;
}

/** mfZero(q, dofs, count): q[dofs[j]] = 0 (dofs: i32 scalar indices). */
function zeroFunction(): FunctionBuilder {
  const fb = new FunctionBuilder('mfZero', [I, I, I]);
  const q = fb.param(0), dofs = fb.param(1), count = fb.param(2);
  const end = fb.local(I);
  fb.get(dofs).get(count).i32Const(2).i32Shl().i32Add().set(end);
  fb.block().loop();
  fb.get(dofs).get(end).i32GeU().brIf(1);
  fb.get(q).get(dofs).i32Load(0).i32Const(3).i32Shl().i32Add().f64Const(0).f64Store(0);
  fb.get(dofs).i32Const(4).i32Add().set(dofs);
  fb.br(0).end().end();
  return fb;
}

/** mfDirection(p, r, n, β): p_i = p_i·β + r_i over n scalars (two per f64x2, then the last one). */
function directionFunction(): FunctionBuilder {
  const fb = new FunctionBuilder('mfDirection', [I, I, I, F]);
  const p = fb.param(0), r = fb.param(1), n = fb.param(2), beta = fb.param(3);
  const end = fb.local(I), b2 = fb.local(V);
  fb.get(beta).f64x2Splat().set(b2);
  // pairs up to p + 8·(n & ~1), then the odd one
  fb.get(p).get(n).i32Const(-2).i32And().i32Const(3).i32Shl().i32Add().set(end);
  fb.block().loop();
  fb.get(p).get(end).i32GeU().brIf(1);
  fb.get(p).get(p).v128Load(0).get(b2).f64x2Mul().get(r).v128Load(0).f64x2Add().v128Store(0);
  fb.get(p).i32Const(16).i32Add().set(p);
  fb.get(r).i32Const(16).i32Add().set(r);
  fb.br(0).end().end();
  fb.get(n).i32Const(1).i32And().if();
  fb.get(p).get(p).f64Load(0).get(beta).f64Mul().get(r).f64Load(0).f64Add().f64Store(0);
  fb.end();
  return fb;
}

/** mfUpdate(x, r, p, q, nNodes, α, out): x += p·α; r += q·(−α); the node-wise r·r stored at out ((x, y) as one f64x2). */
function updateFunction(): FunctionBuilder {
  const fb = new FunctionBuilder('mfUpdate', [I, I, I, I, I, F, I]);
  const x = fb.param(0), r = fb.param(1), p = fb.param(2), q = fb.param(3), n = fb.param(4), alpha = fb.param(5), out = fb.param(6);
  const end = fb.local(I), nalpha = fb.local(F), acc = fb.local(F), a2 = fb.local(V), na2 = fb.local(V), rz = fb.local(F);
  fb.get(alpha).f64Neg().set(nalpha);
  fb.get(alpha).f64x2Splat().set(a2);
  fb.get(nalpha).f64x2Splat().set(na2);
  fb.f64Const(0).set(acc);
  fb.get(x).get(n).i32Const(24).i32Mul().i32Add().set(end);
  fb.block().loop();
  fb.get(x).get(end).i32GeU().brIf(1);
  fb.get(x).get(x).v128Load(0).get(p).v128Load(0).get(a2).f64x2Mul().f64x2Add().v128Store(0);
  fb.get(x).get(x).f64Load(16).get(p).f64Load(16).get(alpha).f64Mul().f64Add().f64Store(16);
  fb.get(r).get(r).v128Load(0).get(q).v128Load(0).get(na2).f64x2Mul().f64x2Add().v128Store(0);
  fb.get(r).get(r).f64Load(16).get(q).f64Load(16).get(nalpha).f64Mul().f64Add().tee(rz).f64Store(16);
  fb.get(acc);
  xyDot(fb, () => fb.get(r), () => fb.get(r));
  fb.get(rz).get(rz).f64Mul().f64Add();
  fb.f64Add().set(acc);
  for (const l of [x, r, p, q]) fb.get(l).i32Const(24).i32Add().set(l);
  fb.br(0).end().end();
  fb.get(out).f64Const(0).get(acc).f64Add().f64Store(0);
  return fb;
}

function matrixFreeCgModule(): object | undefined {
  if (cached) return cached;
  const api = wasmApi();
  if (!api) return undefined;
  const bytes = wasmModuleBytes([dotFunction(), massFunction(), zeroFunction(), directionFunction(), updateFunction(), solveFunction()], 65536, [{ name: 'product', params: [F] }]);
  if (!api.validate(bytes)) return undefined;
  cached = new api.Module(bytes);
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
    const out = place.area, x = out + 32, r = align(x + 24 * nodes), masses = align(r + 24 * nodes), dofs = align(masses + 8 * nodes);
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
    return this.outView[0]!;
  }

  /** CgKernel: x += α·p, r −= α·q, returning the node-wise r·r. */
  update(alpha: number): number {
    const a = this.a;
    this.fnUpdate(a.x, a.r, a.p, a.q, this.nodes, alpha, a.out);
    return this.outView[0]!;
  }

  /** CgKernel: the node-wise r·r. */
  residualDot(): number {
    this.fnDot(this.a.r, this.a.r, this.nodes, this.a.out);
    return this.outView[0]!;
  }

  /** CgKernel: the whole loop in one call of mfSolve (the operations of direction, productDot and update). */
  iterate(rho0: number, normb: number, params: CgParams, result: CgResult): number {
    const a = this.a, c = this.config;
    this.fnSolve(a.x, a.r, a.p, a.q, a.masses, this.nodes, c.m, c.useMass ? 1 : 0, c.k, c.useProduct ? 1 : 0, a.dofs, c.dofCount, rho0, normb, Math.min(params.maxIterations, 0x7fffffff), params.tolerance, params.threshold, params.firstSolve ? 1 : 0, a.out);
    result.residual = this.outView[1]!;
    result.reason = REASONS[this.outInts[1]!]!;
    return this.outInts[0]!;
  }
}
