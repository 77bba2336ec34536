import { FunctionBuilder, WasmType, wasmApi, wasmModuleBytes, type Local } from './wasm-module.js';

/**
 * The numeric phase of SupernodalLDLT (factorize and solve) as a WebAssembly kernel written by
 * wasm-module.ts. It performs exactly the operations of the JavaScript code of supernodal-ldlt.ts,
 * in the same order (the same left-looking updates, the same 3×3-blocked products, the same panel
 * factorization, the same triangular solves), so factors and solutions are bit for bit the same;
 * it only runs them without the bounds checks and boxing of the JavaScript loops.
 *
 * Every array lives in the kernel's memory (supernodal-ldlt.ts makes its arrays views of it); the
 * functions read their addresses from a header of i32 at byte 0 (LDLT_HEADER fields):
 *   `ldltFactor()`  factorizes Av (the values of A) into Lx and D; status = −1, or the elimination
 *                   step whose pivot vanished (its value at `pivot`);
 *   `ldltSolve()`   y = Pᵀ L⁻ᵀ D⁻¹ L⁻¹ P b, reading and writing the vector at `vec`;
 *   `ldltBackward()` vec = Pᵀ L⁻ᵀ y for the vector y (in the elimination order) at `y`;
 *   `ldltProduct(…)`, `ldltPairLowerSolve(…)` (addresses as arguments) the dense steps of
 *                   SupernodalCompliance's forward solve, on blocks in the kernel's scratch region.
 */
export const LDLT_HEADER = {
  nsuper: 0, n: 1, superStart: 2, superRowPtr: 3, superRows: 4, superValPtr: 5, superOf: 6,
  aPtr: 7, aSrc: 8, aDst: 9, relPos: 10, rowBase: 11, colOff: 12, head: 13, next: 14, lpos: 15,
  Lx: 16, D: 17, W: 18, Av: 19, perm: 20, y: 21, vec: 22, status: 23, pivot: 24, tol: 25,
} as const;
/** Bytes of the header. */
export const LDLT_HEADER_BYTES = 128;
/** Columns per panel of the dense factorization of a supernode (as supernodal-ldlt.ts). */
export const LDLT_PANEL = 24;

const I = WasmType.i32, F = WasmType.f64, V = WasmType.v128;
type H = keyof typeof LDLT_HEADER;

/** A thin layer over FunctionBuilder: header fields, array elements, counted loops. */
class Kernel {
  readonly fb: FunctionBuilder;
  private readonly fields = new Map<H, Local>();
  constructor(name: string, params: WasmType[]) {
    this.fb = new FunctionBuilder(name, params);
  }
  param(i: number): Local {
    return this.fb.param(i);
  }
  int(): Local {
    return this.fb.local(I);
  }
  real(): Local {
    return this.fb.local(F);
  }
  /** The header field (an address or a count), loaded once into a local. */
  h(name: H): Local {
    let l = this.fields.get(name);
    if (!l) {
      l = this.fb.local(I);
      this.fb.i32Const(0).i32Load(4 * LDLT_HEADER[name]).set(l);
      this.fields.set(name, l);
    }
    return l;
  }
  /** Loads all the given header fields now (before any loop that uses them). */
  load(...names: H[]): void {
    for (const n of names) this.h(n);
  }
  /** Pushes the byte address of element idx of an i32 (shift 2) or f64 (shift 3) array. */
  at(base: Local, idx: () => void, shift: 2 | 3): this {
    this.fb.get(base);
    idx();
    this.fb.i32Const(shift).i32Shl().i32Add();
    return this;
  }
  /** Pushes the i32 element base[idx]. */
  geti(base: Local, idx: () => void): this {
    this.at(base, idx, 2);
    this.fb.i32Load(0);
    return this;
  }
  /** Pushes the f64 element base[idx]. */
  getf(base: Local, idx: () => void): this {
    this.at(base, idx, 3);
    this.fb.f64Load(0);
    return this;
  }
  /** for (v = from; v < to; v++) body — `to` is evaluated at every test. */
  forUp(v: Local, from: () => void, to: () => void, body: () => void): void {
    const fb = this.fb;
    from();
    fb.set(v);
    fb.block().loop();
    fb.get(v);
    to();
    fb.i32GeS().brIf(1);
    body();
    fb.get(v).i32Const(1).i32Add().set(v);
    fb.br(0).end().end();
  }
  /** for (v = from; v > to; v--) body (descending, exclusive bound). */
  forDown(v: Local, from: () => void, to: () => void, body: () => void): void {
    const fb = this.fb;
    from();
    fb.set(v);
    fb.block().loop();
    fb.get(v);
    to();
    fb.i32LeS().brIf(1);
    body();
    fb.get(v).i32Const(1).i32Sub().set(v);
    fb.br(0).end().end();
  }
  /** while (cond) body. */
  whileDo(cond: () => void, body: () => void): void {
    const fb = this.fb;
    fb.block().loop();
    cond();
    fb.i32Eqz().brIf(1);
    body();
    fb.br(0).end().end();
  }
}

const get = (k: Kernel, l: Local) => () => void k.fb.get(l);

/**
 * Emits W(j, ·) = L(row of j, 0:nk)·D(dBase + 0:nk) for j < ncol, in the layout of ldltSubtract: by
 * column pairs, the two columns of a pair interleaved, W(j, k) at element 2·(⌊j/2⌋·nk + k) + j mod 2;
 * the partner lane of an odd last column is zeroed. `rowStart(j)` pushes the Lx index of L's row of j.
 */
