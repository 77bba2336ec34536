import { symmetricAdjacency } from './symmetric-pattern.js';

/** Options of {@link amdOrdering}. */
export interface AmdOptions {
  /**
   * Dense-row factor α: a row with more than max(16, α√n) off-diagonal entries is taken out of
   * the graph and ordered last (such rows would make every degree update expensive and the
   * approximate degrees useless). Negative disables the test. Default 10.
   */
  dense?: number;
  /** Aggressive element absorption (absorb any element whose variables all lie in the new one). Default true. */
  aggressive?: boolean;
}

// Node states. Indices 0..n-1 name both a variable and, once it is eliminated, the element it became.
const VARIABLE = 0; // a principal supervariable still to be eliminated
const ELEMENT = 1; // an eliminated pivot, not yet absorbed
const DEAD = 2; // absorbed element, merged (non-principal) variable or mass-eliminated variable
const DENSE = 3; // dense row, ordered last

/**
 * Approximate minimum degree ordering (Amestoy, Davis & Duff, "An approximate minimum degree
 * ordering algorithm", SIAM J. Matrix Anal. Appl. 17(4), 1996).
 *
 * Input: the pattern of an n x n matrix in CSR form (rowPtr (n+1), colInd). It is symmetrised
 * internally (i ~ j iff (i,j) or (j,i) is stored; the diagonal is ignored), so a full symmetric
 * pattern, either triangle alone, or an unsymmetric pattern (ordered as A + Aᵀ) are all accepted.
 * Output: perm (n), "new to old": perm[k] is the original index eliminated k-th.
 *
 * The elimination is simulated on a quotient graph instead of the filled graph:
 *  - A variable i keeps A_i (original neighbours not yet covered by an element), E_i (adjacent
 *    elements) and a weight nv_i (number of original variables it stands for).
 *  - Eliminating the variable p of least approximate degree turns it into an element with
 *    L_p = (A_p ∪ ⋃_{e ∈ E_p} L_e) \ {p}; the elements of E_p are absorbed (their variables are in L_p).
 *  - For the elements e touching L_p, w_e = |L_e \ L_p| is found by one scan. If w_e = 0 the element
 *    lies inside L_p and is absorbed too (aggressive absorption).
 *  - For i ∈ L_p, A_i loses L_p and p (those edges are now carried by p), p joins E_i and the
 *    external degree is bounded by
 *        d_i ≤ min( n_left − nv_i,  d_i_old + |L_p \ i|,  |A_i| + |L_p \ i| + Σ_{e ∈ E_i \ p} w_e ),
 *    all weighted by nv: the "approximate degree", an upper bound that costs O(|A_i| + |E_i|).
 *  - A variable of L_p left with A_i = ∅ and E_i = {p} is eliminated together with p (mass elimination).
 *  - Variables of L_p with identical (A_i, E_i) are indistinguishable: they are merged into one
 *    supervariable (found by hashing the lists, then comparing them).
 * Supervariables are emitted member by member when their principal is eliminated; dense rows last.
 * A postorder of the assembly tree (which changes no fill) is not applied.
 */
