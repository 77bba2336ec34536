import { supernodalLdltWasm } from './kernels/supernodal-ldlt.wasm.js';
import { compileKernel } from './wasm-module.js';

/**
 * The numeric phase of SupernodalLDLT (factorize and solve) as a WebAssembly kernel written in
 * WebAssembly text, kernels/supernodal-ldlt.wat. It performs exactly the operations of the JavaScript code of supernodal-ldlt.ts,
 * in the same order (the same left-looking updates, the same 3×3-blocked products, the same panel
 * factorization, the same triangular solves), so factors and solutions are bit for bit the same;
 * it only runs them without the bounds checks and boxing of the JavaScript loops.
 *
 * Every array lives in the kernel's memory (supernodal-ldlt.ts makes its arrays views of it); the
 * functions read their addresses from a header of i32 at byte 0 (LDLT_HEADER fields):
 *   `ldltFactor()`  factorizes Av (the values of A) into Lx and D; status = −1, or the elimination
 *                   step whose pivot vanished (its value at `pivot`);
 *   `ldltFactorRange(h, s0, s1, clear)` the supernodes s0 … s1−1 of it with the header at byte h
 *                   (SupernodalLDLT's parallel factorization: a second thread has its own header);
 *   `ldltSolve()`   y = Pᵀ L⁻ᵀ D⁻¹ L⁻¹ P b, reading and writing the vector at `vec`;
 *   `ldltBackward()` vec = Pᵀ L⁻ᵀ y for the vector y (in the elimination order) at `y`;
 *   `ldltProduct(…)`, `ldltPairLowerSolve(…)` (addresses as arguments) the dense steps of
 *                   SupernodalCompliance's forward solve, on blocks in the kernel's scratch region;
 *   `ldltGram(…)`   the sums of its Gram matrix Yᵀ·D⁻¹·Y from one supernode's block of Y.
 */
export const LDLT_HEADER = {
  nsuper: 0,
  n: 1,
  superStart: 2,
  superRowPtr: 3,
  superRows: 4,
  superValPtr: 5,
  superOf: 6,
  aPtr: 7,
  aSrc: 8,
  aDst: 9,
  relPos: 10,
  rowBase: 11,
  colOff: 12,
  head: 13,
  next: 14,
  lpos: 15,
  Lx: 16,
  D: 17,
  W: 18,
  Av: 19,
  perm: 20,
  y: 21,
  vec: 22,
  status: 23,
  pivot: 24,
  tol: 25,
} as const;
/** Bytes of the header. */
export const LDLT_HEADER_BYTES = 128;
/** Columns per panel of the dense factorization of a supernode (as supernodal-ldlt.ts). */
export const LDLT_PANEL = 24;

let cached: object | null | undefined;

/** The compiled kernel (once per process), or undefined without WebAssembly. */
export function supernodalLdltModule(): object | undefined {
  if (cached !== undefined) return cached ?? undefined;
  cached = compileKernel(supernodalLdltWasm) ?? null;
  return cached ?? undefined;
}