function emitPairedW(k: Kernel, ncol: Local, nk: Local, dBase: Local, rowStart: (j: Local) => void): void {
  const fb = k.fb;
  const j = k.int(), src = k.int(), dst = k.int(), kk = k.int();
  k.forUp(j, () => fb.i32Const(0), get(k, ncol), () => {
    rowStart(j);
    fb.set(src);
    // dst = 2·(j >> 1)·nk + (j & 1)
    fb.get(j).i32Const(1).i32ShrS().get(nk).i32Mul().i32Const(1).i32Shl().get(j).i32Const(1).i32And().i32Add().set(dst);
    k.forUp(kk, () => fb.i32Const(0), get(k, nk), () => {
      k.at(k.h('W'), () => fb.get(dst).get(kk).i32Const(1).i32Shl().i32Add(), 3);
      k.getf(k.h('Lx'), () => fb.get(src).get(kk).i32Add());
      k.getf(k.h('D'), () => fb.get(dBase).get(kk).i32Add());
      fb.f64Mul().f64Store(0);
    });
  });
  // an odd count: zero the partner lane of the last pair
  fb.get(ncol).i32Const(1).i32And().if();
  fb.get(ncol).i32Const(1).i32ShrS().get(nk).i32Mul().i32Const(1).i32Shl().i32Const(1).i32Add().set(dst);
  k.forUp(kk, () => fb.i32Const(0), get(k, nk), () => {
    k.at(k.h('W'), () => fb.get(dst).get(kk).i32Const(1).i32Shl().i32Add(), 3);
    fb.f64Const(0).f64Store(0);
  });
  fb.end();
}

/**
 * update(d, p1, p2, s): block of s −= L_d(rows p1.., :)·D_d·L_d(rows p1..p2−1, :)ᵀ (supernodal-ldlt.ts
 * `update`, calling subtractProducts, function 1).
 */
function updateFunction(): FunctionBuilder {
  const k = new Kernel('ldltUpdate', [I, I, I, I]);
  const fb = k.fb;
  const d = k.param(0), p1 = k.param(1), p2 = k.param(2), s = k.param(3);
  k.load('superStart', 'superRowPtr', 'superRows', 'superValPtr', 'Lx', 'D', 'W', 'rowBase', 'colOff', 'relPos');
  const dk1 = k.int(), nd = k.int(), rd0 = k.int(), xd = k.int(), k1 = k.int(), ns = k.int(), xs = k.int(), ndrow1 = k.int(), ndrow2 = k.int();
  const j = k.int(), i = k.int();
  k.geti(k.h('superStart'), get(k, d)).fb.set(dk1);
  k.geti(k.h('superStart'), () => fb.get(d).i32Const(1).i32Add()).fb.get(dk1).i32Sub().set(nd);
  k.geti(k.h('superRowPtr'), get(k, d)).fb.set(rd0);
  k.geti(k.h('superValPtr'), get(k, d)).fb.set(xd);
  k.geti(k.h('superStart'), get(k, s)).fb.set(k1);
  k.geti(k.h('superStart'), () => fb.get(s).i32Const(1).i32Add()).fb.get(k1).i32Sub().set(ns);
  k.geti(k.h('superValPtr'), get(k, s)).fb.set(xs);
  fb.get(p2).get(p1).i32Sub().set(ndrow1);
  k.geti(k.h('superRowPtr'), () => fb.get(d).i32Const(1).i32Add()).fb.get(p1).i32Sub().set(ndrow2);
  // W(j, :) = L_d(row p1+j, :)·D_d (paired layout)
  emitPairedW(k, ndrow1, nd, dk1, (jj) => void fb.get(xd).get(p1).get(rd0).i32Sub().get(jj).i32Add().get(nd).i32Mul().i32Add());
  // colOff[j] = superRows[p1+j] − k1
  k.forUp(j, () => fb.i32Const(0), get(k, ndrow1), () => {
    k.at(k.h('colOff'), get(k, j), 2);
    k.geti(k.h('superRows'), () => fb.get(p1).get(j).i32Add()).fb.get(k1).i32Sub().i32Store(0);
  });
  // rowBase[i] = xs + relPos[superRows[p1+i]]·ns
  k.forUp(i, () => fb.i32Const(0), get(k, ndrow2), () => {
    k.at(k.h('rowBase'), get(k, i), 2);
    fb.get(xs);
    k.geti(k.h('relPos'), () => k.geti(k.h('superRows'), () => fb.get(p1).get(i).i32Add()));
    fb.get(ns).i32Mul().i32Add().i32Store(0);
  });
  // ldltProduct(L_d from row p1, W, nk = nd, ncol = ndrow1, nrow = ndrow2, into the block of s: lower)
  fb.get(k.h('Lx')).get(xd).get(p1).get(rd0).i32Sub().get(nd).i32Mul().i32Add().i32Const(3).i32Shl().i32Add();
  fb.get(nd).i32Const(3).i32Shl().get(k.h('W')).get(nd).get(ndrow1).get(ndrow2);
  fb.get(k.h('Lx')).get(k.h('rowBase')).get(k.h('colOff')).i32Const(1).call(1);
  return fb;
}

/**
 * ldltProduct(aB, ldaB, wB, nk, ncol, nrow, cB, rowBaseB, colOffB, lower), addresses in bytes, in
 * f64x2: for j < ncol and i < nrow (i ≥ j when `lower`),
 *   C[rowBase[i] + colOff[j]] −= Σ_{k<nk} A(i, k)·W(j, k),   A(i, k) at aB + i·ldaB + 8k, C at cB,
 * W in the paired layout of emitPairedW at wB. A tile is four rows by two pairs of columns (eight
 * f64x2 sums, each lane one entry's dot product summed in k order by lane-wise IEEE products and
 * sums, no fused multiply-add: every entry is the JavaScript code's to the bit), then single rows,
 * then a last pair. With `lower`, entries above the diagonal (i < j) are not written. The
 * factorization's updates (C = the block of a supernode, lower) and SupernodalCompliance's
 * products below a supernode (C = the blocks of Y, all rows) use it.
 */
