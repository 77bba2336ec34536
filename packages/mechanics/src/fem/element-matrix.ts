import { addBlock3, upperBlockIndex, type MatrixAccumulator } from '@sofa-ts/core';
import { bsr3SpmvAdd, type Bsr3Matrix } from '@sofa-ts/linalg';

/**
 * Emits factor·K_e, the (3n × 3n) row-major matrix of an element of n Vec3 nodes, as n² 3x3 blocks
 * at the rows and columns of its nodes `elems[n·e + i]` (the MatrixAccumulator's block fast path;
 * the sequence of entries is the same at every call). `blk` is a 9-value scratch.
 */
export function emitElementMatrix(
  acc: MatrixAccumulator,
  K: Float64Array,
  elems: Uint32Array,
  e: number,
  n: number,
  factor: number,
  blk: Float64Array,
): void {
  if (acc.addElement3) {
    acc.addElement3(elems, e, n, K, factor);
    return;
  }
  const stride = 3 * n;
  for (let i = 0; i < n; i++) {
    const ri = 3 * elems[n * e + i];
    for (let j = 0; j < n; j++) {
      const o = 3 * stride * i + 3 * j;
      for (let p = 0; p < 3; p++) {
        blk[3 * p] = K[o + stride * p];
        blk[3 * p + 1] = K[o + stride * p + 1];
        blk[3 * p + 2] = K[o + stride * p + 2];
      }
      addBlock3(acc, ri, 3 * elems[n * e + j], blk, 0, factor);
    }
  }
}

/**
 * Emits factor·K_e for `count` symmetric element matrices e0 … e0+count−1 given by their
 * n(n+1)/2 upper 3x3 blocks (element e0+k's at U[k·nu …), nu = 9·n(n+1)/2: the layout of
 * MatrixAccumulator.addSymmetricElements3), at the rows and columns of their nodes; the same
 * emission and values as emitElementMatrix with each full matrix. `full` is a (3n)² scratch for
 * accumulators without the symmetric fast path, `blk` a 9-value scratch.
 */
export function emitSymmetricElements(
  acc: MatrixAccumulator,
  U: Float64Array,
  elems: Uint32Array,
  e0: number,
  count: number,
  n: number,
  factor: number,
  full: Float64Array,
  blk: Float64Array,
): void {
  if (acc.addSymmetricElements3) {
    acc.addSymmetricElements3(elems, e0, count, n, U, factor);
    return;
  }
  const stride = 3 * n,
    nu = (9 * n * (n + 1)) / 2;
  for (let k = 0; k < count; k++) {
    for (let i = 0; i < n; i++)
      for (let j = i; j < n; j++) {
        const u = k * nu + 9 * upperBlockIndex(n, i, j),
          b = 3 * stride * i + 3 * j,
          c = 3 * stride * j + 3 * i;
        for (let p = 0; p < 3; p++)
          for (let q = 0; q < 3; q++) {
            full[b + stride * p + q] = U[u + 3 * p + q];
            if (j !== i) full[c + stride * q + p] = U[u + 3 * p + q];
          }
      }
    emitElementMatrix(acc, full, elems, e0 + k, n, factor, blk);
  }
}

/**
 * The upper blocks (i ≤ j, layout of MatrixAccumulator.addSymmetricElements3, from uOffset) of −Rᵀ·K·R for a
 * symmetric element matrix K of n Vec3 nodes ((3n)², row-major, at kOffset) and the rotation R at
 * rOffset: the same values as the blocks j ≥ i of rotatedElementStiffness.
 */
