import { FunctionBuilder, MatrixFreeCgWasm, WasmType, wasmApi, wasmModuleBytes, type Local } from '@sofa-ts/linalg';
import { LARGE_REST_COMPONENTS, REST_PAIR_BYTES, largeForceKernel } from './tetrahedron-force-kernel.js';
import { TET_SCRATCH_BYTES, addFirstElement, addSecondElement, readNode } from './tetrahedron-kernel-nodes.js';

/**
 * The matrix-free product of corotational tetrahedra, df += −k·Rᵀ·J·K·Jᵀ·R·dx per element (the
 * hottest loop of a CG step), as a WebAssembly kernel written by wasm-module.ts:
 *   - `tetDF2(inIdx, outIdx, elem, k, p0, p1, scratch)`: element pairs p0 … p1−1 with f64x2 SIMD,
 *     the two lanes being elements 2p and 2p+1, with the calling thread's scratch area (96 bytes);
 *   - `tetDF1(inIdx, outIdx, elem, k, e0, e1)`: single elements e0 … e1−1, scalar;
 *   - `tetDFAll(k)`: every element (the pairs, then the last odd one), the arrays, the element
 *     count and the first scratch area read from the memory's header (TetrahedronDForceWasm.layOut):
 *     the function a solver running in WebAssembly calls (MatrixFreeCgWasm).
 * It performs, element by element, exactly the operations of the JavaScript kernel
 * (CorotationalTetrahedra.addDForce) in the same order, so results are bit for bit the same; the
 * scatter adds the first element of a pair to its 4 nodes before the second.
 *
 * Memory (byte addresses):
 *   header (i32 at 0, 4, 8, 12, 16): the number of elements, inIdx, outIdx, elem, scratch;
 *   scratch (threads × 96 bytes): one scratch area of tetDF2 per thread;
 *   inIdx  (nPairs × 8 i32): the address of dx[3·node] of the 4 nodes of element 2p, then 2p+1;
 *   outIdx (nPairs × 8 i32): where each element adds its 4 node forces: df[3·node], or a slot of
 *          a deferred buffer (threads, see ParallelTetrahedraProduct);
 *   elem   (nPairs × 24 × 2 f64): per pair, field f of both elements at elem + 16f (lane = element
 *          parity): R (9, rows = element frame), the cofactor gradients (12), (D00, D01, D33)/36V (3).
 */
export const TET_FIELDS = 24;
/** Bytes of one element pair in the elem array. */
export const TET_PAIR_BYTES = TET_FIELDS * 16;

let cached: object | undefined;

/** The compiled kernel module (once per process), or undefined without WebAssembly SIMD. */
export function tetrahedronDForceModule(): object | undefined {
  if (cached) return cached;
  const api = wasmApi();
  if (!api) return undefined;
  const bytes = wasmModuleBytes([kernel(true), kernel(false), largeForceKernel(true), largeForceKernel(false), allElementsFunction()], 65536);
  if (!api.validate(bytes)) return undefined;
  cached = new api.Module(bytes);
  return cached;
}

/**
 * The kernel's function: simd = element pairs with f64x2 (tetDF2), else single elements (tetDF1).
 * Per element, node by node: X = R·dx and its terms of the six strain sums Jᵀ·X; the stress terms
 * k0…k5; then node by node the force F = J·(k0…k5), Rᵀ·F and its addition to the node. Fields are
 * read from the element array where they are used.
 *
 * Register pressure (x64 has 16 vector registers): V8 issues a function's loads in their order
 * among its stores but schedules pure arithmetic late, so a pair kernel whose loads all come
 * before its first store holds every field at once and spills most of them. tetDF2 therefore
 * stores the strain sums into its scratch area after each node (the next node's loads follow
 * that store, and its arithmetic precedes it) and the second element's node forces there too;
 * measured on the liver's 596 tetrahedra, 19.6 → 16.5 ns per element. The scratch is per
 * thread (threads run pair ranges of the same memory).
 */
