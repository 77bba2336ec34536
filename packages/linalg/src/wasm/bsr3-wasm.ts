import type { Bsr3Matrix } from '../bsr3.js';
import type { CgKernel } from '../conjugate-gradient.js';
import { bsr3Wasm } from './kernels/bsr3.wasm.js';
import { compileKernel, wasmApi, type WasmMemory } from './wasm-module.js';

/**
 * y = B·x for a 3x3-block matrix (bsr3.ts) as a WebAssembly SIMD kernel over a shared memory
 * (written in kernels/bsr3.wat, with the conjugate gradient's vector loops cgDirection and cgUpdate):
 * `bsr3Spmv(rowPtr, colInd, values, x, y, I0, I1)` (byte addresses; block rows I0 … I1−1), with the
 * operations and order of bsr3Spmv (y_r = Σ_blocks (v_r0·x0 + v_r1·x1) + v_r2·x2, blocks in order),
 * so the result is bit for bit the JavaScript product's. Rows 0 and 1 of a block row run in the two
 * lanes of f64x2 operations (lane-wise IEEE operations, no fused multiply-add), row 2 in scalar
 * ones. For this, a block's 9 values are stored in the kernel's order KERNEL_ORDER: (0,0), (1,0),
 * (0,1), (1,1), (0,2), (1,2), (2,0), (2,1), (2,2) — columns of rows 0 and 1 as pairs, then row 2.
 * `bsr3SpmvDot(…, I0, I1, dot)` also stores Σ x_i·y_i over the rows it computed, in index order,
 * at byte address `dot` (the p·q of a conjugate gradient, bit for bit vector-ops' dot).
 * The matrix lives in the kernel's memory: `matrix` holds views into it (refill its values in
 * place, in the kernel's order: `kernelScatter`); x and y are `xView` and `yView`, copied in and
 * out by `apply` unless the caller works in them directly.
 */
let cached: object | undefined;

/** Position within a block of the kernel's storage of entry t = 3·row + col. */
export const KERNEL_ORDER: readonly number[] = [0, 2, 4, 1, 3, 5, 6, 7, 8];

function spmvModule(): object | undefined {
  if (cached) return cached;
  cached = compileKernel(bsr3Wasm);
  return cached;
}

/**
 * Bsr3Wasm as the kernel of a conjugate gradient (CgKernel of conjugate-gradient.ts): the iterate,
 * the residual, the direction and its product live in the kernel's memory, and the vector
 * operations of an iteration run there, with the operations and order of conjugate-gradient.ts.
 */
export class Bsr3Wasm implements CgKernel {
  /** B with its arrays in the kernel's memory (values in the kernel's order: refill them in place). */
  readonly matrix: Bsr3Matrix;
  readonly memory: WasmMemory;
  readonly module: object;
  /** Byte addresses of rowPtr, colInd, values, x, y, of the dot product's result, and of the CG's iterate and residual. */
  readonly addr: { rowPtr: number; colInd: number; values: number; x: number; y: number; dot: number; sol: number; res: number };
  /** (3·blockCols) x and (3·blockRows) y of the products, in the kernel's memory. */
  readonly xView: Float64Array;
  readonly yView: Float64Array;
  private readonly dotView: Float64Array;
  private readonly fn: (rp: number, ci: number, v: number, x: number, y: number, i0: number, i1: number) => void;
  private readonly fnDot: (rp: number, ci: number, v: number, x: number, y: number, i0: number, i1: number, dot: number) => void;
  private readonly fnDirection: (p: number, r: number, n: number, beta: number) => void;
  private readonly fnUpdate: (x: number, r: number, p: number, q: number, n: number, alpha: number, rr: number) => void;
  /** CgKernel: (n) the iterate x, the residual r, the direction p (= xView) and q = A·p (= yView). */
  readonly x: Float64Array;
  readonly r: Float64Array;
  get p(): Float64Array {
    return this.xView;
  }
  get q(): Float64Array {
    return this.yView;
  }

