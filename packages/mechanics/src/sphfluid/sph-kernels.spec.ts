import { expect } from 'chai';
import { CubicKernel, DensityKernel, PressureKernel, ViscosityKernel, type SphKernel } from './sph-kernels.js';

const h = 0.7;
const kernels: [string, SphKernel][] = [
  ['poly6 (density)', new DensityKernel(h)],
  ['spiky (pressure)', new PressureKernel(h)],
  ['viscosity', new ViscosityKernel(h)],
  ['cubic spline', new CubicKernel(h)],
];

/** W at a point d of space (|d| < h). */
const Wat = (K: SphKernel, x: number, y: number, z: number): number => K.W(Math.hypot(x, y, z) / h);

/** Deterministic points in the ball of radius 0.95·h, away from the centre. */
function samples(count: number): number[][] {
  let s = 12345;
  const r = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const out: number[][] = [];
  while (out.length < count) {
    const p = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1].map((c) => c * h);
    const q = Math.hypot(p[0], p[1], p[2]) / h;
    if (q > 0.15 && q < 0.95 && Math.abs(q - 0.5) > 0.01) out.push(p);
  }
  return out;
}

describe('SPH kernels (SofaSphFluid SPHKernel)', () => {
  for (const [name, K] of kernels) {
    it(`${name} integrates to 1 over its support: 4π∫₀ʰ W(r)·r² dr = 1`, () => {
      // midpoint rule (the viscosity kernel is singular at r = 0, r²·W is not)
      const N = 200000;
      let sum = 0;
      for (let k = 0; k < N; k++) {
        const r = ((k + 0.5) * h) / N;
        sum += K.W(r / h) * r * r;
      }
      expect(4 * Math.PI * sum * (h / N)).to.be.closeTo(1, 1e-6);
    });

    it(`${name}: ∇W = gradFactor·d equals central differences of W`, () => {
      const e = 1e-6 * h;
      for (const [x, y, z] of samples(40)) {
        const g = K.gradFactor(Math.hypot(x, y, z) / h);
        const fd = [
          (Wat(K, x + e, y, z) - Wat(K, x - e, y, z)) / (2 * e),
          (Wat(K, x, y + e, z) - Wat(K, x, y - e, z)) / (2 * e),
          (Wat(K, x, y, z + e) - Wat(K, x, y, z - e)) / (2 * e),
        ];
        const scale = Math.max(1, ...fd.map(Math.abs));
        [x, y, z].forEach((c, k) => expect(g * c, `at (${x}, ${y}, ${z})`).to.be.closeTo(fd[k], 1e-6 * scale));
      }
    });
  }

  for (const [name, K] of kernels.filter(([n]) => !n.startsWith('spiky'))) {
    it(`${name}: the Laplacian equals the 7-point finite-difference Laplacian of W`, () => {
      const e = 1e-4 * h;
      for (const [x, y, z] of samples(30)) {
        const c = Wat(K, x, y, z);
        const lap =
          (Wat(K, x + e, y, z) +
            Wat(K, x - e, y, z) +
            Wat(K, x, y + e, z) +
            Wat(K, x, y - e, z) +
            Wat(K, x, y, z + e) +
            Wat(K, x, y, z - e) -
            6 * c) /
          (e * e);
        const want = K.laplacian(Math.hypot(x, y, z) / h);
        expect(want, `at (${x}, ${y}, ${z})`).to.be.closeTo(lap, 1e-4 * Math.max(1, Math.abs(lap)));
      }
    });
  }

  it("are Müller et al. 2003's kernels in their h⁹ / h⁶ form", () => {
    const d = new DensityKernel(h),
      p = new PressureKernel(h),
      v = new ViscosityKernel(h);
    for (const r of [0, 0.1, 0.33, 0.5, 0.69]) {
      const q = r / h;
      expect(d.W(q)).to.be.closeTo((315 / (64 * Math.PI * h ** 9)) * (h * h - r * r) ** 3, 1e-12);
      expect(p.W(q)).to.be.closeTo((15 / (Math.PI * h ** 6)) * (h - r) ** 3, 1e-12);
      expect(v.laplacian(q)).to.be.closeTo((45 / (Math.PI * h ** 6)) * (h - r), 1e-12);
    }
    for (const K of [d, p, v, new CubicKernel(h)])
      expect([K.W(1), K.W(1.5), K.gradFactor(1.2), K.laplacian(1)]).to.deep.equal([0, 0, 0, 0]);
  });
});