function kernel(simd: boolean): FunctionBuilder {
  const I = WasmType.i32;
  const T = simd ? WasmType.v128 : WasmType.f64;
  const fb = new FunctionBuilder(simd ? 'tetDF2' : 'tetDF1', simd ? [I, I, I, WasmType.f64, I, I, I] : [I, I, I, WasmType.f64, I, I]);
  const inIdx = fb.param(0), outIdx = fb.param(1), elem = fb.param(2), kParam = fb.param(3), from = fb.param(4), to = fb.param(5);
  const scratch = simd ? fb.param(6) : undefined;
  const it = fb.local(I), base = fb.local(I), ii = fb.local(I), io = fb.local(I), addr = fb.local(I), addr1 = fb.local(I);
  const mul = () => (simd ? fb.f64x2Mul() : fb.f64Mul());
  const add = () => (simd ? fb.f64x2Add() : fb.f64Add());
  type Operand = Local | number; // a local, or field f of the element array (read where used)
  const push = (o: Operand) => {
    if (typeof o !== 'number') fb.get(o);
    else if (simd) fb.get(base).v128Load(16 * o);
    else fb.get(base).f64Load(16 * o);
  };
  // into = Σ aᵢ·bᵢ summed left to right, continuing into's running sum when `more`
  const dotInto = (into: Local, terms: readonly (readonly [Operand, Operand])[], more = false): void => {
    if (more) fb.get(into);
    terms.forEach(([a, b], i) => {
      push(a);
      push(b);
      mul();
      if (i > 0 || more) add();
    });
    fb.set(into);
  };
  const locals = (n: number) => Array.from({ length: n }, () => fb.local(T));
  // −k (exact), as a scalar or both lanes
  const nk = fb.local(T);
  fb.get(kParam).f64Neg();
  if (simd) fb.f64x2Splat();
  fb.set(nk);
  const P = locals(3), X = locals(3), s = locals(6), kk = locals(6), F = locals(3), out = locals(3);
  const [al, be, ga] = locals(3);
  const nkC = fb.local(T);
  const xy0 = simd ? fb.local(T) : undefined, xy1 = simd ? fb.local(T) : undefined;

  fb.get(from).set(it);
  fb.block().loop();
  fb.get(it).get(to).i32GeU().brIf(1);
  if (simd) {
    // base = elem + it·384; ii/io = idx + it·32
    fb.get(elem).get(it).i32Const(TET_PAIR_BYTES).i32Mul().i32Add().set(base);
    fb.get(inIdx).get(it).i32Const(5).i32Shl().i32Add().set(ii);
    fb.get(outIdx).get(it).i32Const(5).i32Shl().i32Add().set(io);
  } else {
    // base = elem + (it>>1)·384 + (it&1)·8; ii/io = idx + (it>>1)·32 + (it&1)·16 = idx + it·16
    fb.get(elem).get(it).i32Const(1).i32And().i32Const(3).i32Shl().i32Add();
    fb.get(it).i32Const(-2).i32And().i32Const(TET_PAIR_BYTES / 2).i32Mul().i32Add().set(base);
    fb.get(inIdx).get(it).i32Const(4).i32Shl().i32Add().set(ii);
    fb.get(outIdx).get(it).i32Const(4).i32Shl().i32Add().set(io);
  }
  const grads = (k: number) => {
    push(9 + 3 * k);
    fb.set(al);
    push(10 + 3 * k);
    fb.set(be);
    push(11 + 3 * k);
    fb.set(ga);
  };
  for (let k = 0; k < 4; k++) {
    readNode(fb, simd, ii, k, { addr, addr1, xy0, xy1 }, P);
    // X = R·dx of this node
    for (let r = 0; r < 3; r++) dotInto(X[r]!, [[3 * r, P[0]!], [3 * r + 1, P[1]!], [3 * r + 2, P[2]!]]);
    // its terms of the strain Jᵀ·X (SOFA's Voigt order), each sum running over the nodes in order
    grads(k);
    const more = k > 0;
    dotInto(s[0]!, [[al, X[0]!]], more);
    dotInto(s[1]!, [[be, X[1]!]], more);
    dotInto(s[2]!, [[ga, X[2]!]], more);
    dotInto(s[3]!, [[be, X[0]!], [al, X[1]!]], more);
    dotInto(s[4]!, [[ga, X[1]!], [be, X[2]!]], more);
    dotInto(s[5]!, [[ga, X[0]!], [al, X[2]!]], more);
    if (scratch) for (let j = 0; j < 6; j++) fb.get(scratch).get(s[j]!).v128Store(16 * j);
  }
  // k0..k2 = −k·(Hooke row · strain); k3..k5 = (−k·C)·s, with (A, B, C) = fields 21, 22, 23
  const hooke = [[21, 22, 22], [22, 21, 22], [22, 22, 21]];
  for (let r = 0; r < 3; r++) {
    fb.get(nk);
    dotInto(kk[r]!, [[hooke[r]![0]!, s[0]!], [hooke[r]![1]!, s[1]!], [hooke[r]![2]!, s[2]!]]);
    fb.get(kk[r]!);
    mul();
    fb.set(kk[r]!);
  }
  fb.get(nk);
  push(23);
  mul();
  fb.set(nkC);
  for (let r = 3; r < 6; r++) dotInto(kk[r]!, [[nkC, s[r]!]]);
  // node forces in the element frame F, then Rᵀ·F added to the node: df[node] += …, all nodes of
  // the first element of a pair before the second's
  for (let k = 0; k < 4; k++) {
    grads(k);
    dotInto(F[0]!, [[al, kk[0]!], [be, kk[3]!], [ga, kk[5]!]]);
    dotInto(F[1]!, [[be, kk[1]!], [al, kk[3]!], [ga, kk[4]!]]);
    dotInto(F[2]!, [[ga, kk[2]!], [be, kk[4]!], [al, kk[5]!]]);
    for (let c = 0; c < 3; c++) dotInto(out[c]!, [[c, F[0]!], [3 + c, F[1]!], [6 + c, F[2]!]]);
    addFirstElement(fb, simd, k, out, addr, () => fb.get(io).i32Load(4 * k), scratch);
  }
  if (scratch) addSecondElement(fb, addr, (k) => fb.get(io).i32Load(16 + 4 * k), scratch);
  fb.get(it).i32Const(1).i32Add().set(it);
  fb.br(0).end().end();
  return fb;
}

