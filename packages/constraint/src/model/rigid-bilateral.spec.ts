import { expect } from 'chai';
import { rigidFrameDifference, rigidFrameWithDifference, rigidInitialDifference } from './rigid-bilateral.js';

/** Unit quaternion (x y z w) of the rotation vector θ (world). */
function quatOf(t: number[]): number[] {
  const a = Math.hypot(t[0], t[1], t[2]);
  const s = a > 0 ? Math.sin(a / 2) / a : 0.5;
  return [t[0] * s, t[1] * s, t[2] * s, Math.cos(a / 2)];
}

/** a ⊗ b (x y z w). */
function mul(a: number[], b: number[]): number[] {
  const [ax, ay, az, aw] = a as [number, number, number, number];
  const [bx, by, bz, bw] = b as [number, number, number, number];
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

let seed = 3;
const r = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
const vec = (s: number): number[] => [s * r(), s * r(), s * r()];

describe('BilateralLagrangianConstraint<Rigid3> violation (rigid-bilateral.ts)', () => {
  it('δ = (c2 − c1, θ) when frame 2 is frame 1 turned by the world rotation vector θ (either quaternion sign)', () => {
    for (let trial = 0; trial < 20; trial++) {
      const q1 = quatOf(vec(4));
      const theta = vec(3); // |θ| < π
      const q2 = mul(quatOf(theta), q1);
      const c1 = vec(2),
        c2 = vec(2);
      for (const sign of [1, -1]) {
        const out = new Float64Array(6);
        rigidFrameDifference(out, 0, [...c1, ...q1], 0, [...c2, ...q2.map((v) => sign * v)], 0);
        for (let k = 0; k < 3; k++) {
          expect(out[k]).to.be.closeTo(c2[k] - c1[k], 1e-14);
          expect(out[3 + k]).to.be.closeTo(theta[k], 1e-12);
        }
      }
    }
  });

  it('its derivative at δ = 0 is +I on (v2, ω2) and −I on (v1, ω1): the Jacobian rows (central finite differences)', () => {
    const q = quatOf(vec(4)),
      c = vec(2);
    const x = [...c, ...q];
    const h = 1e-6;
    for (const frame of [1, 2]) {
      for (let k = 0; k < 6; k++) {
        const dx = (s: number): number[] => {
          const d = [0, 0, 0, 0, 0, 0];
          d[k] = s * h;
          // (c + v, exp(ω) ⊗ q): a velocity (v, ω) in world axes during h
          return [c[0] + d[0], c[1] + d[1], c[2] + d[2], ...mul(quatOf([d[3], d[4], d[5]]), q)];
        };
        const plus = new Float64Array(6),
          minus = new Float64Array(6);
        if (frame === 1) {
          rigidFrameDifference(plus, 0, dx(1), 0, x, 0);
          rigidFrameDifference(minus, 0, dx(-1), 0, x, 0);
        } else {
          rigidFrameDifference(plus, 0, x, 0, dx(1), 0);
          rigidFrameDifference(minus, 0, x, 0, dx(-1), 0);
        }
        for (let row = 0; row < 6; row++) {
          const fd = (plus[row] - minus[row]) / (2 * h);
          expect(fd).to.be.closeTo(row === k ? (frame === 1 ? -1 : 1) : 0, 1e-8);
        }
      }
    }
  });

  it('keepOrientationDifference: frame 1 carrying the initial difference coincides with frame 2, and follows frame 1 rigidly', () => {
    const x1 = [...vec(2), ...quatOf(vec(4))],
      x2 = [...vec(2), ...quatOf(vec(4))];
    const d = new Float64Array(7),
      f = new Float64Array(7),
      out = new Float64Array(6);
    rigidInitialDifference(d, 0, x1, 0, x2, 0);
    rigidFrameWithDifference(f, x1, 0, d, 0);
    rigidFrameDifference(out, 0, f, 0, x2, 0);
    for (const v of out) expect(Math.abs(v)).to.be.below(1e-12);
    // turn both frames by the same world rotation about frame 1's centre... orientations keep their difference
    const turn = quatOf(vec(2));
    const y1 = [...x1.slice(0, 3), ...mul(turn, x1.slice(3))],
      y2 = [...x2.slice(0, 3), ...mul(turn, x2.slice(3))];
    rigidFrameWithDifference(f, y1, 0, d, 0);
    rigidFrameDifference(out, 0, f, 0, y2, 0);
    for (let k = 3; k < 6; k++) expect(Math.abs(out[k])).to.be.below(1e-12);
  });
});
