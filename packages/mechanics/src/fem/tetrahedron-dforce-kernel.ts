import { ELEMENT_BATCH, MatrixFreeCgWasm, compileKernel, wasmApi } from '@sofa-ts/linalg';
import { tetrahedraWasm } from './kernels/tetrahedra.wasm.js';

/**
 * The kernels of corotational tetrahedra, written in WebAssembly text (kernels/tetrahedra.wat,
 * where their operations are described; each is its JavaScript twin's operations in its order,
 * bit for bit):
 *   - the matrix-free product df += −k·Rᵀ·J·K·Jᵀ·R·dx per element (CorotationalTetrahedra.addDForce,
 *     the hottest loop of a CG step): `tetDF2(inIdx, outIdx, elem, k, p0, p1, scratch)` over element
 *     pairs p0 … p1−1 with f64x2 SIMD (the two lanes being elements 2p and 2p+1, with the calling
 *     thread's scratch area), `tetDF1(inIdx, outIdx, elem, k, e0, e1)` over single elements, scalar;
 *     `tetDFAll(k)` over every element, the arrays, the element count and the first scratch area
 *     read from the memory's header: the function a solver running in WebAssembly calls
 *     (MatrixFreeCgWasm);
 *   - the force of 'large' (CorotationalTetrahedra.addForceLarge): `tetF2(inIdx, elem, rest,
 *     delta, p0, p1, scratch)` and `tetF1(…, e0, e1)`, which also write the element frames into
 *     the element array (what the product reads, and copyRotations copies out); positions
 *     are read at inIdx's addresses (the product's dx array holds x then), forces added at those
 *     addresses + delta (its df array holds f).
 *
 * Memory (byte addresses):
 *   header (i32 at 0, 4, 8, 12, 16): the number of elements, inIdx, outIdx, elem, scratch;
 *   scratch (threads × 96 bytes): one scratch area of the pair kernels per thread;
 *   inIdx  (nPairs × 8 i32): the address of dx[3·node] of the 4 nodes of element 2p, then 2p+1;
 *   outIdx (nPairs × 8 i32): where each element adds its 4 node forces: df[3·node], or a slot of
 *          a deferred buffer (threads, see ParallelTetrahedraProduct);
 *   elem   (nPairs × 24 × 2 f64): per pair, field f of both elements at elem + 16f (lane = element
 *          parity): R (9, rows = element frame), the cofactor gradients (12), (D00, D01, D33)/36V (3);
 *   rest   (nPairs × 6 × 2 f64): the rest components of 'large' that are not 0 (LARGE_REST_COMPONENTS).
 *   stiffness (90 f64 per element of a batch of up to ELEMENT_BATCH): the upper blocks tetK2 writes.
 */
export const TET_FIELDS = 24;
/** Bytes of one element pair in the elem array. */
export const TET_PAIR_BYTES = TET_FIELDS * 16;

/** Bytes of one element pair of rest shapes: D's 6 non-zero rest components of both elements. */
export const REST_PAIR_BYTES = 6 * 16;
/** The components of the 12 rest coordinates (measured from node a in the element frame) that are not 0 for 'large'. */
export const LARGE_REST_COMPONENTS: readonly number[] = [3, 6, 7, 9, 10, 11];
/** Bytes of a pair kernel's scratch area: 6 f64x2 (its sums), reused for the second element's forces. */
export const TET_SCRATCH_BYTES = 96;

let cached: object | undefined;

