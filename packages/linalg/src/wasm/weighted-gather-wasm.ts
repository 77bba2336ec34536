import { weightedGatherWasm } from './kernels/weighted-gather.wasm.js';
import { WASM_PAGE, compileKernel, wasmApi } from './wasm-module.js';

/**
 * The weighted gather of 3-vectors with K terms per output (1 ≤ K ≤ MAX_GATHER_TERMS),
 * y_i = Σ_{k<K} w_ik·x_{c_ik}, as a WebAssembly kernel written in kernels/weighted-gather.wat (a barycentric mapping of points in
 * edges, triangles, tetrahedra or hexahedra: BarycentricMap.apply): per
 * output, (x, y) in one f64x2 and z alone, each sum started from 0 and taken over the terms in
 * order, x_c·w per term: the operations of the JavaScript loop, lane by lane, so the same values bit
 * for bit.
 *
 * `gatherK(n, terms, y)`: terms (n × K × 16 bytes) holds per term the byte address of x_c in the
 * memory (i32, padded to 8 bytes) and w (f64); y is the byte address of the output.
 */
let cached: object | null | undefined;

/** The largest number of terms per output the kernels are written for (a hexahedron's 8). */
export const MAX_GATHER_TERMS = 8;

function module(): object | undefined {
  if (cached !== undefined) return cached ?? undefined;
  cached = compileKernel(weightedGatherWasm) ?? null;
  return cached ?? undefined;
}

/** The gather of one map (its terms copied in once), with its input and output in the kernel's memory. */
export class WeightedGatherWasm {
  private readonly run: (n: number, terms: number, y: number) => void;
  private readonly xView: Float64Array;
  private readonly yView: Float64Array;
  private readonly terms: number;
  private readonly x: number;
  private readonly y: number;

  private constructor(
    mod: object,
    readonly nIn: number,
    readonly nOut: number,
    /** Terms per output, K. */
    readonly termsPerOutput: number,
    idx: Int32Array,
    w: Float64Array,
  ) {
    const api = wasmApi()!;
    const align = (b: number) => Math.ceil(b / 16) * 16;
    this.terms = 16;
    const K = termsPerOutput;
    this.x = align(this.terms + 16 * K * nOut);
    this.y = align(this.x + 24 * nIn);
    const bytes = this.y + 24 * nOut;
    const pages = Math.ceil(bytes / WASM_PAGE) + 1;
    const memory = new api.Memory({ initial: pages, maximum: pages, shared: true });
    this.run = new api.Instance(mod, { env: { memory } }).exports[`gather${K}`] as typeof this.run;
    const buf = memory.buffer;
    // term k: i32 at byte 16k, f64 at byte 16k + 8 (the memory is little-endian, as typed arrays here)
    const ti = new Int32Array(buf, this.terms, 4 * K * nOut),
      tw = new Float64Array(buf, this.terms, 2 * K * nOut);
    for (let k = 0; k < K * nOut; k++) {
      ti[4 * k] = this.x + 24 * idx[k];
      tw[2 * k + 1] = w[k];
    }
    this.xView = new Float64Array(buf, this.x, 3 * nIn);
    this.yView = new Float64Array(buf, this.y, 3 * nOut);
  }

  /**
   * The kernel for outputs of K terms each (idx: the input of each term, w: its weight, K per
   * output in order), or undefined for K outside 1…MAX_GATHER_TERMS, without WebAssembly, or for a
   * memory beyond 2 GiB.
   */
  static create(nIn: number, idx: Int32Array, w: Float64Array, K: number): WeightedGatherWasm | undefined {
    const nOut = idx.length / K;
    if (!Number.isInteger(K) || K < 1 || K > MAX_GATHER_TERMS || !Number.isInteger(nOut) || 16 * K * nOut + 24 * (nIn + nOut) > 2 ** 31)
      return undefined;
    const mod = module();
    if (!mod) return undefined;
    try {
      return new WeightedGatherWasm(mod, nIn, nOut, K, idx, w);
    } catch {
      return undefined; // no shared WebAssembly memory here
    }
  }

  /** out = the gather of inp (3·nIn in, 3·nOut out). */
  apply(out: Float64Array, inp: Float64Array): void {
    this.xView.set(inp);
    this.run(this.nOut, this.terms, this.y);
    out.set(this.yView);
  }
}
