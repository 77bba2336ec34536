import type { SupernodalLDLT } from './supernodal-ldlt.js';

/**
 * Bᵀ·A⁻¹·B and A⁻¹·B·c for a few sparse columns B (n × m), through the factorization
 * P A Pᵀ = L D Lᵀ of a {@link SupernodalLDLT} (a constraint correction's W = J·A⁻¹·Jᵀ and
 * Δ = A⁻¹·Jᵀ·λ, with B = Jᵀ):
 *   Y = L⁻¹·P·B                        (`forward`: one sparse forward solve for all m columns)
 *   Bᵀ·A⁻¹·B = Yᵀ·D⁻¹·Y                (`addGram`: symmetric by construction)
 *   A⁻¹·B·c = Pᵀ·L⁻ᵀ·D⁻¹·(Y·c)         (`solveCombination`: one backward solve)
 * instead of m full solves and a product. Column j of Y is non-zero only on the supernodes its
 * non-zeros reach up the supernodal elimination tree (the parent of supernode s is the supernode
 * of its first row below its diagonal block); `forward` stores, per reached supernode s, its rows
 * of Y for the columns that reach s only (an ns × na block by pairs of columns: entry (k, c) at
 * 2·(⌊c/2⌋·ns + k) + c mod 2, the two columns of a pair side by side, an odd last column's partner
 * 0), so the work and memory are those of the non-zeros of L⁻¹·P·B. Where the factor has its
 * WebAssembly kernel, Y lives in the kernel's memory and the dense steps of the forward solve run
 * there in f64x2 (the same operations in the same order as the JavaScript code here: the same
 * values to the bit). The factor must not change between `forward` and the other two (the caller
 * keeps that promise). Allocates only when the problem grows.
 */
export class SupernodalCompliance {
  /** Number of columns of the last `forward`. */
  m = 0;
  /** Number of supernodes reached by the last `forward` (for tests and benchmarks). */
  reached = 0;

  private factor: SupernodalLDLT | undefined;
  /** The analysis the tables below were built for (SupernodalLDLT replaces superStart at each analyze). */
  private analysedFor: Int32Array | undefined;
  /** (n) supernode of each column of L, (nsuper) parent supernode (−1 for a root). */
  private superOf = new Int32Array(0);
  private superParent = new Int32Array(0);
  /** (nsuper) last column that reached the supernode (−1 none), and its index in the reach list. */
  private lastCol = new Int32Array(0);
  private reachIdx = new Int32Array(0);
  /** (reached) supernodes reached, ascending; per reached supernode its active columns (CSR) and Y block. */
  private reach = new Int32Array(0);
  private actPtr = new Int32Array(1);
  private actCol = new Int32Array(0);
  private yPtr = new Int32Array(1);
  /** (Σ ns·na rounded up to even) the blocks of Y: in the factor's kernel scratch when it has one. */
  private Y: Float64Array = new Float64Array(0);
  private ownY = new Float64Array(0);
  /** (max na) slot of each active column of s in the list of a supernode it updates. */
  private slot = new Int32Array(0);
  /** (max na, max rows below) target offsets in Y of a product below (colOff by slot, rowBase by row). */
  private colOff: Int32Array = new Int32Array(0);
  private rowBase: Int32Array = new Int32Array(0);
  /** (maxNa × 2⌈maxNa/2⌉) the Gram sums of one supernode (ldltGram's output), after colOff in the kernel's scratch. */
  private gramSums: Float64Array = new Float64Array(0);
  /** The factor's kernel for the last forward (undefined: JavaScript). */
  private kernel: ReturnType<SupernodalLDLT['kernelScratch']>;
  /** (nsuper) next free slot of each reached supernode's active list while it is filled. */
  private fillPos = new Int32Array(0);
  /** (m × m) Yᵀ·D⁻¹·Y, upper triangle. */
  private gram = new Float64Array(0);
  /** (n) the backward solve's vector (permuted numbering). */
  private z = new Float64Array(0);