export function rotatedElementStiffnessUpper(
  U: Float64Array,
  K: Float64Array,
  kOffset: number,
  n: number,
  R: Float64Array,
  rOffset: number,
  uOffset = 0,
): Float64Array {
  const stride = 3 * n;
  const r0 = R[rOffset],
    r1 = R[rOffset + 1],
    r2 = R[rOffset + 2];
  const r3 = R[rOffset + 3],
    r4 = R[rOffset + 4],
    r5 = R[rOffset + 5];
  const r6 = R[rOffset + 6],
    r7 = R[rOffset + 7],
    r8 = R[rOffset + 8];
  let u = uOffset;
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++, u += 9) {
      const k = kOffset + 3 * stride * i + 3 * j;
      const b00 = K[k],
        b01 = K[k + 1],
        b02 = K[k + 2];
      const b10 = K[k + stride],
        b11 = K[k + stride + 1],
        b12 = K[k + stride + 2];
      const b20 = K[k + 2 * stride],
        b21 = K[k + 2 * stride + 1],
        b22 = K[k + 2 * stride + 2];
      // T = K_ij·R
      const t00 = b00 * r0 + b01 * r3 + b02 * r6,
        t01 = b00 * r1 + b01 * r4 + b02 * r7,
        t02 = b00 * r2 + b01 * r5 + b02 * r8;
      const t10 = b10 * r0 + b11 * r3 + b12 * r6,
        t11 = b10 * r1 + b11 * r4 + b12 * r7,
        t12 = b10 * r2 + b11 * r5 + b12 * r8;
      const t20 = b20 * r0 + b21 * r3 + b22 * r6,
        t21 = b20 * r1 + b21 * r4 + b22 * r7,
        t22 = b20 * r2 + b21 * r5 + b22 * r8;
      // U_ij = −Rᵀ·T
      U[u] = -(r0 * t00 + r3 * t10 + r6 * t20);
      U[u + 1] = -(r0 * t01 + r3 * t11 + r6 * t21);
      U[u + 2] = -(r0 * t02 + r3 * t12 + r6 * t22);
      U[u + 3] = -(r1 * t00 + r4 * t10 + r7 * t20);
      U[u + 4] = -(r1 * t01 + r4 * t11 + r7 * t21);
      U[u + 5] = -(r1 * t02 + r4 * t12 + r7 * t22);
      U[u + 6] = -(r2 * t00 + r5 * t10 + r8 * t20);
      U[u + 7] = -(r2 * t01 + r5 * t11 + r8 * t21);
      U[u + 8] = -(r2 * t02 + r5 * t12 + r8 * t22);
    }
  }
  return U;
}

/**
 * out = −Rᵀ·K·R blockwise: for a symmetric element matrix K of n Vec3 nodes ((3n)², row-major,
 * starting at kOffset) and the element rotation R (9 values at rOffset, rows = element frame),
 * out_ij = −Rᵀ·K_ij·R, computed for j ≥ i and mirrored (out_ji = out_ijᵀ). The corotational
 * stiffness of SOFA's tetrahedra and hexahedra: the rest stiffness turned by the last rotation.
 */
export function rotatedElementStiffness(
  out: Float64Array,
  K: Float64Array,
  kOffset: number,
  n: number,
  R: Float64Array,
  rOffset: number,
): Float64Array {
  const stride = 3 * n;
  const r0 = R[rOffset],
    r1 = R[rOffset + 1],
    r2 = R[rOffset + 2];
  const r3 = R[rOffset + 3],
    r4 = R[rOffset + 4],
    r5 = R[rOffset + 5];
  const r6 = R[rOffset + 6],
    r7 = R[rOffset + 7],
    r8 = R[rOffset + 8];
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const b = 3 * stride * i + 3 * j,
        k = kOffset + b;
      const b00 = K[k],
        b01 = K[k + 1],
        b02 = K[k + 2];
      const b10 = K[k + stride],
        b11 = K[k + stride + 1],
        b12 = K[k + stride + 2];
      const b20 = K[k + 2 * stride],
        b21 = K[k + 2 * stride + 1],
        b22 = K[k + 2 * stride + 2];
      // T = K_ij·R
      const t00 = b00 * r0 + b01 * r3 + b02 * r6,
        t01 = b00 * r1 + b01 * r4 + b02 * r7,
        t02 = b00 * r2 + b01 * r5 + b02 * r8;
      const t10 = b10 * r0 + b11 * r3 + b12 * r6,
        t11 = b10 * r1 + b11 * r4 + b12 * r7,
        t12 = b10 * r2 + b11 * r5 + b12 * r8;
      const t20 = b20 * r0 + b21 * r3 + b22 * r6,
        t21 = b20 * r1 + b21 * r4 + b22 * r7,
        t22 = b20 * r2 + b21 * r5 + b22 * r8;
      // W = −Rᵀ·T
      const w00 = -(r0 * t00 + r3 * t10 + r6 * t20),
        w01 = -(r0 * t01 + r3 * t11 + r6 * t21),
        w02 = -(r0 * t02 + r3 * t12 + r6 * t22);
      const w10 = -(r1 * t00 + r4 * t10 + r7 * t20),
        w11 = -(r1 * t01 + r4 * t11 + r7 * t21),
        w12 = -(r1 * t02 + r4 * t12 + r7 * t22);
      const w20 = -(r2 * t00 + r5 * t10 + r8 * t20),
        w21 = -(r2 * t01 + r5 * t11 + r8 * t21),
        w22 = -(r2 * t02 + r5 * t12 + r8 * t22);
      out[b] = w00;
      out[b + 1] = w01;
      out[b + 2] = w02;
      out[b + stride] = w10;
      out[b + stride + 1] = w11;
      out[b + stride + 2] = w12;
      out[b + 2 * stride] = w20;
      out[b + 2 * stride + 1] = w21;
      out[b + 2 * stride + 2] = w22;
      if (j !== i) {
        const c = 3 * stride * j + 3 * i;
        out[c] = w00;
        out[c + 1] = w10;
        out[c + 2] = w20;
        out[c + stride] = w01;
        out[c + stride + 1] = w11;
        out[c + stride + 2] = w21;
        out[c + 2 * stride] = w02;
        out[c + 2 * stride + 1] = w12;
        out[c + 2 * stride + 2] = w22;
      }
    }
  }
  return out;
}