  private constructor(module: object, B: Bsr3Matrix) {
    const api = wasmApi()!;
    const nnzb = B.colInd.length,
      nr = B.blockRows;
    const align = (n: number) => Math.ceil(n / 16) * 16;
    const dot = 0,
      rowPtr = 16,
      colInd = align(rowPtr + 4 * (nr + 1)),
      values = align(colInd + 4 * nnzb);
    const x = align(values + 72 * nnzb),
      y = align(x + 24 * B.blockCols),
      sol = align(y + 24 * nr),
      res = align(sol + 24 * nr),
      bytes = res + 24 * nr;
    const pages = Math.ceil(bytes / 65536) + 1;
    this.memory = new api.Memory({ initial: pages, maximum: pages, shared: true });
    this.module = module;
    this.addr = { rowPtr, colInd, values, x, y, dot, sol, res };
    const buf = this.memory.buffer;
    this.matrix = {
      blockRows: nr,
      blockCols: B.blockCols,
      rowPtr: new Int32Array(buf, rowPtr, nr + 1),
      colInd: new Int32Array(buf, colInd, nnzb),
      values: new Float64Array(buf, values, 9 * nnzb),
    };
    this.matrix.rowPtr.set(B.rowPtr);
    this.matrix.colInd.set(B.colInd);
    this.setValues(B.values);
    this.xView = new Float64Array(buf, x, 3 * B.blockCols);
    this.yView = new Float64Array(buf, y, 3 * nr);
    this.dotView = new Float64Array(buf, dot, 1);
    this.x = new Float64Array(buf, sol, 3 * nr);
    this.r = new Float64Array(buf, res, 3 * nr);
    const exports = new api.Instance(module, { env: { memory: this.memory } }).exports;
    this.fn = exports.bsr3Spmv as typeof this.fn;
    this.fnDot = exports.bsr3SpmvDot as typeof this.fnDot;
    this.fnDirection = exports.cgDirection as typeof this.fnDirection;
    this.fnUpdate = exports.cgUpdate as typeof this.fnUpdate;
  }

  /** B in a kernel's memory, or undefined without WebAssembly (SIMD) or shared memory. */
  static create(B: Bsr3Matrix): Bsr3Wasm | undefined {
    const module = spmvModule();
    if (!module) return undefined;
    try {
      return new Bsr3Wasm(module, B);
    } catch {
      return undefined;
    }
  }

  /** The values of a block matrix in the standard order (9 per block, row-major) copied in. */
  setValues(standard: Float64Array): void {
    const v = this.matrix.values,
      n = v.length / 9;
    for (let b = 0; b < n; b++) for (let t = 0; t < 9; t++) v[9 * b + KERNEL_ORDER[t]] = standard[9 * b + t];
  }

  /** A scatter map into the standard block layout (bsr3FromCsrPattern) turned into one into the kernel's. */
  kernelScatter(scatter: Int32Array): Int32Array {
    return scatter.map((s) => s - (s % 9) + KERNEL_ORDER[s % 9]);
  }

  /** yView rows [I0, I1) = (B·xView) on this thread. */
  runRange(I0: number, I1: number): void {
    const a = this.addr;
    this.fn(a.rowPtr, a.colInd, a.values, a.x, a.y, I0, I1);
  }

  /** y = B·x on this thread (no copy when y and x are yView and xView). */
  apply(y: Float64Array, x: Float64Array): void {
    if (x !== this.xView) this.xView.set(x);
    this.runRange(0, this.matrix.blockRows);
    if (y !== this.yView) y.set(this.yView);
  }

  /** CgKernel: p = p·β + r. */
  direction(beta: number): void {
    this.fnDirection(this.addr.x, this.addr.res, this.r.length, beta);
  }

  /** CgKernel: q = A·p, returning p·q in index order. */
  productDot(): number {
    return this.applyDot(this.yView, this.xView);
  }

  /** CgKernel: x += α·p, r −= α·q, returning r·r in index order. */
  update(alpha: number): number {
    const a = this.addr;
    this.fnUpdate(a.sol, a.res, a.x, a.y, this.r.length, alpha, a.dot);
    return this.dotView[0];
  }

  /** y = B·x on this thread, returning x·y summed in index order (no copy when y and x are yView and xView). */
  applyDot(y: Float64Array, x: Float64Array): number {
    if (x !== this.xView) this.xView.set(x);
    const a = this.addr;
    this.fnDot(a.rowPtr, a.colInd, a.values, a.x, a.y, 0, this.matrix.blockRows, a.dot);
    if (y !== this.yView) y.set(this.yView);
    return this.dotView[0];
  }
}
