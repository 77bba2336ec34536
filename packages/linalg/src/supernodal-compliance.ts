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
 * of Y for the columns that reach s only (an ns × na block, column by column), so the work and memory
 * are those of the non-zeros of L⁻¹·P·B. The factor must not change between `forward` and the
 * other two (the caller keeps that promise). Allocates only when the problem grows.
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
  /** (Σ ns·na) the blocks of Y. */
  private Y = new Float64Array(0);
  /** (max na) slot of each active column of s in the list of a supernode it updates. */
  private slot = new Int32Array(0);
  /** (max over s of na × rows below s) T = L_below·Y_s, column by column. */
  private tmp = new Float64Array(0);
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
      for (let e = colPtr[j]!; e < colPtr[j + 1]!; e++) {
        let s = superOf[pinv[rowInd[e]!]!]!;
        while (s !== -1 && lastCol[s] !== j) {
          if (lastCol[s] === -1) nreach++;
          lastCol[s] = j;
          s = superParent[s]!;
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
    for (let i = 0; i < nreach; i++) reachIdx[reach[i]!] = i;
    lastCol.fill(-1, 0, nsuper);
    for (let j = 0; j < m; j++) {
      for (let e = colPtr[j]!; e < colPtr[j + 1]!; e++) {
        let s = superOf[pinv[rowInd[e]!]!]!;
        while (s !== -1 && lastCol[s] !== j) {
          lastCol[s] = j;
          counts[reachIdx[s]! + 1]++;
          s = superParent[s]!;
        }
      }
    }
    let maxNa = 0;
    let maxT = 0;
    const yPtr = this.yPtr;
    yPtr[0] = 0;
    for (let i = 0; i < nreach; i++) {
      const na = counts[i + 1]!;
      if (na > maxNa) maxNa = na;
      const s = reach[i]!;
      const ns = superStart[s + 1]! - superStart[s]!;
      const below = f.superRowPtr[s + 1]! - f.superRowPtr[s]! - ns;
      if (below * na > maxT) maxT = below * na;
      yPtr[i + 1] = yPtr[i]! + ns * na;
      counts[i + 1] = counts[i]! + na;
    }
    const actPtr = counts;
    if (this.actCol.length < actPtr[nreach]!) this.actCol = new Int32Array(actPtr[nreach]!);
    if (this.Y.length < yPtr[nreach]!) this.Y = new Float64Array(yPtr[nreach]!);
    if (this.slot.length < maxNa) this.slot = new Int32Array(maxNa);
    if (this.tmp.length < maxT) this.tmp = new Float64Array(maxT);
    const { actCol, Y } = this;
    Y.fill(0, 0, yPtr[nreach]!);

    // Pass 3: the active column lists (ascending, as j increases), and B scattered into Y: column j
    // is the last one listed in every supernode of its walks.
    const fill = this.fillPos;
    for (let i = 0; i < nreach; i++) fill[i] = actPtr[i]!;
    lastCol.fill(-1, 0, nsuper);
    for (let j = 0; j < m; j++) {
      const e0 = colPtr[j]!;
      const e1 = colPtr[j + 1]!;
      for (let e = e0; e < e1; e++) {
        let s = superOf[pinv[rowInd[e]!]!]!;
        while (s !== -1 && lastCol[s] !== j) {
          lastCol[s] = j;
          actCol[fill[reachIdx[s]!]!++] = j;
          s = superParent[s]!;
        }
      }
      for (let e = e0; e < e1; e++) {
        const k = pinv[rowInd[e]!]!;
        const i = reachIdx[superOf[k]!]!;
        const s = reach[i]!;
        const c = fill[i]! - 1 - actPtr[i]!;
        Y[yPtr[i]! + c * (superStart[s + 1]! - superStart[s]!) + k - superStart[s]!] += values[e]!;
      }
    }

    this.forwardSolve(f, nreach);
  }

  /**
   * Y ← L⁻¹·Y over the reached supernodes, ascending: the diagonal block (y_k −= Σ_{q<k} L_kq·y_q),
   * then T = L_below·Y_s for the rows below, subtracted from the supernodes they belong to.
   */
  private forwardSolve(f: SupernodalLDLT, nreach: number): void {
    const { superStart, superRowPtr, superRows, superValPtr, Lx } = f;
    const { reach, reachIdx, actPtr, actCol, yPtr, Y, superOf, slot, tmp } = this;
    for (let i = 0; i < nreach; i++) {
      const s = reach[i]!;
      const k1 = superStart[s]!;
      const ns = superStart[s + 1]! - k1;
      const r0 = superRowPtr[s]!;
      const nrows = superRowPtr[s + 1]! - r0;
      const xs = superValPtr[s]!;
      const a0 = actPtr[i]!;
      const na = actPtr[i + 1]! - a0;
      const ys = yPtr[i]!;
      lowerSolve(Lx, xs, ns, Y, ys, na);
      const nb = nrows - ns;
      if (nb === 0) continue;
      productBelow(Lx, xs + ns * ns, ns, nb, Y, ys, na, tmp);
      // T's rows, by target supernode t (a run of consecutive rows), into t's block
      let p = 0;
      while (p < nb) {
        const t = superOf[superRows[r0 + ns + p]!]!;
        const tk1 = superStart[t]!;
        const tEnd = superStart[t + 1]!;
        const nst = tEnd - tk1;
        let p2 = p;
        while (p2 < nb && superRows[r0 + ns + p2]! < tEnd) p2++;
        const it = reachIdx[t]!;
        const b0 = actPtr[it]!;
        // s's columns are among t's (a column reaching s reaches its ancestors): merge for their slots
        for (let c = 0, d = 0; c < na; c++) {
          const j = actCol[a0 + c]!;
          while (actCol[b0 + d]! !== j) d++;
          slot[c] = d;
        }
        const yt = yPtr[it]!;
        for (let c = 0; c < na; c++) {
          const dst = yt + slot[c]! * nst - tk1;
          const src = c * nb;
          for (let r = p; r < p2; r++) Y[dst + superRows[r0 + ns + r]!] -= tmp[src + r]!;
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
    const { reach, actPtr, actCol, yPtr, Y } = this;
    // G_ab += Σ_k y_ka·y_kb / D_k for a ≤ b, over the supernodes where both columns are active
    for (let i = 0; i < this.reached; i++) {
      const s = reach[i]!;
      const k1 = superStart[s]!;
      const ns = superStart[s + 1]! - k1;
      const a0 = actPtr[i]!;
      const na = actPtr[i + 1]! - a0;
      const ys = yPtr[i]!;
      for (let c1 = 0; c1 < na; c1++) {
        const y1 = ys + c1 * ns;
        const g = actCol[a0 + c1]! * m;
        for (let c2 = c1; c2 < na; c2++) {
          const y2 = ys + c2 * ns;
          let sum = 0;
          for (let k = 0; k < ns; k++) sum += (Y[y1 + k]! * Y[y2 + k]!) / D[k1 + k]!;
          G[g + actCol[a0 + c2]!] += sum;
        }
      }
    }
    for (let a = 0; a < m; a++) {
      const ia = index[a]!;
      for (let b = a; b < m; b++) {
        const g = scale * G[a * m + b]!;
        const ib = index[b]!;
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
      const s = reach[i]!;
      const k1 = superStart[s]!;
      const ns = superStart[s + 1]! - k1;
      const a0 = actPtr[i]!;
      const na = actPtr[i + 1]! - a0;
      const ys = yPtr[i]!;
      for (let q = 0; q < na; q++) {
        const cq = c[actCol[a0 + q]!]!;
        if (cq === 0) continue;
        const y = ys + q * ns;
        for (let k = 0; k < ns; k++) z[k1 + k] += Y[y + k]! * cq;
      }
      for (let k = 0; k < ns; k++) z[k1 + k] /= D[k1 + k]!;
    }
    // v = Pᵀ·L⁻ᵀ·z (the factor's backward solve: its WebAssembly kernel when it has one)
    f.backwardSolve(out, z);
  }

  /** Tables of the factor's analysis (supernode of each column, supernodal tree), rebuilt when it changes. */
  private prepare(f: SupernodalLDLT): void {
    if (this.analysedFor === f.superStart && this.superOf.length === f.n) return;
    const { n, nsuper, superStart, superRowPtr, superRows } = f;
    this.superOf = new Int32Array(n);
    for (let s = 0; s < nsuper; s++) this.superOf.fill(s, superStart[s]!, superStart[s + 1]!);
    this.superParent = new Int32Array(nsuper);
    for (let s = 0; s < nsuper; s++) {
      const ns = superStart[s + 1]! - superStart[s]!;
      const r = superRowPtr[s]! + ns;
      this.superParent[s] = r < superRowPtr[s + 1]! ? this.superOf[superRows[r]!]! : -1;
    }
    this.lastCol = new Int32Array(nsuper);
    this.reachIdx = new Int32Array(nsuper);
    this.fillPos = new Int32Array(nsuper);
    this.z = new Float64Array(n);
    this.analysedFor = superStart;
  }
}

/** Y_s ← L_ss⁻¹·Y_s for the unit lower triangle of a diagonal block (ns × ns at x0, row by row) and na columns of ns (at y0). */
function lowerSolve(Lx: Float64Array, x0: number, ns: number, Y: Float64Array, y0: number, na: number): void {
  let c = 0;
  for (; c + 1 < na; c += 2) {
    const u = y0 + c * ns;
    const v = u + ns;
    for (let k = 1; k < ns; k++) {
      const rk = x0 + k * ns;
      let t0 = Y[u + k]!;
      let t1 = Y[v + k]!;
      for (let q = 0; q < k; q++) {
        const l = Lx[rk + q]!;
        t0 -= l * Y[u + q]!;
        t1 -= l * Y[v + q]!;
      }
      Y[u + k] = t0;
      Y[v + k] = t1;
    }
  }
  if (c < na) {
    const u = y0 + c * ns;
    for (let k = 1; k < ns; k++) {
      const rk = x0 + k * ns;
      let t0 = Y[u + k]!;
      for (let q = 0; q < k; q++) t0 -= Lx[rk + q]! * Y[u + q]!;
      Y[u + k] = t0;
    }
  }
}

/**
 * T (na columns of nb, column by column) = L_below·Y_s: row r of L_below is at x0 + r·ns (ns
 * entries), column c of Y_s at y0 + c·ns. Three rows by three columns at a time (nine dot products
 * sharing six loads per step).
 */
function productBelow(Lx: Float64Array, x0: number, ns: number, nb: number, Y: Float64Array, y0: number, na: number, T: Float64Array): void {
  let c = 0;
  for (; c + 2 < na; c += 3) {
    const u = y0 + c * ns;
    const v = u + ns;
    const w = v + ns;
    const t0 = c * nb;
    const t1 = t0 + nb;
    const t2 = t1 + nb;
    let r = 0;
    for (; r + 2 < nb; r += 3) {
      const l0 = x0 + r * ns;
      const l1 = l0 + ns;
      const l2 = l1 + ns;
      let s00 = 0, s01 = 0, s02 = 0, s10 = 0, s11 = 0, s12 = 0, s20 = 0, s21 = 0, s22 = 0;
      for (let q = 0; q < ns; q++) {
        const a = Lx[l0 + q]!;
        const b = Lx[l1 + q]!;
        const d = Lx[l2 + q]!;
        const yu = Y[u + q]!;
        const yv = Y[v + q]!;
        const yw = Y[w + q]!;
        s00 += a * yu;
        s01 += a * yv;
        s02 += a * yw;
        s10 += b * yu;
        s11 += b * yv;
        s12 += b * yw;
        s20 += d * yu;
        s21 += d * yv;
        s22 += d * yw;
      }
      T[t0 + r] = s00;
      T[t1 + r] = s01;
      T[t2 + r] = s02;
      T[t0 + r + 1] = s10;
      T[t1 + r + 1] = s11;
      T[t2 + r + 1] = s12;
      T[t0 + r + 2] = s20;
      T[t1 + r + 2] = s21;
      T[t2 + r + 2] = s22;
    }
    for (; r < nb; r++) {
      const l0 = x0 + r * ns;
      let s0 = 0, s1 = 0, s2 = 0;
      for (let q = 0; q < ns; q++) {
        const a = Lx[l0 + q]!;
        s0 += a * Y[u + q]!;
        s1 += a * Y[v + q]!;
        s2 += a * Y[w + q]!;
      }
      T[t0 + r] = s0;
      T[t1 + r] = s1;
      T[t2 + r] = s2;
    }
  }
  for (; c < na; c++) {
    const u = y0 + c * ns;
    const t0 = c * nb;
    for (let r = 0; r < nb; r++) {
      const l0 = x0 + r * ns;
      let s0 = 0;
      for (let q = 0; q < ns; q++) s0 += Lx[l0 + q]! * Y[u + q]!;
      T[t0 + r] = s0;
    }
  }
}