/** out = scale·K·x for the 24×24 matrix K stored row-major at K[ko ..]. */
export function matVec24(out: Float64Array, K: Float64Array, ko: number, x: Float64Array, scale: number): void {
  const x0 = x[0],
    x1 = x[1],
    x2 = x[2],
    x3 = x[3],
    x4 = x[4],
    x5 = x[5],
    x6 = x[6],
    x7 = x[7];
  const x8 = x[8],
    x9 = x[9],
    x10 = x[10],
    x11 = x[11],
    x12 = x[12],
    x13 = x[13],
    x14 = x[14],
    x15 = x[15];
  const x16 = x[16],
    x17 = x[17],
    x18 = x[18],
    x19 = x[19],
    x20 = x[20],
    x21 = x[21],
    x22 = x[22],
    x23 = x[23];
  for (let i = 0, row = ko; i < 24; i++, row += 24) {
    const s =
      K[row] * x0 +
      K[row + 1] * x1 +
      K[row + 2] * x2 +
      K[row + 3] * x3 +
      K[row + 4] * x4 +
      K[row + 5] * x5 +
      K[row + 6] * x6 +
      K[row + 7] * x7 +
      K[row + 8] * x8 +
      K[row + 9] * x9 +
      K[row + 10] * x10 +
      K[row + 11] * x11 +
      K[row + 12] * x12 +
      K[row + 13] * x13 +
      K[row + 14] * x14 +
      K[row + 15] * x15 +
      K[row + 16] * x16 +
      K[row + 17] * x17 +
      K[row + 18] * x18 +
      K[row + 19] * x19 +
      K[row + 20] * x20 +
      K[row + 21] * x21 +
      K[row + 22] * x22 +
      K[row + 23] * x23;
    out[i] = scale * s;
  }
}

/** out = scale·K·x for the 12×12 matrix K stored row-major at K[ko ..] (a tetrahedron's). */
export function matVec12(out: Float64Array, K: Float64Array, ko: number, x: Float64Array, scale: number): void {
  const x0 = x[0],
    x1 = x[1],
    x2 = x[2],
    x3 = x[3],
    x4 = x[4],
    x5 = x[5];
  const x6 = x[6],
    x7 = x[7],
    x8 = x[8],
    x9 = x[9],
    x10 = x[10],
    x11 = x[11];
  for (let i = 0, row = ko; i < 12; i++, row += 12) {
    const s =
      K[row] * x0 +
      K[row + 1] * x1 +
      K[row + 2] * x2 +
      K[row + 3] * x3 +
      K[row + 4] * x4 +
      K[row + 5] * x5 +
      K[row + 6] * x6 +
      K[row + 7] * x7 +
      K[row + 8] * x8 +
      K[row + 9] * x9 +
      K[row + 10] * x10 +
      K[row + 11] * x11;
    out[i] = scale * s;
  }
}

/** out = scale·K·x for the (n × n) row-major matrix K stored at K[ko ..] (unrolled for n = 12, 24). */
export function matVec(out: Float64Array, K: Float64Array, ko: number, x: Float64Array, n: number, scale: number): void {
  if (n === 24) return matVec24(out, K, ko, x, scale);
  if (n === 12) return matVec12(out, K, ko, x, scale);
  for (let i = 0, row = ko; i < n; i++, row += n) {
    let s = 0;
    for (let j = 0; j < n; j++) s += K[row + j] * x[j];
    out[i] = scale * s;
  }
}

/**
 * Element matrices shared between elements of the same rest shape and material (a regular grid
 * needs one): `indexOf(key, make)` returns the index of the matrix of that key, computing it with
 * `make` the first time; `pack()` gives them all in one array (count × size) at the end of init.
 */
export class ElementMatrixPool {
  private readonly keys = new Map<string, number>();
  private readonly matrices: Float64Array[] = [];

