import { expect } from 'chai';
import { FastTetrahedralCorotationalForceField } from './FastTetrahedralCorotationalForceField.js';
import {
  boxGrid,
  denseK,
  femScene,
  finiteDifferenceK,
  forceAt,
  maxAbs,
  maxAbsDiff,
  randomRotation,
  rng,
  transform,
} from '../fem-test-support.js';
import { tetrahedraFromHexahedra } from '../volume-elasticity.js';

const E = 1000,
  NU = 0.3;

function scene(method: string) {
  const { points, hexa } = boxGrid([2, 2, 3], [1, 1, 2]);
  const tets = tetrahedraFromHexahedra(hexa, 1, 1);
  return femScene(points, { tets }, new FastTetrahedralCorotationalForceField(), (ff) => {
    ff.method.value = method;
    ff.youngModulus.value = Float64Array.of(E);
    ff.poissonRatio.value = Float64Array.of(NU);
  });
}

describe('FastTetrahedralCorotationalForceField', () => {
  it('uniaxial stretch of the bar (small strain): the end force is E·ε·A with free lateral contraction, for every method', () => {
    for (const method of ['qr', 'polar', 'polar2', 'none']) {
      const { mo, ff } = scene(method);
      const X = mo.x0,
        n = X.length / 3,
        eps = 1e-6;
      // u = ε·(−ν x, −ν y, z): the exact linear solution of a free bar under axial stress σ = E·ε
      const x = Float64Array.from(X);
      for (let i = 0; i < n; i++) {
        x[3 * i] = X[3 * i] * (1 - NU * eps);
        x[3 * i + 1] = X[3 * i + 1] * (1 - NU * eps);
        x[3 * i + 2] = X[3 * i + 2] * (1 + eps);
      }
      const f = forceAt(ff, x);
      let fz = 0;
      for (let i = 0; i < n; i++) if (X[3 * i + 2] === 2) fz += f[3 * i + 2];
      expect(-fz, method).to.be.closeTo(E * eps * 1, 1e-6 * E * eps);
      // inner points feel nothing (uniform stress)
      for (let i = 0; i < n; i++)
        if (X[3 * i + 2] === 1) for (let c = 0; c < 3; c++) expect(Math.abs(f[3 * i + c])).to.be.below(1e-5 * E * eps);
    }
  });

  it('K equals the finite differences at rest and at a rigid motion; rotating a strained bar rotates its forces (corotational methods)', () => {
    const r = rng(3);
    for (const method of ['qr', 'polar', 'polar2', 'none']) {
      const { mo, ff } = scene(method);
      const X = Float64Array.from(mo.x0);
      const moved =
        method === 'none'
          ? transform(X, Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1), [0.3, -1, 2])
          : transform(X, randomRotation(r), [0.3, -1, 2]);
      for (const at of [X, moved]) {
        forceAt(ff, at);
        const K = denseK(ff, X.length);
        const FD = finiteDifferenceK(ff, at, 1e-6);
        expect(maxAbsDiff(K, FD) / maxAbs(K), method).to.be.below(1e-6);
      }
      if (method === 'none') continue;
      const strained = Float64Array.from(X, (c) => c + 0.05 * (r() - 0.5));
      const f = forceAt(ff, strained);
      const Q = randomRotation(r);
      const fr = forceAt(ff, transform(strained, Q, [1, 2, 3]));
      expect(maxAbsDiff(fr, transform(f, Q, [0, 0, 0])) / maxAbs(f), method).to.be.below(1e-10);
    }
  });

  it('refuses an unknown method', () => {
    expect(() => scene('qrr')).to.throw(/unknown method 'qrr'/);
  });
});