function subtractFunction(): FunctionBuilder {
  const k = new Kernel('ldltProduct', [I, I, I, I, I, I, I, I, I, I]);
  const fb = k.fb;
  const aB = k.param(0), ldxB = k.param(1), W = k.param(2), nk = k.param(3), ncol = k.param(4), nrow = k.param(5);
  const Lx = k.param(6), rowBase = k.param(7), colOff = k.param(8), lower = k.param(9);
  const j = k.int(), i = k.int(), kk = k.int(), kw = k.int(), kEnd = k.int(), pairB = k.int(), nq = k.int(), dj = k.int(), b = k.int();
  const wq = [k.int(), k.int()];
  const r = [k.int(), k.int(), k.int(), k.int()];
  const c = [k.int(), k.int(), k.int(), k.int()];
  const acc = Array.from({ length: 8 }, () => fb.local(V));
  const a = fb.local(V), w = [fb.local(V), fb.local(V)];
  fb.get(nk).i32Const(4).i32Shl().set(pairB);
  fb.get(nk).i32Const(3).i32Shl().set(kEnd);

  /** One tile of R rows (from i) by P pairs (from j), summed over k, subtracted from its targets. */
  const tile = (R: number, P: number) => {
    fb.get(aB).get(i).get(ldxB).i32Mul().i32Add().set(r[0]!);
    for (let rr = 1; rr < R; rr++) fb.get(r[rr - 1]!).get(ldxB).i32Add().set(r[rr]!);
    for (let t = 0; t < R * P; t++) fb.f64Const(0).f64x2Splat().set(acc[t]!);
    fb.i32Const(0).set(kk);
    fb.i32Const(0).set(kw);
    fb.block().loop();
    fb.get(kk).get(kEnd).i32GeS().brIf(1);
    for (let p = 0; p < P; p++) fb.get(wq[p]!).get(kw).i32Add().v128Load(0).set(w[p]!);
    for (let rr = 0; rr < R; rr++) {
      fb.get(r[rr]!).get(kk).i32Add().v128Load64Splat(0).set(a);
      for (let p = 0; p < P; p++) fb.get(acc[rr * P + p]!).get(a).get(w[p]!).f64x2Mul().f64x2Add().set(acc[rr * P + p]!);
    }
    fb.get(kk).i32Const(8).i32Add().set(kk);
    fb.get(kw).i32Const(16).i32Add().set(kw);
    fb.br(0).end().end();
    // Lx[rowBase[i+rr] + c_q] −= lane q mod 2 of acc(rr, ⌊q/2⌋), for the columns that exist (q < nq) on or below the diagonal (i + rr ≥ j + q)
    // dj = i − j when lower, else 3 (every guard i + rr ≥ j + q holds)
    fb.get(i).get(j).get(lower).i32Mul().i32Sub().i32Const(1).get(lower).i32Sub().i32Const(3).i32Mul().i32Add().set(dj);
    for (let rr = 0; rr < R; rr++) {
      k.geti(rowBase, () => fb.get(i).i32Const(rr).i32Add()).fb.set(b);
      for (let q = 0; q < 2 * P; q++) {
        const guarded = q > 0;
        if (guarded) {
          fb.i32Const(q).get(nq).i32LtS();
          if (q > rr) fb.get(dj).i32Const(q - rr).i32GeS().i32And();
          fb.if();
        }
        k.at(Lx, () => fb.get(b).get(c[q]!).i32Add(), 3);
        k.getf(Lx, () => fb.get(b).get(c[q]!).i32Add());
        fb.get(acc[rr * P + (q >> 1)]!).f64x2ExtractLane(q & 1).f64Sub().f64Store(0);
        if (guarded) fb.end();
      }
    }
  };
  /** The rows j.. of the column block at j: four at a time, then one at a time. */
  const rows = (P: number) => {
    fb.get(W).get(j).i32Const(1).i32ShrS().get(pairB).i32Mul().i32Add().set(wq[0]!);
    if (P > 1) fb.get(wq[0]!).get(pairB).i32Add().set(wq[1]!);
    fb.get(ncol).get(j).i32Sub().set(nq);
    for (let q = 0; q < 2 * P; q++) {
      // c_q = colOff[j + q] where that column exists
      fb.i32Const(q).get(nq).i32LtS().if();
      k.geti(colOff, () => fb.get(j).i32Const(q).i32Add()).fb.set(c[q]!);
      fb.end();
    }
    fb.get(j).get(lower).i32Mul().set(i);
    fb.block().loop();
    fb.get(i).i32Const(3).i32Add().get(nrow).i32GeS().brIf(1);
    tile(4, P);
    fb.get(i).i32Const(4).i32Add().set(i);
    fb.br(0).end().end();
    fb.block().loop();
    fb.get(i).get(nrow).i32GeS().brIf(1);
    tile(1, P);
    fb.get(i).i32Const(1).i32Add().set(i);
    fb.br(0).end().end();
  };
  // column blocks of two pairs while a column of the second pair exists
  fb.i32Const(0).set(j);
  fb.block().loop();
  fb.get(j).i32Const(2).i32Add().get(ncol).i32GeS().brIf(1);
  rows(2);
  fb.get(j).i32Const(4).i32Add().set(j);
  fb.br(0).end().end();
  // a last pair (one or two columns)
  fb.get(j).get(ncol).i32LtS().if();
  rows(1);
  fb.end();
  return fb;
}

/**
 * factorBlock(s): dense LDLᵀ of the block of s by panels of LDLT_PANEL columns (supernodal-ldlt.ts
 * `factorBlock`); on a vanishing pivot it writes the elimination step to `status` and the pivot to
 * `pivot` and returns.
 */
