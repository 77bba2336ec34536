import { expect } from 'chai';
import { Rigid3d } from './state-types.js';

/** The rotation matrix of a unit quaternion (x, y, z, w), applied to v. */
function rotate(q: ArrayLike<number>, o: number, v: [number, number, number]): [number, number, number] {
  const x = q[o],
    y = q[o + 1],
    z = q[o + 2],
    w = q[o + 3];
  const [a, b, c] = v;
  return [
    (1 - 2 * (y * y + z * z)) * a + 2 * (x * y - z * w) * b + 2 * (x * z + y * w) * c,
    2 * (x * y + z * w) * a + (1 - 2 * (x * x + z * z)) * b + 2 * (y * z - x * w) * c,
    2 * (x * z - y * w) * a + 2 * (y * z + x * w) * b + (1 - 2 * (x * x + y * y)) * c,
  ];
}

describe('Rigid3d coordinate update (x ⊕ h·v)', () => {
  it('turns by exactly h·|ω| about ω (Rodrigues), even for large steps', () => {
    // ω = 3 rad/s about z, h = 0.5 s: a rotation by 1.5 rad, closed form (cos 0.75 k̂-axis quaternion)
    const x = Float64Array.of(1, 2, 3, 0, 0, 0, 1);
    const v = Float64Array.of(0.5, -1, 2, 0, 0, 3);
    const out = new Float64Array(7);
    Rigid3d.addDerivToCoord(out, x, v, 0.5, 1);
    expect(Array.from(out.subarray(0, 3))).to.deep.equal([1.25, 1.5, 4]);
    expect(out[5]).to.be.closeTo(Math.sin(0.75), 1e-15);
    expect(out[6]).to.be.closeTo(Math.cos(0.75), 1e-15);
    const r = rotate(out, 3, [1, 0, 0]);
    expect(r[0]).to.be.closeTo(Math.cos(1.5), 1e-15);
    expect(r[1]).to.be.closeTo(Math.sin(1.5), 1e-15);
  });

  it('rotates in the world frame: the new orientation is R(h·ω)·R(q)', () => {
    // start turned by 90° about x, then ω about world z: a body axis along y ends along R_z(θ)·R_x(90°)·ŷ = R_z(θ)·ẑ = ẑ
    const s = Math.SQRT1_2;
    const x = Float64Array.of(0, 0, 0, s, 0, 0, s);
    const v = Float64Array.of(0, 0, 0, 0, 0, 0.7);
    const out = new Float64Array(7);
    Rigid3d.addDerivToCoord(out, x, v, 1, 1);
    const y = rotate(out, 3, [0, 1, 0]);
    expect(y[0]).to.be.closeTo(0, 1e-15);
    expect(y[1]).to.be.closeTo(0, 1e-15);
    expect(y[2]).to.be.closeTo(1, 1e-15);
    // and the body x axis (unchanged by R_x) turns by 0.7 rad about z
    const e = rotate(out, 3, [1, 0, 0]);
    expect(e[0]).to.be.closeTo(Math.cos(0.7), 1e-15);
    expect(e[1]).to.be.closeTo(Math.sin(0.7), 1e-15);
  });

  it('keeps the quaternion unit and composes: two half steps equal one step about a fixed axis', () => {
    const axis = [0.48, -0.6, 0.64]; // unit
    const w = 2.3;
    const x = Float64Array.of(0, 0, 0, 0.1, 0.2, -0.3, Math.sqrt(1 - 0.14));
    const v = Float64Array.of(0, 0, 0, w * axis[0], w * axis[1], w * axis[2]);
    const one = new Float64Array(7),
      half = new Float64Array(7),
      two = new Float64Array(7);
    Rigid3d.addDerivToCoord(one, x, v, 0.4, 1);
    Rigid3d.addDerivToCoord(half, x, v, 0.2, 1);
    Rigid3d.addDerivToCoord(two, half, v, 0.2, 1);
    for (let k = 3; k < 7; k++) expect(two[k]).to.be.closeTo(one[k], 1e-15);
    expect(Math.hypot(one[3], one[4], one[5], one[6])).to.be.closeTo(1, 1e-15);
  });

  it('leaves the orientation unchanged for a zero rotation', () => {
    const x = Float64Array.of(0, 0, 0, 0.6, 0, 0, 0.8);
    const out = new Float64Array(7);
    Rigid3d.addDerivToCoord(out, x, new Float64Array(6), 0.01, 1);
    expect(Array.from(out.subarray(3))).to.deep.equal([0.6, 0, 0, 0.8]);
  });
});
