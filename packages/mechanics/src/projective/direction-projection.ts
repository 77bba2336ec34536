import type { BaseObject, MatrixAccumulator } from '@sofa-ts/core';

/**
 * The projection shared by SOFA's Line-, Plane- and DirectionProjectiveConstraint: on each
 * constrained point i, a symmetric idempotent block of the unit direction n (N = n.length):
 *   onto the line:   P_i = n·nᵀ          (the point moves along n only)
 *   onto the plane:  P_i = I − n·nᵀ      (the point moves orthogonally to n only)
 * identity on the other points; P·P = P. A point's derivative has `ds` scalars, the first N of
 * which are projected (N = ds for Vec templates).
 * When n is a coordinate axis e_k, P is diagonal: the line keeps dof k and zeroes the others, the
 * plane zeroes dof k; the assembled system then clears rows and columns. Otherwise it takes P
 * from `addProjectionToMatrix`.
 */
export class DirectionProjection {
  /** Constrained points without repetition, (m). */
  points = new Uint32Array(0);
  /** Unit direction, (N). */
  n = new Float64Array(3);
  /** Scalars per point of a derivative. */
  ds = 3;
  /** The one nonzero component of n, or −1. */
  private axis = -1;

  constructor(readonly onto: 'line' | 'plane') {}

  /** Sets the points and the unit direction (n must not be zero). */
  set(points: ArrayLike<number>, n: Float64Array, ds: number): void {
    this.points = Uint32Array.from(new Set(Array.from(points)));
    this.n = Float64Array.from(n);
    this.ds = ds;
    const nonzero: number[] = [];
    n.forEach((v, k) => v !== 0 && nonzero.push(k));
    this.axis = nonzero.length === 1 ? nonzero[0] : -1;
  }

  /** dx_i ← P_i·dx_i on the constrained points. */
  project(dx: Float64Array): void {
    const n = this.n,
      N = n.length,
      ds = this.ds;
    const line = this.onto === 'line';
    for (const p of this.points) {
      const o = p * ds;
      let dot = 0;
      for (let k = 0; k < N; k++) dot += n[k] * dx[o + k];
      // line: n·(n·dx);  plane: dx − n·(n·dx)
      for (let k = 0; k < N; k++) dx[o + k] = line ? dot * n[k] : dx[o + k] - dot * n[k];
    }
  }

  get isDiagonal(): boolean {
    return this.axis >= 0;
  }

  /** The scalar dofs P zeroes when it is diagonal. */
  projectedDofs(out: number[]): void {
    if (this.axis < 0) return;
    const N = this.n.length,
      ds = this.ds;
    for (const p of this.points) {
      if (this.onto === 'plane') out.push(p * ds + this.axis);
      else for (let k = 0; k < N; k++) if (k !== this.axis) out.push(p * ds + k);
    }
  }

  /** The N×N block of P on every constrained point (all entries, zeros included). */
  addToMatrix(acc: MatrixAccumulator): void {
    const n = this.n,
      N = n.length,
      ds = this.ds;
    const line = this.onto === 'line';
    for (const p of this.points) {
      for (let r = 0; r < N; r++) {
        for (let c = 0; c < N; c++) {
          const nn = n[r] * n[c];
          acc.add(p * ds + r, p * ds + c, line ? nn : (r === c ? 1 : 0) - nn);
        }
      }
    }
  }
}

/** Indices checked against a state of `size` points; throws a located error through `fail`. */
export function checkIndices(indices: ArrayLike<number>, size: number, what: string, fail: (msg: string) => Error): void {
  for (let i = 0; i < indices.length; i++)
    if (indices[i] >= size) throw fail(`index ${indices[i]} is out of range: ${what} has ${size} points`);
}

/** A vector Data of N numbers (empty: zero), or a located error. */
export function vectorOf(c: BaseObject, v: Float64Array, N: number, name: string): Float64Array<ArrayBuffer> {
  if (v.length === 0) return new Float64Array(N);
  if (v.length !== N) throw c.error(`'${name}' needs ${N} numbers for template ${c.template}, got ${v.length}`);
  return Float64Array.from(v);
}
