import { expect } from 'chai';
import { AffineMovementProjectiveConstraint } from './AffineMovementProjectiveConstraint.js';
import { FixedRotationProjectiveConstraint } from './FixedRotationProjectiveConstraint.js';
import { HermiteSplineProjectiveConstraint } from './HermiteSplineProjectiveConstraint.js';
import { OscillatorProjectiveConstraint } from './OscillatorProjectiveConstraint.js';
import { ParabolicProjectiveConstraint } from './ParabolicProjectiveConstraint.js';
import { PatchTestMovementProjectiveConstraint } from './PatchTestMovementProjectiveConstraint.js';
import { buildNode } from '../mass/mesh-test-support.js';
import type { BaseProjectiveConstraint, Node } from '@sofa-ts/core';

/** x and v projected at time t. */
function at(pc: BaseProjectiveConstraint, node: Node, t: number, x0: ArrayLike<number>): { x: Float64Array; v: Float64Array } {
  node.time.value = t;
  const x = Float64Array.from(x0);
  const v = new Float64Array(x.length);
  pc.projectPosition(x);
  pc.projectVelocity(v);
  return { x, v };
}

describe('OscillatorProjectiveConstraint', () => {
  it('x = m + a·sin(ωt + φ), v = a·ω·cos(ωt + φ) = dx/dt, dx ← 0 on the oscillating point', () => {
    const o = new OscillatorProjectiveConstraint();
    o.oscillators.value = Float64Array.of(1, 2, 0, 0, 1, 0.5, 0, 5, 10);
    const x0 = [0, 0, 0, 9, 9, 9];
    const { node } = buildNode(x0, undefined, [o]);
    for (const t of [0, 0.13, 0.7]) {
      const { x, v } = at(o, node, t, x0);
      expect(x[3]).to.be.closeTo(2 + Math.sin(5 * t + 10), 1e-15);
      expect(x[4]).to.be.closeTo(0.5 * Math.sin(5 * t + 10), 1e-15);
      expect(v[3]).to.be.closeTo(5 * Math.cos(5 * t + 10), 1e-14);
      const h = 1e-6;
      expect(v[4]).to.be.closeTo((at(o, node, t + h, x0).x[4] - at(o, node, t - h, x0).x[4]) / (2 * h), 1e-8);
      expect(Array.from(x.subarray(0, 3))).to.deep.equal([0, 0, 0]);
    }
    const dx = Float64Array.of(1, 1, 1, 1, 1, 1);
    o.projectResponse(dx);
    expect(Array.from(dx)).to.deep.equal([1, 1, 1, 0, 0, 0]);
  });

  it('Rigid3d: the orientation turns by the angular amplitude times sin(ωt + φ) about its axis', () => {
    const o = new OscillatorProjectiveConstraint();
    // mean: identity frame at (1, 1, 0); amplitude: 0.4 rad about z
    o.oscillators.value = Float64Array.of(0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0.4, 2, 0);
    const { node } = buildNode([0, 0, 0, 0, 0, 0, 1], undefined, [o], { template: 'Rigid3d' });
    const { x } = at(o, node, 0.3, [0, 0, 0, 0, 0, 0, 1]);
    const angle = 0.4 * Math.sin(0.6);
    expect(x[5]).to.be.closeTo(Math.sin(angle / 2), 1e-14);
    expect(x[6]).to.be.closeTo(Math.cos(angle / 2), 1e-14);
  });
});

