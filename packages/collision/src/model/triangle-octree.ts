import { rayTriangleIntersection, type RayHit } from './ray-triangle.js';

/** A ray hit and the triangle hit (−1 when none). */
export interface TraceResult extends RayHit {
  tid: number;
}

/**
 * SOFA's TriangleOctree (helper/TriangleOctree): an octree over the triangles of a mesh, for the
 * nearest triangle a ray hits. A triangle whose box has largest side s is stored at the depth d
 * whose cells are at least as large, d = ⌊log2(L/s)⌋ (L the side of the root cube, d ≤ maxDepth),
 * in each cell of that depth its box overlaps (at most two per axis). trace(o, d) gives the
 * nearest hit t ≥ ε along o + t·d (see ray-triangle.ts): cells are visited front to back, those the
 * ray enters beyond the best hit so far are skipped, so the answer is that of a test of every
 * triangle.
 *
 * Two differences from SOFA, on purpose: SOFA's root cube is fixed ([−800, 800]³, a triangle outside
 * it is not stored and never hit), here it is the cube around the mesh; SOFA's traversal returns
 * the best hit of the first cell (in ray order) that has one, which can miss a nearer hit of a
 * triangle stored in a later cell, here the nearest hit is returned.
 *
 * Storage is typed arrays kept from one build to the next (built again at every step for a moving
 * mesh): nodes (8 children each, 0 for none: the root, node 0, is nobody's child) and, per node, a
 * linked list of triangle entries.
 */
export class TriangleOctree {
  static readonly maxDepth = 10;

  /** The positions and triangles of the last build. */
  positions: Float64Array = new Float64Array(0);
  private tri: Uint32Array = new Uint32Array(0);

  /** Root cube: min corner and side. */
  private rx = 0;
  private ry = 0;
  private rz = 0;
  private side = 1;
  /** Padding of the cells in the ray-box tests (rounding at their faces). */
  private pad = 0;

  private nNodes = 0;
  private child = new Int32Array(8 * 64);
  /** (3 per node) min corner of the node's cell. */
  private corner = new Float64Array(3 * 64);
  private cellSide = new Float64Array(64);
  /** First entry of the node's list, −1 when empty. */
  private head = new Int32Array(64);
  private nEntries = 0;
  private entryTriangle = new Int32Array(256);
  private entryNext = new Int32Array(256);

  /** Traversal stack (node, entry t) and the sorted children of the node being expanded. */
  private readonly stackNode = new Int32Array(8 * (TriangleOctree.maxDepth + 2));
  private readonly stackT = new Float64Array(8 * (TriangleOctree.maxDepth + 2));
  private readonly kidNode = new Int32Array(8);
  private readonly kidT = new Float64Array(8);
  private readonly hit: RayHit = { t: 0, u: 0, v: 0 };

  /** Number of triangle entries (a triangle is in 1 to 8 cells). */
  get entryCount(): number {
    return this.nEntries;
  }

  get nodeCount(): number {
    return this.nNodes;
  }

  /** Stores the first nTri triangles (3 point indices each in tri) at positions x (3 per point). */
  build(x: Float64Array, tri: Uint32Array, nTri: number): void {
    this.positions = x;
    this.tri = tri;
    this.nNodes = 0;
    this.nEntries = 0;
    // the cube around the triangles' points
    let x0 = Infinity,
      y0 = Infinity,
      z0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity,
      z1 = -Infinity;
    for (let k = 0; k < 3 * nTri; k++) {
      const p = 3 * tri[k];
      const px = x[p],
        py = x[p + 1],
        pz = x[p + 2];
      if (px < x0) x0 = px;
      if (px > x1) x1 = px;
      if (py < y0) y0 = py;
      if (py > y1) y1 = py;
      if (pz < z0) z0 = pz;
      if (pz > z1) z1 = pz;
    }
    if (nTri === 0) x0 = y0 = z0 = x1 = y1 = z1 = 0;
    const ext = Math.max(x1 - x0, y1 - y0, z1 - z0);
    const side = ext > 0 ? ext * (1 + 1e-6) : 1;
    this.side = side;
    this.rx = 0.5 * (x0 + x1) - 0.5 * side;
    this.ry = 0.5 * (y0 + y1) - 0.5 * side;
    this.rz = 0.5 * (z0 + z1) - 0.5 * side;
    this.pad = 1e-9 * side;
    this.newNode(this.rx, this.ry, this.rz, side);
    for (let t = 0; t < nTri; t++) this.insert(t);
  }

