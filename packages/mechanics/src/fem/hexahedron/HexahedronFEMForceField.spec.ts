import { expect } from 'chai';
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
  rotateVectors,
  transform,
} from '../fem-test-support.js';
import { HexahedronFEMForceField } from './HexahedronFEMForceField.js';
import { upperBlockIndex } from '@sofa-ts/core';

const E = 4000;
const NU = 0.3;
type Method = 'large' | 'polar' | 'small';

function hexScene(points: Float64Array, hexa: Uint32Array, method: Method, young = E, nu = NU) {
  return femScene(points, { hexa }, new HexahedronFEMForceField(), (ff) => {
    ff.method.value = method;
    ff.youngModulus.value = Float64Array.of(young);
    ff.poissonRatio.value = Float64Array.of(nu);
  });
}

/** Isotropic stress (Voigt xx yy zz xy yz zx) of the engineering strain of u = G·X. */
function stressOf(G: number[][], young: number, nu: number): number[] {
  const lambda = (young * nu) / ((1 + nu) * (1 - 2 * nu));
  const mu = young / (2 * (1 + nu));
  const tr = G[0][0] + G[1][1] + G[2][2];
  return [
    lambda * tr + 2 * mu * G[0][0],
    lambda * tr + 2 * mu * G[1][1],
    lambda * tr + 2 * mu * G[2][2],
    mu * (G[0][1] + G[1][0]),
    mu * (G[1][2] + G[2][1]),
    mu * (G[2][0] + G[0][2]),
  ];
}

