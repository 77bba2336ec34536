import { expect } from 'chai';
import { Rigid3d } from '@sofa-ts/core';
import { GearSpringForceField, GearSprings } from './GearSpringForceField.js';
import { buildNode } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';

/** q (x, y, z, w) of the rotation of angle a about the unit axis n. */
function quat(n: number[], a: number): number[] {
  const s = Math.sin(a / 2);
  return [n[0] * s, n[1] * s, n[2] * s, Math.cos(a / 2)];
}

/** Two frames geared to each other, each on its own initial frame as pivot (SOFA's "self support"). */
function gears(spring: string, frames: number[]): { ff: GearSpringForceField; x: Float64Array } {
  const ff = new GearSpringForceField();
  ff.springs.value = GearSprings.parse(spring);
  const { state } = buildNode(frames, undefined, [ff], { template: 'Rigid3d' });
  return { ff, x: Float64Array.from(state.x) };
}

function force(ff: GearSpringForceField, x: Float64Array): Float64Array {
  const f = new Float64Array((x.length / 7) * 6);
  ff.addForce([f], [x], [new Float64Array(f.length)]);
  return f;
}

const rest = [0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1];
const spec = 'BEGIN_SPRING 0 0 1 1 AXIS 2 2 KS_T 500 KS_R 40 7000 KD 0 RATIO 2 END_SPRING';

describe('GearSpringForceField', () => {
  it("parses SOFA's gear syntax with its defaults (stiffnesses and kd 10000, ratio 1)", () => {
    const [a, b] = GearSprings.parse(`${spec}\nBEGIN_SPRING 4 0 6 2 END_SPRING`);
    expect(a).to.deep.include({
      p1: 0,
      m1: 0,
      p2: 1,
      m2: 1,
      freeAxis: [2, 2],
      hardStiffnessTrans: 500,
      softStiffnessRot: 40,
      hardStiffnessRot: 7000,
      kd: 0,
      ratio: 2,
    });
    expect(b).to.deep.include({
      p1: 4,
      m1: 0,
      p2: 6,
      m2: 2,
      freeAxis: [0, 0],
      hardStiffnessTrans: 10000,
      softStiffnessRot: 10000,
      hardStiffnessRot: 10000,
      kd: 10000,
      ratio: 1,
    });
    expect(() => GearSprings.parse('BEGIN_SPRING 0 0 1 1 AXIS 3 0 END_SPRING')).to.throw(/AXIS/);
  });

  it('turning gear 1 by θ about its free axis: τ = −k·r·θ on gear 1 and τ/r = −k·θ on gear 2 (closed form)', () => {
    const { ff, x } = gears(spec, rest);
    const th = 0.3;
    x.set(quat([0, 0, 1], th), 3);
    const f = force(ff, x);
    // no pivot force (axes aligned, centres home); the gear torques about z
    expect(Array.from(f.subarray(0, 5))).to.deep.equal([0, 0, 0, 0, 0]);
    expect(f[5]).to.be.closeTo(-40 * 2 * th, 1e-12);
    expect(f[11]).to.be.closeTo(-40 * th, 1e-12);
  });

  it('the pivot pulls a displaced, tilted child back: k_T·(c_p − c_m) and k_R·(angle between the free axes)', () => {
    const { ff, x } = gears(spec, rest);
    x[7] += 0.01; // gear 2 moved along x
    x.set(quat([1, 0, 0], 0.2), 10); // and tilted about x: its z axis leaves the pivot's
    const f = force(ff, x);
    expect(f[6]).to.be.closeTo(-500 * 0.01, 1e-12);
    expect(f[9]).to.be.closeTo(-7000 * 0.2, 1e-9);
    // SOFA's angle about the free axis is the mean of the x and y axes' angles: the tilt turns y
    // by 0.2, so θ2 = 0.1 and τ = −40·0.1 acts (divided by r) about the child's tilted z axis
    const tau2 = (-40 * 0.1) / 2;
    expect(f[10]).to.be.closeTo(-Math.sin(0.2) * tau2, 1e-9);
    expect(f[11]).to.be.closeTo(Math.cos(0.2) * tau2, 1e-9);
  });

  it('the angles are accumulated across ±π (a full turn of gear 1 is a torque of −k·r·2π)', () => {
    const { ff, x } = gears(spec, rest);
    for (let a = 0.5; a <= 2 * Math.PI + 1e-9; a += 0.5) {
      x.set(quat([0, 0, 1], a), 3);
      force(ff, x);
    }
    x.set(quat([0, 0, 1], 2 * Math.PI + 0.2), 3);
    expect(force(ff, x)[5]).to.be.closeTo(-40 * 2 * (2 * Math.PI + 0.2), 1e-9);
  });

  it('its stiffness is the finite-difference derivative of the force with the free axes aligned (any gear angles, offsets)', () => {
    const { ff, x } = gears(spec, rest);
    x.set(quat([0, 0, 1], 0.7), 3);
    x.set(quat([0, 0, 1], -0.4), 10);
    x[0] += 0.02;
    x[8] -= 0.03;
    force(ff, x);
    const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(12), 1e-6, Rigid3d);
    let scale = 0;
    for (const row of FD) for (const v of row) scale = Math.max(scale, Math.abs(v));
    for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) expect(K[i][j], `K[${i}][${j}]`).to.be.closeTo(FD[i][j], 1e-6 * scale);
    // addDForce is the same linear map
    const dx = Float64Array.from({ length: 12 }, (_, i) => Math.sin(i + 1));
    const df = new Float64Array(12);
    ff.addDForce([df], [dx], 1, 0);
    for (let i = 0; i < 12; i++)
      expect(df[i]).to.be.closeTo(
        K[i].reduce((s, v, j) => s + v * dx[j], 0),
        1e-9 * scale,
      );
  });

  it("a pivot on another frame carries the opposite of the force it applies (Newton's third law)", () => {
    const frames = [...rest, 0, 0, 0, ...quat([0, 1, 0], 0.1), 3, 0.1, 0, 0, 0, 0, 1];
    const { ff, x } = gears('BEGIN_SPRING 2 0 3 1 AXIS 2 2 KS_T 500 KS_R 40 7000 KD 0 RATIO 2 END_SPRING', frames);
    const f = force(ff, x);
    for (let k = 0; k < 3; k++) expect(f[k] + f[12 + k]).to.be.closeTo(0, 1e-12);
    expect(f[7] + f[19]).to.be.closeTo(0, 1e-12);
    expect(f[19]).to.be.closeTo(500 * -0.1, 1e-12);
    // the pivot part only: the gear torque (about z here) acts on the children alone, as in SOFA
    for (let k = 0; k < 5; k++) expect(f[6 + k] + f[18 + k], `gear 2 and its pivot, dof ${k}`).to.be.closeTo(0, 1e-12);
  });
});
