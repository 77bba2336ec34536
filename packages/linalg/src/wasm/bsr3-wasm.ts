import type { Bsr3Matrix } from '../bsr3.js';
import type { CgKernel } from '../conjugate-gradient.js';
import { FunctionBuilder, WasmType, wasmApi, wasmModuleBytes, type Local, type WasmMemory } from './wasm-module.js';

/**
 * y = B·x for a 3x3-block matrix (bsr3.ts) as a WebAssembly SIMD kernel over a shared memory:
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

function spmvFunction(name: string, withDot: boolean): FunctionBuilder {
  const I = WasmType.i32, F = WasmType.f64, V = WasmType.v128;
  const fb = new FunctionBuilder(name, withDot ? [I, I, I, I, I, I, I, I] : [I, I, I, I, I, I, I]);
  const rowPtr = fb.param(0), colInd = fb.param(1), values = fb.param(2), x = fb.param(3), y = fb.param(4), from = fb.param(5), to = fb.param(6);
  const row = fb.local(I), b = fb.local(I), end = fb.local(I), v = fb.local(I), xj = fb.local(I), yo = fb.local(I);
  const x0 = fb.local(F), x1 = fb.local(F), x2 = fb.local(F), y2 = fb.local(F);
  const y01 = fb.local(V);
  let dot: Local | undefined, xo: Local | undefined;
  if (withDot) {
    dot = fb.local(F);
    xo = fb.local(I);
    fb.i32Const(0).f64ConvertI32().set(dot);
  }
  fb.get(from).set(row);
  fb.block().loop();
  fb.get(row).get(to).i32GeU().brIf(1);
  // b = rowPtr[row], end = rowPtr[row + 1]
  fb.get(rowPtr).get(row).i32Const(2).i32Shl().i32Add().tee(b).i32Load(4).set(end);
  fb.get(b).i32Load(0).set(b);
  fb.i32Const(0).f64ConvertI32().set(y2);
  fb.i32Const(0).f64ConvertI32().f64x2Splat().set(y01);
  fb.block().loop();
  fb.get(b).get(end).i32GeU().brIf(1);
  // xj = x + 24·colInd[b]; v = values + 72·b
  fb.get(x).get(colInd).get(b).i32Const(2).i32Shl().i32Add().i32Load(0).i32Const(24).i32Mul().i32Add().set(xj);
  fb.get(values).get(b).i32Const(72).i32Mul().i32Add().set(v);
  fb.get(xj).f64Load(0).set(x0);
  fb.get(xj).f64Load(8).set(x1);
  fb.get(xj).f64Load(16).set(x2);
  // (y0, y1) += ((v00, v10)·x0 + (v01, v11)·x1) + (v02, v12)·x2
  fb.get(y01);
  fb.get(v).v128Load(0).get(x0).f64x2Splat().f64x2Mul();
  fb.get(v).v128Load(16).get(x1).f64x2Splat().f64x2Mul().f64x2Add();
  fb.get(v).v128Load(32).get(x2).f64x2Splat().f64x2Mul().f64x2Add();
  fb.f64x2Add().set(y01);
  // y2 += (v20·x0 + v21·x1) + v22·x2
  fb.get(y2);
  fb.get(v).f64Load(48).get(x0).f64Mul();
  fb.get(v).f64Load(56).get(x1).f64Mul().f64Add();
  fb.get(v).f64Load(64).get(x2).f64Mul().f64Add();
  fb.f64Add().set(y2);
  fb.get(b).i32Const(1).i32Add().set(b);
  fb.br(0).end().end();
  fb.get(y).get(row).i32Const(24).i32Mul().i32Add().set(yo);
  fb.get(yo).get(y01).v128Store(0);
  fb.get(yo).get(y2).f64Store(16);
  if (dot && xo) {
    // dot += x_3r·y_3r; dot += x_3r+1·y_3r+1; dot += x_3r+2·y_3r+2 (index order)
    fb.get(x).get(row).i32Const(24).i32Mul().i32Add().set(xo);
    for (let k = 0; k < 3; k++) fb.get(dot).get(xo).f64Load(8 * k).get(yo).f64Load(8 * k).f64Mul().f64Add().set(dot);
  }
  fb.get(row).i32Const(1).i32Add().set(row);
  fb.br(0).end().end();
  if (dot) fb.get(fb.param(7)).get(dot).f64Store(0);
  return fb;
}

/** cgDirection(p, r, n, β): p_i = p_i·β + r_i (vector-ops' aypx). */
function directionFunction(): FunctionBuilder {
  const I = WasmType.i32, F = WasmType.f64;
  const fb = new FunctionBuilder('cgDirection', [I, I, I, F]);
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

/**
 * cgUpdate(x, r, p, q, n, α, rr): x_i += p_i·α; r_i += q_i·(−α); rr = Σ r_i² in index order, stored
 * at byte address rr (the fused loop of conjugate-gradient.ts).
 */
function updateFunction(): FunctionBuilder {
  const I = WasmType.i32, F = WasmType.f64;
  const fb = new FunctionBuilder('cgUpdate', [I, I, I, I, I, F, I]);
  const x = fb.param(0), r = fb.param(1), p = fb.param(2), q = fb.param(3), n = fb.param(4), alpha = fb.param(5), rrAddr = fb.param(6);
  const end = fb.local(I), nalpha = fb.local(F), rr = fb.local(F), ri = fb.local(F);
  fb.get(alpha).f64Neg().set(nalpha);
  fb.f64Const(0).set(rr);
  fb.get(x).get(n).i32Const(3).i32Shl().i32Add().set(end);
  fb.block().loop();
  fb.get(x).get(end).i32GeU().brIf(1);
  fb.get(x).get(x).f64Load(0).get(p).f64Load(0).get(alpha).f64Mul().f64Add().f64Store(0);
  fb.get(r).f64Load(0).get(q).f64Load(0).get(nalpha).f64Mul().f64Add().set(ri);
  fb.get(r).get(ri).f64Store(0);
  fb.get(rr).get(ri).get(ri).f64Mul().f64Add().set(rr);
  for (const l of [x, r, p, q]) fb.get(l).i32Const(8).i32Add().set(l);
  fb.br(0).end().end();
  fb.get(rrAddr).get(rr).f64Store(0);
  return fb;
}

function spmvModule(): object | undefined {
  if (cached) return cached;
  const api = wasmApi();
  if (!api) return undefined;
  const bytes = wasmModuleBytes([spmvFunction('bsr3Spmv', false), spmvFunction('bsr3SpmvDot', true), directionFunction(), updateFunction()], 65536);
  if (!api.validate(bytes)) return undefined;
  cached = new api.Module(bytes);
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
    const nnzb = B.colInd.length, nr = B.blockRows;
    const align = (n: number) => Math.ceil(n / 16) * 16;
    const dot = 0, rowPtr = 16, colInd = align(rowPtr + 4 * (nr + 1)), values = align(colInd + 4 * nnzb);
    const x = align(values + 72 * nnzb), y = align(x + 24 * B.blockCols), sol = align(y + 24 * nr), res = align(sol + 24 * nr), bytes = res + 24 * nr;
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
    const v = this.matrix.values, n = v.length / 9;
    for (let b = 0; b < n; b++) for (let t = 0; t < 9; t++) v[9 * b + KERNEL_ORDER[t]!] = standard[9 * b + t]!;
  }

  /** A scatter map into the standard block layout (bsr3FromCsrPattern) turned into one into the kernel's. */
  kernelScatter(scatter: Int32Array): Int32Array {
    return scatter.map((s) => s - (s % 9) + KERNEL_ORDER[s % 9]!);
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
    return this.dotView[0]!;
  }

  /** y = B·x on this thread, returning x·y summed in index order (no copy when y and x are yView and xView). */
  applyDot(y: Float64Array, x: Float64Array): number {
    if (x !== this.xView) this.xView.set(x);
    const a = this.addr;
    this.fnDot(a.rowPtr, a.colInd, a.values, a.x, a.y, 0, this.matrix.blockRows, a.dot);
    if (y !== this.yView) y.set(this.yView);
    return this.dotView[0]!;
  }
}
