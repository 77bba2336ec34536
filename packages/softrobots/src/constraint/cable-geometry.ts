/**
 * Geometry of a cable: a polyline from the pull point (when there is one) through the points
 * p_0 … p_{n−1} of a state, in that order (a point may appear several times: the cable slides
 * through it each time).
 *
 *   L = ‖p_0 − pullPoint‖ + Σ_k ‖p_{k+1} − p_k‖          (the first term only with a pull point)
 *
 * The actuation is the shortening δ = L₀ − L, and its gradient (the constraint row) on point p_k
 * is −∂L/∂p_k = u(p_k → p_{k+1}) − u(p_{k−1} → p_k), the unit directions of the two segments
 * meeting at p_k (u(p_{−1} → p_0) taken from the pull point). A tension λ ≥ 0 thus pulls every
 * point along the cable towards the pull point. Zero-length segments add nothing.
 */

/** Length of the cable through x[3·indices[k] ..] (Vec3 coordinates), from `pull` when given. */
export function cableLength(x: ArrayLike<number>, indices: ArrayLike<number>, pull: ArrayLike<number> | undefined): number {
  const n = indices.length;
  if (n === 0) return 0;
  let L = 0;
  let ax: number, ay: number, az: number;
  let start: number;
  if (pull) {
    ax = pull[0];
    ay = pull[1];
    az = pull[2];
    start = 0;
  } else {
    const i0 = 3 * indices[0];
    ax = x[i0];
    ay = x[i0 + 1];
    az = x[i0 + 2];
    start = 1;
  }
  for (let k = start; k < n; k++) {
    const i = 3 * indices[k];
    const bx = x[i],
      by = x[i + 1],
      bz = x[i + 2];
    L += Math.hypot(bx - ax, by - ay, bz - az);
    ax = bx;
    ay = by;
    az = bz;
  }
  return L;
}

/**
 * out[3k .. 3k+3) = −∂L/∂p_k for the k-th cable point (see the file comment); out has 3·n numbers.
 * Returns the length L.
 */
export function cableGradient(
  out: Float64Array,
  x: ArrayLike<number>,
  indices: ArrayLike<number>,
  pull: ArrayLike<number> | undefined,
): number {
  const n = indices.length;
  out.fill(0, 0, 3 * n);
  if (n === 0) return 0;
  let L = 0;
  // segment s goes from point a (k − 1, or the pull point) to point b (k)
  for (let k = pull ? 0 : 1; k < n; k++) {
    const ib = 3 * indices[k];
    let ax: number, ay: number, az: number;
    if (k === 0) {
      ax = pull![0];
      ay = pull![1];
      az = pull![2];
    } else {
      const ia = 3 * indices[k - 1];
      ax = x[ia];
      ay = x[ia + 1];
      az = x[ia + 2];
    }
    const dx = x[ib] - ax,
      dy = x[ib + 1] - ay,
      dz = x[ib + 2] - az;
    const len = Math.hypot(dx, dy, dz);
    L += len;
    if (len === 0) continue;
    const ux = dx / len,
      uy = dy / len,
      uz = dz / len;
    // b is pulled back along the segment
    out[3 * k] -= ux;
    out[3 * k + 1] -= uy;
    out[3 * k + 2] -= uz;
    if (k > 0) {
      // a is pulled forward along the segment
      out[3 * (k - 1)] += ux;
      out[3 * (k - 1) + 1] += uy;
      out[3 * (k - 1) + 2] += uz;
    }
  }
  return L;
}