function factorBlockFunction(): FunctionBuilder {
  const k = new Kernel('ldltFactorBlock', [I]);
  const fb = k.fb;
  const s = k.param(0);
  k.load('superStart', 'superRowPtr', 'superValPtr', 'Lx', 'D', 'W', 'rowBase', 'colOff', 'status', 'pivot', 'tol');
  const Lx = k.h('Lx'), D = k.h('D'), W = k.h('W');
  const k1 = k.int(), ns = k.int(), nrows = k.int(), xs = k.int(), p0 = k.int(), p1 = k.int(), nb = k.int();
  const j = k.int(), i = k.int(), col = k.int(), wrow = k.int(), rk = k.int(), m = k.int(), r0 = k.int(), r1 = k.int();
  const dk = k.real(), l = k.real(), w = k.real(), s0 = k.real(), s1 = k.real(), tol = k.real();
  k.getf(k.h('tol'), () => fb.i32Const(0)).fb.set(tol);
  k.geti(k.h('superStart'), get(k, s)).fb.set(k1);
  k.geti(k.h('superStart'), () => fb.get(s).i32Const(1).i32Add()).fb.get(k1).i32Sub().set(ns);
  k.geti(k.h('superRowPtr'), () => fb.get(s).i32Const(1).i32Add());
  k.geti(k.h('superRowPtr'), get(k, s)).fb.i32Sub().set(nrows);
  k.geti(k.h('superValPtr'), get(k, s)).fb.set(xs);
  const lx = (idx: () => void) => k.getf(Lx, idx);
  // for (p0 = 0; p0 < ns; p0 += PANEL)
  fb.i32Const(0).set(p0);
  fb.block().loop();
  fb.get(p0).get(ns).i32GeS().brIf(1);
  // p1 = min(ns, p0 + PANEL)
  fb.get(p0).i32Const(LDLT_PANEL).i32Add().set(p1);
  fb.get(p1).get(ns).i32GtS().if().get(ns).set(p1).end();
  fb.get(p1).get(p0).i32Sub().set(nb);
  fb.get(p0).i32Const(0).i32GtS().if();
  {
    // Panel −= L(p0.., 0:p0)·D·L(p0:p1, 0:p0)ᵀ
    emitPairedW(k, nb, p0, k1, (jj) => void fb.get(xs).get(p0).get(jj).i32Add().get(ns).i32Mul().i32Add());
    k.forUp(j, () => fb.i32Const(0), get(k, nb), () => {
      k.at(k.h('colOff'), get(k, j), 2);
      fb.get(p0).get(j).i32Add().i32Store(0);
    });
    k.forUp(i, get(k, p0), get(k, nrows), () => {
      k.at(k.h('rowBase'), () => fb.get(i).get(p0).i32Sub(), 2);
      fb.get(xs).get(i).get(ns).i32Mul().i32Add().i32Store(0);
    });
    fb.get(Lx).get(xs).get(p0).get(ns).i32Mul().i32Add().i32Const(3).i32Shl().i32Add();
    fb.get(ns).i32Const(3).i32Shl().get(W).get(p0).get(nb).get(nrows).get(p0).i32Sub();
    fb.get(Lx).get(k.h('rowBase')).get(k.h('colOff')).i32Const(1).call(1);
  }
  fb.end();
  // The panel's diagonal block, column by column; row col of Wp (W's first LDLT_PANEL² entries,
  // rows of LDLT_PANEL) keeps L_col,m·D_m for the rows below.
  k.forUp(col, get(k, p0), get(k, p1), () => {
    // Wp(col, m − p0) = L_col,m·D_m, D_col = a_col,col − Σ L_col,m·Wp(col, m − p0)
    fb.get(xs).get(col).get(ns).i32Mul().i32Add().set(rk);
    fb.get(col).get(p0).i32Sub().i32Const(LDLT_PANEL).i32Mul().get(p0).i32Sub().set(wrow); // Wp(col, m − p0) = W[wrow + m]
    lx(() => fb.get(rk).get(col).i32Add()).fb.set(dk);
    k.forUp(m, get(k, p0), get(k, col), () => {
      lx(() => fb.get(rk).get(m).i32Add()).fb.set(l);
      fb.get(l);
      k.getf(D, () => fb.get(k1).get(m).i32Add());
      fb.f64Mul().set(w);
      k.at(W, () => fb.get(wrow).get(m).i32Add(), 3);
      fb.get(w).f64Store(0);
      fb.get(dk).get(l).get(w).f64Mul().f64Sub().set(dk);
    });
    // a vanishing or non-finite pivot: !(|dk| > tol) || dk − dk ≠ 0
    fb.get(dk).f64Abs().get(tol).f64Gt().i32Eqz();
    fb.get(dk).get(dk).f64Sub().f64Const(0).f64Eq().i32Eqz();
    fb.i32Or();
    fb.if();
    k.at(k.h('status'), () => fb.i32Const(0), 2);
    fb.get(k1).get(col).i32Add().i32Store(0);
    k.at(k.h('pivot'), () => fb.i32Const(0), 3);
    fb.get(dk).f64Store(0);
    fb.return();
    fb.end();
    k.at(D, () => fb.get(k1).get(col).i32Add(), 3);
    fb.get(dk).f64Store(0);
    k.at(Lx, () => fb.get(rk).get(col).i32Add(), 3);
    fb.get(dk).f64Store(0);
    // L_i,col for the panel's rows below col, two at a time
    fb.get(col).i32Const(1).i32Add().set(i);
    fb.block().loop();
    fb.get(i).i32Const(1).i32Add().get(p1).i32GeS().brIf(1);
    fb.get(xs).get(i).get(ns).i32Mul().i32Add().set(r0);
    fb.get(r0).get(ns).i32Add().set(r1);
    lx(() => fb.get(r0).get(col).i32Add()).fb.set(s0);
    lx(() => fb.get(r1).get(col).i32Add()).fb.set(s1);
    k.forUp(m, get(k, p0), get(k, col), () => {
      k.getf(W, () => fb.get(wrow).get(m).i32Add()).fb.set(w);
      fb.get(s0);
      lx(() => fb.get(r0).get(m).i32Add());
      fb.get(w).f64Mul().f64Sub().set(s0);
      fb.get(s1);
      lx(() => fb.get(r1).get(m).i32Add());
      fb.get(w).f64Mul().f64Sub().set(s1);
    });
    k.at(Lx, () => fb.get(r0).get(col).i32Add(), 3);
    fb.get(s0).get(dk).f64Div().f64Store(0);
    k.at(Lx, () => fb.get(r1).get(col).i32Add(), 3);
    fb.get(s1).get(dk).f64Div().f64Store(0);
    fb.get(i).i32Const(2).i32Add().set(i);
    fb.br(0).end().end();
    fb.get(i).get(p1).i32LtS().if();
    {
      fb.get(xs).get(i).get(ns).i32Mul().i32Add().set(r0);
      lx(() => fb.get(r0).get(col).i32Add()).fb.set(s0);
      k.forUp(m, get(k, p0), get(k, col), () => {
        fb.get(s0);
        lx(() => fb.get(r0).get(m).i32Add());
        k.getf(W, () => fb.get(wrow).get(m).i32Add());
        fb.f64Mul().f64Sub().set(s0);
      });
      k.at(Lx, () => fb.get(r0).get(col).i32Add(), 3);
      fb.get(s0).get(dk).f64Div().f64Store(0);
    }
    fb.end();
  });
  // The rows below the panel (p1 ≤ i < nrows), each independent: for col in the panel,
  // L_i,col = (a_i,col − Σ_m L_i,m·Wp(col, m − p0)) / D_col, the same operations in the same order as
  // column by column; in f64x2, two rows per vector (lane 0, lane 1), eight then four rows at a
  // time, then single rows (both lanes the same row). T (after Wp) keeps the tile's new L_i,m by m.
  const ldB = k.int(), tB = k.int(), rA = k.int(), mB = k.int(), mEnd = k.int(), wB = k.int(), cB = k.int();
  const v = [fb.local(V), fb.local(V), fb.local(V), fb.local(V)], wv = fb.local(V), dv = fb.local(V), tm = k.int();
  fb.get(ns).i32Const(3).i32Shl().set(ldB);
  fb.get(W).i32Const(8 * LDLT_PANEL * LDLT_PANEL).i32Add().set(tB);
  /** A tile of `rows` rows from i (8 or 4: two rows per vector; 1: the row in both lanes). */
  const rowTile = (rows: 1 | 4 | 8) => {
    const nv = rows === 1 ? 1 : rows / 2;
    const tShift = nv === 1 ? 1 : nv === 2 ? 2 : 3; // T(m) at tB + mB·2nv (bytes; mB = 8(m − p0))
    fb.get(Lx).get(xs).get(i).get(ns).i32Mul().i32Add().i32Const(3).i32Shl().i32Add().set(rA);
    const rowAddr = (r: number) => {
      fb.get(rA);
      if (r > 0) fb.get(ldB).i32Const(r).i32Mul().i32Add();
      fb.get(cB).i32Add();
    };
    k.forUp(col, get(k, p0), get(k, p1), () => {
      fb.get(col).i32Const(3).i32Shl().set(cB);
      if (rows === 1) {
        rowAddr(0);
        fb.v128Load64Splat(0).set(v[0]!);
      } else {
        for (let q = 0; q < nv; q++) {
          rowAddr(2 * q);
          fb.v128Load64Zero(0).set(v[q]!);
          rowAddr(2 * q + 1);
          fb.get(v[q]!).v128Load64Lane(1).set(v[q]!);
        }
      }
      // v −= T(m)·Wp(col, m − p0) for p0 ≤ m < col
      fb.get(W).get(col).get(p0).i32Sub().i32Const(8 * LDLT_PANEL).i32Mul().i32Add().set(wB);
      fb.get(col).get(p0).i32Sub().i32Const(3).i32Shl().set(mEnd);
      fb.i32Const(0).set(mB);
      fb.block().loop();
      fb.get(mB).get(mEnd).i32GeS().brIf(1);
      fb.get(wB).get(mB).i32Add().v128Load64Splat(0).set(wv);
      fb.get(tB).get(mB).i32Const(tShift).i32Shl().i32Add().set(tm);
      for (let q = 0; q < nv; q++) fb.get(v[q]!).get(tm).v128Load(16 * q).get(wv).f64x2Mul().f64x2Sub().set(v[q]!);
      fb.get(mB).i32Const(8).i32Add().set(mB);
      fb.br(0).end().end();
      k.at(D, () => fb.get(k1).get(col).i32Add(), 3);
      fb.v128Load64Splat(0).set(dv);
      fb.get(tB).get(mEnd).i32Const(tShift).i32Shl().i32Add().set(tm);
      for (let q = 0; q < nv; q++) {
        fb.get(v[q]!).get(dv).f64x2Div().set(v[q]!);
        fb.get(tm).get(v[q]!).v128Store(16 * q);
      }
      if (rows === 1) {
        rowAddr(0);
        fb.get(v[0]!).v128Store64Lane(0);
      } else {
        for (let q = 0; q < nv; q++) {
          rowAddr(2 * q);
          fb.get(v[q]!).v128Store64Lane(0);
          rowAddr(2 * q + 1);
          fb.get(v[q]!).v128Store64Lane(1);
        }
      }
    });
  };
  fb.get(p1).set(i);
  for (const rows of [8, 4] as const) {
    fb.block().loop();
    fb.get(i).i32Const(rows - 1).i32Add().get(nrows).i32GeS().brIf(1);
    rowTile(rows);
    fb.get(i).i32Const(rows).i32Add().set(i);
    fb.br(0).end().end();
  }
  fb.block().loop();
  fb.get(i).get(nrows).i32GeS().brIf(1);
  rowTile(1);
  fb.get(i).i32Const(1).i32Add().set(i);
  fb.br(0).end().end();
  fb.get(p0).i32Const(LDLT_PANEL).i32Add().set(p0);
  fb.br(0).end().end();
  return fb;
}

