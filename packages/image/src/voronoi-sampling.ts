/**
 * Geodesic Voronoi sampling of the non-zero voxels of an image (SOFA's ImageSampler, method 1,
 * ImageAlgorithms.h): Dijkstra distances through the 26 neighbours (a step costs its length with
 * the voxel size), farthest point sampling (each new sample at the voxel farthest from the
 * samples so far), then Lloyd relaxation (each sample moves to the voxel of its cell nearest the
 * cell's centroid, not occupied by another sample) until no sample moves or `lloydIterations`.
 * Background voxels have distance −1 and no cell; voronoi holds cell numbers from 1.
 */
export class VoronoiSampler {
  readonly distances: Float64Array;
  readonly voronoi: Uint32Array;
  private heapD: Float64Array;
  private heapV: Int32Array;
  private heapN = 0;
  private readonly offsets: Int32Array;
  private readonly steps: Float64Array;
  private readonly dOff: Int32Array;

  constructor(
    readonly mask: ArrayLike<number>,
    readonly w: number,
    readonly h: number,
    readonly d: number,
    voxelSize: ArrayLike<number>,
  ) {
    const n = w * h * d;
    this.distances = new Float64Array(n);
    this.voronoi = new Uint32Array(n);
    this.heapD = new Float64Array(1024);
    this.heapV = new Int32Array(1024);
    const off: number[] = [],
      st: number[] = [],
      dd: number[] = [];
    for (let k = -1; k <= 1; k++)
      for (let j = -1; j <= 1; j++)
        for (let i = -1; i <= 1; i++) {
          off.push(i, j, k);
          dd.push(i + w * (j + h * k));
          st.push(Math.hypot(i * voxelSize[0], j * voxelSize[1], k * voxelSize[2]));
        }
    this.offsets = Int32Array.from(off);
    this.steps = Float64Array.from(st);
    this.dOff = Int32Array.from(dd);
  }

  /** Every voxel of the object back to "not reached" (+∞), the background to −1. */
  resetDistances(): void {
    for (let o = 0; o < this.distances.length; o++) this.distances[o] = this.mask[o] !== 0 ? Infinity : -1;
  }

  /** A seed of cell `index` at the voxel nearest p (image coordinates), if it is in the object. */
  addSeed(p: ArrayLike<number>, index: number): void {
    const x = Math.round(p[0]),
      y = Math.round(p[1]),
      z = Math.round(p[2]);
    if (x < 0 || y < 0 || z < 0 || x >= this.w || y >= this.h || z >= this.d) return;
    const o = x + this.w * (y + this.h * z);
    if (this.distances[o] < 0) return;
    this.distances[o] = 0;
    this.voronoi[o] = index;
    this.push(0, o);
  }

  /** Dijkstra from the seeds added since the last run. */
  dijkstra(): void {
    const { w, h, d, distances: D, voronoi: V } = this;
    while (this.heapN > 0) {
      const dist = this.heapD[0],
        o = this.heapV[0];
      this.pop();
      if (dist > D[o]) continue; // a stale entry
      const x = o % w,
        y = ((o - x) / w) % h,
        z = (o - x - w * y) / (w * h);
      const vor = V[o];
      for (let q = 0; q < 27; q++) {
        const xx = x + this.offsets[3 * q],
          yy = y + this.offsets[3 * q + 1],
          zz = z + this.offsets[3 * q + 2];
        if (xx < 0 || yy < 0 || zz < 0 || xx >= w || yy >= h || zz >= d) continue;
        const o2 = o + this.dOff[q];
        const nd = dist + this.steps[q];
        if (D[o2] > nd) {
          D[o2] = nd;
          V[o2] = vor;
          this.push(nd, o2);
        }
      }
    }
  }

