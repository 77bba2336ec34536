import { expect } from 'chai';
import {
  quatConjugateMultiplyAt,
  quatFromEulerAt,
  quatMultiplyAt,
  quatMultiplyConjugateAt,
  quatMultiplyCyclicAt,
  quatRotateAt,
  quatToMatrix3At,
} from './quaternion.js';

/** R(q)·v for a unit quaternion (x, y, z, w), from the rotation-matrix formula. */
function rotate(q: ArrayLike<number>, v: number[]): number[] {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]];
  const R = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  return R.map((r) => r[0] * v[0] + r[1] * v[1] + r[2] * v[2]);
}

const axisAngle = (u: number[], a: number) => [u[0] * Math.sin(a / 2), u[1] * Math.sin(a / 2), u[2] * Math.sin(a / 2), Math.cos(a / 2)];

describe('quatMultiplyAt (Hamilton product, x y z w)', () => {
  it('rotating by a ⊗ b rotates by b, then by a (a quarter turn about x, then about z)', () => {
    const qa = axisAngle([0, 0, 1], Math.PI / 2),
      qb = axisAngle([1, 0, 0], Math.PI / 2);
    const out = new Float64Array(4);
    quatMultiplyAt(out, 0, qa, 0, qb, 0);
    // y → z (about x), then z stays (about z)
    rotate(out, [0, 1, 0]).forEach((c, i) => expect(c).to.be.closeTo([0, 0, 1][i], 1e-15));
    // x stays (about x), then x → y (about z)
    rotate(out, [1, 0, 0]).forEach((c, i) => expect(c).to.be.closeTo([0, 1, 0][i], 1e-15));
  });

  it('reads operands at offsets and may write over either of them', () => {
    const qa = axisAngle([0.6, 0, 0.8], 0.7),
      qb = axisAngle([0, 1, 0], -1.3);
    const ref = new Float64Array(4);
    quatMultiplyAt(ref, 0, qa, 0, qb, 0);
    const buf = Float64Array.from([9, ...qa, 9, ...qb]);
    quatMultiplyAt(buf, 5, buf, 1, buf, 6); // out over b
    expect(Array.from(buf.subarray(5, 9))).to.deep.equal(Array.from(ref));
    const buf2 = Float64Array.from([...qa, ...qb]);
    quatMultiplyAt(buf2, 0, buf2, 0, buf2, 4); // out over a
    expect(Array.from(buf2.subarray(0, 4))).to.deep.equal(Array.from(ref));
    // the composition of the two rotations, on a vector
    const v = [0.3, -1.2, 2.1];
    rotate(ref, v).forEach((c, i) => expect(c).to.be.closeTo(rotate(qa, rotate(qb, v))[i], 1e-14));
  });
});

/** Row-major 3×3 product. */
function mul3(a: number[], b: number[]): number[] {
  const c = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}
const rx = (t: number) => [1, 0, 0, 0, Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t)];
const ry = (t: number) => [Math.cos(t), 0, Math.sin(t), 0, 1, 0, -Math.sin(t), 0, Math.cos(t)];
const rz = (t: number) => [Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t), 0, 0, 0, 1];

/** Pseudo-random unit quaternions (a fixed linear congruential sequence). */
function randomQuats(n: number): number[][] {
  let s = 12345;
  const r = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  return Array.from({ length: n }, () => {
    const q = [r(), r(), r(), r()];
    const m = Math.hypot(...q);
    return q.map((v) => v / m);
  });
}

describe('quaternion conversions and the other products', () => {
  it('quatFromEulerAt and quatToMatrix3At: R = Rz(c)·Ry(b)·Rx(a), rotation about x, then y, then z', () => {
    for (const [a, b, c] of [
      [0.3, -1.1, 2.5],
      [Math.PI / 2, 0, 0],
      [0.01, 0.7, -0.2],
    ] as const) {
      const expected = mul3(rz(c), mul3(ry(b), rx(a)));
      const q = new Float64Array(4),
        R = new Float64Array(9);
      quatFromEulerAt(q, 0, a, b, c);
      quatToMatrix3At(R, 0, q, 0);
      R.forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-14));
      // R·v is quatRotateAt's rotation
      const v = [0.4, -2, 1.5],
        out = new Float64Array(3);
      quatRotateAt(out, 0, q, 0, v, 0);
      out.forEach((x, i) => expect(x).to.be.closeTo(R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2], 1e-14));
    }
  });

  it('degrees: deg·π/180 halved inside gives the bits of deg·π/360 (the form ReadState used)', () => {
    for (const deg of [30, 45.5, -170, 1e-3, 359.99])
      expect(Math.cos((deg * (Math.PI / 180)) / 2)).to.equal(Math.cos(deg * (Math.PI / 360)));
  });

  it('conj(a) ⊗ b and a ⊗ conj(b) are, bit for bit, quatMultiplyAt of the conjugate; the cyclic order is the same product', () => {
    const qs = randomQuats(40);
    const out = new Float64Array(4),
      ref = new Float64Array(4);
    for (let i = 0; i + 1 < qs.length; i++) {
      const a = qs[i],
        b = qs[i + 1];
      const ca = [-a[0], -a[1], -a[2], a[3]],
        cb = [-b[0], -b[1], -b[2], b[3]];
      quatConjugateMultiplyAt(out, 0, a, 0, b, 0);
      quatMultiplyAt(ref, 0, ca, 0, b, 0);
      expect(Array.from(out)).to.deep.equal(Array.from(ref));
      quatMultiplyConjugateAt(out, 0, a, 0, b, 0);
      quatMultiplyAt(ref, 0, a, 0, cb, 0);
      expect(Array.from(out)).to.deep.equal(Array.from(ref));
      quatMultiplyCyclicAt(out, 0, a, 0, b, 0);
      quatMultiplyAt(ref, 0, a, 0, b, 0);
      out.forEach((v, k) => expect(v).to.be.closeTo(ref[k], 1e-15));
    }
    // conj(a) ⊗ a is the identity
    quatConjugateMultiplyAt(out, 0, qs[0], 0, qs[0], 0);
    Array.from(out).forEach((v, k) => expect(v).to.be.closeTo([0, 0, 0, 1][k], 1e-15));
  });
});