/** ldltFactor(): supernodal-ldlt.ts `factorize` (left-looking by supernode). */
function factorFunction(): FunctionBuilder {
  const k = new Kernel('ldltFactor', []);
  const fb = k.fb;
  k.load('nsuper', 'superStart', 'superRowPtr', 'superRows', 'superValPtr', 'superOf', 'aPtr', 'aSrc', 'aDst', 'relPos', 'head', 'next', 'lpos', 'Lx', 'Av', 'status');
  const nsuper = k.h('nsuper');
  const s = k.int(), k1 = k.int(), k2 = k.int(), ns = k.int(), r0 = k.int(), nrows = k.int(), xs = k.int(), q = k.int(), p = k.int();
  const d = k.int(), dNext = k.int(), rdEnd = k.int(), p1 = k.int(), p2 = k.int(), t = k.int();
  const arr = (name: H) => k.h(name);
  const setI = (name: H, idx: () => void, value: () => void) => {
    k.at(arr(name), idx, 2);
    value();
    fb.i32Store(0);
  };
  // status = −1; head.fill(−1)
  setI('status', () => fb.i32Const(0), () => fb.i32Const(-1));
  k.forUp(s, () => fb.i32Const(0), get(k, nsuper), () => setI('head', get(k, s), () => fb.i32Const(-1)));
  k.forUp(s, () => fb.i32Const(0), get(k, nsuper), () => {
    k.geti(arr('superStart'), get(k, s)).fb.set(k1);
    k.geti(arr('superStart'), () => fb.get(s).i32Const(1).i32Add()).fb.set(k2);
    fb.get(k2).get(k1).i32Sub().set(ns);
    k.geti(arr('superRowPtr'), get(k, s)).fb.set(r0);
    k.geti(arr('superRowPtr'), () => fb.get(s).i32Const(1).i32Add()).fb.get(r0).i32Sub().set(nrows);
    k.geti(arr('superValPtr'), get(k, s)).fb.set(xs);
    // block of s ← 0, then its columns of P A Pᵀ
    // memory.fill(&Lx[xs], 0, 8·nrows·ns): +0.0 is all zero bytes
    k.at(arr('Lx'), get(k, xs), 3);
    fb.i32Const(0).get(nrows).get(ns).i32Mul().i32Const(3).i32Shl().memoryFill();
    k.forUp(q, () => k.geti(arr('aPtr'), get(k, s)), () => k.geti(arr('aPtr'), () => fb.get(s).i32Const(1).i32Add()), () => {
      k.geti(arr('aDst'), get(k, q)).fb.set(p);
      k.at(arr('Lx'), get(k, p), 3);
      k.getf(arr('Lx'), get(k, p));
      k.getf(arr('Av'), () => k.geti(arr('aSrc'), get(k, q)));
      fb.f64Add().f64Store(0);
    });
    k.forUp(p, () => fb.i32Const(0), get(k, nrows), () => {
      setI('relPos', () => k.geti(arr('superRows'), () => fb.get(r0).get(p).i32Add()), get(k, p));
    });
    // updates from the supernodes waiting for s
    k.geti(arr('head'), get(k, s)).fb.set(d);
    k.whileDo(() => fb.get(d).i32Const(-1).i32Ne(), () => {
      k.geti(arr('next'), get(k, d)).fb.set(dNext);
      k.geti(arr('superRowPtr'), () => fb.get(d).i32Const(1).i32Add()).fb.set(rdEnd);
      k.geti(arr('superRowPtr'), get(k, d));
      k.geti(arr('lpos'), get(k, d)).fb.i32Add().set(p1);
      fb.get(p1).set(p2);
      k.whileDo(() => {
        // p2 < rdEnd && superRows[p2] < k2 (the second test only when the first holds)
        fb.get(p2).get(rdEnd).i32LtS().if();
        k.geti(arr('superRows'), get(k, p2)).fb.get(k2).i32LtS().set(t);
        fb.else().i32Const(0).set(t).end();
        fb.get(t);
      }, () => fb.get(p2).i32Const(1).i32Add().set(p2));
      fb.get(d).get(p1).get(p2).get(s).call(0);
      setI('lpos', get(k, d), () => {
        fb.get(p2);
        k.geti(arr('superRowPtr'), get(k, d));
        fb.i32Sub();
      });
      fb.get(p2).get(rdEnd).i32LtS().if();
      k.geti(arr('superOf'), () => k.geti(arr('superRows'), get(k, p2))).fb.set(t);
      setI('next', get(k, d), () => k.geti(arr('head'), get(k, t)));
      setI('head', get(k, t), get(k, d));
      fb.end();
      fb.get(dNext).set(d);
    });
    fb.get(s).call(2);
    k.geti(arr('status'), () => fb.i32Const(0)).fb.i32Const(-1).i32Ne().if().return().end();
    fb.get(nrows).get(ns).i32GtS().if();
    setI('lpos', get(k, s), get(k, ns));
    k.geti(arr('superOf'), () => k.geti(arr('superRows'), () => fb.get(r0).get(ns).i32Add())).fb.set(t);
    setI('next', get(k, s), () => k.geti(arr('head'), get(k, t)));
    setI('head', get(k, t), get(k, s));
    fb.end();
  });
  return fb;
}

