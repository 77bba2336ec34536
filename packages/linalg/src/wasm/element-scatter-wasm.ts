import { FunctionBuilder, WasmType, wasmApi, wasmModuleBytes, type Local } from './wasm-module.js';

/**
 * The refill of symmetric elements of a FixedPatternAssembler (addSymmetricElementBlocks3) as a
 * WebAssembly kernel over the assembler's memory: `scatterSymmetric(count, n, factor)` adds
 * factor·U_e for `count` elements of n nodes whose upper blocks U (count × 9·n(n+1)/2) and first
 * rows (count × n) the caller put in the staging areas, each element through its element operation
 * of the operation table (fixed-pattern-assembler.ts), with the operations and order of the
 * JavaScript refill: bit for bit the same values. It stops at the first element whose operation is
 * not an element of n nodes with these rows, or whose nodes repeat (the JavaScript code goes on
 * from there), and writes the number of elements done and the new cursor to the header.
 *
 * Header (i32 at byte 0, SCATTER_HEADER fields): byte addresses of values (f64), ops (i32), rowPtr
 * (i32), starts (i32), U (f64), the per-node row lengths scratch (2 × 16 i32); the cursor (an index
 * into ops) and the number of elements done.
 */
export const SCATTER_HEADER = { values: 0, ops: 1, rowPtr: 2, starts: 3, U: 4, lens: 5, cursor: 6, done: 7 } as const;
export const SCATTER_HEADER_BYTES = 64;
/** Largest number of nodes per element the kernel handles (the row-length scratch). */
export const SCATTER_MAX_NODES = 16;

let cached: object | null | undefined;

/** The compiled kernel (once per process), or undefined without WebAssembly. */
export function elementScatterModule(): object | undefined {
  if (cached !== undefined) return cached ?? undefined;
  cached = null;
  const api = wasmApi();
  if (!api) return undefined;
  const bytes = wasmModuleBytes([scatterFunction()], 65536);
  if (!api.validate(bytes)) return undefined;
  cached = new api.Module(bytes);
  return cached;
}