describe('HexahedronFEMForceField', () => {
  const r = rng(11);

  it('one box element: nodal forces of a linear field are −σ·∫∇Nᵢ dV (closed form)', () => {
    const [a, b, c] = [2, 1.5, 0.8];
    const { points, hexa } = boxGrid([2, 2, 2], [a, b, c]);
    const { ff } = hexScene(points, hexa, 'small');
    const G = [
      [1e-3, 2e-4, -3e-4],
      [5e-4, -2e-3, 1e-4],
      [-1e-4, 3e-4, 1.5e-3],
    ];
    const x = Float64Array.from(points);
    for (let i = 0; i < 8; i++)
      for (let k = 0; k < 3; k++) x[3 * i + k] += G[k][0] * points[3 * i] + G[k][1] * points[3 * i + 1] + G[k][2] * points[3 * i + 2];
    const f = forceAt(ff, x);
    const s = stressOf(G, E, NU);
    const sigma = [
      [s[0], s[3], s[5]],
      [s[3], s[1], s[4]],
      [s[5], s[4], s[2]],
    ];
    for (let i = 0; i < 8; i++) {
      // corner signs of node i and ∫∂Nᵢ/∂X dV = (sx·bc, sy·ac, sz·ab)/4
      const sx = points[3 * i] > 0 ? 1 : -1,
        sy = points[3 * i + 1] > 0 ? 1 : -1,
        sz = points[3 * i + 2] > 0 ? 1 : -1;
      const g = [(sx * b * c) / 4, (sy * a * c) / 4, (sz * a * b) / 4];
      for (let k = 0; k < 3; k++) {
        const expected = -(sigma[k][0] * g[0] + sigma[k][1] * g[1] + sigma[k][2] * g[2]);
        expect(f[3 * i + k]).to.be.closeTo(expected, 1e-12 * E);
      }
    }
  });

  it('a distorted element: rigid motions give no force and K is symmetric', () => {
    const { points, hexa } = boxGrid([2, 2, 2], [1, 1, 1]);
    const p = Float64Array.from(points, (v) => v + 0.15 * (r() - 0.5));
    const { ff } = hexScene(p, hexa, 'small');
    const K = denseK(ff, 24);
    for (let i = 0; i < 24; i++) for (let j = 0; j < i; j++) expect(Math.abs(K[24 * i + j] - K[24 * j + i])).to.be.below(1e-12 * maxAbs(K));
    // translations and infinitesimal rotations ω × X are in the null space
    const modes: Float64Array[] = [];
    for (let k = 0; k < 3; k++) modes.push(Float64Array.from({ length: 24 }, (_, i) => (i % 3 === k ? 1 : 0)));
    for (let k = 0; k < 3; k++) {
      const w = [0, 0, 0];
      w[k] = 1;
      const m = new Float64Array(24);
      for (let i = 0; i < 8; i++) {
        const X = [p[3 * i], p[3 * i + 1], p[3 * i + 2]];
        m[3 * i] = w[1] * X[2] - w[2] * X[1];
        m[3 * i + 1] = w[2] * X[0] - w[0] * X[2];
        m[3 * i + 2] = w[0] * X[1] - w[1] * X[0];
      }
      modes.push(m);
    }
    for (const m of modes) {
      const Km = Array.from({ length: 24 }, (_, i) => K.slice(24 * i, 24 * i + 24).reduce((s, k, j) => s + k * m[j], 0));
      expect(maxAbs(Km)).to.be.below(1e-10 * maxAbs(K));
    }
  });

  it('patch test: a linear field gives no force at the inner node of a distorted 2×2×2 mesh', () => {
    const { points, hexa } = boxGrid([3, 3, 3], [2, 2, 2]);
    const centre = 13; // (1, 1, 1)
    const p = Float64Array.from(points);
    p[3 * centre] += 0.2;
    p[3 * centre + 1] -= 0.15;
    p[3 * centre + 2] += 0.1;
    const { ff } = hexScene(p, hexa, 'small');
    const G = [
      [1e-3, 2e-4, -3e-4],
      [5e-4, -2e-3, 1e-4],
      [-1e-4, 3e-4, 1.5e-3],
    ];
    const x = Float64Array.from(p);
    for (let i = 0; i < 27; i++)
      for (let k = 0; k < 3; k++) x[3 * i + k] += G[k][0] * p[3 * i] + G[k][1] * p[3 * i + 1] + G[k][2] * p[3 * i + 2];
    const f = forceAt(ff, x);
    for (let k = 0; k < 3; k++) expect(Math.abs(f[3 * centre + k])).to.be.below(1e-12 * maxAbs(f));
  });

  it('elements of the same rest shape share one stiffness matrix (regular grids, also rotated)', () => {
    const { points, hexa } = boxGrid([4, 3, 5], [3, 2, 4]);
    const moved = transform(points, randomRotation(r), [1, 2, 3]);
    for (const m of ['large', 'polar', 'small'] as const) {
      const { ff } = hexScene(m === 'small' ? points : moved, hexa, m);
      expect(ff.elementCount).to.equal(24);
      expect(ff.stiffnessMatrixCount, m).to.equal(1);
    }
  });

  for (const method of ['small', 'large', 'polar'] as const) {
    describe(`method ${method}`, () => {
      const { points, hexa } = boxGrid([2, 3, 3], [1, 1.2, 2]);
      const distorted = Float64Array.from(points, (v) => v + 0.1 * (r() - 0.5));

      it('f is zero at rest (and at rigidly moved rest shapes)', () => {
        const { ff, mo } = hexScene(distorted, hexa, method);
        expect(maxAbs(forceAt(ff, mo.x0))).to.be.below(1e-10);
        if (method === 'small') return;
        expect(maxAbs(forceAt(ff, transform(mo.x0, randomRotation(r), [3, 2, -1])))).to.be.below(1e-9);
      });

      it('K equals central finite differences of f at rotated rest shapes', () => {
        const { ff, mo } = hexScene(distorted, hexa, method);
        const x =
          method === 'small' ? Float64Array.from(mo.x0, (v) => v + 0.05 * (r() - 0.5)) : transform(mo.x0, randomRotation(r), [1, 0, 2]);
        const fd = finiteDifferenceK(ff, x, 1e-6);
        expect(maxAbsDiff(denseK(ff, x.length), fd) / maxAbs(fd)).to.be.below(1e-6);
      });

      it('K matches finite differences up to O(strain) at deformed and rotated shapes', () => {
        const { ff, mo } = hexScene(distorted, hexa, method);
        const strain = 1e-4;
        const x = transform(
          Float64Array.from(mo.x0, (v) => v + strain * (r() - 0.5)),
          randomRotation(r),
          [0, 0, 0],
        );
        const fd = finiteDifferenceK(ff, x, 1e-7);
        expect(maxAbsDiff(denseK(ff, x.length), fd) / maxAbs(fd)).to.be.below(method === 'small' ? 1e-6 : 20 * strain);
      });

      it('addDForce gives (k + b·rayleighStiffness)·K·dx', () => {
        const { ff, mo } = hexScene(distorted, hexa, method);
        ff.rayleighStiffness.value = 0.2;
        const x = transform(
          Float64Array.from(mo.x0, (v) => v + 0.1 * (r() - 0.5)),
          randomRotation(r),
          [0, 1, 0],
        );
        forceAt(ff, x);
        const n = x.length;
        const K = denseK(ff, n);
        const dx = Float64Array.from({ length: n }, () => r() - 0.5);
        const df = new Float64Array(n);
        ff.addDForce([df], [dx], 1.5, 2);
        const expected = Array.from(
          { length: n },
          (_, i) => (1.5 + 2 * 0.2) * K.slice(i * n, i * n + n).reduce((s, k, j) => s + k * dx[j], 0),
        );
        expect(maxAbsDiff(df, expected) / maxAbs(expected)).to.be.below(1e-12);
      });

      if (method !== 'small') {
        it('f rotates with a rigid rotation of a deformed configuration', () => {
          const { ff, mo } = hexScene(distorted, hexa, method);
          const x = Float64Array.from(mo.x0, (v) => v + 0.1 * (r() - 0.5));
          const f = forceAt(ff, x);
          const R = randomRotation(r);
          expect(maxAbsDiff(forceAt(ff, transform(x, R, [1, 1, 1])), rotateVectors(f, R)) / maxAbs(f)).to.be.below(1e-10);
        });
      }

      it('a bar under uniaxial traction: end force = E·strain·area', () => {
        const { points: bar, hexa: bh } = boxGrid([3, 3, 6], [1, 1, 5]);
        const { ff, mo } = hexScene(bar, bh, method);
        const eps = 1e-6;
        const x = Float64Array.from(mo.x0, (v, i) => (i % 3 === 2 ? v * (1 + eps) : v * (1 - NU * eps)));
        const f = forceAt(ff, x);
        let top = 0,
          bottom = 0,
          other = 0;
        for (let i = 0; i < x.length; i += 3) {
          if (mo.x0[i + 2] === 5) top += f[i + 2];
          else if (mo.x0[i + 2] === 0) bottom += f[i + 2];
          else other = Math.max(other, Math.abs(f[i + 2]));
        }
        const expected = E * eps;
        expect(Math.abs(-top - expected) / expected).to.be.below(1e-4);
        expect(Math.abs(bottom - expected) / expected).to.be.below(1e-4);
        expect(other / expected).to.be.below(1e-4);
      });
    });
  }

  it('addKToMatrix emits factor·elementStiffness bit for bit (its upper blocks on the symmetric fast path)', () => {
    const { points, hexa } = boxGrid([2, 2, 3], [1, 1, 2]);
    const { ff, mo } = hexScene(points, hexa, 'large');
    forceAt(
      ff,
      transform(
        Float64Array.from(mo.x0, (v) => v + 0.1 * (r() - 0.5)),
        randomRotation(r),
        [0, 0, 0],
      ),
    );
    const factor = 0.61;
    const expected: number[] = [];
    const K = new Float64Array(576);
    for (let e = 0; e < ff.elementCount; e++) {
      ff.elementStiffness(K, e);
      for (let i = 0; i < 8; i++)
        for (let j = 0; j < 8; j++)
          for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) expected.push(factor * K[72 * i + 24 * p + 3 * j + q]);
    }
    const plain: number[] = [];
    ff.addKToMatrix({ add: (_r, _c, v) => plain.push(v) }, factor);
    expect(plain).to.deep.equal(expected);
    const viaUpper: number[] = [];
    ff.addKToMatrix(
      {
        add: () => expect.fail('the fast path is taken'),
        addSymmetricElements3: (_nodes, _e0, count, n, U, f) => {
          const nu = (9 * n * (n + 1)) / 2;
          for (let k = 0; k < count; k++)
            for (let i = 0; i < n; i++)
              for (let j = 0; j < n; j++)
                for (let p = 0; p < 3; p++)
                  for (let q = 0; q < 3; q++)
                    viaUpper.push(
                      f *
                        (j >= i
                          ? U[k * nu + 9 * upperBlockIndex(n, i, j) + 3 * p + q]
                          : U[k * nu + 9 * upperBlockIndex(n, j, i) + 3 * q + p]),
                    );
        },
      },
      factor,
    );
    expect(viaUpper).to.deep.equal(expected);
  });

  it('emits the same matrix entries in the same order at every call (24×24 per element)', () => {
    const { points, hexa } = boxGrid([2, 2, 3], [1, 1, 2]);
    const { ff, mo } = hexScene(points, hexa, 'large');
    const seq = (): string => {
      const rc: number[] = [];
      ff.addKToMatrix({ add: (row, col) => rc.push(row, col) }, 1);
      return rc.join(',');
    };
    const s0 = seq();
    forceAt(ff, transform(mo.x0, randomRotation(r), [0, 0, 0]));
    expect(seq()).to.equal(s0);
    expect(s0.split(',').length).to.equal(2 * 576 * ff.elementCount);
  });
});