  constructor(readonly size: number) {}

  indexOf(key: string | undefined, make: (out: Float64Array) => void): number {
    if (key !== undefined) {
      const found = this.keys.get(key);
      if (found !== undefined) return found;
    }
    const m = new Float64Array(this.size);
    make(m);
    const i = this.matrices.length;
    this.matrices.push(m);
    if (key !== undefined) this.keys.set(key, i);
    return i;
  }

  pack(): Float64Array<ArrayBuffer> {
    const out = new Float64Array(this.size * this.matrices.length);
    this.matrices.forEach((m, i) => out.set(m, this.size * i));
    return out;
  }
}

/**
 * A key for an element's rest shape (positions X of n nodes, 3n numbers) and material: the
 * positions relative to the first node on a grid of 1e-10 of the element size, and the material
 * values to 12 digits. Elements with equal keys have equal stiffness matrices.
 */
export function restShapeKey(X: ArrayLike<number>, n: number, material: readonly number[]): string {
  let size = 0;
  for (let k = 3; k < 3 * n; k++) size = Math.max(size, Math.abs(X[k] - X[k % 3]));
  const parts = material.map((m) => m.toPrecision(12));
  parts.push(size.toPrecision(10));
  for (let k = 3; k < 3 * n; k++) parts.push(String(Math.round((X[k] - X[k % 3]) / (size * 1e-10))));
  return parts.join(' ');
}

/**
 * The sum of element matrices (3n × 3n each, n nodes per element) over a state's points, as 3×3
 * blocks (BSR): the pattern is built once from the elements, `slot` maps block (a, b) of element e
 * to its place, and values are refilled by `clear` + `addElement`. A force field whose K is constant
 * over many products (the iterations of a matrix-free CG between two force evaluations) applies
 * it with one pass over the blocks instead of one dense product per element.
 */
export class ElementBlockMatrix {
  readonly matrix: Bsr3Matrix;
  /** Per element, per (a, b) of its nodes: the block index in matrix (nElem × n²). */
  private readonly slot: Int32Array;

  constructor(
    points: number,
    elems: Uint32Array,
    private readonly n: number,
  ) {
    const count = elems.length / n;
    // distinct neighbours per point, sorted
    const neighbours: Set<number>[] = Array.from({ length: points }, () => new Set<number>());
    for (let e = 0; e < count; e++)
      for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) neighbours[elems[n * e + a]].add(elems[n * e + b]);
    const rowPtr = new Int32Array(points + 1);
    const cols: number[] = [];
    for (let i = 0; i < points; i++) {
      cols.push(...[...neighbours[i]].sort((x, y) => x - y));
      rowPtr[i + 1] = cols.length;
    }
    const colInd = Int32Array.from(cols);
    this.matrix = { blockRows: points, blockCols: points, rowPtr, colInd, values: new Float64Array(9 * colInd.length) };
    this.slot = new Int32Array(count * n * n);
    for (let e = 0; e < count; e++)
      for (let a = 0; a < n; a++) {
        const i = elems[n * e + a];
        for (let b = 0; b < n; b++) {
          const j = elems[n * e + b];
          let lo = rowPtr[i],
            hi = rowPtr[i + 1] - 1;
          while (colInd[lo] !== j) {
            const mid = (lo + hi) >> 1;
            if (colInd[mid] < j) lo = mid + 1;
            else hi = mid;
          }
          this.slot[n * n * e + n * a + b] = lo;
        }
      }
  }

  clear(): void {
    this.matrix.values.fill(0);
  }

  /** Adds the (3n × 3n, row-major) matrix K of element e. */
  addElement(e: number, K: Float64Array): void {
    const n = this.n,
      stride = 3 * n,
      v = this.matrix.values,
      slot = this.slot;
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++) {
        const o = 9 * slot[n * n * e + n * a + b],
          k = 3 * stride * a + 3 * b;
        v[o] += K[k];
        v[o + 1] += K[k + 1];
        v[o + 2] += K[k + 2];
        v[o + 3] += K[k + stride];
        v[o + 4] += K[k + stride + 1];
        v[o + 5] += K[k + stride + 2];
        v[o + 6] += K[k + 2 * stride];
        v[o + 7] += K[k + 2 * stride + 1];
        v[o + 8] += K[k + 2 * stride + 2];
      }
  }

  /** y += scale·(Σ K_e)·x over the state's points. */
  multiplyAdd(y: Float64Array, x: Float64Array, scale: number): void {
    bsr3SpmvAdd(y, this.matrix, x, scale);
  }
}
