/**
 * Where a supernodal LDLᵀ factorization splits between two threads (SupernodalLDLT's parallel
 * factorization): supernodes are numbered in a postorder of their elimination tree, so for any r
 * the first r supernodes are whole subtrees, and the first m of them (m the first supernode of
 * one of those subtrees) too. The ranges [0, m) and [m, r) then touch no block of each other
 * (a supernode updates only its ancestors) and are factorized at once, one per thread; the
 * supernodes above, [r, nsuper), follow on one thread. The split chosen makes
 * max(cost[0, m), cost[m, r)) + cost[r, nsuper) smallest, the cost of a supernode being the
 * multiply-adds of the updates it receives and of its own dense factorization, plus a fixed
 * cost per block and per update.
 */

import { forEachSupernodeUpdate, type SupernodeStructure } from './ldlt-analysis.js';

/** A split of the supernodes: [0, m) and [m, r) at once, then [r, nsuper); `time` relative to one thread (≤ 1). */
export interface SubtreeSplit {
  readonly m: number;
  readonly r: number;
  readonly time: number;
}

/** Fixed costs (in multiply-adds) of a supernode's block and of one update: the loops around the dense work. */
const BLOCK_COST = 200;
const UPDATE_COST = 100;

/**
 * The best split of the supernodes of an analysis, or undefined when none saves at least
 * `minSaving` of the one-thread cost (two threads would not pay for waking one).
 */
export function subtreeSplit(s: SupernodeStructure, minSaving = 0.1): SubtreeSplit | undefined {
  const { nsuper, superStart, superRowPtr, superRows, superOf } = s;
  if (nsuper < 3) return undefined;
  const cost = new Float64Array(nsuper);
  const parent = new Int32Array(nsuper).fill(-1);
  for (let d = 0; d < nsuper; d++) {
    const nd = superStart[d + 1] - superStart[d];
    const r0 = superRowPtr[d];
    const nrows = superRowPtr[d + 1] - r0;
    cost[d] += BLOCK_COST + nd * nrows;
    for (let k = 0; k < nd; k++) cost[d] += (nrows - k) * k;
    if (nd < nrows) parent[d] = superOf[superRows[r0 + nd]];
  }
  forEachSupernodeUpdate(s, (d, t, _p, n1, n2) => {
    cost[t] += UPDATE_COST + (superStart[d + 1] - superStart[d]) * (n1 * n2 - (n1 * (n1 - 1)) / 2);
  });
  // first[s]: the first supernode of the subtree of s (postorder: the subtree is first[s] … s)
  const first = new Int32Array(nsuper);
  for (let s = 0; s < nsuper; s++) first[s] = s;
  for (let s = 0; s < nsuper; s++) if (parent[s] >= 0 && first[s] < first[parent[s]]) first[parent[s]] = first[s];
  const prefix = new Float64Array(nsuper + 1);
  for (let s = 0; s < nsuper; s++) prefix[s + 1] = prefix[s] + cost[s];
  const total = prefix[nsuper];
  let best: SubtreeSplit | undefined;
  let bestCost = total * (1 - minSaving);
  // the roots of the forest [0, r) are its supernodes whose parent is r or above; a root's subtree
  // starts a candidate m. Every root of [0, r) is a root of [0, r + 1) but r itself: walk r down.
  for (let r = nsuper; r >= 2; r--) {
    const above = total - prefix[r];
    if (above >= bestCost) break;
    for (let s = r - 1; s >= 0; s = first[s] - 1) {
      // s is a root of [0, r): the subtrees of [0, r) are consecutive ranges ending at their roots
      const m = first[s];
      if (m === 0) break;
      const t = Math.max(prefix[m], prefix[r] - prefix[m]) + above;
      if (t < bestCost) {
        bestCost = t;
        best = { m, r, time: t / total };
      }
    }
  }
  return best;
}

/** The smallest product the factorization shares with a second thread (supernodal-ldlt.wat, $product): rows and multiply-adds. */
export const SHARED_PRODUCT_ROWS = 16;
export const SHARED_PRODUCT_WORK = 262144;

/**
 * The first supernode at or above `from` that a shared product updates: an update from a supernode
 * below, or a panel of its own block after the first (panels of `panel` columns), of at least
 * SHARED_PRODUCT_ROWS rows and SHARED_PRODUCT_WORK multiply-adds; nsuper when none is.
 */
export function firstSharedProduct(s: SupernodeStructure, from: number, panel: number): number {
  const { nsuper, superStart, superRowPtr } = s;
  const large = (ncol: number, nrow: number, nk: number) => nrow >= SHARED_PRODUCT_ROWS && ncol * nrow * nk >= SHARED_PRODUCT_WORK;
  let first = nsuper;
  forEachSupernodeUpdate(s, (d, t, _p, n1, n2) => {
    if (t >= from && t < first && large(n1, n2, superStart[d + 1] - superStart[d])) first = t;
  });
  for (let t = from; t < first; t++) {
    const ns = superStart[t + 1] - superStart[t];
    const nrows = superRowPtr[t + 1] - superRowPtr[t];
    for (let p0 = panel; p0 < ns; p0 += panel) {
      if (large(Math.min(panel, ns - p0), nrows - p0, p0)) {
        first = t;
        break;
      }
    }
  }
  return first;
}