/** ldltSolve(): supernodal-ldlt.ts `solve`, on the vector at `vec` (read, then overwritten). */
function solveFunction(): FunctionBuilder {
  const k = new Kernel('ldltSolve', []);
  const fb = k.fb;
  k.load('n', 'nsuper', 'perm', 'superStart', 'superRowPtr', 'superRows', 'superValPtr', 'Lx', 'D', 'y', 'vec');
  const n = k.h('n'), nsuper = k.h('nsuper'), y = k.h('y'), Lx = k.h('Lx');
  const kk = k.int(), s = k.int(), k1 = k.int(), ns = k.int(), r0 = k.int(), nrows = k.int(), xs = k.int(), rk = k.int(), m = k.int(), i = k.int(), ri = k.int();
  const t = k.real(), ym = k.real(), rowB = k.int(), mB = k.int();
  const t4 = [k.real(), k.real(), k.real(), k.real()];
  const yAt = (idx: () => void) => k.at(y, idx, 3);
  const yGet = (idx: () => void) => k.getf(y, idx);
  const superOfS = () => {
    k.geti(k.h('superStart'), get(k, s)).fb.set(k1);
    k.geti(k.h('superStart'), () => fb.get(s).i32Const(1).i32Add()).fb.get(k1).i32Sub().set(ns);
    k.geti(k.h('superRowPtr'), get(k, s)).fb.set(r0);
    k.geti(k.h('superRowPtr'), () => fb.get(s).i32Const(1).i32Add()).fb.get(r0).i32Sub().set(nrows);
    k.geti(k.h('superValPtr'), get(k, s)).fb.set(xs);
  };
  // y[k] = b[perm[k]]
  k.forUp(kk, () => fb.i32Const(0), get(k, n), () => {
    yAt(get(k, kk));
    k.getf(k.h('vec'), () => k.geti(k.h('perm'), get(k, kk)));
    fb.f64Store(0);
  });
  // L z = P b
  k.forUp(s, () => fb.i32Const(0), get(k, nsuper), () => {
    superOfS();
    k.forUp(kk, () => fb.i32Const(1), get(k, ns), () => {
      fb.get(xs).get(kk).get(ns).i32Mul().i32Add().set(rk);
      yGet(() => fb.get(k1).get(kk).i32Add()).fb.set(t);
      k.forUp(m, () => fb.i32Const(0), get(k, kk), () => {
        fb.get(t);
        k.getf(Lx, () => fb.get(rk).get(m).i32Add());
        yGet(() => fb.get(k1).get(m).i32Add());
        fb.f64Mul().f64Sub().set(t);
      });
      yAt(() => fb.get(k1).get(kk).i32Add());
      fb.get(t).f64Store(0);
    });
    // the rows below: t_i = Σ_m L_im·y_m (m in order), y[superRows[r0+i]] −= t_i; four rows at a
    // time (four independent sums), then one at a time
    fb.get(ns).set(i);
    fb.block().loop();
    fb.get(i).i32Const(3).i32Add().get(nrows).i32GeS().brIf(1);
    fb.get(Lx).get(xs).get(i).get(ns).i32Mul().i32Add().i32Const(3).i32Shl().i32Add().set(ri); // byte address of row i
    fb.get(ns).i32Const(3).i32Shl().set(rowB);
    for (const acc of t4) fb.f64Const(0).set(acc);
    k.forUp(m, () => fb.i32Const(0), get(k, ns), () => {
      yGet(() => fb.get(k1).get(m).i32Add()).fb.set(ym);
      fb.get(m).i32Const(3).i32Shl().set(mB);
      for (let r = 0; r < 4; r++) {
        fb.get(t4[r]!).get(ri);
        if (r > 0) fb.get(rowB).i32Const(r).i32Mul().i32Add();
        fb.get(mB).i32Add().f64Load(0).get(ym).f64Mul().f64Add().set(t4[r]!);
      }
    });
    for (let r = 0; r < 4; r++) {
      k.geti(k.h('superRows'), () => fb.get(r0).get(i).i32Add().i32Const(r).i32Add()).fb.set(rk);
      yAt(get(k, rk));
      yGet(get(k, rk));
      fb.get(t4[r]!).f64Sub().f64Store(0);
    }
    fb.get(i).i32Const(4).i32Add().set(i);
    fb.br(0).end().end();
    k.forUp(i, get(k, i), get(k, nrows), () => {
      fb.get(xs).get(i).get(ns).i32Mul().i32Add().set(ri);
      fb.f64Const(0).set(t);
      k.forUp(m, () => fb.i32Const(0), get(k, ns), () => {
        fb.get(t);
        k.getf(Lx, () => fb.get(ri).get(m).i32Add());
        yGet(() => fb.get(k1).get(m).i32Add());
        fb.f64Mul().f64Add().set(t);
      });
      // y[superRows[r0+i]] −= t
      k.geti(k.h('superRows'), () => fb.get(r0).get(i).i32Add()).fb.set(rk);
      yAt(get(k, rk));
      yGet(get(k, rk));
      fb.get(t).f64Sub().f64Store(0);
    });
  });
  // D w = z
  k.forUp(kk, () => fb.i32Const(0), get(k, n), () => {
    yAt(get(k, kk));
    yGet(get(k, kk));
    k.getf(k.h('D'), get(k, kk));
    fb.f64Div().f64Store(0);
  });
  emitBackward(k, false);
  return fb;
}

