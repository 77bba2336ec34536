/**
 * A point p0 against the plane through p1, p2, p3 (SoftRobots' UnilateralPlaneConstraint): with
 * e2 = p2 − p1, e3 = p3 − p1, n = s·(e2 × e3) (s = −1 to flip the normal) and n̂ = n/|n|,
 *
 *   δ = (p0 − p1)·n̂        (the signed distance, ≥ 0 on the side the normal points to)
 *
 * and its exact gradient, with m = |n| and t = (p0 − p1) − δ·n̂ the offset of p0 along the plane:
 *   ∂δ/∂p0 = n̂,  ∂δ/∂p2 = s·(e3 × t)/m,  ∂δ/∂p3 = s·(t × e2)/m,
 *   ∂δ/∂p1 = −n̂ − ∂δ/∂p2 − ∂δ/∂p3       (the four sum to zero: δ does not change by translation).
 * When p0 lies over a point of the triangle with barycentric weights (β1, β2, β3), the plane
 * points get −β_k·n̂; over the centroid, −n̂/3 each, SoftRobots' row.
 */

/**
 * out[0..12) = ∂δ/∂p0, ∂δ/∂p1, ∂δ/∂p2, ∂δ/∂p3 for points i0..i3 of x (Vec3 coordinates); returns
 * δ (NaN, and a zero row, when the three plane points are aligned).
 */
export function planeDistanceGradient(
  out: Float64Array,
  x: ArrayLike<number>,
  i0: number,
  i1: number,
  i2: number,
  i3: number,
  flip: boolean,
): number {
  const a = 3 * i1,
    b = 3 * i2,
    c = 3 * i3,
    p = 3 * i0;
  const e2x = x[b] - x[a],
    e2y = x[b + 1] - x[a + 1],
    e2z = x[b + 2] - x[a + 2];
  const e3x = x[c] - x[a],
    e3y = x[c + 1] - x[a + 1],
    e3z = x[c + 2] - x[a + 2];
  const s = flip ? -1 : 1;
  const nx = s * (e2y * e3z - e2z * e3y),
    ny = s * (e2z * e3x - e2x * e3z),
    nz = s * (e2x * e3y - e2y * e3x);
  const m = Math.hypot(nx, ny, nz);
  out.fill(0, 0, 12);
  if (!(m > 0)) return NaN;
  const ux = nx / m,
    uy = ny / m,
    uz = nz / m;
  const rx = x[p] - x[a],
    ry = x[p + 1] - x[a + 1],
    rz = x[p + 2] - x[a + 2];
  const d = rx * ux + ry * uy + rz * uz;
  const tx = rx - d * ux,
    ty = ry - d * uy,
    tz = rz - d * uz;
  const k = s / m;
  // ∂δ/∂p2 = s (e3 × t)/m, ∂δ/∂p3 = s (t × e2)/m
  const g2x = k * (e3y * tz - e3z * ty),
    g2y = k * (e3z * tx - e3x * tz),
    g2z = k * (e3x * ty - e3y * tx);
  const g3x = k * (ty * e2z - tz * e2y),
    g3y = k * (tz * e2x - tx * e2z),
    g3z = k * (tx * e2y - ty * e2x);
  out[0] = ux;
  out[1] = uy;
  out[2] = uz;
  out[3] = -ux - g2x - g3x;
  out[4] = -uy - g2y - g3y;
  out[5] = -uz - g2z - g3z;
  out[6] = g2x;
  out[7] = g2y;
  out[8] = g2z;
  out[9] = g3x;
  out[10] = g3y;
  out[11] = g3z;
  return d;
}

/** δ alone (NaN when the three plane points are aligned). */
export function planeDistance(x: ArrayLike<number>, i0: number, i1: number, i2: number, i3: number, flip: boolean): number {
  const a = 3 * i1,
    b = 3 * i2,
    c = 3 * i3,
    p = 3 * i0;
  const e2x = x[b] - x[a],
    e2y = x[b + 1] - x[a + 1],
    e2z = x[b + 2] - x[a + 2];
  const e3x = x[c] - x[a],
    e3y = x[c + 1] - x[a + 1],
    e3z = x[c + 2] - x[a + 2];
  const s = flip ? -1 : 1;
  const nx = s * (e2y * e3z - e2z * e3y),
    ny = s * (e2z * e3x - e2x * e3z),
    nz = s * (e2x * e3y - e2y * e3x);
  const m = Math.hypot(nx, ny, nz);
  if (!(m > 0)) return NaN;
  return ((x[p] - x[a]) * nx + (x[p + 1] - x[a + 1]) * ny + (x[p + 2] - x[a + 2]) * nz) / m;
}