  /**
   * Y = L⁻¹·P·B for the m columns of B given by colPtr (m + 1), rowInd (row of each entry, in A's
   * numbering; repeats add up) and values. The factor must hold a valid factorization.
   */
  forward(f: SupernodalLDLT, m: number, colPtr: ArrayLike<number>, rowInd: ArrayLike<number>, values: ArrayLike<number>): void {
    if (!f.factorized) throw new Error('SupernodalCompliance.forward: no valid factorization');
    this.prepare(f);
    this.factor = f;
    this.m = m;
    const { pinv, superStart } = f;
    const { superOf, superParent, lastCol, reachIdx } = this;
    const nsuper = f.nsuper;

    // Pass 1: the supernodes each column reaches (walk up until one already marked for it).
    lastCol.fill(-1, 0, nsuper);
    let nreach = 0;
    for (let j = 0; j < m; j++) {
      for (let e = colPtr[j]; e < colPtr[j + 1]; e++) {
        let s = superOf[pinv[rowInd[e]]];
        while (s !== -1 && lastCol[s] !== j) {
          if (lastCol[s] === -1) nreach++;
          lastCol[s] = j;
          s = superParent[s];
        }
      }
    }
    if (this.reach.length < nreach) {
      this.reach = new Int32Array(nreach);
      this.actPtr = new Int32Array(nreach + 1);
      this.yPtr = new Int32Array(nreach + 1);
    }
    const reach = this.reach;
    let q = 0;
    for (let s = 0; s < nsuper; s++) if (lastCol[s] !== -1) reach[q++] = s;
    this.reached = nreach;

    // Pass 2: count the active columns of every reached supernode.
    const counts = this.actPtr;
    counts.fill(0, 0, nreach + 1);
    for (let i = 0; i < nreach; i++) reachIdx[reach[i]] = i;
    lastCol.fill(-1, 0, nsuper);
    for (let j = 0; j < m; j++) {
      for (let e = colPtr[j]; e < colPtr[j + 1]; e++) {
        let s = superOf[pinv[rowInd[e]]];
        while (s !== -1 && lastCol[s] !== j) {
          lastCol[s] = j;
          counts[reachIdx[s] + 1]++;
          s = superParent[s];
        }
      }
    }
    let maxNa = 0;
    let maxBelow = 0;
    const yPtr = this.yPtr;
    yPtr[0] = 0;
    for (let i = 0; i < nreach; i++) {
      const na = counts[i + 1];
      if (na > maxNa) maxNa = na;
      const s = reach[i];
      const ns = superStart[s + 1] - superStart[s];
      const below = f.superRowPtr[s + 1] - f.superRowPtr[s] - ns;
      if (below > maxBelow) maxBelow = below;
      yPtr[i + 1] = yPtr[i] + ns * (na + (na & 1));
      counts[i + 1] = counts[i] + na;
    }
    const actPtr = counts;
    const ny = yPtr[nreach];
    if (this.actCol.length < actPtr[nreach]) this.actCol = new Int32Array(actPtr[nreach]);
    if (this.slot.length < maxNa) this.slot = new Int32Array(maxNa);
    // Y, then the products' target offsets (maxBelow + maxNa i32) and the Gram sums of a supernode
    // (16-byte aligned), in the kernel's scratch or ours
    const offsets = 2 * Math.ceil((maxBelow + maxNa) / 4);
    const sums = maxNa * 2 * ((maxNa + 1) >> 1);
    const kernel = f.kernelScratch(ny + offsets + sums);
    this.kernel = kernel;
    if (kernel) {
      const buf = kernel.scratch.buffer;
      const at = kernel.scratch.byteOffset;
      // views of the scratch, made again only when it moved or the sizes changed
      if (
        this.Y.buffer !== buf ||
        this.Y.byteOffset !== at ||
        this.Y.length !== ny ||
        this.rowBase.length !== maxBelow ||
        this.colOff.length !== maxNa ||
        this.gramSums.length !== sums
      ) {
        this.Y = new Float64Array(buf, at, ny);
        this.rowBase = new Int32Array(buf, at + 8 * ny, maxBelow);
        this.colOff = new Int32Array(buf, at + 8 * ny + 4 * maxBelow, maxNa);
        this.gramSums = new Float64Array(buf, at + 8 * (ny + offsets), sums);
      }
    } else {
      if (this.ownY.length < ny) this.ownY = new Float64Array(ny);
      this.Y = this.ownY;
    }
    const { actCol, Y } = this;
    Y.fill(0, 0, ny);

    // Pass 3: the active column lists (ascending, as j increases), and B scattered into Y: column j
    // is the last one listed in every supernode of its walks.
    const fill = this.fillPos;
    for (let i = 0; i < nreach; i++) fill[i] = actPtr[i];
    lastCol.fill(-1, 0, nsuper);
    for (let j = 0; j < m; j++) {
      const e0 = colPtr[j];
      const e1 = colPtr[j + 1];
      for (let e = e0; e < e1; e++) {
        let s = superOf[pinv[rowInd[e]]];
        while (s !== -1 && lastCol[s] !== j) {
          lastCol[s] = j;
          actCol[fill[reachIdx[s]]++] = j;
          s = superParent[s];
        }
      }
      for (let e = e0; e < e1; e++) {
        const k = pinv[rowInd[e]];
        const i = reachIdx[superOf[k]];
        const s = reach[i];
        const c = fill[i] - 1 - actPtr[i];
        Y[yPtr[i] + 2 * ((c >> 1) * (superStart[s + 1] - superStart[s]) + k - superStart[s]) + (c & 1)] += values[e];
      }
    }

    this.forwardSolve(f, nreach);
  }

