import { expect } from 'chai';
import { BaseProjectiveConstraint } from '@sofa-ts/core';
import { DirectionProjectiveConstraint } from './DirectionProjectiveConstraint.js';
import { LineProjectiveConstraint } from './LineProjectiveConstraint.js';
import { PlaneProjectiveConstraint } from './PlaneProjectiveConstraint.js';
import { PointProjectiveConstraint } from './PointProjectiveConstraint.js';
import { buildNode, rng } from '../mass/mesh-test-support.js';

const x0 = [0, 0, 0, 1, 0.5, -0.2, 0.3, 1, 2, -1, 0.4, 0.7];

function random(n: number, seed: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from({ length: n }, () => r());
}

/** The dense P of a constraint, column by column from projectResponse (n scalars). */
function denseP(pc: BaseProjectiveConstraint, n: number): number[][] {
  const P = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < n; j++) {
    const e = new Float64Array(n);
    e[j] = 1;
    pc.projectResponse(e);
    for (let i = 0; i < n; i++) P[i][j] = e[i];
  }
  return P;
}

/** P·P = P, P = Pᵀ, and the assembled form (projectedDofs or addProjectionToMatrix) equals P. */
function expectProjection(pc: BaseProjectiveConstraint, n: number): number[][] {
  const P = denseP(pc, n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let pp = 0;
      for (let k = 0; k < n; k++) pp += P[i][k] * P[k][j];
      expect(pp, `P² (${i}, ${j})`).to.be.closeTo(P[i][j], 1e-15);
      expect(P[i][j]).to.be.closeTo(P[j][i], 1e-15);
    }
  }
  const A: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  if (pc.isDiagonalProjection) {
    const dofs: number[] = [];
    pc.projectedDofs(dofs);
    for (const d of dofs) A[d][d] = 0;
  } else {
    const rows = new Set<number>();
    const B = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    pc.addProjectionToMatrix({ add: (r, c, v) => (rows.add(r), (B[r][c] += v)) });
    for (const r of rows) A[r] = B[r];
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(A[i][j], `assembled P (${i}, ${j})`).to.be.closeTo(P[i][j], 1e-15);
  return P;
}

describe('PointProjectiveConstraint', () => {
  it('holds its points at `point`: x ← point, v and dx ← 0 (P idempotent, diagonal)', () => {
    const pc = new PointProjectiveConstraint();
    pc.indices.value = Uint32Array.of(1, 3);
    pc.point.value = Float64Array.of(0.5, -1, 2);
    buildNode(x0, undefined, [pc]);
    const x = Float64Array.from(x0);
    pc.projectPosition(x);
    expect(Array.from(x.subarray(3, 6))).to.deep.equal([0.5, -1, 2]);
    expect(Array.from(x.subarray(9, 12))).to.deep.equal([0.5, -1, 2]);
    expect(Array.from(x.subarray(0, 3))).to.deep.equal(x0.slice(0, 3));
    const v = random(12, 1);
    pc.projectVelocity(v);
    expect(v[4]).to.equal(0);
    const P = expectProjection(pc, 12);
    expect(P[0][0]).to.equal(1);
    expect(P[3][3]).to.equal(0);
  });

  it('indices default to point 0; fixAll projects every point; an index out of range is an error', () => {
    const pc = new PointProjectiveConstraint();
    buildNode(x0, undefined, [pc]);
    expect(Array.from(pc.indices.value)).to.deep.equal([0]);
    const all = new PointProjectiveConstraint();
    all.fixAll.value = true;
    buildNode(x0, undefined, [all]);
    const x = Float64Array.from(x0);
    all.projectPosition(x);
    expect(Array.from(x).every((c) => c === 0)).to.equal(true);
    const bad = new PointProjectiveConstraint();
    bad.indices.value = Uint32Array.of(9);
    expect(() => buildNode(x0, undefined, [bad])).to.throw(/index 9 is out of range/);
  });
});