function scatterFunction(): FunctionBuilder {
  const I = WasmType.i32, F = WasmType.f64;
  const fb = new FunctionBuilder('scatterSymmetric', [I, I, F]);
  const count = fb.param(0), n = fb.param(1), factor = fb.param(2);
  const field = (name: keyof typeof SCATTER_HEADER): Local => {
    const l = fb.local(I);
    fb.i32Const(0).i32Load(4 * SCATTER_HEADER[name]).set(l);
    return l;
  };
  const values = field('values'), ops = field('ops'), rowPtr = field('rowPtr'), starts = field('starts'), U = field('U'), lens = field('lens');
  const q = field('cursor');
  const e = fb.local(I), i = fb.local(I), j = fb.local(I), sb = fb.local(I), base = fb.local(I), u = fb.local(I), r = fb.local(I);
  const s0 = fb.local(I), s1 = fb.local(I), s2 = fb.local(I), bad = fb.local(I);
  const f = Array.from({ length: 9 }, () => fb.local(F));
  /** pushes the byte address of i32 element idx of array `a` */
  const ia = (a: Local, idx: () => void) => {
    fb.get(a);
    idx();
    fb.i32Const(2).i32Shl().i32Add();
  };
  const ld = (a: Local, idx: () => void) => {
    ia(a, idx);
    fb.i32Load(0);
  };
  /** values[slot + off] += f */
  const addTo = (slot: Local, off: number, val: Local) => {
    fb.get(values).get(slot).i32Const(3).i32Shl().i32Add().tee(r);
    fb.get(r).f64Load(8 * off).get(val).f64Add().f64Store(8 * off);
  };
  /** s0, s1, s2 of block b = n·row + col of the element (row node `row`) */
  const slots = (row: Local, col: Local) => {
    ld(ops, () => fb.get(base).get(n).get(row).i32Mul().i32Add().get(col).i32Add());
    fb.set(s0);
    fb.get(s0);
    ld(lens, () => fb.get(row));
    fb.i32Add().set(s1);
    fb.get(s1);
    ld(lens, () => fb.get(row).i32Const(16).i32Add());
    fb.i32Add().set(s2);
  };
  fb.i32Const(0).set(e);
  fb.block().loop();
  fb.get(e).get(count).i32GeS().brIf(1);
  // an element operation of n nodes: ops[q] = −1 − n
  ld(ops, () => fb.get(q));
  fb.i32Const(-1).get(n).i32Sub().i32Ne().brIf(1);
  fb.get(e).get(n).i32Mul().set(sb);
  // its first rows, distinct
  fb.i32Const(0).set(bad);
  fb.i32Const(0).set(i);
  fb.block().loop();
  fb.get(i).get(n).i32GeS().brIf(1);
  ld(ops, () => fb.get(q).i32Const(1).i32Add().get(i).i32Add());
  ld(starts, () => fb.get(sb).get(i).i32Add());
  fb.i32Ne().get(bad).i32Or().set(bad);
  fb.get(i).i32Const(1).i32Add().set(j);
  fb.block().loop();
  fb.get(j).get(n).i32GeS().brIf(1);
  ld(starts, () => fb.get(sb).get(i).i32Add());
  ld(starts, () => fb.get(sb).get(j).i32Add());
  fb.i32Eq().get(bad).i32Or().set(bad);
  fb.get(j).i32Const(1).i32Add().set(j);
  fb.br(0).end().end();
  // row lengths of each node's rows 0 and 1
  ld(starts, () => fb.get(sb).get(i).i32Add());
  fb.set(r);
  ia(lens, () => fb.get(i));
  ld(rowPtr, () => fb.get(r).i32Const(1).i32Add());
  ld(rowPtr, () => fb.get(r));
  fb.i32Sub().i32Store(0);
  ia(lens, () => fb.get(i).i32Const(16).i32Add());
  ld(rowPtr, () => fb.get(r).i32Const(2).i32Add());
  ld(rowPtr, () => fb.get(r).i32Const(1).i32Add());
  fb.i32Sub().i32Store(0);
  fb.get(i).i32Const(1).i32Add().set(i);
  fb.br(0).end().end();
  fb.get(bad).brIf(1);
  fb.get(q).i32Const(1).i32Add().get(n).i32Add().set(base);
  // u = U + 8·9·(n(n+1)/2)·e
  fb.get(U).get(e).get(n).get(n).i32Const(1).i32Add().i32Mul().i32Const(1).i32ShrS().i32Mul().i32Const(72).i32Mul().i32Add().set(u);
  fb.i32Const(0).set(i);
  fb.block().loop();
  fb.get(i).get(n).i32GeS().brIf(1);
  fb.get(i).set(j);
  fb.block().loop();
  fb.get(j).get(n).i32GeS().brIf(1);
  for (let t = 0; t < 9; t++) fb.get(factor).get(u).f64Load(8 * t).f64Mul().set(f[t]!);
  // block (i, j)
  slots(i, j);
  addTo(s0, 0, f[0]!); addTo(s0, 1, f[1]!); addTo(s0, 2, f[2]!);
  addTo(s1, 0, f[3]!); addTo(s1, 1, f[4]!); addTo(s1, 2, f[5]!);
  addTo(s2, 0, f[6]!); addTo(s2, 1, f[7]!); addTo(s2, 2, f[8]!);
  // block (j, i) = its transpose
  fb.get(j).get(i).i32Ne().if();
  slots(j, i);
  addTo(s0, 0, f[0]!); addTo(s0, 1, f[3]!); addTo(s0, 2, f[6]!);
  addTo(s1, 0, f[1]!); addTo(s1, 1, f[4]!); addTo(s1, 2, f[7]!);
  addTo(s2, 0, f[2]!); addTo(s2, 1, f[5]!); addTo(s2, 2, f[8]!);
  fb.end();
  fb.get(u).i32Const(72).i32Add().set(u);
  fb.get(j).i32Const(1).i32Add().set(j);
  fb.br(0).end().end();
  fb.get(i).i32Const(1).i32Add().set(i);
  fb.br(0).end().end();
  fb.get(base).get(n).get(n).i32Mul().i32Add().set(q);
  fb.get(e).i32Const(1).i32Add().set(e);
  fb.br(0).end().end();
  fb.i32Const(0).get(q).i32Store(4 * SCATTER_HEADER.cursor);
  fb.i32Const(0).get(e).i32Store(4 * SCATTER_HEADER.done);
  return fb;
}
