import { expect } from 'chai';
import { LinearMovementProjectiveConstraint } from './LinearMovementProjectiveConstraint.js';
import { buildNode } from '../mass/mesh-test-support.js';

/**
 * The piecewise linear motion against its definition: key times 0, 2, 5 and movements
 * (0,0,0), (1,−2,0), (1,−2,3). At time t in [t_k, t_{k+1}) the moving points sit at
 * x0 + m_k + (m_{k+1} − m_k)·(t − t_k)/(t_{k+1} − t_k), their velocity is the slope, their
 * response is zero; other points and times outside [0, 5) are untouched.
 */
describe('LinearMovementProjectiveConstraint', () => {
  const x0 = [0, 0, 0, 1, 0, 0, 0, 1, 0];
  const keys = [0, 2, 5];
  const moves = [
    [0, 0, 0],
    [1, -2, 0],
    [1, -2, 3],
  ];
  function expected(t: number): { m: number[]; v: number[] } | undefined {
    for (let k = 0; k + 1 < keys.length; k++) {
      if (t >= keys[k] && t < keys[k + 1]) {
        const a = (t - keys[k]) / (keys[k + 1] - keys[k]);
        const span = keys[k + 1] - keys[k];
        return {
          m: [0, 1, 2].map((c) => moves[k][c] + (moves[k + 1][c] - moves[k][c]) * a),
          v: [0, 1, 2].map((c) => (moves[k + 1][c] - moves[k][c]) / span),
        };
      }
    }
    return undefined;
  }

  function make(relative = true) {
    const pc = new LinearMovementProjectiveConstraint();
    pc.indices.value = Uint32Array.of(0, 2);
    pc.keyTimes.value = Float64Array.from(keys);
    pc.movements.value = Float64Array.from(moves.flat());
    pc.relativeMovements.value = relative;
    const { node } = buildNode(x0, undefined, [pc]);
    return { pc, node };
  }

  it('positions, velocities and responses follow the interpolated key movements (relative)', () => {
    const { pc, node } = make();
    for (const t of [0, 0.5, 1.999, 2, 3.3, 4.9, 5, 6]) {
      node.time.value = t;
      const x = Float64Array.from(x0);
      const v = Float64Array.from([7, 7, 7, 7, 7, 7, 7, 7, 7]);
      const dx = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      pc.projectPosition(x);
      pc.projectVelocity(v);
      pc.projectResponse(dx);
      const e = expected(t);
      for (const p of [0, 1, 2]) {
        for (let c = 0; c < 3; c++) {
          const i = 3 * p + c;
          const moving = e !== undefined && p !== 1;
          expect(x[i], `x t=${t} ${i}`).to.be.closeTo(moving ? x0[i] + e.m[c] : x0[i], 1e-14);
          expect(v[i], `v t=${t} ${i}`).to.be.closeTo(moving ? e.v[c] : 7, 1e-14);
          expect(dx[i], `dx t=${t} ${i}`).to.equal(moving ? 0 : i + 1);
        }
      }
    }
  });

  it('absolute movements place the points at m(t)', () => {
    const { pc, node } = make(false);
    node.time.value = 3.5;
    const x = Float64Array.from(x0);
    pc.projectPosition(x);
    expect(Array.from(x.slice(0, 3))).to.deep.equal([1, -2, 1.5]);
    expect(Array.from(x.slice(6, 9))).to.deep.equal([1, -2, 1.5]);
    expect(Array.from(x.slice(3, 6))).to.deep.equal([1, 0, 0]);
  });

  it('rejects movements that do not match the key times', () => {
    const pc = new LinearMovementProjectiveConstraint();
    pc.keyTimes.value = Float64Array.of(0, 1);
    pc.movements.value = Float64Array.of(0, 0, 0);
    expect(() => buildNode(x0, undefined, [pc])).to.throw(/movements/);
  });
});
