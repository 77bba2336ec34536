import { lusolve, matrix } from 'mathjs';

/**
 * Helpers of the warp preconditioners' specs (WarpPreconditioner, PrecomputedWarpPreconditioner):
 * a rigid turn of a body and a dense mathjs solve as the oracle; not part of the packages.
 */

/** The rotation of angle a about the unit axis u (row-major). */
export function rotation(u: [number, number, number], a: number): number[] {
  const [x, y, z] = u;
  const c = Math.cos(a),
    s = Math.sin(a),
    t = 1 - c;
  return [
    t * x * x + c,
    t * x * y - s * z,
    t * x * z + s * y,
    t * x * y + s * z,
    t * y * y + c,
    t * y * z - s * x,
    t * x * z - s * y,
    t * y * z + s * x,
    t * z * z + c,
  ];
}

/** v ← Q·v point by point. */
export function turn(v: Float64Array, Q: number[]): void {
  for (let i = 0; i < v.length; i += 3) {
    const a = v[i],
      b = v[i + 1],
      c = v[i + 2];
    v[i] = Q[0] * a + Q[1] * b + Q[2] * c;
    v[i + 1] = Q[3] * a + Q[4] * b + Q[5] * c;
    v[i + 2] = Q[6] * a + Q[7] * b + Q[8] * c;
  }
}

/** x = A⁻¹·b for a CSR matrix A, by mathjs's dense LU (the oracle). */
export function denseSolve(
  A: { rows: number; rowPtr: Int32Array; colInd: Int32Array; values: Float64Array },
  b: Float64Array,
): Float64Array {
  const D = Array.from({ length: A.rows }, () => new Array<number>(A.rows).fill(0));
  for (let r = 0; r < A.rows; r++) for (let q = A.rowPtr[r]; q < A.rowPtr[r + 1]; q++) D[r][A.colInd[q]] += A.values[q];
  const x = lusolve(matrix(D), matrix(Array.from(b))).toArray() as number[][];
  return Float64Array.from(x.map((r) => (Array.isArray(r) ? r[0] : (r as number))));
}
