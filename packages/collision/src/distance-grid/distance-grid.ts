/**
 * SOFA's DistanceGrid (plugin SofaDistanceGrid): the signed distance to a closed surface sampled on
 * a regular grid of nx × ny × nz values spanning [pmin, pmax] (negative inside), read back by
 * trilinear interpolation.
 *
 *   cell width    w_c = (pmax_c − pmin_c)/(n_c − 1), its inverse computed as (n_c − 1)/(pmax_c − pmin_c)
 *   value i       at pmin + (x·w_0, y·w_1, z·w_2), i = x + nx·(y + ny·z)
 *   cell of p     (x, y, z) = ⌊(p − pmin)/w⌋ clamped to [0, n − 2] (SOFA's rfloor), local
 *                 coefficients t = (p − pmin)/w − (x, y, z) (outside the grid t leaves [0, 1]: the
 *                 cell's trilinear function is extrapolated)
 *   interp(p)     trilinear interpolation of the cell's 8 values
 *   grad(p)       the derivatives of that trilinear function with respect to t (SOFA leaves out the
 *                 factor 1/w: the gradient is in distance per cell, |grad| ≈ w for a unit field)
 *   eval(p)       interp(p) inside the grid (0.1 cell from its border), else
 *                 √(|p − clamp(p)|² + interp(clamp(p))²), a positive underestimate of the distance
 */
export class DistanceGrid {
  readonly nx: number;
  readonly ny: number;
  readonly nz: number;
  readonly nxny: number;
  readonly size: number;
  /** Distances, (nx·ny·nz). */
  readonly dists: Float64Array;
  readonly pmin: Float64Array;
  readonly pmax: Float64Array;
  readonly cellWidth: Float64Array;
  readonly invCellWidth: Float64Array;
  /** Bounding box of the object (its surface points), inside the grid. */
  readonly bbmin = new Float64Array(3);
  readonly bbmax = new Float64Array(3);
  /** Surface points (n × 3) used as collision points (the mesh vertices, scaled). */
  meshPts = new Float64Array(0);

  constructor(nx: number, ny: number, nz: number, pmin: ArrayLike<number>, pmax: ArrayLike<number>) {
    this.nx = nx;
    this.ny = ny;
    this.nz = nz;
    this.nxny = nx * ny;
    this.size = nx * ny * nz;
    this.dists = new Float64Array(this.size);
    this.pmin = Float64Array.from(pmin);
    this.pmax = Float64Array.from(pmax);
    const n = [nx, ny, nz];
    this.cellWidth = Float64Array.from([0, 1, 2], (c) => (this.pmax[c] - this.pmin[c]) / (n[c] - 1));
    this.invCellWidth = Float64Array.from([0, 1, 2], (c) => (n[c] - 1) / (this.pmax[c] - this.pmin[c]));
  }

  /** Index of grid value (x, y, z). */
  index(x: number, y: number, z: number): number {
    return x + this.nx * (y + this.ny * z);
  }

  /** Coordinate c of grid value (x, y, z) along axis c (v = x, y or z). */
  coord(c: number, v: number): number {
    return this.pmin[c] + v * this.cellWidth[c];
  }

  /** ⌊(p_c − pmin_c)/w_c⌋ (SOFA's rfloor), unclamped. */
  cellOf(c: number, p: number): number {
    return rfloor((p - this.pmin[c]) * this.invCellWidth[c]);
  }

  /**
   * The cell of p (index of its lowest corner), its local coefficients written to `coefs` (3):
   * SOFA's DistanceGrid::index(p, coefs).
   */
  cell(p: ArrayLike<number>, po: number, coefs: Float64Array): number {
    const x = this.clampedCell(0, p[po], this.nx, coefs);
    const y = this.clampedCell(1, p[po + 1], this.ny, coefs);
    const z = this.clampedCell(2, p[po + 2], this.nz, coefs);
    return x + this.nx * (y + this.ny * z);
  }

  /** ⌊t⌋ clamped to [0, n − 2] along axis c, t = (v − pmin_c)/w_c; coefs[c] = t − that cell. */
  private clampedCell(c: number, v: number, n: number, coefs: Float64Array): number {
    const t = (v - this.pmin[c]) * this.invCellWidth[c];
    let k = rfloor(t);
    if (k < 0) k = 0;
    else if (k >= n - 1) k = n - 2;
    coefs[c] = t - k;
    return k;
  }

  /** Trilinear interpolation in cell `i` at coefficients t. */
  interpCell(i: number, t: Float64Array): number {
    const d = this.dists,
      nx = this.nx,
      nxny = this.nxny;
    const lerp = (f: number, a: number, b: number): number => a + f * (b - a);
    return lerp(
      t[2],
      lerp(t[1], lerp(t[0], d[i], d[i + 1]), lerp(t[0], d[i + nx], d[i + 1 + nx])),
      lerp(t[1], lerp(t[0], d[i + nxny], d[i + 1 + nxny]), lerp(t[0], d[i + nx + nxny], d[i + 1 + nx + nxny])),
    );
  }