describe('LineProjectiveConstraint', () => {
  for (const direction of [
    [0, 1, 0],
    [1, 2, -2],
  ]) {
    it(`projects onto the line o + s·n (direction ${direction.join(' ')}): P = n·nᵀ on its points, P² = P`, () => {
      const pc = new LineProjectiveConstraint();
      pc.indices.value = Uint32Array.of(1, 2);
      pc.origin.value = Float64Array.of(0.1, 0.2, 0.3);
      pc.direction.value = Float64Array.from(direction);
      buildNode(x0, undefined, [pc]);
      const n = direction.map((v) => v / Math.hypot(...direction));
      expect(Array.from(pc.direction.value)).to.deep.equal(n);
      expect(pc.isDiagonalProjection).to.equal(direction[0] === 0);
      const P = expectProjection(pc, 12);
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) expect(P[3 + r][3 + c]).to.be.closeTo(n[r] * n[c], 1e-15);
      // positions on the line: x − o parallel to n, and the projection keeps (x − o)·n
      const x = Float64Array.from(x0);
      pc.projectPosition(x);
      for (const p of [1, 2]) {
        const d = [0, 1, 2].map((k) => x[3 * p + k] - pc.origin.value[k]);
        const d0 = [0, 1, 2].map((k) => x0[3 * p + k] - pc.origin.value[k]);
        const s = d0[0] * n[0] + d0[1] * n[1] + d0[2] * n[2];
        for (let k = 0; k < 3; k++) expect(d[k]).to.be.closeTo(s * n[k], 1e-15);
      }
      expect(Array.from(x.subarray(0, 3))).to.deep.equal(x0.slice(0, 3));
    });
  }

  it('a zero direction becomes (1, 0, 0) as in SOFA', () => {
    const pc = new LineProjectiveConstraint();
    buildNode(x0, undefined, [pc]);
    expect(Array.from(pc.direction.value)).to.deep.equal([1, 0, 0]);
  });
});

describe('PlaneProjectiveConstraint', () => {
  for (const normal of [
    [1, 0, 0],
    [1, -1, 0.5],
  ]) {
    it(`projects onto the plane through o of normal n (${normal.join(' ')}): P = I − n·nᵀ, P² = P`, () => {
      const pc = new PlaneProjectiveConstraint();
      pc.indices.value = Uint32Array.of(0, 3);
      pc.origin.value = Float64Array.of(0, 1, 0);
      pc.normal.value = Float64Array.from(normal);
      buildNode(x0, undefined, [pc]);
      const n = normal.map((v) => v / Math.hypot(...normal));
      const P = expectProjection(pc, 12);
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) expect(P[9 + r][9 + c]).to.be.closeTo((r === c ? 1 : 0) - n[r] * n[c], 1e-15);
      const x = Float64Array.from(x0);
      pc.projectPosition(x);
      for (const p of [0, 3]) {
        const off = [0, 1, 2].map((k) => (x[3 * p + k] - pc.origin.value[k]) * n[k]).reduce((a, b) => a + b);
        expect(off).to.be.closeTo(0, 1e-15);
        // the point moved along n only
        const moved = [0, 1, 2].map((k) => x[3 * p + k] - x0[3 * p + k]);
        const along = moved[0] * n[0] + moved[1] * n[1] + moved[2] * n[2];
        for (let k = 0; k < 3; k++) expect(moved[k]).to.be.closeTo(along * n[k], 1e-15);
      }
    });
  }

  it('a zero normal is refused', () => {
    expect(() => buildNode(x0, undefined, [new PlaneProjectiveConstraint()])).to.throw(/'normal' is zero/);
  });
});

describe('DirectionProjectiveConstraint', () => {
  it('keeps each point on the line through its initial position along the direction', () => {
    const pc = new DirectionProjectiveConstraint();
    pc.indices.value = Uint32Array.of(1, 2);
    pc.direction.value = Float64Array.of(0, 3, 4);
    buildNode(x0, undefined, [pc]);
    const n = [0, 0.6, 0.8];
    expectProjection(pc, 12);
    const x = Float64Array.from(x0);
    for (let k = 3; k < 9; k++) x[k] += 0.37 * (k - 4);
    pc.projectPosition(x);
    for (const p of [1, 2]) {
      const moved = [0, 1, 2].map((k) => x[3 * p + k] - x0[3 * p + k]);
      const along = moved[0] * n[0] + moved[1] * n[1] + moved[2] * n[2];
      for (let k = 0; k < 3; k++) expect(moved[k]).to.be.closeTo(along * n[k], 1e-15);
    }
  });
});