  /**
   * Y ← L⁻¹·Y over the reached supernodes, ascending: the diagonal block (y_k −= Σ_{q<k} L_kq·y_q),
   * then, for the rows below by target supernode t (a run of consecutive rows), y_t −= L_rows·Y_s.
   */
  private forwardSolve(f: SupernodalLDLT, nreach: number): void {
    const { superStart, superRowPtr, superRows, superValPtr, Lx } = f;
    const { reach, reachIdx, actPtr, actCol, yPtr, Y, superOf, slot, kernel, rowBase, colOff } = this;
    const lxB = Lx.byteOffset;
    const yB = Y.byteOffset;
    for (let i = 0; i < nreach; i++) {
      const s = reach[i];
      const k1 = superStart[s];
      const ns = superStart[s + 1] - k1;
      const r0 = superRowPtr[s];
      const nrows = superRowPtr[s + 1] - r0;
      const xs = superValPtr[s];
      const a0 = actPtr[i];
      const na = actPtr[i + 1] - a0;
      const ys = yPtr[i];
      if (kernel) kernel.pairLowerSolve(lxB + 8 * xs, ns, yB + 8 * ys, na);
      else pairLowerSolve(Lx, xs, ns, Y, ys, na);
      const nb = nrows - ns;
      let p = 0;
      while (p < nb) {
        const t = superOf[superRows[r0 + ns + p]];
        const tk1 = superStart[t];
        const tEnd = superStart[t + 1];
        const nst = tEnd - tk1;
        let p2 = p;
        while (p2 < nb && superRows[r0 + ns + p2] < tEnd) p2++;
        const it = reachIdx[t];
        const b0 = actPtr[it];
        // s's columns are among t's (a column reaching s reaches its ancestors): merge for their slots
        for (let c = 0, d = 0; c < na; c++) {
          const j = actCol[a0 + c];
          while (actCol[b0 + d] !== j) d++;
          slot[c] = d;
        }
        // entry (row, slot d) of t's block: yt + 2·(row − tk1) + 2·⌊d/2⌋·nst + d mod 2
        const yt = yPtr[it];
        if (kernel) {
          for (let c = 0; c < na; c++) colOff[c] = 2 * (slot[c] >> 1) * nst + (slot[c] & 1);
          for (let r = p; r < p2; r++) rowBase[r - p] = yt + 2 * (superRows[r0 + ns + r] - tk1);
          kernel.product(lxB + 8 * (xs + (ns + p) * ns), 8 * ns, yB + 8 * ys, ns, na, p2 - p, yB, rowBase.byteOffset, colOff.byteOffset, 0);
        } else {
          for (let r = p; r < p2; r++) {
            const l0 = xs + (ns + r) * ns;
            const dst = yt + 2 * (superRows[r0 + ns + r] - tk1);
            for (let c = 0; c < na; c++) {
              const u = ys + 2 * (c >> 1) * ns + (c & 1);
              let sum = 0;
              for (let q = 0; q < ns; q++) sum += Lx[l0 + q] * Y[u + 2 * q];
              Y[dst + 2 * (slot[c] >> 1) * nst + (slot[c] & 1)] -= sum;
            }
          }
        }
        p = p2;
      }
    }
  }

