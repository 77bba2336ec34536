import type { CgKernel } from '../conjugate-gradient.js';
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
 *   - mfMass: q = 0 + (p·mᵢ)·m, DiagonalMass's addMDx into a cleared vector;
 *   - mfZero: q[dof] = 0 for a list of dofs (FixedProjectiveConstraint's projection);
 *   - mfDirection: p = p·β + r; mfUpdate: x += p·α, r += q·(−α), then r·r.
 * Functions take byte addresses; the dots are stored at a result address.
 */
let cached: object | undefined;

const I = WasmType.i32, F = WasmType.f64;

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
  fb.get(a).f64Load(0).get(b).f64Load(0).f64Mul();
  fb.get(a).f64Load(8).get(b).f64Load(8).f64Mul().f64Add();
  fb.get(a).f64Load(16).get(b).f64Load(16).f64Mul().f64Add();
  fb.f64Add().set(acc);
  fb.get(a).i32Const(24).i32Add().set(a);
  fb.get(b).i32Const(24).i32Add().set(b);
  fb.br(0).end().end();
  fb.get(out).f64Const(0).get(acc).f64Add().f64Store(0);
  return fb;
}

/** mfMass(q, p, mass, nNodes, m): q_3i+c = 0 + (p_3i+c·mass_i)·m. */
function massFunction(): FunctionBuilder {
  const fb = new FunctionBuilder('mfMass', [I, I, I, I, F]);
  const q = fb.param(0), p = fb.param(1), mass = fb.param(2), n = fb.param(3), m = fb.param(4);
  const end = fb.local(I), mi = fb.local(F);
  fb.get(mass).get(n).i32Const(3).i32Shl().i32Add().set(end);
  fb.block().loop();
  fb.get(mass).get(end).i32GeU().brIf(1);
  fb.get(mass).f64Load(0).set(mi);
  for (let c = 0; c < 3; c++) fb.get(q).f64Const(0).get(p).f64Load(8 * c).get(mi).f64Mul().get(m).f64Mul().f64Add().f64Store(8 * c);
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

/** mfDirection(p, r, n, β): p_i = p_i·β + r_i over n scalars. */
function directionFunction(): FunctionBuilder {
  const fb = new FunctionBuilder('mfDirection', [I, I, I, F]);
  const p = fb.param(0), r = fb.param(1), n = fb.param(2), beta = fb.param(3);
  const end = fb.local(I);
  fb.get(p).get(n).i32Const(3).i32Shl().i32Add().set(end);
  fb.block().loop();
  fb.get(p).get(end).i32GeU().brIf(1);
  fb.get(p).get(p).f64Load(0).get(beta).f64Mul().get(r).f64Load(0).f64Add().f64Store(0);
  fb.get(p).i32Const(8).i32Add().set(p);
  fb.get(r).i32Const(8).i32Add().set(r);
  fb.br(0).end().end();
  return fb;
}

/** mfUpdate(x, r, p, q, nNodes, α, out): x += p·α; r += q·(−α); the node-wise r·r stored at out. */
function updateFunction(): FunctionBuilder {
  const fb = new FunctionBuilder('mfUpdate', [I, I, I, I, I, F, I]);
  const x = fb.param(0), r = fb.param(1), p = fb.param(2), q = fb.param(3), n = fb.param(4), alpha = fb.param(5), out = fb.param(6);
  const end = fb.local(I), nalpha = fb.local(F), acc = fb.local(F);
  const rc = [fb.local(F), fb.local(F), fb.local(F)];
  fb.get(alpha).f64Neg().set(nalpha);
  fb.f64Const(0).set(acc);
  fb.get(x).get(n).i32Const(24).i32Mul().i32Add().set(end);
  fb.block().loop();
  fb.get(x).get(end).i32GeU().brIf(1);
  for (let c = 0; c < 3; c++) {
    fb.get(x).get(x).f64Load(8 * c).get(p).f64Load(8 * c).get(alpha).f64Mul().f64Add().f64Store(8 * c);
    fb.get(r).get(r).f64Load(8 * c).get(q).f64Load(8 * c).get(nalpha).f64Mul().f64Add().tee(rc[c]!).f64Store(8 * c);
  }
  fb.get(acc);
  fb.get(rc[0]!).get(rc[0]!).f64Mul();
  fb.get(rc[1]!).get(rc[1]!).f64Mul().f64Add();
  fb.get(rc[2]!).get(rc[2]!).f64Mul().f64Add();
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
  const bytes = wasmModuleBytes([dotFunction(), massFunction(), zeroFunction(), directionFunction(), updateFunction()], 65536);
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
 * A matrix-free conjugate gradient's vectors and operations in a product's WebAssembly memory (see
 * the module comment). The owner sets `product`, which computes q = A·p in place (with `massProduct`,
 * `zeroQ`, `zeroDofs` and its own kernel); `productDot` runs it and returns p·q.
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
  /** q = A·p, computed in place by the owner. */
  product: () => void = () => {};
  private readonly a: { x: number; r: number; p: number; q: number; masses: number; dofs: number; out: number };
  private readonly outView: Float64Array;
  private readonly fnDot: (a: number, b: number, n: number, out: number) => void;
  private readonly fnMass: (q: number, p: number, mass: number, n: number, m: number) => void;
  private readonly fnZero: (q: number, dofs: number, count: number) => void;
  private readonly fnDirection: (p: number, r: number, n: number, beta: number) => void;
  private readonly fnUpdate: (x: number, r: number, p: number, q: number, n: number, alpha: number, out: number) => void;

  /** Bytes of the free area the vectors of `nodes` points need. */
  static bytes(nodes: number): number {
    return 16 + 2 * 24 * nodes + 8 * nodes + 12 * nodes + 16;
  }

  private constructor(
    module: object,
    readonly place: MatrixFreeCgPlace,
    readonly nodes: number,
  ) {
    const api = wasmApi()!;
    const buf = place.memory.buffer;
    const align = (b: number) => Math.ceil(b / 16) * 16;
    const out = place.area, x = out + 16, r = align(x + 24 * nodes), masses = align(r + 24 * nodes), dofs = align(masses + 8 * nodes);
    this.a = { x, r, p: place.p, q: place.q, masses, dofs, out };
    this.outView = new Float64Array(buf, out, 1);
    this.x = new Float64Array(buf, x, 3 * nodes);
    this.r = new Float64Array(buf, r, 3 * nodes);
    this.p = new Float64Array(buf, place.p, 3 * nodes);
    this.q = new Float64Array(buf, place.q, 3 * nodes);
    this.masses = new Float64Array(buf, masses, nodes);
    this.dofs = new Int32Array(buf, dofs, 3 * nodes);
    const e = new api.Instance(module, { env: { memory: place.memory } }).exports;
    this.fnDot = e.mfDot as typeof this.fnDot;
    this.fnMass = e.mfMass as typeof this.fnMass;
    this.fnZero = e.mfZero as typeof this.fnZero;
    this.fnDirection = e.mfDirection as typeof this.fnDirection;
    this.fnUpdate = e.mfUpdate as typeof this.fnUpdate;
  }

  /** The CG of `nodes` points in `place`, or undefined without WebAssembly or room. */
  static create(place: MatrixFreeCgPlace, nodes: number): MatrixFreeCgWasm | undefined {
    if (place.areaBytes < MatrixFreeCgWasm.bytes(nodes) || place.area % 16 !== 0) return undefined;
    const module = matrixFreeCgModule();
    if (!module) return undefined;
    try {
      return new MatrixFreeCgWasm(module, place, nodes);
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

  /** CgKernel: q = A·p (the owner's product), returning the node-wise p·q. */
  productDot(): number {
    this.product();
    this.fnDot(this.a.p, this.a.q, this.nodes, this.a.out);
    return this.outView[0]!;
  }

  /** CgKernel: x += α·p, r −= α·q, returning the node-wise r·r. */
  update(alpha: number): number {
    const a = this.a;
    this.fnUpdate(a.x, a.r, a.p, a.q, this.nodes, alpha, a.out);
    return this.outView[0]!;
  }
}