/** The compiled kernel module (once per process), or undefined without WebAssembly SIMD. */
export function tetrahedronDForceModule(): object | undefined {
  if (cached) return cached;
  cached = compileKernel(tetrahedraWasm);
  return cached;
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
  private readonly force2: (inIdx: number, elem: number, rest: number, delta: number, p0: number, p1: number, scratch: number) => void;
  private readonly force1: (inIdx: number, elem: number, rest: number, delta: number, e0: number, e1: number) => void;
  private readonly runAll: object;
  private readonly stiffness2: (elem: number, e0: number, e1: number, U: number) => void;
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
  /** The rest shapes of 'large' (nPairs × 6 × 2 f64: LARGE_REST_COMPONENTS per element). */
  readonly rest: number;
  readonly vin: number;
  readonly vout: number;
  /** Start of the deferred slots (3 f64 each), after vout. */
  readonly deferred: number;
  /** A free area after the deferred slots, for a matrix-free solver's vectors (MatrixFreeCgWasm). */
  readonly area: number;
  readonly areaBytes: number;
  /** The upper blocks of a batch's stiffness (upperStiffness), after the free area. */
  readonly stiff: number;
  private readonly stiffElements: number;
  private _elemView!: Float64Array;
  private _vinView!: Float64Array;
  private _voutView!: Float64Array;
  private _restView!: Float64Array;

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
    this.vin = align(this.rest + pairs * REST_PAIR_BYTES);
    this.vout = align(this.vin + nPoints * 24);
    this.deferred = align(this.vout + nPoints * 24);
    this.area = align(this.deferred + deferredSlots * 24);
    this.areaBytes = MatrixFreeCgWasm.bytes(nPoints);
    this.stiff = align(this.area + this.areaBytes);
    this.stiffElements = Math.min(ELEMENT_BATCH, 2 * pairs);
    const bytes = this.stiff + 720 * this.stiffElements;
    const pages = Math.ceil(bytes / 65536) + 1;
    this.memory = new api.Memory({ initial: pages, maximum: pages, shared: true });
    this.module = module;
    const inst = new api.Instance(module, { env: { memory: this.memory } });
    this.run2 = inst.exports.tetDF2 as typeof this.run2;
    this.run1 = inst.exports.tetDF1 as typeof this.run1;
    this.force2 = inst.exports.tetF2 as typeof this.force2;
    this.force1 = inst.exports.tetF1 as typeof this.force1;
    this.runAll = inst.exports.tetDFAll as object;
    this.stiffness2 = inst.exports.tetK2 as typeof this.stiffness2;
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
    // both index arrays point at df[3·node] / dx[3·node]; threads redirect some outIdx entries
    new Int32Array(buf, 0, 5).set([n, this.inIdx, this.outIdx, this.elem, this.scratch]);
    const ii = new Int32Array(buf, this.inIdx, pairs * 8),
      io = new Int32Array(buf, this.outIdx, pairs * 8);
    const vin = this.vin,
      vout = this.vout;
    for (let e = 0; e < n; e++)
      for (let k = 0; k < 4; k++) {
        const slot = 8 * (e >> 1) + 4 * (e & 1) + k;
        ii[slot] = vin + 24 * elems[4 * e + k];
        io[slot] = vout + 24 * elems[4 * e + k];
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
    const E = this.elemView,
      n = this.nElem;
    for (let e = 0; e < n; e++) {
      const b = 48 * (e >> 1) + (e & 1),
        r = 9 * e;
      for (let j = 0; j < 9; j++) E[b + 2 * j] = rot[r + j];
    }
  }

  /** Copies the cofactor gradients (nElem × 12), materials (nElem × 3) and, for the force, rest shapes (nElem × 12) in. */
  setMaterials(grad: Float64Array, mat: Float64Array, rest?: Float64Array): void {
    const E = this.elemView,
      S = this._restView,
      n = this.nElem;
    for (let e = 0; e < n; e++) {
      const b = 48 * (e >> 1) + (e & 1);
      for (let j = 0; j < 12; j++) E[b + 2 * (9 + j)] = grad[12 * e + j];
      for (let j = 0; j < 3; j++) E[b + 2 * (21 + j)] = mat[3 * e + j];
      if (!rest) continue;
      const r = 12 * (e >> 1) + (e & 1);
      for (let j = 0; j < 6; j++) S[r + 2 * j] = rest[12 * e + LARGE_REST_COMPONENTS[j]];
    }
  }

  /** setMaterials for element e alone, from its gradients (12), material (3) and rest shape (12) at offset 0. */
  setElementMaterial(e: number, grad: Float64Array, mat: Float64Array, rest: Float64Array): void {
    const E = this.elemView,
      S = this._restView;
    const b = 48 * (e >> 1) + (e & 1);
    for (let j = 0; j < 12; j++) E[b + 2 * (9 + j)] = grad[j];
    for (let j = 0; j < 3; j++) E[b + 2 * (21 + j)] = mat[j];
    const r = 12 * (e >> 1) + (e & 1);
    for (let j = 0; j < 6; j++) S[r + 2 * j] = rest[LARGE_REST_COMPONENTS[j]];
  }

  /**
   * The inverse of setMaterials for the gradients and materials (exact copies); with e0 and count,
   * of elements e0 … e0 + count − 1 only, into grad and mat from their start.
   */
  copyMaterials(grad: Float64Array, mat: Float64Array, e0 = 0, count = Math.min(this.nElem, grad.length / 12)): void {
    const E = this.elemView;
    // one element per call of a small function, quick for the JIT to compile
    for (let e = 0; e < count; e++) copyElementMaterial(E, grad, mat, e0 + e, e);
  }

  /** The inverse of setMaterials for the rest shapes: the components of 'large' (exact copies), the others 0. */
  copyRestShapes(rest: Float64Array): void {
    const S = this._restView;
    const count = Math.min(this.nElem, rest.length / 12);
    for (let e = 0; e < count; e++) copyElementRest(S, rest, e);
  }

  /**
   * A removal of elements (applyRemoval's order: each removed slot takes the last element's data)
   * applied to the gradients, materials and rest shapes held here, before `refit` lays the
   * remaining elements out.
   */
  removeElementMaterials(n: number, removed: ArrayLike<number>): void {
    const E = this.elemView,
      S = this._restView;
    // applyRemoval's moves, one by one, on the kernel's layout
    let last = n - 1;
    for (let r = 0; r < removed.length; r++, last--) {
      const i = removed[r];
      if (i !== last) moveElementMaterial(E, S, last, i);
    }
  }

  /**
   * f += the forces of 'large' at positions x (CorotationalTetrahedra.addForceLarge, bit for bit),
   * on this thread; the element frames go into the product's element data (copyRotations reads
   * them there).
   * x and f pass through the product's dx and df arrays.
   */
  forceLarge(f: Float64Array, x: Float64Array): void {
    this.vinView.set(x);
    this.voutView.set(f);
    const n = this.nElem,
      p1 = n >> 1,
      delta = this.vout - this.vin;
    if (p1 > 0) this.force2(this.inIdx, this.elem, this.rest, delta, 0, p1, this.scratch);
    if (n & 1) this.force1(this.inIdx, this.elem, this.rest, delta, n - 1, n);
    f.set(this.voutView);
  }

  /** The inverse of setRotations: the rotations of the element data (nElem × 9, row-major; those of the last forceLarge) into rot, exact copies (with e0 and count, as copyMaterials). */
  copyRotations(rot: Float64Array, e0 = 0, count = Math.min(this.nElem, rot.length / 9)): void {
    const E = this.elemView;
    for (let e = 0; e < count; e++) copyElementRotation(E, rot, e0 + e, e);
  }

  /**
   * The 10 upper 3×3 blocks of −Rᵀ·J·K·Jᵀ·R of elements e0 … e0+count−1 (e0 even, count at most
   * ELEMENT_BATCH), from the rotations, gradients and materials held here: 90 numbers per element in
   * the layout of rotatedTetrahedronStiffnessUpper, bit for bit its values, at the start of the
   * returned view of this memory (the same view at every call: its first 90·count numbers are the
   * batch's, valid until the next call).
   */
  upperStiffness(e0: number, count: number): Float64Array {
    if ((e0 & 1) !== 0 || count > this.stiffElements)
      throw new RangeError(`upperStiffness(${e0}, ${count}): e0 must be even and count at most ${this.stiffElements}`);
    this.stiffness2(this.elem, e0, e0 + count, this.stiff);
    return (this.stiffView ??= new Float64Array(this.memory.buffer, this.stiff, 90 * this.stiffElements));
  }

  private stiffView: Float64Array | undefined;

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

/** Element e's rotation (fields 0–8, lane e & 1) out of the kernel's element data, into slot `at` of rot. */
function copyElementRotation(E: Float64Array, rot: Float64Array, e: number, at: number): void {
  const b = 48 * (e >> 1) + (e & 1),
    r = 9 * at;
  rot[r] = E[b];
  rot[r + 1] = E[b + 2];
  rot[r + 2] = E[b + 4];
  rot[r + 3] = E[b + 6];
  rot[r + 4] = E[b + 8];
  rot[r + 5] = E[b + 10];
  rot[r + 6] = E[b + 12];
  rot[r + 7] = E[b + 14];
  rot[r + 8] = E[b + 16];
}

/** Element e's gradients and material out of the kernel's element data, into slot `at` of grad and mat. */
function copyElementMaterial(E: Float64Array, grad: Float64Array, mat: Float64Array, e: number, at: number): void {
  const b = 48 * (e >> 1) + (e & 1) + 18,
    g = 12 * at;
  grad[g] = E[b];
  grad[g + 1] = E[b + 2];
  grad[g + 2] = E[b + 4];
  grad[g + 3] = E[b + 6];
  grad[g + 4] = E[b + 8];
  grad[g + 5] = E[b + 10];
  grad[g + 6] = E[b + 12];
  grad[g + 7] = E[b + 14];
  grad[g + 8] = E[b + 16];
  grad[g + 9] = E[b + 18];
  grad[g + 10] = E[b + 20];
  grad[g + 11] = E[b + 22];
  mat[3 * at] = E[b + 24];
  mat[3 * at + 1] = E[b + 26];
  mat[3 * at + 2] = E[b + 28];
}

/** Element e's rest components of 'large' (LARGE_REST_COMPONENTS: 3, 6, 7, 9, 10, 11) out of the kernel's rest shapes. */
function copyElementRest(S: Float64Array, rest: Float64Array, e: number): void {
  const r = 12 * (e >> 1) + (e & 1),
    g = 12 * e;
  rest[g + 3] = S[r];
  rest[g + 6] = S[r + 2];
  rest[g + 7] = S[r + 4];
  rest[g + 9] = S[r + 6];
  rest[g + 10] = S[r + 8];
  rest[g + 11] = S[r + 10];
}

/** Element from's gradients, material and rest components into element to's slots (straight-line: it runs cold, at a topological change). */
function moveElementMaterial(E: Float64Array, S: Float64Array, from: number, to: number): void {
  const a = 48 * (from >> 1) + (from & 1),
    b = 48 * (to >> 1) + (to & 1);
  E[b + 18] = E[a + 18];
  E[b + 20] = E[a + 20];
  E[b + 22] = E[a + 22];
  E[b + 24] = E[a + 24];
  E[b + 26] = E[a + 26];
  E[b + 28] = E[a + 28];
  E[b + 30] = E[a + 30];
  E[b + 32] = E[a + 32];
  E[b + 34] = E[a + 34];
  E[b + 36] = E[a + 36];
  E[b + 38] = E[a + 38];
  E[b + 40] = E[a + 40];
  E[b + 42] = E[a + 42];
  E[b + 44] = E[a + 44];
  E[b + 46] = E[a + 46];
  const ra = 12 * (from >> 1) + (from & 1),
    rb = 12 * (to >> 1) + (to & 1);
  S[rb] = S[ra];
  S[rb + 2] = S[ra + 2];
  S[rb + 4] = S[ra + 4];
  S[rb + 6] = S[ra + 6];
  S[rb + 8] = S[ra + 8];
  S[rb + 10] = S[ra + 10];
}