/** tetDFAll(k): tetDF2 over every pair, then tetDF1 on the last element when the count is odd (runRange's calls). */
function allElementsFunction(): FunctionBuilder {
  const I = WasmType.i32;
  const fb = new FunctionBuilder('tetDFAll', [WasmType.f64]);
  const k = fb.param(0), n = fb.local(I);
  const header = () => fb.i32Const(0).i32Load(4).i32Const(0).i32Load(8).i32Const(0).i32Load(12);
  fb.i32Const(0).i32Load(0).set(n);
  header().get(k).i32Const(0).get(n).i32Const(1).i32ShrS().i32Const(0).i32Load(16).call(0);
  fb.get(n).i32Const(1).i32And().if();
  header().get(k).get(n).i32Const(1).i32Sub().get(n).call(1);
  fb.end();
  return fb;
}

/**
 * The kernel's memory for one set of tetrahedra and its instance on this thread. Element data are
 * copied in from the force field's arrays (R at each new rotation, the gradients and material when
 * they change); dx and df are copied in and df out around each product. After a topological change
 * that leaves no more elements and points than it was made for, `refit` lays the new elements out in
 * the same memory.
 */
export class TetrahedronDForceWasm {
  readonly memory: { buffer: ArrayBufferLike };
  readonly module: object;
  private readonly run2: (inIdx: number, outIdx: number, elem: number, k: number, p0: number, p1: number, scratch: number) => void;
  private readonly run1: (inIdx: number, outIdx: number, elem: number, k: number, e0: number, e1: number) => void;
  private readonly force2: (inIdx: number, elem: number, rest: number, rotOut: number, delta: number, p0: number, p1: number, scratch: number) => void;
  private readonly force1: (inIdx: number, elem: number, rest: number, rotOut: number, delta: number, e0: number, e1: number) => void;
  private readonly runAll: object;
  private _nElem = 0;
  private _nPairs = 0;
  /** The element pairs and points the memory holds room for. */
  private readonly pairCapacity: number;
  private readonly pointCapacity: number;
  private readonly deferredSlots: number;
  /** Byte addresses of the arrays (see the module's comment). */
  /** tetDF2's scratch areas, one per thread (TET_SCRATCH_BYTES each; the calling thread's first). */
  readonly scratch: number;
  readonly threads: number;
  readonly inIdx: number;
  readonly outIdx: number;
  readonly elem: number;
  /** The rest shapes of 'large' (nPairs × 6 × 2 f64: LARGE_REST_COMPONENTS per element) and the rotations the force writes (nElem × 9, row-major). */
  readonly rest: number;
  readonly rotOut: number;
  readonly vin: number;
  readonly vout: number;
  /** Start of the deferred slots (3 f64 each), after vout. */
  readonly deferred: number;
  /** A free area after the deferred slots, for a matrix-free solver's vectors (MatrixFreeCgWasm). */
  readonly area: number;
  readonly areaBytes: number;
  private _elemView!: Float64Array;
  private _vinView!: Float64Array;
  private _voutView!: Float64Array;
  private _restView!: Float64Array;
  private _rotView!: Float64Array;

