import { addBlock3, type MatrixAccumulator } from '@sofa-ts/core';

/**
 * Forces that follow a triangle surface (SurfacePressureForceField, TaitSurfacePressureForceField,
 * TrianglePressureForceField with a Cauchy stress): on triangle (a, b, c), with
 *   n = (x_b − x_a) × (x_c − x_a)   (twice the area vector),
 * each of the three vertices receives the same force p = M·n, M a 3×3 matrix given per call
 * (pressure P: M = P/6·I, so that the three forces sum to P times the area vector). Then
 *   ∂p/∂x_a = M·[x_c − x_b]×,   ∂p/∂x_b = −M·[x_c − x_a]×,   ∂p/∂x_c = M·[x_b − x_a]×
 * ([u]× the cross-product matrix, [u]×·w = u × w), the same three blocks on the rows of a, b and c:
 * K is not symmetric (SOFA's SurfacePressureForceField uses the same tangent). The blocks are
 * kept per triangle at the last addForce, (nT × 3 × 9), and emitted in a fixed order.
 */
export class FollowerTriangles {
  /** Vertices of the triangles, (nT × 3). */
  tris: Uint32Array = new Uint32Array(0);
  /** ∂p/∂x_k per triangle and vertex k, row-major, (nT × 3 × 9). */
  blocks = new Float64Array(0);
  /** Scratch: n and the current M. */
  readonly n = new Float64Array(3);
  private readonly e1 = new Float64Array(3);
  private readonly e2 = new Float64Array(3);

  setTriangles(tris: Uint32Array): void {
    this.tris = tris;
    this.blocks = new Float64Array((tris.length / 3) * 27);
  }

  get count(): number {
    return this.tris.length / 3;
  }

  /** n = (x_b − x_a) × (x_c − x_a) of triangle t into this.n; x has coordinate stride cs. */
  normal(t: number, x: Float64Array, cs: number): Float64Array {
    const a = this.tris[3 * t] * cs,
      b = this.tris[3 * t + 1] * cs,
      c = this.tris[3 * t + 2] * cs;
    const e1 = this.e1,
      e2 = this.e2,
      n = this.n;
    for (let k = 0; k < 3; k++) {
      e1[k] = x[b + k] - x[a + k];
      e2[k] = x[c + k] - x[a + k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    return n;
  }

  /**
   * Adds p = M·n to the three vertices of triangle t (n from the last `normal(t, …)`), and stores
   * the blocks M·∂n/∂x_k (M row-major, 9 numbers). f has derivative stride ds.
   */
  apply(t: number, M: ArrayLike<number>, f: Float64Array, x: Float64Array, cs: number, ds: number): void {
    const n = this.n;
    const p0 = M[0] * n[0] + M[1] * n[1] + M[2] * n[2];
    const p1 = M[3] * n[0] + M[4] * n[1] + M[5] * n[2];
    const p2 = M[6] * n[0] + M[7] * n[1] + M[8] * n[2];
    for (let j = 0; j < 3; j++) {
      const o = this.tris[3 * t + j] * ds;
      f[o] += p0;
      f[o + 1] += p1;
      f[o + 2] += p2;
    }
    const a = this.tris[3 * t] * cs,
      b = this.tris[3 * t + 1] * cs,
      c = this.tris[3 * t + 2] * cs;
    // ∂n/∂x_a = [x_c − x_b]×, ∂n/∂x_b = [x_a − x_c]×, ∂n/∂x_c = [x_b − x_a]×
    this.crossBlock(t, 0, M, x, c, b);
    this.crossBlock(t, 1, M, x, a, c);
    this.crossBlock(t, 2, M, x, b, a);
  }

  /** blocks[t][k] = M·[x_p − x_q]×. */
  private crossBlock(t: number, k: number, M: ArrayLike<number>, x: Float64Array, p: number, q: number): void {
    const u0 = x[p] - x[q],
      u1 = x[p + 1] - x[q + 1],
      u2 = x[p + 2] - x[q + 2];
    const B = this.blocks,
      o = (3 * t + k) * 9;
    for (let r = 0; r < 3; r++) {
      const m0 = M[3 * r],
        m1 = M[3 * r + 1],
        m2 = M[3 * r + 2];
      // row r of M times [u]× = [[0, −u2, u1], [u2, 0, −u0], [−u1, u0, 0]]
      B[o + 3 * r] = m1 * u2 - m2 * u1;
      B[o + 3 * r + 1] = -m0 * u2 + m2 * u0;
      B[o + 3 * r + 2] = m0 * u1 - m1 * u0;
    }
  }

  /** Zero blocks for triangle t (a triangle that exerts nothing at this step). */
  clear(t: number): void {
    this.blocks.fill(0, t * 27, t * 27 + 27);
  }

  /** df_v += k·Σ_j ∂p/∂x_j·dx_j for the three vertices v of every triangle. */
  addDForce(df: Float64Array, dx: Float64Array, k: number, ds: number): void {
    const B = this.blocks,
      T = this.tris;
    for (let t = 0; t < T.length / 3; t++) {
      let q0 = 0,
        q1 = 0,
        q2 = 0;
      for (let j = 0; j < 3; j++) {
        const o = (3 * t + j) * 9,
          v = T[3 * t + j] * ds;
        const d0 = dx[v],
          d1 = dx[v + 1],
          d2 = dx[v + 2];
        q0 += B[o] * d0 + B[o + 1] * d1 + B[o + 2] * d2;
        q1 += B[o + 3] * d0 + B[o + 4] * d1 + B[o + 5] * d2;
        q2 += B[o + 6] * d0 + B[o + 7] * d1 + B[o + 8] * d2;
      }
      for (let j = 0; j < 3; j++) {
        const v = T[3 * t + j] * ds;
        df[v] += k * q0;
        df[v + 1] += k * q1;
        df[v + 2] += k * q2;
      }
    }
  }

  /** Emits k·K: for every triangle, the 3×3 grid of blocks (row vertex, column vertex). */
  addKToMatrix(acc: MatrixAccumulator, k: number, ds: number): void {
    const T = this.tris;
    for (let t = 0; t < T.length / 3; t++) {
      for (let r = 0; r < 3; r++) {
        for (let j = 0; j < 3; j++) addBlock3(acc, T[3 * t + r] * ds, T[3 * t + j] * ds, this.blocks, (3 * t + j) * 9, k);
      }
    }
  }
}

/** Quads (q0, q1, q2, q3) split as SOFA's SurfacePressureForceField splits them: (q0, q1, q2) and (q0, q2, q3). */
export function splitQuads(quads: ArrayLike<number>, out: number[]): void {
  for (let q = 0; q + 4 <= quads.length; q += 4) out.push(quads[q], quads[q + 1], quads[q + 2], quads[q], quads[q + 2], quads[q + 3]);
}
