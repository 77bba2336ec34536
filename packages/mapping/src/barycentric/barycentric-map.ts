import { MAX_GATHER_TERMS, WeightedGatherWasm, createCsr, type CsrMatrix } from '@sofa-ts/linalg';

/**
 * What a barycentric mapper produces: each output point is a weighted sum of input points,
 *   x_out[i] = Σ_k w_ik · x_in[c_ik]      (3 coordinates),
 * with the weights of the element the point was located in. Terms are kept in the order SOFA sums
 * them (so apply gives SOFA's rounding); J is the same sum as a (3·nOut × 3·nIn) CSR matrix with
 * sorted columns (repeated input points merged).
 *   ptr: (nOut + 1) offsets into idx/w;  idx: input point of each term;  w: its weight.
 */
export class BarycentricMap {
  readonly J: CsrMatrix;
  /**
   * The number of terms of every point when they all have the same, in order (points located in
   * edges, triangles, tetrahedra, hexahedra), else 0: apply runs WeightedGatherWasm for them.
   */
  private readonly uniformTerms: number;
  /** apply's WebAssembly kernel for uniform maps (made at the first apply; null where there is none). */
  private gather: WeightedGatherWasm | null | undefined = undefined;

  constructor(
    readonly nIn: number,
    readonly ptr: Int32Array,
    readonly idx: Int32Array,
    readonly w: Float64Array,
  ) {
    this.J = buildJacobian(nIn, ptr, idx, w);
    let K = ptr.length > 1 ? ptr[1] - ptr[0] : 0;
    for (let i = 0; i + 1 < ptr.length && K > 0; i++) if (ptr[i + 1] - ptr[i] !== K || ptr[i] !== K * i) K = 0;
    this.uniformTerms = K <= MAX_GATHER_TERMS ? K : 0;
  }

  get nOut(): number {
    return this.ptr.length - 1;
  }

  /** out[i] = Σ_k w_ik·inp[c_ik] (3 components per point). */
  apply(out: Float64Array, inp: Float64Array): void {
    const K = this.uniformTerms;
    if (K > 0) {
      if (this.gather === undefined) this.gather = WeightedGatherWasm.create(this.nIn, this.idx, this.w, K) ?? null;
      if (this.gather && inp.length === 3 * this.nIn && out.length >= 3 * this.nOut) {
        this.gather.apply(out, inp);
        return;
      }
      if (K === 4) {
        applyFourTerms(out, inp, this.idx, this.w, this.nOut);
        return;
      }
    }
    const { ptr, idx, w } = this;
    const n = this.nOut;
    for (let i = 0; i < n; i++) {
      let x = 0,
        y = 0,
        z = 0;
      for (let k = ptr[i]; k < ptr[i + 1]; k++) {
        const c = 3 * idx[k];
        const wk = w[k];
        x += inp[c] * wk;
        y += inp[c + 1] * wk;
        z += inp[c + 2] * wk;
      }
      out[3 * i] = x;
      out[3 * i + 1] = y;
      out[3 * i + 2] = z;
    }
  }

  /** inp[c_ik] += w_ik·out[i]  (Jᵀ, accumulated). */
  applyTranspose(inp: Float64Array, out: Float64Array): void {
    const { ptr, idx, w } = this;
    const n = this.nOut;
    for (let i = 0; i < n; i++) {
      const x = out[3 * i],
        y = out[3 * i + 1],
        z = out[3 * i + 2];
      for (let k = ptr[i]; k < ptr[i + 1]; k++) {
        const c = 3 * idx[k];
        const wk = w[k];
        inp[c] += x * wk;
        inp[c + 1] += y * wk;
        inp[c + 2] += z * wk;
      }
    }
  }
}

/**
 * BarycentricMap.apply for points of 4 terms each (points in tetrahedra, the common case: a visual
 * mesh mapped on a volume), unrolled: the same sums in the same order, from 0 (WeightedGatherWasm
 * computes the same; this loop runs where WebAssembly is missing).
 */
function applyFourTerms(out: Float64Array, inp: Float64Array, idx: Int32Array, w: Float64Array, n: number): void {
  for (let i = 0, k = 0; i < n; i++, k += 4) {
    const c0 = 3 * idx[k],
      c1 = 3 * idx[k + 1],
      c2 = 3 * idx[k + 2],
      c3 = 3 * idx[k + 3];
    const w0 = w[k],
      w1 = w[k + 1],
      w2 = w[k + 2],
      w3 = w[k + 3];
    out[3 * i] = 0 + inp[c0] * w0 + inp[c1] * w1 + inp[c2] * w2 + inp[c3] * w3;
    out[3 * i + 1] = 0 + inp[c0 + 1] * w0 + inp[c1 + 1] * w1 + inp[c2 + 1] * w2 + inp[c3 + 1] * w3;
    out[3 * i + 2] = 0 + inp[c0 + 2] * w0 + inp[c1 + 2] * w1 + inp[c2 + 2] * w2 + inp[c3 + 2] * w3;
  }
}

/** Collects the terms of each output point in order; `build` freezes them into a BarycentricMap. */
export class BarycentricMapBuilder {
  private readonly ptr: number[] = [0];
  private readonly idx: number[] = [];
  private readonly w: number[] = [];

  /** Adds the term w·x_in[c] to the current point. */
  term(c: number, w: number): void {
    this.idx.push(c);
    this.w.push(w);
  }

  /** Closes the current point. */
  endPoint(): void {
    this.ptr.push(this.idx.length);
  }

  get count(): number {
    return this.ptr.length - 1;
  }

  build(nIn: number): BarycentricMap {
    return new BarycentricMap(nIn, Int32Array.from(this.ptr), Int32Array.from(this.idx), Float64Array.from(this.w));
  }
}

/** J: row 3i + a holds w at column 3c + a for every term (c, w) of point i, columns sorted and merged. */
function buildJacobian(nIn: number, ptr: Int32Array, idx: Int32Array, w: Float64Array): CsrMatrix {
  const nOut = ptr.length - 1;
  const rowPtr = new Int32Array(3 * nOut + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < nOut; i++) {
    pairs.length = 0;
    for (let k = ptr[i]; k < ptr[i + 1]; k++) pairs.push([idx[k], w[k]]);
    pairs.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const p of pairs) {
      const last = merged[merged.length - 1];
      if (last && last[0] === p[0]) last[1] += p[1];
      else merged.push([p[0], p[1]]);
    }
    for (let a = 0; a < 3; a++) {
      for (const [c, wc] of merged) {
        cols.push(3 * c + a);
        vals.push(wc);
      }
      rowPtr[3 * i + a + 1] = cols.length;
    }
  }
  return createCsr(3 * nOut, 3 * nIn, rowPtr, Int32Array.from(cols), Float64Array.from(vals));
}
