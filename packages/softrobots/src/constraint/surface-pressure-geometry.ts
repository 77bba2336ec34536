/**
 * Geometry of a pressurised cavity: a closed surface made of triangles (a, b, c) and quads
 * (a, b, c, d) of a Vec3 state, oriented so that their normals ((b − a) × (c − a)) point out of
 * the cavity. Its volume follows from the divergence theorem (the cone of each face from the
 * origin):
 *
 *   V = Σ_triangles v(a, b, c) + Σ_quads ½ [v(a,b,c) + v(a,c,d) + v(b,c,d) + v(b,d,a)],
 *   v(a, b, c) = a·(b × c) / 6.
 *
 * A quad counts as the average of its two splits into triangles (along a–c and along b–d), which
 * is the volume under the bilinear patch through its corners (the faces of a trilinear
 * hexahedron); it does not depend on a choice of diagonal, and for a planar quad both splits, and
 * SOFA's split along a–c, give the same number. V is exact for any closed polyhedral surface and does not
 * depend on the origin then; on an open surface it is not a volume (SoftRobots says the same).
 *
 * Gradient (the constraint row of a pressure actuator, J = ∂V/∂x): with N(a, b, c) =
 * ½ (b − a) × (c − a) the vector area of a triangle,
 *   - a triangle gives N/3 to each of its corners;
 *   - a quad gives its corner k the sum of N over the three of its four triangles (abc, acd, bcd,
 *     bda) that contain k, divided by 6: for a parallelogram every corner gets A/4, A the vector
 *     area of the quad (SoftRobots' row).
 * These local terms are translation invariant; summed over a closed surface they equal ∂V/∂x
 * exactly (the terms that differ from the origin-based derivative cancel around each vertex's
 * ring of faces). On an open surface they are still the nodal loads of a unit pressure, which is
 * why a pressure can be applied to an open membrane although its "volume" means nothing.
 */

/** Signed volume enclosed by the faces (positive when their normals point outwards). */
export function cavitySignedVolume(x: ArrayLike<number>, triangles: ArrayLike<number>, quads: ArrayLike<number>): number {
  let v6 = 0;
  for (let t = 0; t + 2 < triangles.length; t += 3) v6 += triple(x, triangles[t], triangles[t + 1], triangles[t + 2]);
  let q6 = 0;
  for (let q = 0; q + 3 < quads.length; q += 4) {
    const a = quads[q],
      b = quads[q + 1],
      c = quads[q + 2],
      d = quads[q + 3];
    q6 += triple(x, a, b, c) + triple(x, a, c, d) + triple(x, b, c, d) + triple(x, b, d, a);
  }
  return (v6 + 0.5 * q6) / 6;
}

/** |V|: the cavity volume whatever the orientation of the faces (SoftRobots' cavityVolume). */
export function cavityVolume(x: ArrayLike<number>, triangles: ArrayLike<number>, quads: ArrayLike<number>): number {
  return Math.abs(cavitySignedVolume(x, triangles, quads));
}

/**
 * out[3i .. 3i+3) += scale · ∂V/∂x_i for every point i of the faces (the local terms of the file
 * comment; out holds 3 numbers per point of the state).
 */
export function addCavityVolumeGradient(
  out: Float64Array,
  x: ArrayLike<number>,
  triangles: ArrayLike<number>,
  quads: ArrayLike<number>,
  scale = 1,
): void {
  const n = scratch;
  const s3 = scale / 3;
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    const a = triangles[t],
      b = triangles[t + 1],
      c = triangles[t + 2];
    vectorArea(n, 0, x, a, b, c);
    addTo(out, a, n, 0, s3);
    addTo(out, b, n, 0, s3);
    addTo(out, c, n, 0, s3);
  }
  const s6 = scale / 6;
  for (let q = 0; q + 3 < quads.length; q += 4) {
    const a = quads[q],
      b = quads[q + 1],
      c = quads[q + 2],
      d = quads[q + 3];
    vectorArea(n, 0, x, a, b, c); // abc
    vectorArea(n, 3, x, a, c, d); // acd
    vectorArea(n, 6, x, b, c, d); // bcd
    vectorArea(n, 9, x, b, d, a); // bda
    // a ∈ abc, acd, bda; b ∈ abc, bcd, bda; c ∈ abc, acd, bcd; d ∈ acd, bcd, bda
    addTo3(out, a, n, 0, 3, 9, s6);
    addTo3(out, b, n, 0, 6, 9, s6);
    addTo3(out, c, n, 0, 3, 6, s6);
    addTo3(out, d, n, 3, 6, 9, s6);
  }
}

/** The distinct points used by the faces, in increasing order. */
export function cavityPoints(triangles: ArrayLike<number>, quads: ArrayLike<number>): Uint32Array {
  const all = new Uint32Array(triangles.length + quads.length);
  all.set(triangles as ArrayLike<number>);
  all.set(quads as ArrayLike<number>, triangles.length);
  all.sort();
  let m = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[m++] = all[i];
  return all.slice(0, m);
}

/** Largest point index used by the faces (−1 when there is none). */
export function cavityMaxIndex(triangles: ArrayLike<number>, quads: ArrayLike<number>): number {
  let m = -1;
  for (let i = 0; i < triangles.length; i++) if (triangles[i] > m) m = triangles[i];
  for (let i = 0; i < quads.length; i++) if (quads[i] > m) m = quads[i];
  return m;
}

const scratch = new Float64Array(12);

/** a·(b × c) for points a, b, c of x. */
function triple(x: ArrayLike<number>, a: number, b: number, c: number): number {
  const ia = 3 * a,
    ib = 3 * b,
    ic = 3 * c;
  const ax = x[ia],
    ay = x[ia + 1],
    az = x[ia + 2];
  const bx = x[ib],
    by = x[ib + 1],
    bz = x[ib + 2];
  const cx = x[ic],
    cy = x[ic + 1],
    cz = x[ic + 2];
  return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
}

/** out[o .. o+3) = ½ (b − a) × (c − a). */
function vectorArea(out: Float64Array, o: number, x: ArrayLike<number>, a: number, b: number, c: number): void {
  const ia = 3 * a,
    ib = 3 * b,
    ic = 3 * c;
  const ux = x[ib] - x[ia],
    uy = x[ib + 1] - x[ia + 1],
    uz = x[ib + 2] - x[ia + 2];
  const vx = x[ic] - x[ia],
    vy = x[ic + 1] - x[ia + 1],
    vz = x[ic + 2] - x[ia + 2];
  out[o] = 0.5 * (uy * vz - uz * vy);
  out[o + 1] = 0.5 * (uz * vx - ux * vz);
  out[o + 2] = 0.5 * (ux * vy - uy * vx);
}

function addTo(out: Float64Array, p: number, n: Float64Array, o: number, s: number): void {
  out[3 * p] += s * n[o];
  out[3 * p + 1] += s * n[o + 1];
  out[3 * p + 2] += s * n[o + 2];
}

function addTo3(out: Float64Array, p: number, n: Float64Array, o1: number, o2: number, o3: number, s: number): void {
  out[3 * p] += s * (n[o1] + n[o2] + n[o3]);
  out[3 * p + 1] += s * (n[o1 + 1] + n[o2 + 1] + n[o3 + 1]);
  out[3 * p + 2] += s * (n[o1 + 2] + n[o2 + 2] + n[o3 + 2]);
}