  /** Derivatives of the trilinear function of cell i with respect to t, into out[oo..oo+2]. */
  gradCell(i: number, t: Float64Array, out: Float64Array, oo = 0): void {
    const d = this.dists,
      nx = this.nx,
      nxny = this.nxny;
    const lerp = (f: number, a: number, b: number): number => a + f * (b - a);
    const d000 = d[i],
      d100 = d[i + 1],
      d010 = d[i + nx],
      d110 = d[i + 1 + nx],
      d001 = d[i + nxny],
      d101 = d[i + 1 + nxny],
      d011 = d[i + nx + nxny],
      d111 = d[i + 1 + nx + nxny];
    out[oo] = lerp(t[2], lerp(t[1], d100 - d000, d110 - d010), lerp(t[1], d101 - d001, d111 - d011));
    out[oo + 1] = lerp(t[2], lerp(t[0], d010 - d000, d110 - d100), lerp(t[0], d011 - d001, d111 - d101));
    out[oo + 2] = lerp(t[1], lerp(t[0], d001 - d000, d101 - d100), lerp(t[0], d011 - d010, d111 - d110));
  }

  /** interp(p): the trilinear value at p (extrapolated from the border cell outside the grid). */
  interp(p: ArrayLike<number>, po = 0): number {
    return this.interpCell(this.cell(p, po, coefs), coefs);
  }

  /** grad(p) into out[oo..oo+2] (distance per cell, see the file comment). */
  grad(p: ArrayLike<number>, po: number, out: Float64Array, oo = 0): void {
    this.gradCell(this.cell(p, po, coefs), coefs, out, oo);
  }

  /** Whether p lies in the grid, 0.1 cell away from its border. */
  inGrid(p: ArrayLike<number>, po = 0): boolean {
    for (let c = 0; c < 3; c++) {
      const e = this.cellWidth[c] * 0.1;
      if (p[po + c] < this.pmin[c] + e || p[po + c] > this.pmax[c] - e) return false;
    }
    return true;
  }

  /** Whether p lies in the object's bounding box enlarged by margin. */
  inBBox(p: ArrayLike<number>, po: number, margin: number): boolean {
    for (let c = 0; c < 3; c++) if (p[po + c] < this.bbmin[c] - margin || p[po + c] > this.bbmax[c] + margin) return false;
    return true;
  }

  /** SOFA's eval: interp inside the grid, else √(|p − clamp(p)|² + interp(clamp(p))²). */
  eval(p: ArrayLike<number>, po = 0): number {
    if (this.inGrid(p, po)) return this.interp(p, po);
    let r2 = 0;
    for (let c = 0; c < 3; c++) {
      const v = p[po + c];
      const q = v < this.pmin[c] ? this.pmin[c] : v > this.pmax[c] ? this.pmax[c] : v;
      clamped[c] = q;
      r2 += (v - q) * (v - q);
    }
    const d = this.interp(clamped, 0);
    return Math.sqrt(r2 + d * d);
  }

  /** Bounding box of meshPts (SOFA's computeBBox, its else-if included), the grid's box when there are none. */
  computeBBox(): void {
    const m = this.meshPts;
    if (m.length === 0) {
      this.bbmin.set(this.pmin);
      this.bbmax.set(this.pmax);
      return;
    }
    for (let c = 0; c < 3; c++) this.bbmin[c] = this.bbmax[c] = m[c];
    for (let i = 3; i < m.length; i += 3)
      for (let c = 0; c < 3; c++) {
        if (m[i + c] < this.bbmin[c]) this.bbmin[c] = m[i + c];
        else if (m[i + c] > this.bbmax[c]) this.bbmax[c] = m[i + c];
      }
  }

  /** Corner j of the object's box (bit 0: x max, bit 1: y max, bit 2: z max) into out. */
  bboxCorner(j: number, out: Float64Array): void {
    for (let c = 0; c < 3; c++) out[c] = j & (1 << c) ? this.bbmax[c] : this.bbmin[c];
  }
}

/** 1.5·2^36: adding it leaves r rounded to a multiple of 2^-16 in the low bits (SOFA's rfloor). */
const FLOAT_TO_INT = 1.5 * 2 ** 36;

/**
 * SOFA's helper::rfloor: r is first rounded to the nearest multiple of 2^-16 (by adding 1.5·2^36
 * in double precision), then floored; so a value within 2^-17 below an integer gives that integer.
 */
export function rfloor(r: number): number {
  return Math.floor(r + FLOAT_TO_INT - FLOAT_TO_INT);
}

/** Scratch coefficients of the queries. */
const coefs = new Float64Array(3);
const clamped = new Float64Array(3);
