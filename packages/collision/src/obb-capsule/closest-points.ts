/**
 * Closest points between the primitives of the CollisionOBBCapsule plugin: segments (capsule
 * axes), points (sphere centres), triangles and oriented boxes. Every query writes its answer to a
 * `Closest` record:
 *   p (3)  the point on the first primitive, q (3) the point on the second,
 *   n (3)  unit normal from the first primitive towards the second,
 *   d      the signed distance along n: |q − p| when apart, −(penetration depth) when they overlap
 *          (then p and q are the surfaces' deepest points, q − p = d·n).
 * Points are given as (array, offset of the x coordinate). Scratch is module-level (one JS thread).
 */
export class Closest {
  readonly p = new Float64Array(3);
  readonly q = new Float64Array(3);
  readonly n = new Float64Array(3);
  d = 0;
  /** Parameter of the closest point on the first segment (segment queries), in [0, 1]. */
  s = 0;
  /** Parameter of the closest point on the second segment (segment–segment), in [0, 1]. */
  t = 0;
}

/** n = (q − p)/|q − p|, d = |q − p|; a zero distance keeps the normal (fx, fy, fz) given. */
export function setApart(c: Closest, fx: number, fy: number, fz: number): void {
  const dx = c.q[0] - c.p[0],
    dy = c.q[1] - c.p[1],
    dz = c.q[2] - c.p[2];
  const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
  c.d = d;
  if (d > 1e-12) {
    c.n[0] = dx / d;
    c.n[1] = dy / d;
    c.n[2] = dz / d;
  } else {
    const l = Math.sqrt(fx * fx + fy * fy + fz * fz) || 1;
    c.n[0] = fx / l;
    c.n[1] = fy / l;
    c.n[2] = fz / l;
  }
}

/** A unit vector orthogonal to (x, y, z) (x, y, z not zero), into out[o..o+3). */
export function anyOrthogonal(out: Float64Array, o: number, x: number, y: number, z: number): void {
  // cross with the axis of the smallest component
  const ax = Math.abs(x),
    ay = Math.abs(y),
    az = Math.abs(z);
  let cx, cy, cz;
  if (ax <= ay && ax <= az) ((cx = 0), (cy = z), (cz = -y));
  else if (ay <= az) ((cx = -z), (cy = 0), (cz = x));
  else ((cx = y), (cy = -x), (cz = 0));
  const l = Math.sqrt(cx * cx + cy * cy + cz * cz) || 1;
  out[o] = cx / l;
  out[o + 1] = cy / l;
  out[o + 2] = cz / l;
}

/**
 * Segment [a1 a2] and point b: P = a1 + s·(a2 − a1), s = (b − a1)·u/|u|² clamped to [0, 1];
 * p = P, q = b. A degenerate segment is its first point.
 */
export function segmentPoint(c: Closest, a: ArrayLike<number>, i1: number, i2: number, b: ArrayLike<number>, j: number): void {
  const ux = a[i2] - a[i1],
    uy = a[i2 + 1] - a[i1 + 1],
    uz = a[i2 + 2] - a[i1 + 2];
  const uu = ux * ux + uy * uy + uz * uz;
  let s = uu > 0 ? ((b[j] - a[i1]) * ux + (b[j + 1] - a[i1 + 1]) * uy + (b[j + 2] - a[i1 + 2]) * uz) / uu : 0;
  s = s < 0 ? 0 : s > 1 ? 1 : s;
  c.s = s;
  c.p[0] = a[i1] + s * ux;
  c.p[1] = a[i1 + 1] + s * uy;
  c.p[2] = a[i1 + 2] + s * uz;
  c.q[0] = b[j];
  c.q[1] = b[j + 1];
  c.q[2] = b[j + 2];
  if (uu > 0) anyOrthogonal(N0, 0, ux, uy, uz);
  else ((N0[0] = 1), (N0[1] = 0), (N0[2] = 0));
  setApart(c, N0[0], N0[1], N0[2]);
}
const N0 = new Float64Array(3);