  /**
   * out[index[a]·ld + index[b]] += scale·(Bᵀ·A⁻¹·B)_ab for every pair of columns a, b of the last
   * `forward` (both triangles; index maps a column to its row and column of out).
   */
  addGram(out: Float64Array, ld: number, index: ArrayLike<number>, scale: number): void {
    const f = this.factor!;
    const { superStart } = f;
    const D = f.D;
    const m = this.m;
    if (this.gram.length < m * m) this.gram = new Float64Array(m * m);
    const G = this.gram;
    G.fill(0, 0, m * m);
    const { reach, actPtr, actCol, yPtr, Y, kernel, gramSums } = this;
    // G_ab += Σ_k y_ka·y_kb / D_k for a ≤ b, over the supernodes where both columns are active
    for (let i = 0; i < this.reached; i++) {
      const s = reach[i];
      const k1 = superStart[s];
      const ns = superStart[s + 1] - k1;
      const a0 = actPtr[i];
      const na = actPtr[i + 1] - a0;
      const ys = yPtr[i];
      if (kernel) {
        // the same sums in the kernel, two columns of a pair at once: row c1's pairs from c1's own
        kernel.gram(Y.byteOffset + 8 * ys, ns, na, D.byteOffset + 8 * k1, gramSums.byteOffset);
        const npair = (na + 1) >> 1;
        for (let c1 = 0; c1 < na; c1++) {
          const g = actCol[a0 + c1] * m;
          const row = 2 * c1 * npair; // column c2 of row c1: pair c2 >> 1, lane c2 mod 2
          for (let c2 = c1; c2 < na; c2++) G[g + actCol[a0 + c2]] += gramSums[row + c2];
        }
        continue;
      }
      for (let c1 = 0; c1 < na; c1++) {
        const y1 = ys + 2 * (c1 >> 1) * ns + (c1 & 1);
        const g = actCol[a0 + c1] * m;
        for (let c2 = c1; c2 < na; c2++) {
          const y2 = ys + 2 * (c2 >> 1) * ns + (c2 & 1);
          let sum = 0;
          for (let k = 0; k < ns; k++) sum += (Y[y1 + 2 * k] * Y[y2 + 2 * k]) / D[k1 + k];
          G[g + actCol[a0 + c2]] += sum;
        }
      }
    }
    for (let a = 0; a < m; a++) {
      const ia = index[a];
      for (let b = a; b < m; b++) {
        const g = scale * G[a * m + b];
        const ib = index[b];
        out[ia * ld + ib] += g;
        if (b !== a) out[ib * ld + ia] += g;
      }
    }
  }

  /** out (n, A's numbering) = A⁻¹·B·c for coefficients c (m) of the last `forward`'s columns. */
  solveCombination(out: Float64Array, c: ArrayLike<number>): void {
    const f = this.factor!;
    const { n, superStart, D } = f;
    const { reach, actPtr, actCol, yPtr, Y } = this;
    const z = this.z;
    z.fill(0, 0, n);
    // z = D⁻¹·Y·c on the reached supernodes (zero elsewhere)
    for (let i = 0; i < this.reached; i++) {
      const s = reach[i];
      const k1 = superStart[s];
      const ns = superStart[s + 1] - k1;
      const a0 = actPtr[i];
      const na = actPtr[i + 1] - a0;
      const ys = yPtr[i];
      for (let q = 0; q < na; q++) {
        const cq = c[actCol[a0 + q]];
        if (cq === 0) continue;
        const y = ys + 2 * (q >> 1) * ns + (q & 1);
        for (let k = 0; k < ns; k++) z[k1 + k] += Y[y + 2 * k] * cq;
      }
      for (let k = 0; k < ns; k++) z[k1 + k] /= D[k1 + k];
    }
    // v = Pᵀ·L⁻ᵀ·z (the factor's backward solve: its WebAssembly kernel when it has one)
    f.backwardSolve(out, z);
  }

  /** Tables of the factor's analysis (supernode of each column, supernodal tree), rebuilt when it changes. */
  private prepare(f: SupernodalLDLT): void {
    if (this.analysedFor === f.superStart && this.superOf.length === f.n) return;
    const { n, nsuper, superStart, superRowPtr, superRows } = f;
    this.superOf = new Int32Array(n);
    for (let s = 0; s < nsuper; s++) this.superOf.fill(s, superStart[s], superStart[s + 1]);
    this.superParent = new Int32Array(nsuper);
    for (let s = 0; s < nsuper; s++) {
      const ns = superStart[s + 1] - superStart[s];
      const r = superRowPtr[s] + ns;
      this.superParent[s] = r < superRowPtr[s + 1] ? this.superOf[superRows[r]] : -1;
    }
    this.lastCol = new Int32Array(nsuper);
    this.reachIdx = new Int32Array(nsuper);
    this.fillPos = new Int32Array(nsuper);
    this.z = new Float64Array(n);
    this.analysedFor = superStart;
  }
}

/**
 * Y_s ← L_ss⁻¹·Y_s for the unit lower triangle of a diagonal block (ns × ns at x0, row by row) and
 * na columns of ns in the paired layout at y0 (the WebAssembly kernel's ldltPairLowerSolve).
 */
function pairLowerSolve(Lx: Float64Array, x0: number, ns: number, Y: Float64Array, y0: number, na: number): void {
  for (let c = 0; c < na; c++) {
    const u = y0 + 2 * (c >> 1) * ns + (c & 1);
    for (let k = 1; k < ns; k++) {
      const rk = x0 + k * ns;
      let t = Y[u + 2 * k];
      for (let q = 0; q < k; q++) t -= Lx[rk + q] * Y[u + 2 * q];
      Y[u + 2 * k] = t;
    }
  }
}
