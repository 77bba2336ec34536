/**
 * Helpers of the compliant specs (not exported from the package): a state holding plain arrays,
 * a seeded generator, dense ↔ CSR conversion and a KKT system built from dense blocks.
 */
import {
  ArrayMechanicalState,
  Vec1d,
  Vec2d,
  Vec3d,
  type ConstraintRows,
  type KKTSystem,
  type MatrixAccumulator,
  type StateType,
} from '@sofa-ts/core';
import { csrFromTriplets, type CsrMatrix } from '@sofa-ts/linalg';

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** n points, positions and velocities optionally given (core's ArrayMechanicalState). */
export class TestState extends ArrayMechanicalState {
  constructor(
    type: StateType,
    readonly n: number,
    x?: ArrayLike<number>,
    v?: ArrayLike<number>,
  ) {
    const x0 = new Float64Array(n * type.coordSize);
    if (x) x0.set(x);
    super(type, x0, v ? { v } : {});
    if (x) this.x0.fill(0); // x0 stays zero, as the positions were set after it
  }
}

export function denseToCsr(a: number[][], cols = a[0]?.length ?? 0): CsrMatrix {
  const r: number[] = [],
    c: number[] = [],
    v: number[] = [];
  a.forEach((row, i) =>
    row.forEach((x, j) => {
      if (x !== 0 || i === j) {
        r.push(i);
        c.push(j);
        v.push(x);
      }
    }),
  );
  return csrFromTriplets(a.length, cols, r, c, v);
}

/** Collects emitted entries into a dense n × n matrix. */
export class DenseAccumulator implements MatrixAccumulator {
  readonly a: number[][];
  constructor(n: number) {
    this.a = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  }
  add(r: number, c: number, v: number): void {
    this.a[r][c] += v;
  }
}

/**
 * A KKT system from dense blocks: H (m × m, already projected), J (n × m), C (n × n), P (m × m,
 * diagonal 0/1). JP = J·P. Constraint rows come in blocks of `dim` rows of one state with the
 * given projector (undefined: bilateral).
 */
export function denseKKT(
  H: number[][],
  J: number[][],
  C: number[][],
  P: number[],
  rows: Array<Partial<ConstraintRows> & { blocks: number; dim: number }>,
): KKTSystem {
  const m = H.length,
    n = J.length;
  const JP = J.map((row) => row.map((v, k) => v * P[k]));
  let offset = 0;
  const constraints: ConstraintRows[] = rows.map((r) => {
    const c = {
      state: r.state ?? new TestState(vecState(r.dim), r.blocks),
      offset,
      blocks: r.blocks,
      dim: r.dim,
      projector: r.projector,
      value: r.value,
    };
    offset += r.blocks * r.dim;
    return c;
  });
  return {
    m,
    n,
    dt: 0.01,
    H: denseToCsr(H),
    J: denseToCsr(J.length ? J : [], m),
    JP: n > 0 ? denseToCsr(JP, m) : { rows: 0, cols: m, rowPtr: new Int32Array(1), colInd: new Int32Array(0), values: new Float64Array(0) },
    C: n > 0 ? denseToCsr(C) : { rows: 0, cols: 0, rowPtr: new Int32Array(1), colInd: new Int32Array(0), values: new Float64Array(0) },
    P: denseToCsr(P.map((p, i) => P.map((_, j) => (i === j ? p : 0)))),
    isPIdentity: P.every((p) => p === 1),
    constraints,
    patternVersion: 1,
  };
}

function vecState(dim: number): StateType {
  return dim === 1 ? Vec1d : dim === 2 ? Vec2d : Vec3d;
}