describe('ParabolicProjectiveConstraint', () => {
  it('goes from P1 (BeginTime) to P3 (EndTime) through P2, in the plane of the three; v is the forward difference', () => {
    const p = new ParabolicProjectiveConstraint();
    p.indices.value = Uint32Array.of(0);
    p.P1.value = Float64Array.of(1, 0, 0);
    p.P2.value = Float64Array.of(5, 3, 1);
    p.P3.value = Float64Array.of(7, 6, -5);
    p.beginTime.value = 0.5;
    p.endTime.value = 1.5;
    const { node } = buildNode([0, 0, 0], undefined, [p]);
    node.dt.value = 0.01;
    expect(Array.from(at(p, node, 0.5, [0, 0, 0]).x)).to.deep.equal([1, 0, 0]);
    const end = at(p, node, 1.5, [0, 0, 0]).x;
    [7, 6, -5].forEach((c, k) => expect(end[k]).to.be.closeTo(c, 1e-12));
    // P2 is reached at the time its projection on P1P3 is travelled
    const P1P3 = [6, 6, -5],
      P1P2 = [4, 3, 1],
      L = Math.hypot(...P1P3);
    const x2 = (P1P2[0] * P1P3[0] + P1P2[1] * P1P3[1] + P1P2[2] * P1P3[2]) / L;
    const mid = at(p, node, 0.5 + x2 / L, [0, 0, 0]).x;
    [5, 3, 1].forEach((c, k) => expect(mid[k]).to.be.closeTo(c, 1e-12));
    // every point lies in the plane of P1, P2, P3
    const n = [6 * 1 - -5 * 3, -5 * 4 - 6 * 1, 6 * 3 - 6 * 4];
    for (const t of [0.6, 0.9, 1.3]) {
      const x = at(p, node, t, [0, 0, 0]).x;
      expect((x[0] - 1) * n[0] + x[1] * n[1] + x[2] * n[2]).to.be.closeTo(0, 1e-11);
      const { v } = at(p, node, t, [0, 0, 0]);
      const next = at(p, node, t + 0.01, [0, 0, 0]).x;
      for (let k = 0; k < 3; k++) expect(v[k]).to.be.closeTo((next[k] - x[k]) / 0.01, 1e-9);
    }
    // outside [BeginTime, EndTime] the point is free
    expect(Array.from(at(p, node, 2, [9, 9, 9]).x)).to.deep.equal([9, 9, 9]);
  });
});

describe('HermiteSplineProjectiveConstraint', () => {
  it('x goes from X0 to X1 on the Hermite curve; v = dx/dt (finite differences in time)', () => {
    const h = new HermiteSplineProjectiveConstraint();
    h.indices.value = Uint32Array.of(0);
    h.beginTime.value = 1;
    h.endTime.value = 3;
    h.X0.value = Float64Array.of(0, 0, 0);
    h.dX0.value = Float64Array.of(1, 2, 0);
    h.X1.value = Float64Array.of(4, -1, 2);
    h.dX1.value = Float64Array.of(0, 1, 1);
    h.SX0.value = Float64Array.of(0.2, 0.5);
    h.SX1.value = Float64Array.of(0.1, 0.3);
    const { node } = buildNode([0, 0, 0], undefined, [h]);
    expect(Array.from(at(h, node, 1, [0, 0, 0]).x)).to.deep.equal([0, 0, 0]);
    const end = at(h, node, 3, [0, 0, 0]).x;
    [4, -1, 2].forEach((c, k) => expect(end[k]).to.be.closeTo(c, 1e-14));
    for (const t of [1.2, 2, 2.7]) {
      const { v } = at(h, node, t, [0, 0, 0]);
      const e = 1e-6,
        xp = at(h, node, t + e, [0, 0, 0]).x,
        xm = at(h, node, t - e, [0, 0, 0]).x;
      for (let k = 0; k < 3; k++) expect(v[k]).to.be.closeTo((xp[k] - xm[k]) / (2 * e), 1e-7);
    }
  });
});

