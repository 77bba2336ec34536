import { expect } from 'chai';
import { applyTransform4, trsMatrix } from './transform.js';

/** Row-major 3×3 product. */
function mul(a: number[], b: number[]): number[] {
  const c = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}
const rx = (t: number) => [1, 0, 0, 0, Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t)];
const ry = (t: number) => [Math.cos(t), 0, Math.sin(t), 0, 1, 0, -Math.sin(t), 0, Math.cos(t)];
const rz = (t: number) => [Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t), 0, 0, 0, 1];

describe('loader transforms', () => {
  it('maps p to t + R·(s∘p)', () => {
    const m = trsMatrix([1, 2, 3], [30, 45, 60], [2, 3, 4]);
    const p = Float64Array.of(0.5, -1, 2);
    applyTransform4(m, p);
    const d = Math.PI / 180;
    const r = mul(rz(60 * d), mul(ry(45 * d), rx(30 * d)));
    const s = [0.5 * 2, -1 * 3, 2 * 4];
    for (let i = 0; i < 3; i++)
      expect(p[i]).to.be.closeTo([1, 2, 3][i] + r[3 * i] * s[0] + r[3 * i + 1] * s[1] + r[3 * i + 2] * s[2], 1e-13);
  });
});
