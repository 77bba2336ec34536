import type { SofaImage } from './image.js';

/**
 * Surface rasterisation of SOFA's MeshToImageEngine, in image coordinates (voxel indices): a
 * floating-point Bresenham that visits max(|Δx|, |Δy|, |Δz|)·subdiv + 1 evenly spaced points of a
 * segment and sets the voxel each one rounds to; a triangle is swept by segments from points of
 * one edge to the opposite vertex, along its two shortest edges (so that no voxel is skipped).
 * Each voxel written is also marked in `mask` (the surface, which the inside fill stops at).
 */
export class Rasterizer {
  constructor(
    readonly image: SofaImage,
    readonly mask: Uint8Array,
    readonly subdiv: number,
    /** cast of a value to the image's pixel type */
    private readonly cast: (v: number) => number,
  ) {}

  private put(px: number, py: number, pz: number, v: number): void {
    const im = this.image;
    // SOFA rounds then casts to unsigned: negative coordinates wrap and fall outside
    const x = Math.round(px),
      y = Math.round(py),
      z = Math.round(pz);
    if (x < 0 || y < 0 || z < 0 || x >= im.width || y >= im.height || z >= im.depth) return;
    const o = x + im.width * (y + im.height * z);
    im.data[o] = v;
    this.mask[o] = 1;
  }

  /** Segment p0–p1 with values c0 at p0 and c1 at p1 (linear in between; equal for a plain colour). */
  line(p0: ArrayLike<number>, p1: ArrayLike<number>, c0: number, c1: number): void {
    const dx = p1[0] - p0[0],
      dy = p1[1] - p0[1],
      dz = p1[2] - p0[2];
    const dmax = Math.trunc(Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz))) * this.subdiv;
    const plain = c0 === c1;
    const cv = this.cast(c0);
    if (dmax === 0) {
      this.put(p0[0], p0[1], p0[2], plain ? cv : this.cast(0.5 * (c0 + c1)));
      return;
    }
    const sx = dx / dmax,
      sy = dy / dmax,
      sz = dz / dmax;
    let x = p0[0],
      y = p0[1],
      z = p0[2];
    for (let t = 0; t <= dmax; t++) {
      const u = t / dmax;
      this.put(x, y, z, plain ? cv : this.cast(c0 * (1 - u) + c1 * u));
      x += sx;
      y += sy;
      z += sz;
    }
  }

  private readonly a = new Float64Array(3);

  /** Segments from the points of edge p0–p1 to p2 (values interpolated along both). */
  private sweep(p0: ArrayLike<number>, p1: ArrayLike<number>, p2: ArrayLike<number>, c0: number, c1: number, c2: number): void {
    const dx = p1[0] - p0[0],
      dy = p1[1] - p0[1],
      dz = p1[2] - p0[2];
    const dmax = Math.trunc(Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz))) * this.subdiv;
    const P = this.a;
    if (dmax === 0) {
      P[0] = p0[0];
      P[1] = p0[1];
      P[2] = p0[2];
      this.line(P, p2, 0.5 * (c0 + c1), c2);
      return;
    }
    for (let t = 0; t <= dmax; t++) {
      const u = t / dmax;
      P[0] = p0[0] + t * (dx / dmax);
      P[1] = p0[1] + t * (dy / dmax);
      P[2] = p0[2] + t * (dz / dmax);
      this.line(P, p2, c0 === c1 ? c0 : c0 * (1 - u) + c1 * u, c2);
    }
  }

  /** Filled triangle p0 p1 p2 with vertex values c0 c1 c2. */
  triangle(p0: ArrayLike<number>, p1: ArrayLike<number>, p2: ArrayLike<number>, c0: number, c1: number, c2: number): void {
    // the three rotations (first edge, then opposite vertex), the two of shortest first edge swept
    const l01 = dist(p0, p1),
      l12 = dist(p1, p2),
      l20 = dist(p2, p0);
    const rots: Array<[number, 0 | 1 | 2]> = [
      [l01, 0],
      [l12, 1],
      [l20, 2],
    ];
    rots.sort((a, b) => a[0] - b[0]);
    const P = [p0, p1, p2],
      C = [c0, c1, c2];
    for (let k = 0; k < 2; k++) {
      const r = rots[k][1];
      this.sweep(P[r], P[(r + 1) % 3], P[(r + 2) % 3], C[r], C[(r + 1) % 3], C[(r + 2) % 3]);
    }
  }
}

function dist(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/**
 * Marks (mask = 2) the voxels reachable from voxel (0, 0, 0) through 6-neighbours not on the
 * surface (mask = 0): CImg's draw_fill of SOFA's inside fill. What stays 0 afterwards is inside.
 * An explicit stack of voxel offsets; no recursion.
 */
export function floodOutside(mask: Uint8Array, w: number, h: number, d: number): void {
  if (mask.length === 0 || mask[0] !== 0) return;
  const stack = new Int32Array(mask.length);
  let top = 0;
  stack[top++] = 0;
  mask[0] = 2;
  const wh = w * h;
  while (top > 0) {
    const o = stack[--top];
    const x = o % w,
      y = ((o - x) / w) % h,
      z = Math.floor(o / wh);
    if (x > 0 && mask[o - 1] === 0) ((mask[o - 1] = 2), (stack[top++] = o - 1));
    if (x < w - 1 && mask[o + 1] === 0) ((mask[o + 1] = 2), (stack[top++] = o + 1));
    if (y > 0 && mask[o - w] === 0) ((mask[o - w] = 2), (stack[top++] = o - w));
    if (y < h - 1 && mask[o + w] === 0) ((mask[o + w] = 2), (stack[top++] = o + w));
    if (z > 0 && mask[o - wh] === 0) ((mask[o - wh] = 2), (stack[top++] = o - wh));
    if (z < d - 1 && mask[o + wh] === 0) ((mask[o + wh] = 2), (stack[top++] = o + wh));
  }
}