describe('FixedRotationProjectiveConstraint', () => {
  /** Quaternion (x, y, z, w) of a rotation of `a` about the unit axis `u`. */
  const quat = (u: number[], a: number): number[] => [...u.map((c) => c * Math.sin(a / 2)), Math.cos(a / 2)];
  const mul = (a: number[], b: number[]): number[] => [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];

  it('removes the rotation about z gained since init (a pure z rotation comes back), the other axes stay free; P(P(x)) = P(x)', () => {
    const f = new FixedRotationProjectiveConstraint();
    f.fixedZRotation.value = true;
    const q0 = quat([0, 0, 1], 0.3);
    buildNode([1, 2, 3, ...q0], undefined, [f], { template: 'Rigid3d' });
    // turned further about z: back to q0
    const x = Float64Array.of(1, 2, 3, ...quat([0, 0, 1], 1.1));
    f.projectPosition(x);
    q0.forEach((c, k) => expect(x[3 + k]).to.be.closeTo(c, 1e-14));
    expect(Array.from(x.subarray(0, 3))).to.deep.equal([1, 2, 3]);
    // a rotation about x after the initial one: the swing about x is kept, the z twist is q0's
    const turned = mul(quat([1, 0, 0], 0.5), q0);
    const y = Float64Array.of(0, 0, 0, ...turned);
    f.projectPosition(y);
    const once = Array.from(y.subarray(3, 7));
    f.projectPosition(y);
    once.forEach((c, k) => expect(y[3 + k]).to.be.closeTo(c, 1e-14));
    // twist of the result about z equals q0's (swing-twist split of the result)
    const tw = [0, 0, y[5], y[6]];
    const l = Math.hypot(...tw);
    expect(Math.abs(tw[2] / l)).to.be.closeTo(Math.sin(0.15), 1e-12);
  });
});

describe('AffineMovementProjectiveConstraint', () => {
  it('moves the points linearly in time from x0 to R·x0 + T between the begin and end times', () => {
    const a = new AffineMovementProjectiveConstraint();
    a.indices.value = Uint32Array.of(0, 2);
    a.rotation.value = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1);
    a.translation.value = Float64Array.of(0.1, 0, 0);
    a.beginConstraintTime.value = 1;
    a.endConstraintTime.value = 3;
    const x0 = [1, 0, 0, 5, 5, 5, 0, 2, 1];
    const { node } = buildNode(x0, undefined, [a]);
    const final = [0.1, 1, 0, 5, 5, 5, -1.9, 0, 1];
    expect(Array.from(at(a, node, 1, x0).x)).to.deep.equal(x0);
    const half = at(a, node, 2, x0).x;
    for (let k = 0; k < 9; k++) expect(half[k]).to.be.closeTo((x0[k] + final[k]) / 2, 1e-15);
    const end = at(a, node, 5, x0).x;
    for (let k = 0; k < 9; k++) expect(end[k]).to.be.closeTo(final[k], 1e-15);
  });
});

describe('PatchTestMovementProjectiveConstraint', () => {
  it('moves the border points to x0 + the bilinear interpolation of the corner movements (an affine field is reproduced)', () => {
    const pts: number[] = [];
    for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) pts.push(i / 2, j / 2, 0);
    const border = [0, 1, 2, 3, 5, 6, 7, 8];
    const p = new PatchTestMovementProjectiveConstraint();
    p.indices.value = Uint32Array.from(border);
    p.constrainedPoints.value = Float64Array.from(border.flatMap((i) => pts.slice(3 * i, 3 * i + 3)));
    // corners 0 (0,0), 1 (1,0), 2 (1,1), 3 (0,1) moved by the affine field u = (0.1·x + 0.2·y, −0.3·x, 0)
    const u = (x: number, y: number): number[] => [0.1 * x + 0.2 * y, -0.3 * x, 0];
    p.cornerMovements.value = Float64Array.from([u(0, 0), u(1, 0), u(1, 1), u(0, 1)].flat());
    p.endConstraintTime.value = 1;
    const { node } = buildNode(pts, undefined, [p]);
    expect(Array.from(p.cornerPoints.value)).to.deep.equal([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
    const x = at(p, node, 2, pts).x;
    for (const i of border) {
      const w = u(pts[3 * i], pts[3 * i + 1]);
      for (let k = 0; k < 3; k++) expect(x[3 * i + k]).to.be.closeTo(pts[3 * i + k] + w[k], 1e-15);
    }
    expect(Array.from(x.subarray(12, 15))).to.deep.equal([0.5, 0.5, 0]); // the centre is free
  });
});
