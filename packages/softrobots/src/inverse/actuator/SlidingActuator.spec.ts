import { expect } from 'chai';
import { Rigid3d, Vec3d } from '@sofa-ts/core';
import { ACTUATOR, InverseRows } from '../inverse-rows.js';
import { jacobian, jacobianError, mount, rng, TestState, violation } from '../test-support.js';
import { SlidingActuator } from './SlidingActuator.js';

/**
 * SlidingActuator: its row J = direction/N on every point against central finite differences of
 * its displacement (the mean of direction·(x ⊖ x_rest)), on Vec3 points and Rigid3 frames (about
 * the rest orientation, where the rotation part is exact), the displacement of a frame turned by
 * θ about the direction's axis (θ exactly), and the bounds it hands the solver.
 */
function sliding(state: TestState, attrs: Record<string, string> = {}): SlidingActuator {
  const c = new SlidingActuator();
  for (const [k, v] of Object.entries(attrs)) c.findData(k)!.read(v);
  return mount(c, state);
}

/** Unit quaternion (x, y, z, w) of the rotation θ about the unit axis u. */
function quat(u: number[], theta: number): number[] {
  const s = Math.sin(theta / 2);
  return [u[0] * s, u[1] * s, u[2] * s, Math.cos(theta / 2)];
}

describe('softrobots: SlidingActuator (unit)', () => {
  it('Vec3d: direction normalised, every point by default, J = direction/N = ∂δ/∂x, δ the mean displacement along it', () => {
    const r = rng(1);
    const s = new TestState(
      Vec3d,
      Array.from({ length: 12 }, () => r()),
    );
    const c = sliding(s, { direction: '0 3 4' });
    expect(Array.from(c.direction.value)).to.deep.equal([0, 0.6, 0.8]);
    expect(Array.from(c.indices.value)).to.deep.equal([0, 1, 2, 3]);
    const J = jacobian(c, s);
    expect(J.length).to.equal(1);
    for (let p = 0; p < 4; p++) expect(Array.from(J[0].subarray(3 * p, 3 * p + 3))).to.deep.equal([0, 0.6 / 4, 0.8 / 4]);
    for (let i = 0; i < s.xFree.length; i++) s.xFree[i] += r() - 0.5;
    expect(jacobianError(c, s)).to.be.at.most(1e-9);
    // all points moved by t along the direction: δ = t
    s.xFree.set(s.x0);
    for (let p = 0; p < 4; p++) {
      s.xFree[3 * p + 1] += 0.6 * 0.25;
      s.xFree[3 * p + 2] += 0.8 * 0.25;
    }
    expect(violation(c, 1)[0]).to.be.closeTo(0.25, 1e-15);
  });

  it('Rigid3d: J = direction/N on the 6 derivative components (central differences about the rest orientation); a frame turned by θ about the axis has δ = θ', () => {
    const r = rng(2);
    const x: number[] = [];
    for (let p = 0; p < 2; p++) {
      const u = [r() - 0.5, r() - 0.5, r() - 0.5];
      const n = Math.hypot(...u);
      x.push(
        r(),
        r(),
        r(),
        ...quat(
          u.map((v) => v / n),
          3 * r(),
        ),
      );
    }
    const s = new TestState(Rigid3d, x);
    const dir = [0.3, -0.2, 0.5, 0.4, 0.1, -0.6];
    const c = sliding(s, { direction: dir.join(' ') });
    const n = Math.hypot(...dir);
    expect(
      Array.from(c.direction.value)
        .map((v, i) => v - dir[i] / n)
        .every((e) => Math.abs(e) < 1e-15),
    ).to.equal(true);
    for (let p = 0; p < 2; p++) for (let a = 0; a < 3; a++) s.xFree[7 * p + a] += r() - 0.5;
    expect(jacobianError(c, s, 1e-6)).to.be.at.most(1e-8);

    // both frames turned by θ about the unit rotation part of the direction: δ = θ·|rotation part|
    const c2 = sliding(new TestState(Rigid3d, x), { direction: '0 0 0 0 0.6 0.8' });
    const s2 = c2.getMechanicalStates()[0] as TestState;
    const theta = 0.7;
    for (let p = 0; p < 2; p++) {
      // q ← (θ about (0, 0.6, 0.8)) ⊗ q
      const [ax, ay, az, aw] = quat([0, 0.6, 0.8], theta);
      const o = 7 * p + 3;
      const [bx, by, bz, bw] = [x[o], x[o + 1], x[o + 2], x[o + 3]];
      s2.xFree[o] = aw * bx + ax * bw + ay * bz - az * by;
      s2.xFree[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
      s2.xFree[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
      s2.xFree[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
    }
    jacobian(c2, s2);
    expect(violation(c2, 1)[0]).to.be.closeTo(theta, 1e-14);
  });

  it('hands the solver its bounds: force, displacement, and the variation around the last displacement', () => {
    const rows = new InverseRows();
    rows.reset(1);
    const s = new TestState(Vec3d, [0, 0, 0]);
    const c = sliding(s, { minForce: '-1', maxForce: '2', maxPositiveDisp: '0.5', maxNegativeDisp: '0.25', maxDispVariation: '0.1' });
    c.storeResults(Float64Array.of(1.5), Float64Array.of(0.45), 0.5);
    expect([c.force.value, c.physicalForce.value, c.displacement.value]).to.deep.equal([1.5, 3, 0.45]);
    c.getInverseRows(rows);
    expect(rows.role[0]).to.equal(ACTUATOR);
    expect([rows.lambdaMin[0], rows.lambdaMax[0]]).to.deep.equal([-1, 2]);
    expect(rows.deltaMin[0]).to.be.closeTo(0.35, 1e-15);
    expect(rows.deltaMax[0]).to.equal(0.5);
    rows.reset(1);
    sliding(s).getInverseRows(rows);
    expect([rows.lambdaMin[0], rows.lambdaMax[0], rows.deltaMin[0], rows.deltaMax[0]]).to.deep.equal([
      -Infinity,
      Infinity,
      -Infinity,
      Infinity,
    ]);
  });

  it('refuses a direction of the wrong size, a zero direction, an index out of range', () => {
    expect(() => sliding(new TestState(Vec3d, [0, 0, 0]), { direction: '1 0 0 0 0 0' })).to.throw(/expected 3/);
    expect(() => sliding(new TestState(Vec3d, [0, 0, 0]), { direction: '0 0 0' })).to.throw(/zero/);
    expect(() => sliding(new TestState(Vec3d, [0, 0, 0]), { indices: '1' })).to.throw(/out of range/);
  });
});
