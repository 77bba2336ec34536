/**
 * out[oo..oo+4) = a ⊗ b, the Hamilton product of the quaternions a at a[ao..ao+4) and b at
 * b[bo..bo+4) in SOFA's (x, y, z, w) layout: rotating by a ⊗ b rotates by b, then by a. Each
 * component sums its four products in SOFA's order. out may alias a or b (all are read first).
 */
export function quatMultiplyAt(out: Float64Array, oo: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): void {
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!, aw = a[ao + 3]!;
  const bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!, bw = b[bo + 3]!;
  out[oo] = aw * bx + ax * bw + ay * bz - az * by;
  out[oo + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[oo + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}
