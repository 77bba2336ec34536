import { expect } from 'chai';
import type { BaseProjectiveConstraint } from '@sofa-ts/core';
import { FixedPlaneProjectiveConstraint } from './FixedPlaneProjectiveConstraint.js';
import { PartialFixedProjectiveConstraint } from './PartialFixedProjectiveConstraint.js';
import { buildNode, denseFromEmission, rng } from '../mass/mesh-test-support.js';

/** The matrix of dx ↦ P·dx, column j = P·e_j. */
function matrixOf(pc: BaseProjectiveConstraint, n: number): number[][] {
  const P = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < n; j++) {
    const e = new Float64Array(n);
    e[j] = 1;
    pc.projectResponse(e);
    for (let i = 0; i < n; i++) P[i][j] = e[i];
  }
  return P;
}

function product(A: number[][], B: number[][]): number[][] {
  return A.map((row) => B[0].map((_, j) => row.reduce((s, a, k) => s + a * B[k][j], 0)));
}

function expectClose(A: number[][], B: number[][], tol = 1e-14): void {
  A.forEach((row, i) => row.forEach((a, j) => expect(a, `(${i}, ${j})`).to.be.closeTo(B[i][j], tol)));
}

const points = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1];

describe('PartialFixedProjectiveConstraint', () => {
  it('zeroes the fixed directions of the listed points only: P diagonal, P·P = P', () => {
    const pc = new PartialFixedProjectiveConstraint();
    pc.indices.value = Uint32Array.of(1, 3);
    pc.fixedDirections.value = Uint8Array.of(1, 0, 1);
    buildNode(points, undefined, [pc]);
    const P = matrixOf(pc, 15);
    expectClose(product(P, P), P);
    const zeroed = [3, 5, 9, 11];
    for (let i = 0; i < 15; i++) expect(P[i][i]).to.equal(zeroed.includes(i) ? 0 : 1);
    const dofs: number[] = [];
    pc.projectedDofs(dofs);
    expect(dofs).to.deep.equal(zeroed);
    const v = Float64Array.from({ length: 15 }, () => 1);
    pc.projectVelocity(v);
    expect(v.every((x) => x === 1)).to.equal(true); // projectVelocity is off by default
    pc.projectVelocityData.value = true;
    pc.projectVelocity(v);
    expect(v[3]).to.equal(0);
  });

  it('fixAll fixes every point, all directions by default', () => {
    const pc = new PartialFixedProjectiveConstraint();
    pc.fixAll.value = true;
    buildNode(points, undefined, [pc]);
    const dx = Float64Array.from({ length: 15 }, (_, i) => i + 1);
    pc.projectResponse(dx);
    expect(dx.every((x) => x === 0)).to.equal(true);
  });
});

describe('FixedPlaneProjectiveConstraint', () => {
  for (const direction of [
    [0, 0, 1],
    [1, 2, -2],
    [0.3, -0.1, 0],
  ]) {
    it(`P = I − n·nᵀ on the points (direction ${direction.join(' ')}): P·P = P, Pᵀ = P, P·n = 0, the emitted P is the applied one`, () => {
      const pc = new FixedPlaneProjectiveConstraint();
      pc.direction.value = Float64Array.from(direction);
      pc.indices.value = Uint32Array.of(0, 2, 4, 2);
      buildNode(points, undefined, [pc]);
      const P = matrixOf(pc, 15);
      expectClose(product(P, P), P);
      P.forEach((row, i) => row.forEach((p, j) => expect(p).to.equal(P[j][i])));
      const norm = Math.hypot(...direction);
      const nv = new Float64Array(15);
      for (const p of [0, 2, 4]) for (let k = 0; k < 3; k++) nv[3 * p + k] = direction[k] / norm;
      pc.projectResponse(nv);
      nv.forEach((x) => expect(x).to.be.closeTo(0, 1e-15));
      // A tangent move is kept.
      const r = rng(2);
      const t = [r(), r(), r()];
      const dot = (t[0] * direction[0] + t[1] * direction[1] + t[2] * direction[2]) / (norm * norm);
      const tangent = t.map((x, k) => x - dot * direction[k]);
      const dx = Float64Array.of(...tangent, ...tangent, ...tangent, ...tangent, ...tangent);
      pc.projectResponse(dx);
      for (let i = 0; i < 15; i++) expect(dx[i]).to.be.closeTo(tangent[i % 3], 1e-15);
      // Emitted rows (identity elsewhere) = the applied projection.
      const emitted = denseFromEmission(15, (acc) => pc.addProjectionToMatrix(acc));
      for (const i of [3, 4, 5, 9, 10, 11]) emitted[i][i] = 1;
      expectClose(emitted, P, 1e-15);
      const axis = direction.filter((x) => x !== 0).length === 1;
      expect(pc.isDiagonalProjection).to.equal(axis);
      const dofs: number[] = [];
      pc.projectedDofs(dofs);
      expect(dofs).to.deep.equal(axis ? [2, 8, 14] : []);
    });
  }

  it('adds the points with dmin < x·direction < dmax', () => {
    const pc = new FixedPlaneProjectiveConstraint();
    pc.direction.value = Float64Array.of(0, 0, 2);
    pc.dmin.value = 1;
    pc.dmax.value = 3;
    pc.indices.value = Uint32Array.of(1);
    buildNode(points, undefined, [pc]);
    expect(Array.from(pc.indices.value)).to.deep.equal([1, 3, 4]);
  });
});