  private newNode(cx: number, cy: number, cz: number, s: number): number {
    const n = this.nNodes++;
    if (n === this.head.length) {
      const cap = 2 * n;
      const child = new Int32Array(8 * cap);
      child.set(this.child);
      this.child = child;
      const corner = new Float64Array(3 * cap);
      corner.set(this.corner);
      this.corner = corner;
      const cs = new Float64Array(cap);
      cs.set(this.cellSide);
      this.cellSide = cs;
      const head = new Int32Array(cap);
      head.set(this.head);
      this.head = head;
    }
    this.child.fill(0, 8 * n, 8 * n + 8);
    this.corner[3 * n] = cx;
    this.corner[3 * n + 1] = cy;
    this.corner[3 * n + 2] = cz;
    this.cellSide[n] = s;
    this.head[n] = -1;
    return n;
  }

  /** Triangle t into every cell of its depth that its box (slightly enlarged) overlaps. */
  private insert(t: number): void {
    const x = this.positions,
      tri = this.tri,
      pad = this.pad;
    const a = 3 * tri[3 * t],
      b = 3 * tri[3 * t + 1],
      c = 3 * tri[3 * t + 2];
    const x0 = Math.min(x[a], x[b], x[c]) - pad,
      x1 = Math.max(x[a], x[b], x[c]) + pad;
    const y0 = Math.min(x[a + 1], x[b + 1], x[c + 1]) - pad,
      y1 = Math.max(x[a + 1], x[b + 1], x[c + 1]) + pad;
    const z0 = Math.min(x[a + 2], x[b + 2], x[c + 2]) - pad,
      z1 = Math.max(x[a + 2], x[b + 2], x[c + 2]) + pad;
    const s = Math.max(x1 - x0, y1 - y0, z1 - z0);
    const d = Math.max(0, Math.min(TriangleOctree.maxDepth, Math.floor(Math.log2(this.side / s))));
    const cells = 1 << d;
    const inc = this.side / cells;
    const i0 = cellIndex(x0, this.rx, inc, cells),
      i1 = cellIndex(x1, this.rx, inc, cells);
    const j0 = cellIndex(y0, this.ry, inc, cells),
      j1 = cellIndex(y1, this.ry, inc, cells);
    const k0 = cellIndex(z0, this.rz, inc, cells),
      k1 = cellIndex(z1, this.rz, inc, cells);
    for (let i = i0; i <= i1; i++) for (let j = j0; j <= j1; j++) for (let k = k0; k <= k1; k++) this.addEntry(this.descend(d, i, j, k), t);
  }

  /** The node of cell (i, j, k) at depth d, created on the way down. */
  private descend(d: number, i: number, j: number, k: number): number {
    let node = 0;
    for (let l = d - 1; l >= 0; l--) {
      const bx = (i >> l) & 1,
        by = (j >> l) & 1,
        bz = (k >> l) & 1;
      const slot = 8 * node + (bx << 2) + (by << 1) + bz;
      let c = this.child[slot];
      if (c === 0) {
        const h = 0.5 * this.cellSide[node];
        const o = 3 * node;
        c = this.newNode(this.corner[o] + bx * h, this.corner[o + 1] + by * h, this.corner[o + 2] + bz * h, h);
        this.child[slot] = c;
      }
      node = c;
    }
    return node;
  }

