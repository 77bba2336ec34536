/**
 * Dense LU with partial pivoting of a row-major n × n matrix, in place: P·A = L·U with L unit lower
 * (strictly below the diagonal) and U upper (diagonal and above); `piv[k]` is the row swapped
 * with k at step k. For the Schur complements of LUSolver (constraint space, a few hundred rows).
 */
export function denseLuFactor(a: Float64Array, n: number, piv: Int32Array): void {
  for (let k = 0; k < n; k++) {
    let p = k;
    let best = Math.abs(a[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(a[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (!(best > 0)) throw new Error(`dense LU: singular matrix (no pivot in column ${k})`);
    piv[k] = p;
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        const t = a[k * n + j];
        a[k * n + j] = a[p * n + j];
        a[p * n + j] = t;
      }
    }
    const d = a[k * n + k];
    for (let i = k + 1; i < n; i++) {
      const l = (a[i * n + k] /= d);
      if (l === 0) continue;
      for (let j = k + 1; j < n; j++) a[i * n + j] -= l * a[k * n + j];
    }
  }
}

/** x = A⁻¹·b from denseLuFactor's output (x may alias b). */
export function denseLuSolve(x: Float64Array, lu: Float64Array, n: number, piv: Int32Array, b: Float64Array): void {
  if (x !== b) x.set(b.subarray(0, n));
  for (let k = 0; k < n; k++) {
    const p = piv[k];
    if (p !== k) {
      const t = x[k];
      x[k] = x[p];
      x[p] = t;
    }
  }
  for (let i = 0; i < n; i++) {
    let s = x[i];
    for (let k = 0; k < i; k++) s -= lu[i * n + k] * x[k];
    x[i] = s;
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < n; k++) s -= lu[i * n + k] * x[k];
    x[i] = s / lu[i * n + i];
  }
}