function clamp(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/**
 * Segments [a1 a2] and [b1 b2]: the pair (s, t) ∈ [0, 1]² minimising |b1 + t·v − a1 − s·u|
 * (u = a2 − a1, v = b2 − b1, w = a1 − b1): unconstrained
 *   s = (b·e − c·d)/(a·c − b²),  t = (a·e − b·d)/(a·c − b²)
 * with a = u·u, b = u·v, c = v·v, d = u·w, e = v·w, then s clamped, t from s, s again from the
 * clamped t (the minimum of a convex quadratic over the square lies on the clamped lines).
 * Parallel segments (a·c − b² ≤ 1e-12·a·c) take s = 0 then t from it. When the segments touch the
 * normal is u × v (or any normal to u).
 */
export function segmentSegment(
  c: Closest,
  a: ArrayLike<number>,
  i1: number,
  i2: number,
  b: ArrayLike<number>,
  j1: number,
  j2: number,
): void {
  const ux = a[i2] - a[i1],
    uy = a[i2 + 1] - a[i1 + 1],
    uz = a[i2 + 2] - a[i1 + 2];
  const vx = b[j2] - b[j1],
    vy = b[j2 + 1] - b[j1 + 1],
    vz = b[j2 + 2] - b[j1 + 2];
  const wx = a[i1] - b[j1],
    wy = a[i1 + 1] - b[j1 + 1],
    wz = a[i1 + 2] - b[j1 + 2];
  const A = ux * ux + uy * uy + uz * uz,
    B = ux * vx + uy * vy + uz * vz,
    C = vx * vx + vy * vy + vz * vz,
    D = ux * wx + uy * wy + uz * wz,
    E = vx * wx + vy * wy + vz * wz;
  const den = A * C - B * B;
  let s = 0,
    t = 0;
  if (A <= 0 && C <= 0) s = t = 0;
  else if (A <= 0) t = clamp(E / C);
  else if (C <= 0) s = clamp(-D / A);
  else {
    s = den > 1e-12 * A * C ? clamp((B * E - C * D) / den) : 0;
    t = (B * s + E) / C;
    if (t < 0 || t > 1) {
      t = clamp(t);
      s = clamp((t * B - D) / A);
    }
  }
  c.s = s;
  c.t = t;
  c.p[0] = a[i1] + s * ux;
  c.p[1] = a[i1 + 1] + s * uy;
  c.p[2] = a[i1 + 2] + s * uz;
  c.q[0] = b[j1] + t * vx;
  c.q[1] = b[j1 + 1] + t * vy;
  c.q[2] = b[j1 + 2] + t * vz;
  let fx = uy * vz - uz * vy,
    fy = uz * vx - ux * vz,
    fz = ux * vy - uy * vx;
  if (fx * fx + fy * fy + fz * fz <= 1e-24 * (A * C || 1)) {
    anyOrthogonal(N0, 0, A > 0 ? ux : vx || 1, A > 0 ? uy : vy, A > 0 ? uz : vz);
    ((fx = N0[0]), (fy = N0[1]), (fz = N0[2]));
  }
  setApart(c, fx, fy, fz);
}

/**
 * Triangle (t1, t2, t3) and point b: the closest point of the triangle, by the Voronoi region of
 * b (corner, edge, or face: the projection p = t1 + α·(t2 − t1) + β·(t3 − t1) with α, β ≥ 0,
 * α + β ≤ 1). p on the triangle, q = b; a zero distance takes the triangle's normal.
 */
export function trianglePoint(c: Closest, t: ArrayLike<number>, i1: number, i2: number, i3: number, b: ArrayLike<number>, j: number): void {
  const abx = t[i2] - t[i1],
    aby = t[i2 + 1] - t[i1 + 1],
    abz = t[i2 + 2] - t[i1 + 2];
  const acx = t[i3] - t[i1],
    acy = t[i3 + 1] - t[i1 + 1],
    acz = t[i3 + 2] - t[i1 + 2];
  const apx = b[j] - t[i1],
    apy = b[j + 1] - t[i1 + 1],
    apz = b[j + 2] - t[i1 + 2];
  const d1 = abx * apx + aby * apy + abz * apz,
    d2 = acx * apx + acy * apy + acz * apz;
  let al = 0,
    be = 0;
  if (d1 <= 0 && d2 <= 0) ((al = 0), (be = 0));
  else {
    const bpx = b[j] - t[i2],
      bpy = b[j + 1] - t[i2 + 1],
      bpz = b[j + 2] - t[i2 + 2];
    const d3 = abx * bpx + aby * bpy + abz * bpz,
      d4 = acx * bpx + acy * bpy + acz * bpz;
    const cpx = b[j] - t[i3],
      cpy = b[j + 1] - t[i3 + 1],
      cpz = b[j + 2] - t[i3 + 2];
    const d5 = abx * cpx + aby * cpy + abz * cpz,
      d6 = acx * cpx + acy * cpy + acz * cpz;
    const vc = d1 * d4 - d3 * d2,
      vb = d5 * d2 - d1 * d6,
      va = d3 * d6 - d5 * d4;
    if (d3 >= 0 && d4 <= d3) ((al = 1), (be = 0));
    else if (d6 >= 0 && d5 <= d6) ((al = 0), (be = 1));
    else if (vc <= 0 && d1 >= 0 && d3 <= 0) ((al = d1 / (d1 - d3)), (be = 0));
    else if (vb <= 0 && d2 >= 0 && d6 <= 0) ((al = 0), (be = d2 / (d2 - d6)));
    else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
      al = 1 - w;
      be = w;
    } else {
      const den = 1 / (va + vb + vc);
      al = vb * den;
      be = vc * den;
    }
  }
  for (let k = 0; k < 3; k++) c.p[k] = t[i1 + k] + al * (t[i2 + k] - t[i1 + k]) + be * (t[i3 + k] - t[i1 + k]);
  c.q[0] = b[j];
  c.q[1] = b[j + 1];
  c.q[2] = b[j + 2];
  setApart(c, aby * acz - abz * acy, abz * acx - abx * acz, abx * acy - aby * acx);
}

