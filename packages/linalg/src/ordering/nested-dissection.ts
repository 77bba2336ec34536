import { amdOrdering } from './amd.js';
import { symmetricAdjacency, type Adjacency } from './symmetric-pattern.js';

/** Options of {@link nestedDissectionOrdering}. */
export interface NestedDissectionOptions {
  /** Parts with at most this many vertices are not split further but ordered by AMD. Default 64. */
  leafSize?: number;
}

/**
 * Nested dissection ordering (George, "Nested dissection of a regular finite element mesh", SIAM
 * J. Numer. Anal. 10(2), 1973), with level-structure separators as in George & Liu's automatic
 * nested dissection:
 *
 *  - the graph of the symmetrised pattern is split into connected components, each ordered alone;
 *  - a component larger than `leafSize` is rooted at a pseudo-peripheral vertex (repeated
 *    breadth-first searches from the farthest vertex of the last one); the level that splits the
 *    vertices in two halves gives the separator, thinned to the vertices of that level having a
 *    neighbour in the next level (the others join the first half, which they touch only);
 *  - both halves are ordered recursively, then the separator is numbered last, so that no fill
 *    can join the halves;
 *  - parts of at most `leafSize` vertices are ordered by approximate minimum degree.
 *
 * Input and output as {@link amdOrdering}: perm (n), new → old. Allocates (init-time work).
 */
export function nestedDissectionOrdering(
  n: number,
  rowPtr: ArrayLike<number>,
  colInd: ArrayLike<number>,
  options: NestedDissectionOptions = {},
): Int32Array {
  const perm = new Int32Array(n);
  if (n === 0) return perm;
  const leaf = Math.max(1, options.leafSize ?? 64);
  const adj = symmetricAdjacency(n, rowPtr, colInd);
  const ctx: Ctx = {
    adj,
    leaf,
    perm,
    next: 0,
    inPart: new Int32Array(n).fill(-1),
    level: new Int32Array(n),
    local: new Int32Array(n),
    partId: 0,
  };
  dissect(
    ctx,
    Int32Array.from({ length: n }, (_, i) => i),
  );
  if (ctx.next !== n) throw new Error(`nestedDissectionOrdering: internal error, ordered ${ctx.next} of ${n}`);
  return perm;
}

interface Ctx {
  adj: Adjacency;
  leaf: number;
  perm: Int32Array;
  /** Next position to fill in perm. */
  next: number;
  /** inPart[v] = id of the part being processed when v belongs to it. */
  inPart: Int32Array;
  /** BFS level of each vertex (−1: not reached), valid inside the current part. */
  level: Int32Array;
  /** Local index of a vertex in the current part (for the AMD leaves). */
  local: Int32Array;
  partId: number;
}

// Orders the vertices of `part` (any subset) into ctx.perm[next ...].
function dissect(ctx: Ctx, part: Int32Array): void {
  if (part.length === 0) return;
  if (part.length <= ctx.leaf) {
    orderLeaf(ctx, part);
    return;
  }
  const id = ++ctx.partId;
  for (const v of part) ctx.inPart[v] = id;
  const { ptr, ind } = ctx.adj;
  const level = ctx.level;
  for (const v of part) level[v] = -1;

  // Connected components of the part: order each one alone.
  const comps = components(ctx, part, id);
  if (comps.length > 1) {
    for (const c of comps) dissect(ctx, c);
    return;
  }

  // Pseudo-peripheral root and its level structure.
  let root = part[0];
  let levels = bfsLevels(ctx, part, root, id);
  for (let tries = 0; tries < 8; tries++) {
    const last = levels[levels.length - 1];
    // Farthest vertex of least degree.
    let cand = last[0];
    for (const v of last) if (ptr[v + 1] - ptr[v] < ptr[cand + 1] - ptr[cand]) cand = v;
    const again = bfsLevels(ctx, part, cand, id);
    if (again.length <= levels.length) break;
    root = cand;
    levels = again;
  }
  // Recompute levels of the chosen structure (bfsLevels wrote the last tried one).
  levels = bfsLevels(ctx, part, root, id);
  if (levels.length < 3) {
    // Too compact to split by levels (nearly complete graph): minimum degree is as good.
    orderLeaf(ctx, part);
    return;
  }

  // Separator level: the first level where the vertices before it reach half of the part.
  const half = part.length / 2;
  let before = 0;
  let sepLevel = 1;
  for (let l = 0; l < levels.length; l++) {
    if (before + levels[l].length > half) {
      sepLevel = Math.min(Math.max(l, 1), levels.length - 2);
      break;
    }
    before += levels[l].length;
  }
  // Thin the separator: keep the vertices of sepLevel with a neighbour in sepLevel + 1.
  const sep: number[] = [];
  const first: number[] = [];
  const second: number[] = [];
  for (let l = 0; l < levels.length; l++) {
    for (const v of levels[l]) {
      if (l < sepLevel) first.push(v);
      else if (l > sepLevel) second.push(v);
      else {
        let touches = false;
        for (let k = ptr[v]; k < ptr[v + 1]; k++) {
          const u = ind[k];
          if (ctx.inPart[u] === id && level[u] === sepLevel + 1) {
            touches = true;
            break;
          }
        }
        (touches ? sep : first).push(v);
      }
    }
  }
  const sepArr = Int32Array.from(sep);
  dissect(ctx, Int32Array.from(first));
  dissect(ctx, Int32Array.from(second));
  // The separator last (ordered by minimum degree among itself).
  orderLeaf(ctx, sepArr);
}