/**
 * Emits v = L⁻ᵀ·y on the kernel's y (supernodes in reverse: the rows below, then the diagonal block),
 * then vec[perm[k]] = v[k]. Each step is an axpy on the contiguous y of a supernode's columns,
 * y(k1 + m) −= L(row, m)·y_row, two entries per f64x2 (lane-wise IEEE: the scalar code's values);
 * rows whose y_row is 0 are skipped, and also the diagonal block's rows when `skipDiagonalZeros`
 * (SupernodalCompliance's backward solve).
 */
function emitBackward(k: Kernel, skipDiagonalZeros: boolean): void {
  const fb = k.fb;
  k.load('n', 'nsuper', 'perm', 'superStart', 'superRowPtr', 'superRows', 'superValPtr', 'Lx', 'y', 'vec');
  const n = k.h('n'), nsuper = k.h('nsuper'), y = k.h('y'), Lx = k.h('Lx');
  const s = k.int(), k1 = k.int(), ns = k.int(), r0 = k.int(), nrows = k.int(), xs = k.int(), i = k.int(), kk = k.int();
  const yB = k.int(), lB = k.int(), mB = k.int(), mEnd = k.int(), mPairs = k.int();
  const yi = k.real();
  const yv = fb.local(V);
  /** y(k1 + m) −= L(at lB, m)·yi for m < count (yB = byte address of y(k1), lB of L's row) */
  const axpy = (count: () => void) => {
    count();
    fb.i32Const(3).i32Shl().set(mEnd);
    fb.get(mEnd).i32Const(-16).i32And().set(mPairs);
    fb.get(yi).f64x2Splat().set(yv);
    fb.i32Const(0).set(mB);
    fb.block().loop();
    fb.get(mB).get(mPairs).i32GeS().brIf(1);
    fb.get(yB).get(mB).i32Add();
    fb.get(yB).get(mB).i32Add().v128Load(0);
    fb.get(lB).get(mB).i32Add().v128Load(0).get(yv).f64x2Mul().f64x2Sub().v128Store(0);
    fb.get(mB).i32Const(16).i32Add().set(mB);
    fb.br(0).end().end();
    fb.get(mPairs).get(mEnd).i32LtS().if();
    fb.get(yB).get(mB).i32Add();
    fb.get(yB).get(mB).i32Add().f64Load(0);
    fb.get(lB).get(mB).i32Add().f64Load(0).get(yi).f64Mul().f64Sub().f64Store(0);
    fb.end();
  };
  k.forDown(s, () => fb.get(nsuper).i32Const(1).i32Sub(), () => fb.i32Const(-1), () => {
    k.geti(k.h('superStart'), get(k, s)).fb.set(k1);
    k.geti(k.h('superStart'), () => fb.get(s).i32Const(1).i32Add()).fb.get(k1).i32Sub().set(ns);
    k.geti(k.h('superRowPtr'), get(k, s)).fb.set(r0);
    k.geti(k.h('superRowPtr'), () => fb.get(s).i32Const(1).i32Add()).fb.get(r0).i32Sub().set(nrows);
    k.geti(k.h('superValPtr'), get(k, s)).fb.set(xs);
    k.at(y, get(k, k1), 3).fb.set(yB);
    k.forUp(i, get(k, ns), get(k, nrows), () => {
      k.getf(y, () => k.geti(k.h('superRows'), () => fb.get(r0).get(i).i32Add())).fb.set(yi);
      fb.get(yi).f64Const(0).f64Eq().i32Eqz().if();
      k.at(Lx, () => fb.get(xs).get(i).get(ns).i32Mul().i32Add(), 3).fb.set(lB);
      axpy(get(k, ns));
      fb.end();
    });
    k.forDown(kk, () => fb.get(ns).i32Const(1).i32Sub(), () => fb.i32Const(0), () => {
      k.getf(y, () => fb.get(k1).get(kk).i32Add()).fb.set(yi);
      if (skipDiagonalZeros) fb.get(yi).f64Const(0).f64Eq().i32Eqz().if();
      k.at(Lx, () => fb.get(xs).get(kk).get(ns).i32Mul().i32Add(), 3).fb.set(lB);
      axpy(get(k, kk));
      if (skipDiagonalZeros) fb.end();
    });
  });
  // vec[perm[k]] = y[k]
  k.forUp(kk, () => fb.i32Const(0), get(k, n), () => {
    k.at(k.h('vec'), () => k.geti(k.h('perm'), get(k, kk)), 3);
    k.getf(y, get(k, kk));
    fb.f64Store(0);
  });
}