  /** Farthest point sampling then Lloyd relaxation; returns the samples (voxel coordinates) and the iterations. */
  sample(nb: number, lloydIterations: number): { samples: number[][]; iterations: number } {
    const { w, h } = this;
    this.resetDistances();
    this.voronoi.fill(0);
    const samples: number[][] = [];
    while (samples.length < nb) {
      let dmax = 0,
        omax = -1;
      for (let o = 0; o < this.distances.length; o++) if (this.distances[o] > dmax) ((dmax = this.distances[o]), (omax = o));
      if (omax < 0) break;
      const x = omax % w,
        y = ((omax - x) / w) % h,
        z = (omax - x - w * y) / (w * h);
      samples.push([x, y, z]);
      this.addSeed([x, y, z], samples.length);
      this.dijkstra();
    }
    let it = 0;
    while (it < lloydIterations && this.lloyd(samples)) {
      this.resetDistances();
      samples.forEach((s, i) => this.addSeed(s, i + 1));
      this.dijkstra();
      it++;
    }
    return { samples, iterations: it };
  }

  /** One Lloyd step; true when a sample moved. */
  private lloyd(samples: number[][]): boolean {
    const { w, h } = this;
    const n = samples.length;
    const C = new Float64Array(3 * n),
      count = new Uint32Array(n);
    const V = this.voronoi;
    for (let o = 0; o < V.length; o++) {
      const c = V[o];
      if (c === 0) continue;
      const x = o % w,
        y = ((o - x) / w) % h,
        z = (o - x - w * y) / (w * h);
      C[3 * (c - 1)] += x;
      C[3 * (c - 1) + 1] += y;
      C[3 * (c - 1) + 2] += z;
      count[c - 1]++;
    }
    let moved = false;
    const occupied = (p: number[], i: number): boolean =>
      samples.some((s, j) => j !== i && s[0] === p[0] && s[1] === p[1] && s[2] === p[2]);
    for (let i = 0; i < n; i++) {
      if (count[i] === 0) continue;
      const c = [C[3 * i] / count[i], C[3 * i + 1] / count[i], C[3 * i + 2] / count[i]];
      let p = c.map(Math.round);
      let valid = V[p[0] + w * (p[1] + h * p[2])] === i + 1 && !occupied(p, i);
      while (!valid) {
        // the cell's voxel nearest the centroid
        let dmin = Infinity;
        for (let o = 0; o < V.length; o++) {
          if (V[o] !== i + 1) continue;
          const x = o % w,
            y = ((o - x) / w) % h,
            z = (o - x - w * y) / (w * h);
          const d2 = (c[0] - x) ** 2 + (c[1] - y) ** 2 + (c[2] - z) ** 2;
          if (d2 < dmin) ((dmin = d2), (p = [x, y, z]));
        }
        if (dmin === Infinity) break;
        if (!occupied(p, i)) valid = true;
        else V[p[0] + w * (p[1] + h * p[2])] = 0;
      }
      if (valid && (p[0] !== samples[i][0] || p[1] !== samples[i][1] || p[2] !== samples[i][2])) {
        samples[i] = p;
        moved = true;
      }
    }
    return moved;
  }

  private push(dist: number, o: number): void {
    if (this.heapN === this.heapD.length) {
      const d = new Float64Array(2 * this.heapN),
        v = new Int32Array(2 * this.heapN);
      d.set(this.heapD);
      v.set(this.heapV);
      this.heapD = d;
      this.heapV = v;
    }
    let i = this.heapN++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.heapD[p] < dist || (this.heapD[p] === dist && this.heapV[p] <= o)) break;
      this.heapD[i] = this.heapD[p];
      this.heapV[i] = this.heapV[p];
      i = p;
    }
    this.heapD[i] = dist;
    this.heapV[i] = o;
  }

  private pop(): void {
    const n = --this.heapN;
    if (n === 0) return;
    const dist = this.heapD[n],
      o = this.heapV[n];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && (this.heapD[c + 1] < this.heapD[c] || (this.heapD[c + 1] === this.heapD[c] && this.heapV[c + 1] < this.heapV[c])))
        c++;
      if (dist < this.heapD[c] || (dist === this.heapD[c] && o <= this.heapV[c])) break;
      this.heapD[i] = this.heapD[c];
      this.heapV[i] = this.heapV[c];
      i = c;
    }
    this.heapD[i] = dist;
    this.heapV[i] = o;
  }
}
