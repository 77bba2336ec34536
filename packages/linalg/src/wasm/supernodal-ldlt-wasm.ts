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
 *   `ldltSolve()`   y = Pᵀ L⁻ᵀ D⁻¹ L⁻¹ P b, reading and writing the vector at `vec`.
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

const I = WasmType.i32, F = WasmType.f64;
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
 * update(d, p1, p2, s): block of s −= L_d(rows p1.., :)·D_d·L_d(rows p1..p2−1, :)ᵀ (supernodal-ldlt.ts
 * `update`, calling subtractProducts, function 1).
 */
function updateFunction(): FunctionBuilder {
  const k = new Kernel('ldltUpdate', [I, I, I, I]);
  const fb = k.fb;
  const d = k.param(0), p1 = k.param(1), p2 = k.param(2), s = k.param(3);
  k.load('superStart', 'superRowPtr', 'superRows', 'superValPtr', 'Lx', 'D', 'W', 'rowBase', 'colOff', 'relPos');
  const dk1 = k.int(), nd = k.int(), rd0 = k.int(), xd = k.int(), k1 = k.int(), ns = k.int(), xs = k.int(), ndrow1 = k.int(), ndrow2 = k.int();
  const j = k.int(), src = k.int(), dst = k.int(), kk = k.int(), i = k.int();
  k.geti(k.h('superStart'), get(k, d)).fb.set(dk1);
  k.geti(k.h('superStart'), () => fb.get(d).i32Const(1).i32Add()).fb.get(dk1).i32Sub().set(nd);
  k.geti(k.h('superRowPtr'), get(k, d)).fb.set(rd0);
  k.geti(k.h('superValPtr'), get(k, d)).fb.set(xd);
  k.geti(k.h('superStart'), get(k, s)).fb.set(k1);
  k.geti(k.h('superStart'), () => fb.get(s).i32Const(1).i32Add()).fb.get(k1).i32Sub().set(ns);
  k.geti(k.h('superValPtr'), get(k, s)).fb.set(xs);
  fb.get(p2).get(p1).i32Sub().set(ndrow1);
  k.geti(k.h('superRowPtr'), () => fb.get(d).i32Const(1).i32Add()).fb.get(p1).i32Sub().set(ndrow2);
  // W(j, :) = L_d(row p1+j, :)·D_d; colOff[j] = superRows[p1+j] − k1
  k.forUp(j, () => fb.i32Const(0), get(k, ndrow1), () => {
    fb.get(xd).get(p1).get(rd0).i32Sub().get(j).i32Add().get(nd).i32Mul().i32Add().set(src);
    fb.get(j).get(nd).i32Mul().set(dst);
    k.forUp(kk, () => fb.i32Const(0), get(k, nd), () => {
      k.at(k.h('W'), () => fb.get(dst).get(kk).i32Add(), 3);
      k.getf(k.h('Lx'), () => fb.get(src).get(kk).i32Add());
      k.getf(k.h('D'), () => fb.get(dk1).get(kk).i32Add());
      fb.f64Mul().f64Store(0);
    });
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
  // subtractProducts(x0 = xd + (p1 − rd0)·nd, ldx = nd, W, nk = nd, ncol = ndrow1, nrow = ndrow2)
  fb.get(xd).get(p1).get(rd0).i32Sub().get(nd).i32Mul().i32Add().get(nd).get(nd).get(ndrow1).get(ndrow2).call(1);
  return fb;
}

/**
 * subtractProducts(x0, ldx, nk, ncol, nrow): for j < ncol, i ≥ j (from the start of j's block of
 * three), Lx[rowBase[i] + colOff[j]] −= Σ_k Lx[x0 + i·ldx + k]·W[j·nk + k], three rows by three
 * columns at a time, then the remaining rows and columns, as supernodal-ldlt.ts.
 */
function subtractFunction(): FunctionBuilder {
  const k = new Kernel('ldltSubtract', [I, I, I, I, I]);
  const fb = k.fb;
  const x0 = k.param(0), ldx = k.param(1), nk = k.param(2), ncol = k.param(3), nrow = k.param(4);
  const Lx = k.h('Lx'), W = k.h('W'), rowBase = k.h('rowBase'), colOff = k.h('colOff');
  const j = k.int(), i = k.int(), kk = k.int();
  const w0 = k.int(), w1 = k.int(), w2 = k.int(), c0 = k.int(), c1 = k.int(), c2 = k.int();
  const l0 = k.int(), l1 = k.int(), l2 = k.int(), b = k.int();
  const y0 = k.real(), y1 = k.real(), y2 = k.real(), a = k.real(), bb = k.real(), c = k.real();
  const S = Array.from({ length: 9 }, () => k.real());
  // addresses in bytes: Lx element e at Lx + 8e
  const lxAddr = (idx: () => void) => k.at(Lx, idx, 3);
  /** Lx[b + col] −= acc (b = the target row's offset) */
  const sub = (col: Local, acc: Local) => {
    lxAddr(() => fb.get(b).get(col).i32Add());
    lxAddr(() => fb.get(b).get(col).i32Add()).fb.f64Load(0).get(acc).f64Sub().f64Store(0);
  };
  const rowBaseOf = (ii: () => void) => {
    k.geti(rowBase, ii).fb.set(b);
  };
  // j in steps of 3 while j + 2 < ncol
  fb.i32Const(0).set(j);
  fb.block().loop();
  fb.get(j).i32Const(2).i32Add().get(ncol).i32GeS().brIf(1);
  fb.get(j).get(nk).i32Mul().set(w0);
  fb.get(w0).get(nk).i32Add().set(w1);
  fb.get(w1).get(nk).i32Add().set(w2);
  k.geti(colOff, get(k, j)).fb.set(c0);
  k.geti(colOff, () => fb.get(j).i32Const(1).i32Add()).fb.set(c1);
  k.geti(colOff, () => fb.get(j).i32Const(2).i32Add()).fb.set(c2);
  fb.get(j).set(i);
  // rows three at a time while i + 2 < nrow
  fb.block().loop();
  fb.get(i).i32Const(2).i32Add().get(nrow).i32GeS().brIf(1);
  fb.get(x0).get(i).get(ldx).i32Mul().i32Add().set(l0);
  fb.get(l0).get(ldx).i32Add().set(l1);
  fb.get(l1).get(ldx).i32Add().set(l2);
  for (const acc of S) fb.f64Const(0).set(acc);
  k.forUp(kk, () => fb.i32Const(0), get(k, nk), () => {
    k.getf(W, () => fb.get(w0).get(kk).i32Add()).fb.set(y0);
    k.getf(W, () => fb.get(w1).get(kk).i32Add()).fb.set(y1);
    k.getf(W, () => fb.get(w2).get(kk).i32Add()).fb.set(y2);
    k.getf(Lx, () => fb.get(l0).get(kk).i32Add()).fb.set(a);
    k.getf(Lx, () => fb.get(l1).get(kk).i32Add()).fb.set(bb);
    k.getf(Lx, () => fb.get(l2).get(kk).i32Add()).fb.set(c);
    const rows = [a, bb, c], ys = [y0, y1, y2];
    for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) fb.get(S[3 * r + q]!).get(rows[r]!).get(ys[q]!).f64Mul().f64Add().set(S[3 * r + q]!);
  });
  for (let r = 0; r < 3; r++) {
    rowBaseOf(() => fb.get(i).i32Const(r).i32Add());
    sub(c0, S[3 * r]!);
    sub(c1, S[3 * r + 1]!);
    sub(c2, S[3 * r + 2]!);
  }
  fb.get(i).i32Const(3).i32Add().set(i);
  fb.br(0).end().end();
  // the remaining rows, one at a time
  k.forUp(i, () => fb.get(i), get(k, nrow), () => {
    fb.get(x0).get(i).get(ldx).i32Mul().i32Add().set(l0);
    for (let q = 0; q < 3; q++) fb.f64Const(0).set(S[q]!);
    k.forUp(kk, () => fb.i32Const(0), get(k, nk), () => {
      k.getf(Lx, () => fb.get(l0).get(kk).i32Add()).fb.set(a);
      const ws = [w0, w1, w2];
      for (let q = 0; q < 3; q++) {
        fb.get(S[q]!).get(a);
        k.getf(W, () => fb.get(ws[q]!).get(kk).i32Add());
        fb.f64Mul().f64Add().set(S[q]!);
      }
    });
    rowBaseOf(get(k, i));
    sub(c0, S[0]!);
    sub(c1, S[1]!);
    sub(c2, S[2]!);
  });
  fb.get(j).i32Const(3).i32Add().set(j);
  fb.br(0).end().end();
  // the remaining columns, one at a time
  k.forUp(j, () => fb.get(j), get(k, ncol), () => {
    fb.get(j).get(nk).i32Mul().set(w0);
    k.geti(colOff, get(k, j)).fb.set(c0);
    k.forUp(i, () => fb.get(j), get(k, nrow), () => {
      fb.get(x0).get(i).get(ldx).i32Mul().i32Add().set(l0);
      fb.f64Const(0).set(S[0]!);
      k.forUp(kk, () => fb.i32Const(0), get(k, nk), () => {
        fb.get(S[0]!);
        k.getf(Lx, () => fb.get(l0).get(kk).i32Add());
        k.getf(W, () => fb.get(w0).get(kk).i32Add());
        fb.f64Mul().f64Add().set(S[0]!);
      });
      rowBaseOf(get(k, i));
      sub(c0, S[0]!);
    });
  });
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
  const j = k.int(), src = k.int(), dst = k.int(), kk = k.int(), i = k.int(), col = k.int(), rk = k.int(), m = k.int(), r0 = k.int(), r1 = k.int();
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
    k.forUp(j, () => fb.i32Const(0), get(k, nb), () => {
      fb.get(xs).get(p0).get(j).i32Add().get(ns).i32Mul().i32Add().set(src);
      fb.get(j).get(p0).i32Mul().set(dst);
      k.forUp(kk, () => fb.i32Const(0), get(k, p0), () => {
        k.at(W, () => fb.get(dst).get(kk).i32Add(), 3);
        lx(() => fb.get(src).get(kk).i32Add());
        k.getf(D, () => fb.get(k1).get(kk).i32Add());
        fb.f64Mul().f64Store(0);
      });
      k.at(k.h('colOff'), get(k, j), 2);
      fb.get(p0).get(j).i32Add().i32Store(0);
    });
    k.forUp(i, get(k, p0), get(k, nrows), () => {
      k.at(k.h('rowBase'), () => fb.get(i).get(p0).i32Sub(), 2);
      fb.get(xs).get(i).get(ns).i32Mul().i32Add().i32Store(0);
    });
    fb.get(xs).get(p0).get(ns).i32Mul().i32Add().get(ns).get(p0).get(nb).get(nrows).get(p0).i32Sub().call(1);
  }
  fb.end();
  k.forUp(col, get(k, p0), get(k, p1), () => {
    // W(m − p0) = L_km·D_m, D_k = a_kk − Σ L_km·W(m − p0)
    fb.get(xs).get(col).get(ns).i32Mul().i32Add().set(rk);
    lx(() => fb.get(rk).get(col).i32Add()).fb.set(dk);
    k.forUp(m, get(k, p0), get(k, col), () => {
      lx(() => fb.get(rk).get(m).i32Add()).fb.set(l);
      fb.get(l);
      k.getf(D, () => fb.get(k1).get(m).i32Add());
      fb.f64Mul().set(w);
      k.at(W, () => fb.get(m).get(p0).i32Sub(), 3);
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
    // L_ik for the rows below, two at a time
    fb.get(col).i32Const(1).i32Add().set(i);
    fb.block().loop();
    fb.get(i).i32Const(1).i32Add().get(nrows).i32GeS().brIf(1);
    fb.get(xs).get(i).get(ns).i32Mul().i32Add().set(r0);
    fb.get(r0).get(ns).i32Add().set(r1);
    lx(() => fb.get(r0).get(col).i32Add()).fb.set(s0);
    lx(() => fb.get(r1).get(col).i32Add()).fb.set(s1);
    k.forUp(m, get(k, p0), get(k, col), () => {
      k.getf(W, () => fb.get(m).get(p0).i32Sub()).fb.set(w);
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
    fb.get(i).get(nrows).i32LtS().if();
    {
      fb.get(xs).get(i).get(ns).i32Mul().i32Add().set(r0);
      lx(() => fb.get(r0).get(col).i32Add()).fb.set(s0);
      k.forUp(m, get(k, p0), get(k, col), () => {
        fb.get(s0);
        lx(() => fb.get(r0).get(m).i32Add());
        k.getf(W, () => fb.get(m).get(p0).i32Sub());
        fb.f64Mul().f64Sub().set(s0);
      });
      k.at(Lx, () => fb.get(r0).get(col).i32Add(), 3);
      fb.get(s0).get(dk).f64Div().f64Store(0);
    }
    fb.end();
  });
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
  const d = k.int(), dNext = k.int(), rdEnd = k.int(), p1 = k.int(), p2 = k.int(), t = k.int(), e = k.int();
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
    fb.get(xs).get(nrows).get(ns).i32Mul().i32Add().set(e);
    k.forUp(q, get(k, xs), get(k, e), () => {
      k.at(arr('Lx'), get(k, q), 3);
      fb.f64Const(0).f64Store(0);
    });
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
  const t = k.real(), yi = k.real();
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
    k.forUp(i, get(k, ns), get(k, nrows), () => {
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
  // Lᵀ v = w, supernodes in reverse
  k.forDown(s, () => fb.get(nsuper).i32Const(1).i32Sub(), () => fb.i32Const(-1), () => {
    superOfS();
    k.forUp(i, get(k, ns), get(k, nrows), () => {
      fb.get(xs).get(i).get(ns).i32Mul().i32Add().set(ri);
      yGet(() => k.geti(k.h('superRows'), () => fb.get(r0).get(i).i32Add())).fb.set(yi);
      fb.get(yi).f64Const(0).f64Eq().i32Eqz().if();
      k.forUp(m, () => fb.i32Const(0), get(k, ns), () => {
        yAt(() => fb.get(k1).get(m).i32Add());
        yGet(() => fb.get(k1).get(m).i32Add());
        k.getf(Lx, () => fb.get(ri).get(m).i32Add());
        fb.get(yi).f64Mul().f64Sub().f64Store(0);
      });
      fb.end();
    });
    k.forDown(kk, () => fb.get(ns).i32Const(1).i32Sub(), () => fb.i32Const(0), () => {
      fb.get(xs).get(kk).get(ns).i32Mul().i32Add().set(rk);
      yGet(() => fb.get(k1).get(kk).i32Add()).fb.set(yi);
      k.forUp(m, () => fb.i32Const(0), get(k, kk), () => {
        yAt(() => fb.get(k1).get(m).i32Add());
        yGet(() => fb.get(k1).get(m).i32Add());
        k.getf(Lx, () => fb.get(rk).get(m).i32Add());
        fb.get(yi).f64Mul().f64Sub().f64Store(0);
      });
    });
  });
  // out[perm[k]] = y[k]
  k.forUp(kk, () => fb.i32Const(0), get(k, n), () => {
    k.at(k.h('vec'), () => k.geti(k.h('perm'), get(k, kk)), 3);
    yGet(get(k, kk));
    fb.f64Store(0);
  });
  return fb;
}

let cached: object | null | undefined;

/** The compiled kernel (once per process), or undefined without WebAssembly. */
export function supernodalLdltModule(): object | undefined {
  if (cached !== undefined) return cached ?? undefined;
  cached = null;
  const api = wasmApi();
  if (!api) return undefined;
  // function indices: 0 update, 1 subtract, 2 factorBlock (called by index), 3 factor, 4 solve
  const bytes = wasmModuleBytes([updateFunction(), subtractFunction(), factorBlockFunction(), factorFunction(), solveFunction()], 65536);
  if (!api.validate(bytes)) return undefined;
  cached = new api.Module(bytes);
  return cached;
}