/** ldltBackward(): vec = Pᵀ·L⁻ᵀ·y for the y already in the kernel (SupernodalLDLT.backwardSolve). */
function backwardFunction(): FunctionBuilder {
  const k = new Kernel('ldltBackward', []);
  emitBackward(k, true);
  return k.fb;
}

/**
 * ldltPairLowerSolve(xB, ns, yB, ncol): Y ← L_ss⁻¹·Y for the unit lower triangle of a diagonal block
 * (ns × ns, row by row at byte xB) and ncol columns of ns in the paired layout of emitPairedW at
 * byte yB (SupernodalCompliance's forward solve): y_k −= Σ_{q<k} L_kq·y_q in q order, a pair of
 * columns per f64x2, two pairs at a time (the scalar code's values; a padding lane stays 0).
 */
function pairLowerSolveFunction(): FunctionBuilder {
  const k = new Kernel('ldltPairLowerSolve', [I, I, I, I]);
  const fb = k.fb;
  const xB = k.param(0), ns = k.param(1), yB = k.param(2), ncol = k.param(3);
  const p = k.int(), npair = k.int(), pairB = k.int(), u = k.int(), kk = k.int(), rowB = k.int(), qB = k.int(), qEnd = k.int();
  const acc0 = fb.local(V), acc1 = fb.local(V), l = fb.local(V);
  fb.get(ncol).i32Const(1).i32Add().i32Const(1).i32ShrS().set(npair);
  fb.get(ns).i32Const(4).i32Shl().set(pairB);
  const pass = (two: boolean) => {
    fb.get(yB).get(p).get(pairB).i32Mul().i32Add().set(u);
    k.forUp(kk, () => fb.i32Const(1), get(k, ns), () => {
      fb.get(xB).get(kk).get(ns).i32Mul().i32Const(3).i32Shl().i32Add().set(rowB);
      fb.get(u).get(kk).i32Const(4).i32Shl().i32Add().v128Load(0).set(acc0);
      if (two) fb.get(u).get(pairB).i32Add().get(kk).i32Const(4).i32Shl().i32Add().v128Load(0).set(acc1);
      fb.get(kk).i32Const(3).i32Shl().set(qEnd);
      fb.i32Const(0).set(qB);
      fb.block().loop();
      fb.get(qB).get(qEnd).i32GeS().brIf(1);
      fb.get(rowB).get(qB).i32Add().v128Load64Splat(0).set(l);
      fb.get(acc0).get(l).get(u).get(qB).i32Const(1).i32Shl().i32Add().v128Load(0).f64x2Mul().f64x2Sub().set(acc0);
      if (two) fb.get(acc1).get(l).get(u).get(pairB).i32Add().get(qB).i32Const(1).i32Shl().i32Add().v128Load(0).f64x2Mul().f64x2Sub().set(acc1);
      fb.get(qB).i32Const(8).i32Add().set(qB);
      fb.br(0).end().end();
      fb.get(u).get(kk).i32Const(4).i32Shl().i32Add().get(acc0).v128Store(0);
      if (two) fb.get(u).get(pairB).i32Add().get(kk).i32Const(4).i32Shl().i32Add().get(acc1).v128Store(0);
    });
  };
  fb.i32Const(0).set(p);
  fb.block().loop();
  fb.get(p).i32Const(1).i32Add().get(npair).i32GeS().brIf(1);
  pass(true);
  fb.get(p).i32Const(2).i32Add().set(p);
  fb.br(0).end().end();
  fb.get(p).get(npair).i32LtS().if();
  pass(false);
  fb.end();
  return fb;
}

let cached: object | null | undefined;

/** The compiled kernel (once per process), or undefined without WebAssembly. */
export function supernodalLdltModule(): object | undefined {
  if (cached !== undefined) return cached ?? undefined;
  cached = null;
  const api = wasmApi();
  if (!api) return undefined;
  // function indices: 0 update, 1 product, 2 factorBlock (called by index), 3 factor, 4 solve, 5 backward, 6 pair lower solve
  const bytes = wasmModuleBytes([updateFunction(), subtractFunction(), factorBlockFunction(), factorFunction(), solveFunction(), backwardFunction(), pairLowerSolveFunction()], 65536);
  if (!api.validate(bytes)) return undefined;
  cached = new api.Module(bytes);
  return cached;
}