  private addEntry(node: number, t: number): void {
    const e = this.nEntries++;
    if (e === this.entryTriangle.length) {
      const tri = new Int32Array(2 * e);
      tri.set(this.entryTriangle);
      this.entryTriangle = tri;
      const next = new Int32Array(2 * e);
      next.set(this.entryNext);
      this.entryNext = next;
    }
    this.entryTriangle[e] = t;
    this.entryNext[e] = this.head[node];
    this.head[node] = e;
  }

  /** Parameter where the ray enters node n's cell (≥ 0), Infinity when it misses it. */
  private enter(n: number, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): number {
    const s = this.cellSide[n],
      pad = this.pad;
    const o = 3 * n;
    let t0 = 0,
      t1 = Infinity;
    for (let k = 0; k < 3; k++) {
      const org = k === 0 ? ox : k === 1 ? oy : oz;
      const dir = k === 0 ? dx : k === 1 ? dy : dz;
      const lo = this.corner[o + k] - pad,
        hi = this.corner[o + k] + s + pad;
      if (dir === 0) {
        if (org < lo || org > hi) return Infinity;
        continue;
      }
      let a = (lo - org) / dir,
        b = (hi - org) / dir;
      if (a > b) {
        const w = a;
        a = b;
        b = w;
      }
      if (a > t0) t0 = a;
      if (b < t1) t1 = b;
      if (t0 > t1) return Infinity;
    }
    return t0;
  }

  /**
   * The nearest triangle hit by the ray o + t·d (t ≥ ε), written in `res` with its t, u, v; returns
   * its index, −1 when the ray hits none (res.tid too).
   */
  trace(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, res: TraceResult): number {
    res.tid = -1;
    if (this.nNodes === 0 || !Number.isFinite(ox + oy + oz + dx + dy + dz)) return -1;
    const x = this.positions,
      tri = this.tri,
      hit = this.hit;
    const sn = this.stackNode,
      st = this.stackT,
      kn = this.kidNode,
      kt = this.kidT;
    let best = Infinity;
    const t0 = this.enter(0, ox, oy, oz, dx, dy, dz);
    if (t0 === Infinity) return -1;
    let top = 0;
    sn[top] = 0;
    st[top++] = t0;
    while (top > 0) {
      top--;
      const node = sn[top];
      if (st[top] > best) continue;
      for (let e = this.head[node]; e >= 0; e = this.entryNext[e]) {
        const t = this.entryTriangle[e];
        if (!rayTriangleIntersection(x, tri[3 * t], tri[3 * t + 1], tri[3 * t + 2], ox, oy, oz, dx, dy, dz, hit)) continue;
        if (hit.t < best || (hit.t === best && t < res.tid)) {
          best = hit.t;
          res.tid = t;
          res.t = hit.t;
          res.u = hit.u;
          res.v = hit.v;
        }
      }
      // children entered before the best hit, sorted by entry (insertion sort), pushed far first
      let nk = 0;
      const c8 = 8 * node;
      for (let c = 0; c < 8; c++) {
        const ch = this.child[c8 + c];
        if (ch === 0) continue;
        const te = this.enter(ch, ox, oy, oz, dx, dy, dz);
        if (te === Infinity || te > best) continue;
        let p = nk++;
        while (p > 0 && kt[p - 1] > te) {
          kt[p] = kt[p - 1];
          kn[p] = kn[p - 1];
          p--;
        }
        kt[p] = te;
        kn[p] = ch;
      }
      for (let p = nk - 1; p >= 0; p--) {
        sn[top] = kn[p];
        st[top++] = kt[p];
      }
    }
    return res.tid;
  }
}

/** Index of the cell holding coordinate v along an axis (root corner r, cells of side inc), clamped to the grid. */
function cellIndex(v: number, r: number, inc: number, cells: number): number {
  return Math.max(0, Math.min(cells - 1, Math.floor((v - r) / inc)));
}