  private constructor(module: object, elems: Uint32Array, nPoints: number, deferredSlots: number, threads: number) {
    const api = wasmApi()!;
    const pairs = Math.ceil(elems.length / 8);
    this.pairCapacity = pairs;
    this.pointCapacity = nPoints;
    this.deferredSlots = deferredSlots;
    const align = (b: number) => Math.ceil(b / 16) * 16;
    this.scratch = 32;
    this.threads = threads;
    this.inIdx = align(this.scratch + threads * TET_SCRATCH_BYTES);
    this.outIdx = align(this.inIdx + pairs * 32);
    this.elem = align(this.outIdx + pairs * 32);
    this.rest = align(this.elem + pairs * TET_PAIR_BYTES);
    this.rotOut = align(this.rest + pairs * REST_PAIR_BYTES);
    this.vin = align(this.rotOut + pairs * 144);
    this.vout = align(this.vin + nPoints * 24);
    this.deferred = align(this.vout + nPoints * 24);
    this.area = align(this.deferred + deferredSlots * 24);
    this.areaBytes = MatrixFreeCgWasm.bytes(nPoints);
    const bytes = this.area + this.areaBytes;
    const pages = Math.ceil(bytes / 65536) + 1;
    this.memory = new api.Memory({ initial: pages, maximum: pages, shared: true });
    this.module = module;
    const inst = new api.Instance(module, { env: { memory: this.memory } });
    this.run2 = inst.exports.tetDF2 as typeof this.run2;
    this.run1 = inst.exports.tetDF1 as typeof this.run1;
    this.force2 = inst.exports.tetF2 as typeof this.force2;
    this.force1 = inst.exports.tetF1 as typeof this.force1;
    this.runAll = inst.exports.tetDFAll as object;
    this.layOut(elems, nPoints);
  }

  get nElem(): number {
    return this._nElem;
  }
  get nPairs(): number {
    return this._nPairs;
  }
  /** (nPairs × 48) the elem array as f64. */
  get elemView(): Float64Array {
    return this._elemView;
  }
  /** (3·nPoints) dx and df in the memory. */
  get vinView(): Float64Array {
    return this._vinView;
  }
  get voutView(): Float64Array {
    return this._voutView;
  }

  /** Sizes the views for these elements and points and fills the index arrays. */
  private layOut(elems: Uint32Array, nPoints: number): void {
    const n = (this._nElem = elems.length / 4);
    const pairs = (this._nPairs = Math.ceil(n / 2));
    const buf = this.memory.buffer;
    this._elemView = new Float64Array(buf, this.elem, pairs * 2 * TET_FIELDS);
    this._vinView = new Float64Array(buf, this.vin, 3 * nPoints);
    this._voutView = new Float64Array(buf, this.vout, 3 * nPoints);
    this._restView = new Float64Array(buf, this.rest, pairs * 12);
    this._rotView = new Float64Array(buf, this.rotOut, 9 * n);
    // both index arrays point at df[3·node] / dx[3·node]; threads redirect some outIdx entries
    new Int32Array(buf, 0, 5).set([n, this.inIdx, this.outIdx, this.elem, this.scratch]);
    const ii = new Int32Array(buf, this.inIdx, pairs * 8), io = new Int32Array(buf, this.outIdx, pairs * 8);
    const vin = this.vin, vout = this.vout;
    for (let e = 0; e < n; e++)
      for (let k = 0; k < 4; k++) {
        const slot = 8 * (e >> 1) + 4 * (e & 1) + k;
        ii[slot] = vin + 24 * elems[4 * e + k]!;
        io[slot] = vout + 24 * elems[4 * e + k]!;
      }
  }

  /**
   * Lays out new elements (after a topological change) in this memory when it has room for them
   * and no thread redirects its slots; false when a new kernel must be made. Rotations and
   * materials are to be copied in again.
   */
  refit(elems: Uint32Array, nPoints: number): boolean {
    if (this.deferredSlots > 0 || Math.ceil(elems.length / 8) > this.pairCapacity || nPoints > this.pointCapacity) return false;
    this.layOut(elems, nPoints);
    return true;
  }

