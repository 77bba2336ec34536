/**
 * Test components for the assembly specs (not exported): a state holding plain arrays, a linear
 * (multi-)mapping x_out = Σ A_i·x_in_i with fixed dense A_i, a mass with a fixed dense SPD M, a
 * compliance with a fixed dense SPD C, and a diagonal projective constraint. Each one is exactly
 * its matrix, so specs can rebuild the expected system densely.
 */
import {
  BaseCompliance,
  BaseMapping,
  BaseMass,
  ArrayMechanicalState,
  BaseMechanicalState,
  BaseProjectiveConstraint,
  type MatrixAccumulator,
  type SparseMatrixLike,
  type StateType,
} from '@sofa-ts/core';
import { csrFromTriplets, type CsrMatrix } from '@sofa-ts/linalg';

/** Deterministic pseudo-random numbers in [−1, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** A named state of n zero points (core's ArrayMechanicalState). */
export class TestState extends ArrayMechanicalState {
  constructor(
    type: StateType,
    readonly n: number,
    name: string,
  ) {
    super(type, new Float64Array(n * type.coordSize), { name });
  }
}

export function denseToCsr(a: number[][]): CsrMatrix {
  const rows: number[] = [],
    cols: number[] = [],
    vals: number[] = [];
  a.forEach((row, i) =>
    row.forEach((v, j) => {
      if (v !== 0) {
        rows.push(i);
        cols.push(j);
        vals.push(v);
      }
    }),
  );
  return csrFromTriplets(a.length, a[0]?.length ?? 0, rows, cols, vals);
}

/** x_out = Σ_i A_i·x_in_i with fixed dense A_i (a multi-mapping when given several inputs). */
export class LinearTestMapping extends BaseMapping {
  readonly J: CsrMatrix[];
  constructor(
    readonly inputs: BaseMechanicalState[],
    readonly out: BaseMechanicalState,
    readonly A: number[][][],
  ) {
    super();
    this.J = A.map(denseToCsr);
  }
  static random(inputs: BaseMechanicalState[], out: BaseMechanicalState, seed: number): LinearTestMapping {
    const r = rng(seed);
    const m = out.size * out.stateType.derivSize;
    const A = inputs.map((s) =>
      Array.from({ length: m }, () => Array.from({ length: s.size * s.stateType.derivSize }, () => (r() > -0.4 ? r() : 0))),
    );
    return new LinearTestMapping(inputs, out, A);
  }
  getFrom(): readonly BaseMechanicalState[] {
    return this.inputs;
  }
  getTo(): BaseMechanicalState {
    return this.out;
  }
  apply(): void {
    this.applyJ(
      this.out.x,
      this.inputs.map((s) => s.x),
    );
  }
  applyJ(out: Float64Array, ins: readonly Float64Array[]): void {
    out.fill(0);
    ins.forEach((x, k) => this.A[k].forEach((row, i) => row.forEach((v, j) => (out[i] += v * x[j]))));
  }
  applyJT(ins: readonly Float64Array[], out: Float64Array): void {
    ins.forEach((x, k) => this.A[k].forEach((row, i) => row.forEach((v, j) => (x[j] += v * out[i]))));
  }
  getJ(i: number): SparseMatrixLike {
    return this.J[i];
  }
  get isLinear(): boolean {
    return true;
  }
}

/** A dense symmetric positive definite matrix B·Bᵀ + shift·I of size n. */
export function randomSpd(n: number, seed: number, shift = 0.5): number[][] {
  const r = rng(seed);
  const B = Array.from({ length: n }, () => Array.from({ length: n }, () => r()));
  return B.map((_, i) => B.map((__, j) => B[i].reduce((a, bik, k) => a + bik * B[j][k], 0) + (i === j ? shift : 0)));
}

/** A mass with a fixed dense SPD matrix M. */
export class DenseTestMass extends BaseMass {
  constructor(
    readonly state: BaseMechanicalState,
    readonly M: number[][],
  ) {
    super();
  }
  getMechanicalState(): BaseMechanicalState {
    return this.state;
  }
  addMDx(out: Float64Array, dx: Float64Array, factor: number): void {
    this.M.forEach((row, i) => row.forEach((v, j) => (out[i] += factor * v * dx[j])));
  }
  addMToMatrix(acc: MatrixAccumulator, mFactor: number): void {
    this.M.forEach((row, i) => row.forEach((v, j) => acc.add(i, j, mFactor * v)));
  }
  addForce(): void {}
  accFromF(): void {
    throw new Error('not used');
  }
  getKineticEnergy(): number {
    return 0;
  }
  getPotentialEnergy(): number {
    return 0;
  }
  get isDiagonal(): boolean {
    return false;
  }
}

/** A compliance with a fixed dense SPD matrix C (as a stiffness: K = −C⁻¹, not used here). */
export class DenseTestCompliance extends BaseCompliance {
  constructor(
    readonly state: BaseMechanicalState,
    readonly C: number[][],
  ) {
    super();
  }
  getMechanicalStates(): readonly BaseMechanicalState[] {
    return [this.state];
  }
  addForce(): void {}
  addDForce(): void {}
  addKToMatrix(): void {}
  addComplianceToMatrix(acc: MatrixAccumulator, cFactor: number): void {
    this.C.forEach((row, i) => row.forEach((v, j) => acc.add(i, j, cFactor * v)));
  }
}

/** Fixes the listed scalar dofs (dx ← 0 there). */
export class FixedDofs extends BaseProjectiveConstraint {
  constructor(
    readonly state: BaseMechanicalState,
    readonly dofs: number[],
  ) {
    super();
  }
  getMechanicalState(): BaseMechanicalState {
    return this.state;
  }
  projectResponse(dx: Float64Array): void {
    for (const i of this.dofs) dx[i] = 0;
  }
  projectVelocity(v: Float64Array): void {
    this.projectResponse(v);
  }
  projectPosition(): void {}
  projectedDofs(out: number[]): void {
    out.push(...this.dofs);
  }
}
