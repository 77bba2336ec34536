import type { Bsr3Matrix } from '../bsr3.js';
import { FunctionBuilder, WasmType, wasmApi, wasmModuleBytes, type WasmMemory } from './wasm-module.js';

/**
 * y = B·x for a 3x3-block matrix (bsr3.ts) as a WebAssembly kernel over a shared memory:
 * `bsr3Spmv(rowPtr, colInd, values, x, y, I0, I1)` (byte addresses; block rows I0 … I1−1), with the
 * operations and order of bsr3Spmv (y_r = Σ_blocks (v_r0·x0 + v_r1·x1) + v_r2·x2, blocks in order),
 * so the result is bit for bit the JavaScript product's. The matrix lives in the kernel's memory:
 * `matrix` holds views into it (refill its values in place); x and y are copied in and out.
 */
let cached: object | undefined;

function spmvModule(): object | undefined {
  if (cached) return cached;
  const api = wasmApi();
  if (!api) return undefined;
  const I = WasmType.i32, F = WasmType.f64;
  const fb = new FunctionBuilder('bsr3Spmv', [I, I, I, I, I, I, I]);
  const rowPtr = fb.param(0), colInd = fb.param(1), values = fb.param(2), x = fb.param(3), y = fb.param(4), from = fb.param(5), to = fb.param(6);
  const row = fb.local(I), b = fb.local(I), end = fb.local(I), v = fb.local(I), xj = fb.local(I), yo = fb.local(I);
  const x0 = fb.local(F), x1 = fb.local(F), x2 = fb.local(F), y0 = fb.local(F), y1 = fb.local(F), y2 = fb.local(F);
  fb.get(from).set(row);
  fb.block().loop();
  fb.get(row).get(to).i32GeU().brIf(1);
  // b = rowPtr[row], end = rowPtr[row + 1]
  fb.get(rowPtr).get(row).i32Const(2).i32Shl().i32Add().tee(b).i32Load(4).set(end);
  fb.get(b).i32Load(0).set(b);
  fb.i32Const(0).f64ConvertI32().set(y0);
  fb.i32Const(0).f64ConvertI32().set(y1);
  fb.i32Const(0).f64ConvertI32().set(y2);
  fb.block().loop();
  fb.get(b).get(end).i32GeU().brIf(1);
  // xj = x + 24·colInd[b]; v = values + 72·b
  fb.get(x).get(colInd).get(b).i32Const(2).i32Shl().i32Add().i32Load(0).i32Const(24).i32Mul().i32Add().set(xj);
  fb.get(values).get(b).i32Const(72).i32Mul().i32Add().set(v);
  fb.get(xj).f64Load(0).set(x0);
  fb.get(xj).f64Load(8).set(x1);
  fb.get(xj).f64Load(16).set(x2);
  for (const [acc, r] of [[y0, 0], [y1, 1], [y2, 2]] as const) {
    // acc += v[3r]·x0 + v[3r+1]·x1 + v[3r+2]·x2
    fb.get(acc);
    fb.get(v).f64Load(24 * r).get(x0).f64Mul();
    fb.get(v).f64Load(24 * r + 8).get(x1).f64Mul().f64Add();
    fb.get(v).f64Load(24 * r + 16).get(x2).f64Mul().f64Add();
    fb.f64Add().set(acc);
  }
  fb.get(b).i32Const(1).i32Add().set(b);
  fb.br(0).end().end();
  fb.get(y).get(row).i32Const(24).i32Mul().i32Add().set(yo);
  fb.get(yo).get(y0).f64Store(0);
  fb.get(yo).get(y1).f64Store(8);
  fb.get(yo).get(y2).f64Store(16);
  fb.get(row).i32Const(1).i32Add().set(row);
  fb.br(0).end().end();
  const bytes = wasmModuleBytes([fb], 65536);
  if (!api.validate(bytes)) return undefined;
  cached = new api.Module(bytes);
  return cached;
}

export class Bsr3Wasm {
  /** B with its arrays in the kernel's memory (refill `matrix.values` in place). */
  readonly matrix: Bsr3Matrix;
  readonly memory: WasmMemory;
  readonly module: object;
  /** Byte addresses of rowPtr, colInd, values, x, y. */
  readonly addr: { rowPtr: number; colInd: number; values: number; x: number; y: number };
  readonly xView: Float64Array;
  readonly yView: Float64Array;
  private readonly fn: (rp: number, ci: number, v: number, x: number, y: number, i0: number, i1: number) => void;

  private constructor(module: object, B: Bsr3Matrix) {
    const api = wasmApi()!;
    const nnzb = B.colInd.length, nr = B.blockRows;
    const align = (n: number) => Math.ceil(n / 16) * 16;
    const rowPtr = 16, colInd = align(rowPtr + 4 * (nr + 1)), values = align(colInd + 4 * nnzb);
    const x = align(values + 72 * nnzb), y = align(x + 24 * B.blockCols), bytes = y + 24 * nr;
    const pages = Math.ceil(bytes / 65536) + 1;
    this.memory = new api.Memory({ initial: pages, maximum: pages, shared: true });
    this.module = module;
    this.addr = { rowPtr, colInd, values, x, y };
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
    this.matrix.values.set(B.values);
    this.xView = new Float64Array(buf, x, 3 * B.blockCols);
    this.yView = new Float64Array(buf, y, 3 * nr);
    this.fn = new api.Instance(module, { env: { memory: this.memory } }).exports.bsr3Spmv as typeof this.fn;
  }

  /** B in a kernel's memory, or undefined without WebAssembly or shared memory. */
  static create(B: Bsr3Matrix): Bsr3Wasm | undefined {
    const module = spmvModule();
    if (!module) return undefined;
    try {
      return new Bsr3Wasm(module, B);
    } catch {
      return undefined;
    }
  }

  /** yView rows [I0, I1) = (B·xView) on this thread. */
  runRange(I0: number, I1: number): void {
    const a = this.addr;
    this.fn(a.rowPtr, a.colInd, a.values, a.x, a.y, I0, I1);
  }

  /** y = B·x on this thread. */
  apply(y: Float64Array, x: Float64Array): void {
    this.xView.set(x);
    this.runRange(0, this.matrix.blockRows);
    y.set(this.yView);
  }
}
