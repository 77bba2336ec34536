import { elementScatterWasm } from './kernels/element-scatter.wasm.js';
import { compileKernel } from './wasm-module.js';

/**
 * The refill of symmetric elements of a FixedPatternAssembler (addSymmetricElementBlocks3) as a
 * WebAssembly kernel over the assembler's memory (written in kernels/element-scatter.wat): `scatterSymmetric(count, n, factor)` adds
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
  cached = compileKernel(elementScatterWasm) ?? null;
  return cached ?? undefined;
}
