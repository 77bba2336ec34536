/**
 * out[oo..oo+4) = a ⊗ b, the Hamilton product of the quaternions a at a[ao..ao+4) and b at
 * b[bo..bo+4) in SOFA's (x, y, z, w) layout: rotating by a ⊗ b rotates by b, then by a. Each
 * component sums its four products in SOFA's order. out may alias a or b (all are read first).
 */
export function quatMultiplyAt(out: Float64Array, oo: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): void {
  const ax = a[ao],
    ay = a[ao + 1],
    az = a[ao + 2],
    aw = a[ao + 3];
  const bx = b[bo],
    by = b[bo + 1],
    bz = b[bo + 2],
    bw = b[bo + 3];
  out[oo] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[oo + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/**
 * out[oo..oo+4) = conj(a) ⊗ b (= a⁻¹ ⊗ b for a unit a): the relative rotation from a to b. Bit for
 * bit quatMultiplyAt of the negated vector part of a (negation is exact); out may alias a or b.
 */
export function quatConjugateMultiplyAt(
  out: Float64Array,
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): void {
  const ax = a[ao],
    ay = a[ao + 1],
    az = a[ao + 2],
    aw = a[ao + 3];
  const bx = b[bo],
    by = b[bo + 1],
    bz = b[bo + 2],
    bw = b[bo + 3];
  out[oo] = aw * bx - ax * bw - ay * bz + az * by;
  out[oo + 1] = aw * by + ax * bz - ay * bw - az * bx;
  out[oo + 2] = aw * bz - ax * by + ay * bx - az * bw;
  out[oo + 3] = aw * bw + ax * bx + ay * by + az * bz;
}

/**
 * out[oo..oo+4) = a ⊗ conj(b) (= a ⊗ b⁻¹ for a unit b). Bit for bit quatMultiplyAt of the negated
 * vector part of b; out may alias a or b.
 */
export function quatMultiplyConjugateAt(
  out: Float64Array,
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): void {
  const ax = a[ao],
    ay = a[ao + 1],
    az = a[ao + 2],
    aw = a[ao + 3];
  const bx = -b[bo],
    by = -b[bo + 1],
    bz = -b[bo + 2],
    bw = b[bo + 3];
  out[oo] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[oo + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/**
 * The same product a ⊗ b as quatMultiplyAt, with the y and z components summed in the cyclic order
 * w·b + a·w + (a × b) (y: aw·by + ay·bw + az·bx − ax·bz). Floating-point sums depend on their
 * order: the transform engines (TransformEngine, DisplacementTransformEngine, Vertex2Frame) were
 * written with this one, and keep it so that their outputs stay bit for bit. New code uses
 * quatMultiplyAt.
 */
export function quatMultiplyCyclicAt(
  out: Float64Array | number[],
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): void {
  const ax = a[ao],
    ay = a[ao + 1],
    az = a[ao + 2],
    aw = a[ao + 3];
  const bx = b[bo],
    by = b[bo + 1],
    bz = b[bo + 2],
    bw = b[bo + 3];
  out[oo] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 1] = aw * by + ay * bw + az * bx - ax * bz;
  out[oo + 2] = aw * bz + az * bw + ax * by - ay * bx;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/**
 * The product a ⊗ b of quatMultiplyCyclicAt with w = aw·bw − (ax·bx + ay·by + az·bz), the dot
 * product summed first: the order of the Rigid3 state's integration (q ← exp(h·ω/2) ⊗ q, core's
 * state-types.ts), kept so that rigid bodies move bit for bit as they always have.
 */
export function quatMultiplyCyclicDotAt(
  out: Float64Array | number[],
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): void {
  const ax = a[ao],
    ay = a[ao + 1],
    az = a[ao + 2],
    aw = a[ao + 3];
  const bx = b[bo],
    by = b[bo + 1],
    bz = b[bo + 2],
    bw = b[bo + 3];
  out[oo] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 1] = aw * by + ay * bw + az * bx - ax * bz;
  out[oo + 2] = aw * bz + az * bw + ax * by - ay * bx;
  out[oo + 3] = aw * bw - (ax * bx + ay * by + az * bz);
}

/**
 * out[oo..oo+4) = the unit quaternion (x, y, z, w) of SOFA's Euler angles a, b, c in radians:
 * R = Rz(c)·Ry(b)·Rx(a), a rotation about x first, then y, then z (SOFA's
 * Quat::createQuaterFromEuler), i.e. qz(c) ⊗ qy(b) ⊗ qx(a) expanded. Angles in degrees: multiply by
 * π/180 first (the halving inside is exact, so deg·π/180 and deg·π/360 give the same bits).
 */
export function quatFromEulerAt(out: Float64Array | number[], oo: number, a: number, b: number, c: number): void {
  const ca = Math.cos(a / 2),
    sa = Math.sin(a / 2);
  const cb = Math.cos(b / 2),
    sb = Math.sin(b / 2);
  const cc = Math.cos(c / 2),
    sc = Math.sin(c / 2);
  out[oo] = sa * cb * cc - ca * sb * sc;
  out[oo + 1] = ca * sb * cc + sa * cb * sc;
  out[oo + 2] = ca * cb * sc - sa * sb * cc;
  out[oo + 3] = ca * cb * cc + sa * sb * sc;
}

/**
 * out[oo..oo+3) = R(q)·v for the unit quaternion q at q[qo..qo+4) and v at v[vo..vo+3):
 * t = 2·(u × v), v' = v + w·t + u × t with u = (qx, qy, qz). out may alias v.
 */
export function quatRotateAt(out: Float64Array, oo: number, q: ArrayLike<number>, qo: number, v: ArrayLike<number>, vo: number): void {
  const qx = q[qo],
    qy = q[qo + 1],
    qz = q[qo + 2],
    qw = q[qo + 3];
  const vx = v[vo],
    vy = v[vo + 1],
    vz = v[vo + 2];
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[oo] = vx + qw * tx + (qy * tz - qz * ty);
  out[oo + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[oo + 2] = vz + qw * tz + (qx * ty - qy * tx);
}

/**
 * out[oo..oo+9) = the row-major rotation matrix of the unit quaternion q at q[qo..qo+4):
 * R = I + 2w·[u]× + 2·[u]×² written out, with the diagonal 1 − 2(y² + z²), 1 − 2(z² + x²),
 * 1 − 2(y² + x²).
 */
export function quatToMatrix3At(out: Float64Array | number[], oo: number, q: ArrayLike<number>, qo: number): void {
  const x = q[qo],
    y = q[qo + 1],
    z = q[qo + 2],
    w = q[qo + 3];
  out[oo] = 1 - 2 * (y * y + z * z);
  out[oo + 1] = 2 * (x * y - z * w);
  out[oo + 2] = 2 * (x * z + y * w);
  out[oo + 3] = 2 * (x * y + z * w);
  out[oo + 4] = 1 - 2 * (z * z + x * x);
  out[oo + 5] = 2 * (y * z - x * w);
  out[oo + 6] = 2 * (x * z - y * w);
  out[oo + 7] = 2 * (y * z + x * w);
  out[oo + 8] = 1 - 2 * (y * y + x * x);
}