const tmp = new Closest();
const CROSS = new Float64Array(3);

/**
 * Segment [a1 a2] and triangle (t1, t2, t3), p on the segment, q on the triangle. Apart, the
 * closest pair has an end of the segment against the triangle or the segment against an edge of
 * the triangle (the minimum of these five). A segment crossing the triangle's interior overlaps
 * it: the end nearer the plane (height h, side sg = sign h) is the one to bring back, p = that
 * end, q = its projection on the plane, d = −|h|, n = sg·N (N the triangle's unit normal): the
 * rest of the segment lies on the −sg side, so the triangle is towards +sg from the segment.
 */
export function segmentTriangle(
  c: Closest,
  a: ArrayLike<number>,
  i1: number,
  i2: number,
  t: ArrayLike<number>,
  k1: number,
  k2: number,
  k3: number,
): void {
  // signed heights of the ends over the plane
  const abx = t[k2] - t[k1],
    aby = t[k2 + 1] - t[k1 + 1],
    abz = t[k2 + 2] - t[k1 + 2];
  const acx = t[k3] - t[k1],
    acy = t[k3 + 1] - t[k1 + 1],
    acz = t[k3 + 2] - t[k1 + 2];
  let nx = aby * acz - abz * acy,
    ny = abz * acx - abx * acz,
    nz = abx * acy - aby * acx;
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
  ((nx /= nl), (ny /= nl), (nz /= nl));
  const h1 = (a[i1] - t[k1]) * nx + (a[i1 + 1] - t[k1 + 1]) * ny + (a[i1 + 2] - t[k1 + 2]) * nz;
  const h2 = (a[i2] - t[k1]) * nx + (a[i2 + 1] - t[k1 + 1]) * ny + (a[i2 + 2] - t[k1 + 2]) * nz;
  if ((h1 < 0 && h2 > 0) || (h1 > 0 && h2 < 0)) {
    // crossing point X of the plane, inside the triangle?
    const f = h1 / (h1 - h2);
    for (let k = 0; k < 3; k++) CROSS[k] = a[i1 + k] + f * (a[i2 + k] - a[i1 + k]);
    trianglePoint(tmp, t, k1, k2, k3, CROSS, 0);
    if (tmp.d <= 1e-12 * nl) {
      const useFirst = Math.abs(h1) <= Math.abs(h2);
      const h = useFirst ? h1 : h2;
      const io = useFirst ? i1 : i2;
      const sg = h > 0 ? 1 : -1;
      c.s = useFirst ? 0 : 1;
      for (let k = 0; k < 3; k++) c.p[k] = a[io + k];
      c.q[0] = a[io] - h * nx;
      c.q[1] = a[io + 1] - h * ny;
      c.q[2] = a[io + 2] - h * nz;
      c.n[0] = sg * nx;
      c.n[1] = sg * ny;
      c.n[2] = sg * nz;
      c.d = -Math.abs(h);
      return;
    }
  }
  c.d = Infinity;
  trianglePoint(tmp, t, k1, k2, k3, a, i1);
  take(c, true, 0);
  trianglePoint(tmp, t, k1, k2, k3, a, i2);
  take(c, true, 1);
  segmentSegment(tmp, a, i1, i2, t, k1, k2);
  take(c, false, tmp.s);
  segmentSegment(tmp, a, i1, i2, t, k2, k3);
  take(c, false, tmp.s);
  segmentSegment(tmp, a, i1, i2, t, k3, k1);
  take(c, false, tmp.s);
}

/** c = tmp (its primitives exchanged when `swap`, at segment parameter s) when tmp is closer. */
function take(c: Closest, swap: boolean, s: number): void {
  if (tmp.d >= c.d) return;
  c.s = s;
  for (let k = 0; k < 3; k++) {
    c.p[k] = swap ? tmp.q[k] : tmp.p[k];
    c.q[k] = swap ? tmp.p[k] : tmp.q[k];
    c.n[k] = swap ? -tmp.n[k] : tmp.n[k];
  }
  c.d = tmp.d;
}
