/**
 * BLAS-1 style kernels over Float64Array, output first. `n` (number of entries processed)
 * defaults to the length of the first array argument; all arrays must hold at least n entries.
 * Sums run in index order 0..n-1 (reproducible, and the order SOFA's flat vectors use).
 */

/** x · y */
export function dot(x: Float64Array, y: Float64Array, n: number = x.length): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

/** |x|₂ = sqrt(x · x) */
export function norm(x: Float64Array, n: number = x.length): number {
  return Math.sqrt(dot(x, x, n));
}

/** max |x_i| (0 for n = 0) */
export function normInf(x: Float64Array, n: number = x.length): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const a = Math.abs(x[i]);
    if (a > m) m = a;
  }
  return m;
}

/** out += a x */
export function axpy(out: Float64Array, a: number, x: Float64Array, n: number = out.length): Float64Array {
  for (let i = 0; i < n; i++) out[i] += x[i] * a;
  return out;
}

/** out = x + a out (the CG direction update p = r + beta p) */
export function aypx(out: Float64Array, a: number, x: Float64Array, n: number = out.length): Float64Array {
  for (let i = 0; i < n; i++) out[i] = out[i] * a + x[i];
  return out;
}

/** out = a x + b y (out may alias x or y) */
export function axpby(out: Float64Array, a: number, x: Float64Array, b: number, y: Float64Array, n: number = out.length): Float64Array {
  for (let i = 0; i < n; i++) out[i] = a * x[i] + b * y[i];
  return out;
}

/** out = s x (out may alias x) */
export function scale(out: Float64Array, x: Float64Array, s: number, n: number = out.length): Float64Array {
  for (let i = 0; i < n; i++) out[i] = x[i] * s;
  return out;
}

/** out = x + y */
export function add(out: Float64Array, x: Float64Array, y: Float64Array, n: number = out.length): Float64Array {
  for (let i = 0; i < n; i++) out[i] = x[i] + y[i];
  return out;
}

/** out = x − y */
export function sub(out: Float64Array, x: Float64Array, y: Float64Array, n: number = out.length): Float64Array {
  for (let i = 0; i < n; i++) out[i] = x[i] - y[i];
  return out;
}

/** out = x */
export function copy(out: Float64Array, x: Float64Array, n: number = out.length): Float64Array {
  if (n === out.length && n === x.length) out.set(x);
  else for (let i = 0; i < n; i++) out[i] = x[i];
  return out;
}

/** out = v (every entry) */
export function fill(out: Float64Array, v: number, n: number = out.length): Float64Array {
  out.fill(v, 0, n);
  return out;
}