export function amdOrdering(n: number, rowPtr: ArrayLike<number>, colInd: ArrayLike<number>, options: AmdOptions = {}): Int32Array {
  const perm = new Int32Array(n);
  if (n === 0) return perm;
  const aggressive = options.aggressive ?? true;
  const alpha = options.dense ?? 10;
  const denseLimit = alpha < 0 ? n : Math.min(n, Math.max(16, alpha * Math.sqrt(n)));

  const adj = symmetricAdjacency(n, rowPtr, colInd);

  const status = new Uint8Array(n);
  const nv = new Int32Array(n).fill(1); // supervariable weights
  const degree = new Int32Array(n); // variable: approximate external degree; element: weighted |L_e|
  const varAdj: number[][] = new Array(n); // A_i
  const elemAdj: number[][] = new Array(n); // E_i
  const elemVars: number[][] = new Array(n); // L_e
  const memberNext = new Int32Array(n).fill(-1); // members of a supervariable, as a linked list
  const memberTail = new Int32Array(n);
  for (let i = 0; i < n; i++) memberTail[i] = i;

  // Dense rows leave the graph before anything else.
  let nDense = 0;
  for (let i = 0; i < n; i++) {
    if (adj.ptr[i + 1] - adj.ptr[i] > denseLimit) {
      status[i] = DENSE;
      nDense++;
    }
  }

  // Degree buckets: doubly linked lists of variables by approximate degree.
  const head = new Int32Array(n + 1).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  let minDeg = n;
  const insert = (i: number, d: number): void => {
    degree[i] = d;
    const h = head[d];
    next[i] = h;
    prev[i] = -1;
    if (h !== -1) prev[h] = i;
    head[d] = i;
    if (d < minDeg) minDeg = d;
  };
  const remove = (i: number): void => {
    const a = prev[i];
    const b = next[i];
    if (a !== -1) next[a] = b;
    else head[degree[i]] = b;
    if (b !== -1) prev[b] = a;
  };

  for (let i = 0; i < n; i++) {
    elemAdj[i] = [];
    elemVars[i] = [];
    if (status[i] === DENSE) {
      varAdj[i] = [];
      continue;
    }
    const list: number[] = [];
    for (let k = adj.ptr[i]; k < adj.ptr[i + 1]; k++) {
      const j = adj.ind[k];
      if (status[j] !== DENSE) list.push(j);
    }
    varAdj[i] = list;
    insert(i, list.length);
  }

  // Per-pivot scratch.
  const lpMark = new Int32Array(n).fill(-1); // lpMark[i] = step  ⇔  i ∈ L_p of this step
  const wStamp = new Int32Array(n).fill(-1); // wStamp[e] = step  ⇔  w[e] valid in this step
  const w = new Int32Array(n); // w[e] = |L_e \ L_p| (weighted)
  const touched = new Int32Array(n); // elements whose w was set in this step
  const partial = new Float64Array(n); // |A_i| + Σ w_e, before adding |L_p \ i|
  const hash = new Float64Array(n);
  const hashHead = new Int32Array(n).fill(-1);
  const hashNext = new Int32Array(n).fill(-1);
  const cmpMark = new Int32Array(n);
  let cmpStamp = 0;
  const Lp: number[] = [];

  const appendMembers = (into: number, from: number): void => {
    memberNext[memberTail[into]] = from;
    memberTail[into] = memberTail[from];
  };

  let nLeft = n - nDense; // weight of variables not yet eliminated
  let out = 0; // next position in perm
  for (let step = 0; nLeft > 0; step++) {
    // 1. Pivot: a variable of minimum approximate degree.
    while (minDeg <= n && head[minDeg] === -1) minDeg++;
    if (minDeg > n) throw new Error('amdOrdering: internal error, no variable left to eliminate');
    const p = head[minDeg];
    remove(p);
    nLeft -= nv[p];

    // 2. New element L_p = (A_p ∪ ⋃ L_e, e ∈ E_p) \ {p}; the elements of E_p are absorbed.
    Lp.length = 0;
    lpMark[p] = step;
    for (const e of elemAdj[p]) {
      if (status[e] !== ELEMENT) continue;
      for (const i of elemVars[e]) {
        if (status[i] === VARIABLE && lpMark[i] !== step) {
          lpMark[i] = step;
          Lp.push(i);
        }
      }
      status[e] = DEAD;
      elemVars[e] = [];
    }
    for (const j of varAdj[p]) {
      if (status[j] === VARIABLE && lpMark[j] !== step) {
        lpMark[j] = step;
        Lp.push(j);
      }
    }
    status[p] = ELEMENT;
    elemAdj[p] = [];
    varAdj[p] = [];
    for (const i of Lp) remove(i);

    // 3. w_e = |L_e \ L_p| for every live element adjacent to L_p: start from |L_e| and subtract
    //    the weight of each member of L_p met through E_i.
    let nTouched = 0;
    for (const i of Lp) {
      const nvi = nv[i];
      for (const e of elemAdj[i]) {
        if (status[e] !== ELEMENT) continue;
        if (wStamp[e] !== step) {
          wStamp[e] = step;
          w[e] = degree[e];
          touched[nTouched++] = e;
        }
        w[e] -= nvi;
      }
    }
    if (aggressive) {
      for (let t = 0; t < nTouched; t++) {
        const e = touched[t];
        if (w[e] === 0) {
          status[e] = DEAD; // L_e ⊆ L_p: e is absorbed into p
          elemVars[e] = [];
        }
      }
    }

    // 4. Prune E_i and A_i for i ∈ L_p, accumulate the degree terms and hash the lists.
    for (const i of Lp) {
      const Ei = elemAdj[i];
      let k = 0;
      let d = 0;
      let h = p;
      for (let t = 0; t < Ei.length; t++) {
        const e = Ei[t];
        if (status[e] !== ELEMENT) continue;
        Ei[k++] = e;
        d += w[e];
        h += e;
      }
      Ei.length = k;
      const Ai = varAdj[i];
      let m = 0;
      for (let t = 0; t < Ai.length; t++) {
        const j = Ai[t];
        // Drop merged/eliminated variables and members of L_p (now joined through p).
        if (status[j] !== VARIABLE || lpMark[j] === step) continue;
        Ai[m++] = j;
        d += nv[j];
        h += j;
      }
      Ai.length = m;
      if (k === 0 && m === 0) {
        // Only adjacent to p: eliminated with p (mass elimination).
        status[i] = DEAD;
        nLeft -= nv[i];
        nv[p] += nv[i];
        nv[i] = 0;
        appendMembers(p, i);
        elemAdj[i] = [];
        varAdj[i] = [];
        continue;
      }
      Ei.push(p);
      partial[i] = d;
      hash[i] = h;
    }

    // 5. Supervariable detection among the remaining members of L_p: same hash bucket, then equal
    //    list lengths and every entry of one list marked by the other.
    let live = 0;
    for (const i of Lp) if (status[i] === VARIABLE) Lp[live++] = i;
    Lp.length = live;
    for (const i of Lp) {
      const b = hash[i] % n;
      hashNext[i] = hashHead[b];
      hashHead[b] = i;
    }
    for (const i of Lp) {
      const b = hash[i] % n;
      let a = hashHead[b];
      if (a === -1) continue;
      hashHead[b] = -1;
      for (; a !== -1; a = hashNext[a]) {
        if (cmpStamp >= 0x3fffffff) {
          cmpMark.fill(0);
          cmpStamp = 0;
        }
        const stamp = ++cmpStamp;
        const Ea = elemAdj[a];
        const Aa = varAdj[a];
        for (const e of Ea) cmpMark[e] = stamp;
        for (const j of Aa) cmpMark[j] = stamp;
        let before = a;
        for (let c = hashNext[a]; c !== -1; c = hashNext[c]) {
          if (hash[c] === hash[a] && sameLists(elemAdj[c], Ea.length, cmpMark, stamp) && sameLists(varAdj[c], Aa.length, cmpMark, stamp)) {
            // c is indistinguishable from a: merge it into a and unlink it from the bucket.
            nv[a] += nv[c];
            nv[c] = 0;
            status[c] = DEAD;
            appendMembers(a, c);
            elemAdj[c] = [];
            varAdj[c] = [];
            hashNext[before] = hashNext[c];
          } else {
            before = c;
          }
        }
      }
    }
    live = 0;
    for (const i of Lp) if (status[i] === VARIABLE) Lp[live++] = i;
    Lp.length = live;

    // 6. Finish the approximate degrees and put the variables back in their buckets.
    let degme = 0;
    for (const i of Lp) degme += nv[i];
    for (const i of Lp) {
      const nvi = nv[i];
      const ext = degme - nvi; // |L_p \ i|
      let d = Math.min(degree[i] + ext, partial[i] + ext, nLeft - nvi);
      if (d < 0) d = 0;
      insert(i, d);
    }
    elemVars[p] = Lp.slice();
    degree[p] = degme;

    // Emit p and everything that travels with it.
    for (let i = p; i !== -1; i = memberNext[i]) perm[out++] = i;
  }

  for (let i = 0; i < n; i++) if (status[i] === DENSE) perm[out++] = i;
  if (out !== n) throw new Error(`amdOrdering: internal error, ordered ${out} of ${n}`);
  return perm;
}

// Whether `list` has `length` entries, all carrying the current mark.
function sameLists(list: number[], length: number, mark: Int32Array, stamp: number): boolean {
  if (list.length !== length) return false;
  for (const x of list) if (mark[x] !== stamp) return false;
  return true;
}
