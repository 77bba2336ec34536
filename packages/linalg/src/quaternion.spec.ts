import { expect } from 'chai';
import { quatMultiplyAt } from './quaternion.js';

/** R(q)·v for a unit quaternion (x, y, z, w), from the rotation-matrix formula. */
function rotate(q: ArrayLike<number>, v: number[]): number[] {
  const [x, y, z, w] = [q[0]!, q[1]!, q[2]!, q[3]!];
  const R = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  return R.map((r) => r[0]! * v[0]! + r[1]! * v[1]! + r[2]! * v[2]!);
}

const axisAngle = (u: number[], a: number) => [u[0]! * Math.sin(a / 2), u[1]! * Math.sin(a / 2), u[2]! * Math.sin(a / 2), Math.cos(a / 2)];

describe('quatMultiplyAt (Hamilton product, x y z w)', () => {
  it('rotating by a ⊗ b rotates by b, then by a (a quarter turn about x, then about z)', () => {
    const qa = axisAngle([0, 0, 1], Math.PI / 2), qb = axisAngle([1, 0, 0], Math.PI / 2);
    const out = new Float64Array(4);
    quatMultiplyAt(out, 0, qa, 0, qb, 0);
    // y → z (about x), then z stays (about z)
    rotate(out, [0, 1, 0]).forEach((c, i) => expect(c).to.be.closeTo([0, 0, 1][i]!, 1e-15));
    // x stays (about x), then x → y (about z)
    rotate(out, [1, 0, 0]).forEach((c, i) => expect(c).to.be.closeTo([0, 1, 0][i]!, 1e-15));
  });

  it('reads operands at offsets and may write over either of them', () => {
    const qa = axisAngle([0.6, 0, 0.8], 0.7), qb = axisAngle([0, 1, 0], -1.3);
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
    rotate(ref, v).forEach((c, i) => expect(c).to.be.closeTo(rotate(qa, rotate(qb, v))[i]!, 1e-14));
  });
});