// Splits `part` into connected components (inside the part).
function components(ctx: Ctx, part: Int32Array, id: number): Int32Array[] {
  const { ptr, ind } = ctx.adj;
  const level = ctx.level;
  const out: Int32Array[] = [];
  const queue = new Int32Array(part.length);
  for (const s of part) {
    if (level[s] !== -1) continue;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    level[s] = 0;
    while (head < tail) {
      const v = queue[head++];
      for (let k = ptr[v]; k < ptr[v + 1]; k++) {
        const u = ind[k];
        if (ctx.inPart[u] === id && level[u] === -1) {
          level[u] = 0;
          queue[tail++] = u;
        }
      }
    }
    out.push(queue.slice(0, tail));
  }
  for (const v of part) level[v] = -1;
  return out;
}

// Breadth-first level structure of a connected part from root; leaves level[] filled.
function bfsLevels(ctx: Ctx, part: Int32Array, root: number, id: number): Int32Array[] {
  const { ptr, ind } = ctx.adj;
  const level = ctx.level;
  for (const v of part) level[v] = -1;
  const queue = new Int32Array(part.length);
  const levels: Int32Array[] = [];
  let head = 0;
  let tail = 0;
  queue[tail++] = root;
  level[root] = 0;
  while (head < tail) {
    const start = head;
    const end = tail;
    for (; head < end; head++) {
      const v = queue[head];
      for (let k = ptr[v]; k < ptr[v + 1]; k++) {
        const u = ind[k];
        if (ctx.inPart[u] === id && level[u] === -1) {
          level[u] = level[v] + 1;
          queue[tail++] = u;
        }
      }
    }
    levels.push(queue.slice(start, end));
  }
  return levels;
}

// Orders a small part by AMD on its induced subgraph.
function orderLeaf(ctx: Ctx, part: Int32Array): void {
  const m = part.length;
  if (m === 0) return;
  if (m === 1) {
    ctx.perm[ctx.next++] = part[0];
    return;
  }
  const id = ++ctx.partId;
  const { ptr, ind } = ctx.adj;
  for (let i = 0; i < m; i++) {
    ctx.inPart[part[i]] = id;
    ctx.local[part[i]] = i;
  }
  const rp = new Int32Array(m + 1);
  const cols: number[] = [];
  for (let i = 0; i < m; i++) {
    const v = part[i];
    for (let k = ptr[v]; k < ptr[v + 1]; k++) {
      const u = ind[k];
      if (ctx.inPart[u] === id) cols.push(ctx.local[u]);
    }
    rp[i + 1] = cols.length;
  }
  const sub = amdOrdering(m, rp, Int32Array.from(cols));
  for (let k = 0; k < m; k++) ctx.perm[ctx.next++] = part[sub[k]];
}