  /**
   * The kernel over these tetrahedra (run by `threads` threads), or undefined where WebAssembly SIMD
   * or shared memory is missing.
   */
  static create(elems: Uint32Array, nPoints: number, deferredSlots = 0, threads = 1): TetrahedronDForceWasm | undefined {
    const module = tetrahedronDForceModule();
    if (!module) return undefined;
    try {
      return new TetrahedronDForceWasm(module, elems, nPoints, deferredSlots, threads);
    } catch {
      return undefined; // no shared WebAssembly memory here (a browser without cross-origin isolation)
    }
  }

  /** The outIdx array (nPairs × 8), to redirect slots to deferred buffers. */
  outIndex(): Int32Array {
    return new Int32Array(this.memory.buffer, this.outIdx, this.nPairs * 8);
  }

  /** Copies the rotations (nElem × 9) in. */
  setRotations(rot: Float64Array): void {
    const E = this.elemView, n = this.nElem;
    for (let e = 0; e < n; e++) {
      const b = 48 * (e >> 1) + (e & 1), r = 9 * e;
      for (let j = 0; j < 9; j++) E[b + 2 * j] = rot[r + j]!;
    }
  }

  /** Copies the cofactor gradients (nElem × 12), materials (nElem × 3) and, for the force, rest shapes (nElem × 12) in. */
  setMaterials(grad: Float64Array, mat: Float64Array, rest?: Float64Array): void {
    const E = this.elemView, S = this._restView, n = this.nElem;
    for (let e = 0; e < n; e++) {
      const b = 48 * (e >> 1) + (e & 1);
      for (let j = 0; j < 12; j++) E[b + 2 * (9 + j)] = grad[12 * e + j]!;
      for (let j = 0; j < 3; j++) E[b + 2 * (21 + j)] = mat[3 * e + j]!;
      if (!rest) continue;
      const r = 12 * (e >> 1) + (e & 1);
      for (let j = 0; j < 6; j++) S[r + 2 * j] = rest[12 * e + LARGE_REST_COMPONENTS[j]!]!;
    }
  }

  /**
   * f += the forces of 'large' at positions x (CorotationalTetrahedra.addForceLarge, bit for bit),
   * on this thread; the element frames go into the product's element data and, row-major, into the
   * memory copyRotations reads.
   * x and f pass through the product's dx and df arrays.
   */
  forceLarge(f: Float64Array, x: Float64Array): void {
    this.vinView.set(x);
    this.voutView.set(f);
    const n = this.nElem, p1 = n >> 1, delta = this.vout - this.vin;
    if (p1 > 0) this.force2(this.inIdx, this.elem, this.rest, this.rotOut, delta, 0, p1, this.scratch);
    if (n & 1) this.force1(this.inIdx, this.elem, this.rest, this.rotOut, delta, n - 1, n);
    f.set(this.voutView);
  }

  /** The rotations of the last forceLarge (nElem × 9, row-major) into rot. */
  copyRotations(rot: Float64Array): void {
    rot.set(this._rotView);
  }

  /** Elements [e0, e1) on this thread (e0 even), adding into vout or their deferred slots. */
  runRange(k: number, e0: number, e1: number): void {
    const p1 = e1 >> 1;
    if (p1 > e0 >> 1) this.run2(this.inIdx, this.outIdx, this.elem, k, e0 >> 1, p1, this.scratch);
    if (e1 & 1) this.run1(this.inIdx, this.outIdx, this.elem, k, e1 - 1, e1);
  }

  /** df += −k·Σ Rᵀ·J·K·Jᵀ·R·dx over all elements, on this thread. */
  apply(df: Float64Array, dx: Float64Array, k: number): void {
    this.vinView.set(dx);
    this.voutView.set(df);
    this.applyInPlace(k);
    df.set(this.voutView);
  }

  /**
   * applyInPlace as the WebAssembly function tetDFAll (k) of this memory, for a solver that runs in
   * WebAssembly; undefined when threads redirect some element slots to deferred buffers.
   */
  get wasmApplyInPlace(): object | undefined {
    return this.deferredSlots === 0 ? this.runAll : undefined;
  }

  /** vout += −k·Σ Rᵀ·J·K·Jᵀ·R·vin over all elements, on this thread, in the memory (no copy). */
  applyInPlace(k: number): void {
    this.runRange(k, 0, this.nElem);
  }
}
