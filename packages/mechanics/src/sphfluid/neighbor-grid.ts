/**
 * The pairs of points closer than a distance, by a hashed uniform grid (what SOFA's SpatialGrid
 * gives its NeighborListener): points are bucketed by their cell ⌊x/w⌋ (hashed into a table of
 * about twice as many buckets as points, counting-sorted), and each point is compared with the
 * points of the 27 cells around its own, in buckets visited once each (two cells hashing to one
 * bucket are one visit), keeping the pairs (i, j), i < j, with |xj − xi|² < dist². Cells are at
 * least `dist` wide, so every pair is found, whatever the cell width asked for (SOFA's grid looks
 * at the adjacent cells only and misses the pairs farther apart than its cell width).
 * Points with a non-finite coordinate are left out (counted in `skipped`).
 * The buffers grow by doubling and are kept: a search allocates nothing once they are large enough.
 */
export class NeighborGrid {
  /** Number of pairs of the last search; pair k is (pairI[k], pairJ[k]) at squared distance pairR2[k]. */
  count = 0;
  pairI = new Int32Array(64);
  pairJ = new Int32Array(64);
  pairR2 = new Float64Array(64);
  /** Points left out of the last search (a non-finite coordinate). */
  skipped = 0;

  private cell = new Float64Array(0); // (n × 3) cell coordinates
  private bucketOf = new Int32Array(0); // (n) bucket, −1 when skipped
  private start = new Int32Array(0); // (buckets + 1) counting-sort offsets
  private order = new Int32Array(0); // (n) points sorted by bucket
  private readonly visited = new Int32Array(27);

  /**
   * Finds the pairs of the first n points of x (point i at x[i·stride …], 3 coordinates) closer
   * than dist, on cells of width max(cellWidth, dist). Returns the number of pairs.
   */
  search(x: Float64Array, stride: number, n: number, dist: number, cellWidth: number): number {
    this.count = 0;
    this.skipped = 0;
    if (!(dist > 0) || n < 2) return 0;
    const w = Math.max(cellWidth > 0 ? cellWidth : 0, dist);
    const inv = 1 / w;
    const dist2 = dist * dist;
    let buckets = 16;
    while (buckets < 2 * n) buckets *= 2;
    const mask = buckets - 1;
    if (this.cell.length < 3 * n) {
      this.cell = new Float64Array(3 * n);
      this.bucketOf = new Int32Array(n);
      this.order = new Int32Array(n);
    }
    if (this.start.length < buckets + 1) this.start = new Int32Array(buckets + 1);
    const { cell, bucketOf, order } = this;
    const start = this.start;
    start.fill(0, 0, buckets + 1);
    for (let i = 0; i < n; i++) {
      const o = i * stride;
      const cx = Math.floor(x[o] * inv),
        cy = Math.floor(x[o + 1] * inv),
        cz = Math.floor(x[o + 2] * inv);
      if (!Number.isFinite(cx) || !Number.isFinite(cy) || !Number.isFinite(cz)) {
        bucketOf[i] = -1;
        this.skipped++;
        continue;
      }
      cell[3 * i] = cx;
      cell[3 * i + 1] = cy;
      cell[3 * i + 2] = cz;
      const b = hash(cx, cy, cz) & mask;
      bucketOf[i] = b;
      start[b + 1]++;
    }
    for (let b = 0; b < buckets; b++) start[b + 1] += start[b];
    // fill order (start[b] used as a cursor, then restored)
    for (let i = 0; i < n; i++) {
      const b = bucketOf[i];
      if (b >= 0) order[start[b]++] = i;
    }
    for (let b = buckets; b > 0; b--) start[b] = start[b - 1];
    start[0] = 0;
    const visited = this.visited;
    for (let i = 0; i < n; i++) {
      if (bucketOf[i] < 0) continue;
      const oi = i * stride;
      const xi = x[oi],
        yi = x[oi + 1],
        zi = x[oi + 2];
      const cx = cell[3 * i],
        cy = cell[3 * i + 1],
        cz = cell[3 * i + 2];
      let nv = 0;
      for (let dz = -1; dz <= 1; dz++)
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const b = hash(cx + dx, cy + dy, cz + dz) & mask;
            let seen = false;
            for (let k = 0; k < nv; k++) if (visited[k] === b) seen = true;
            if (seen) continue;
            visited[nv++] = b;
            for (let s = start[b], e = start[b + 1]; s < e; s++) {
              const j = order[s];
              if (j <= i) continue;
              const oj = j * stride;
              const ex = x[oj] - xi,
                ey = x[oj + 1] - yi,
                ez = x[oj + 2] - zi;
              const r2 = ex * ex + ey * ey + ez * ez;
              if (r2 < dist2) this.push(i, j, r2);
            }
          }
    }
    return this.count;
  }

  private push(i: number, j: number, r2: number): void {
    if (this.count === this.pairI.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(2 * a.length);
        b.set(a);
        return b;
      };
      this.pairI = grow(this.pairI);
      this.pairJ = grow(this.pairJ);
      this.pairR2 = grow(this.pairR2);
    }
    this.pairI[this.count] = i;
    this.pairJ[this.count] = j;
    this.pairR2[this.count] = r2;
    this.count++;
  }
}

/** A hash of an integer cell (coordinates as doubles, wrapped to 32 bits). */
function hash(cx: number, cy: number, cz: number): number {
  return (Math.imul(cx | 0, 73856093) ^ Math.imul(cy | 0, 19349663) ^ Math.imul(cz | 0, 83492791)) >>> 0;
}
