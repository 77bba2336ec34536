/** A hit of a ray o + t·d on a triangle (p1, p2, p3), at the point (1 − u − v)·p1 + u·p2 + v·p3. */
export interface RayHit {
  t: number;
  u: number;
  v: number;
}

/**
 * SOFA's geometry::Triangle::rayIntersection (Möller–Trumbore): with e1 = p2 − p1, e2 = p3 − p1,
 * P = d × e2, det = e1·P, T = o − p1, Q = T × e1:
 *   u = T·P/det,  v = d·Q/det,  t = e2·Q/det.
 * A hit needs |det| > ε (the ray not parallel to the plane), u ∈ [−ε, 1 + ε], v ≥ −ε,
 * u + v ≤ 1 + ε and t ≥ ε (in front of the origin, not at it), ε the machine epsilon, as SOFA's.
 * The points are a, b, c (indices of 3 coordinates in x); writes the hit and returns true on a hit.
 */
export function rayTriangleIntersection(
  x: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  hit: RayHit,
): boolean {
  const eps = Number.EPSILON;
  const ia = 3 * a,
    ib = 3 * b,
    ic = 3 * c;
  const ax = x[ia],
    ay = x[ia + 1],
    az = x[ia + 2];
  const e0x = x[ib] - ax,
    e0y = x[ib + 1] - ay,
    e0z = x[ib + 2] - az;
  const e1x = x[ic] - ax,
    e1y = x[ic + 1] - ay,
    e1z = x[ic + 2] - az;
  // P = d × e2
  const px = dy * e1z - dz * e1y,
    py = dz * e1x - dx * e1z,
    pz = dx * e1y - dy * e1x;
  const det = e0x * px + e0y * py + e0z * pz;
  if (Math.abs(det) <= eps || det !== det) return false;
  const inv = 1 / det;
  const tx = ox - ax,
    ty = oy - ay,
    tz = oz - az;
  const u = (tx * px + ty * py + tz * pz) * inv;
  if (u < -eps || u > 1 + eps || u !== u) return false;
  // Q = T × e1
  const qx = ty * e0z - tz * e0y,
    qy = tz * e0x - tx * e0z,
    qz = tx * e0y - ty * e0x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < -eps || u + v > 1 + eps || v !== v) return false;
  const t = (e1x * qx + e1y * qy + e1z * qz) * inv;
  if (t < eps || t !== t) return false;
  hit.t = t;
  hit.u = u;
  hit.v = v;
  return true;
}
