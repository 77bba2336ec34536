import { expect } from 'chai';
import { AnimateEndEvent } from '@sofa-ts/core';
import { gridHexahedra, gridPoints, gridTetrahedra } from '../../mass/mesh-test-support.js';
import { denseK, femScene, finiteDifferenceK, forceAt, maxAbs, maxAbsDiff, randomRotation, rng, transform } from '../fem-test-support.js';
import { TetrahedronFEMForceField } from '../tetrahedron/TetrahedronFEMForceField.js';
import type { BaseTLEDForceField } from './BaseTLEDForceField.js';
import { CudaHexahedronTLEDForceField } from './CudaHexahedronTLEDForceField.js';
import { CudaTetrahedronTLEDForceField } from './CudaTetrahedronTLEDForceField.js';

const E = 2000,
  NU = 0.3;
const LAMBDA = (E * NU) / ((1 + NU) * (1 - 2 * NU)),
  MU = E / (2 * (1 + NU)),
  BULK = LAMBDA + (2 * MU) / 3;

type Kind = 'tetra' | 'hexa';

/** A box of (n−1)³ cells of side `size`, as tetrahedra (6 per cell) or hexahedra. */
function box(kind: Kind, n: number, size = 1): { points: Float64Array; tets?: Uint32Array; hexa?: Uint32Array } {
  const points = Float64Array.from(gridPoints(n, n, n, size, size, size));
  return kind === 'tetra'
    ? { points, tets: Uint32Array.from(gridTetrahedra(n, n, n)) }
    : { points, hexa: Uint32Array.from(gridHexahedra(n, n, n)) };
}

function tled(
  kind: Kind,
  points: Float64Array,
  topo: { tets?: Uint32Array; hexa?: Uint32Array },
  setup: (ff: BaseTLEDForceField) => void = () => {},
) {
  const ff = kind === 'tetra' ? new CudaTetrahedronTLEDForceField() : new CudaHexahedronTLEDForceField();
  return femScene(points, topo, ff as BaseTLEDForceField, (f) => {
    f.youngModulus.value = E;
    f.poissonRatio.value = NU;
    setup(f);
  }).ff;
}

/** The neo-Hookean energy density of SofaCUDA's TLED, written in principal stretches (the oracle). */
function W(l: readonly number[]): number {
  const J = l[0] * l[1] * l[2];
  return 0.5 * MU * (Math.pow(J, -2 / 3) * (l[0] ** 2 + l[1] ** 2 + l[2] ** 2) - 3) + 0.5 * BULK * (J - 1) ** 2;
}

/** A deformed state: the points stretched, sheared and moved randomly. */
function deformed(points: Float64Array, amp: number, seed: number): Float64Array {
  const r = rng(seed);
  const out = new Float64Array(points.length);
  for (let i = 0; i < points.length; i += 3) {
    const [x, y, z] = [points[i], points[i + 1], points[i + 2]];
    out[i] = 1.2 * x + 0.1 * y + amp * (r() - 0.5);
    out[i + 1] = 0.9 * y - 0.05 * z + amp * (r() - 0.5);
    out[i + 2] = 0.95 * z + 0.1 * x + amp * (r() - 0.5);
  }
  return out;
}

for (const kind of ['tetra', 'hexa'] as const) {
  describe(`${kind === 'tetra' ? 'CudaTetrahedronTLEDForceField' : 'CudaHexahedronTLEDForceField'} (TLED neo-Hookean)`, () => {
    it('f = −∂E/∂x: central finite differences of the potential energy at a large deformation', () => {
      const { points, ...topo } = box(kind, 3);
      const ff = tled(kind, points, topo);
      const x = deformed(points, 0.1, 7);
      const f = forceAt(ff, x);
      const h = 1e-6,
        xp = Float64Array.from(x);
      let err = 0;
      for (let j = 0; j < x.length; j++) {
        xp[j] = x[j] + h;
        const ep = ff.getPotentialEnergy([xp]);
        xp[j] = x[j] - h;
        const em = ff.getPotentialEnergy([xp]);
        xp[j] = x[j];
        err = Math.max(err, Math.abs(f[j] + (ep - em) / (2 * h)));
      }
      expect(err / maxAbs(f)).to.be.below(1e-6);
    });

    it('K (addKToMatrix) equals the finite differences of f, and addDForce is K·dx', () => {
      const { points, ...topo } = box(kind, 2);
      const ff = tled(kind, points, topo);
      const x = deformed(points, 0.15, 3);
      const n = x.length;
      const FD = finiteDifferenceK(ff, x, 1e-6);
      const K = denseK(ff, n);
      expect(maxAbsDiff(K, FD) / maxAbs(K)).to.be.below(1e-6);
      const dx = Float64Array.from({ length: n }, (_, i) => Math.sin(3.1 * i + 1));
      const df = new Float64Array(n);
      ff.addDForce([df], [dx], -0.25, 0);
      const Kdx = new Float64Array(n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) Kdx[i] += -0.25 * K[i * n + j] * dx[j];
      expect(maxAbsDiff(df, Kdx) / maxAbs(Kdx)).to.be.below(1e-12);
    });

    it('uniaxial stretch of a unit cube: the force on the face x = 1 is the closed-form neo-Hookean P11', () => {
      const { points, ...topo } = box(kind, 2);
      const ff = tled(kind, points, topo);
      for (const l of [
        [1.3, 0.9, 0.9],
        [0.8, 1.05, 1.1],
      ]) {
        const x = Float64Array.from(points, (c, i) => c * l[i % 3]);
        const f = forceAt(ff, x);
        let fx = 0;
        for (let i = 0; i < points.length / 3; i++) if (points[3 * i] === 1) fx += f[3 * i];
        // P = F·S with F = diag(l): P11 = μ·J^(−2/3)·(λ1 − I1/(3λ1)) + K·(J − 1)·λ2·λ3
        const J = l[0] * l[1] * l[2],
          I1 = l[0] ** 2 + l[1] ** 2 + l[2] ** 2;
        const P11 = MU * Math.pow(J, -2 / 3) * (l[0] - I1 / (3 * l[0])) + BULK * (J - 1) * l[1] * l[2];
        expect(-fx).to.be.closeTo(P11, 1e-9 * Math.abs(P11));
        expect(ff.getPotentialEnergy([x])).to.be.closeTo(W(l), 1e-9 * W(l));
        // the faces y = 1 and z = 1 carry P22, P33 likewise, and the force sums to zero
        let sum = 0;
        for (let i = 0; i < f.length; i += 3) sum += f[i];
        expect(Math.abs(sum)).to.be.below(1e-9 * Math.abs(P11));
      }
    });

    it('exerts no force under a rigid rotation and translation (any angle)', () => {
      const { points, ...topo } = box(kind, 3);
      const ff = tled(kind, points, topo);
      const r = rng(11);
      for (let k = 0; k < 3; k++) {
        const x = transform(points, randomRotation(r), [r(), r() - 2, 3 * r()]);
        expect(maxAbs(forceAt(ff, x))).to.be.below(1e-9 * E);
        expect(Math.abs(ff.getPotentialEnergy([x]))).to.be.below(1e-9 * E);
      }
    });

    it('is rotation-covariant: f(Q·x + t) = Q·f(x) at a large deformation', () => {
      const { points, ...topo } = box(kind, 2);
      const ff = tled(kind, points, topo);
      const x = deformed(points, 0.1, 5);
      const Q = randomRotation(rng(2));
      const f = forceAt(ff, x);
      const fq = forceAt(ff, transform(x, Q, [0.3, -1, 2]));
      expect(maxAbsDiff(fq, transform(f, Q, [0, 0, 0])) / maxAbs(f)).to.be.below(1e-10);
    });

    it('patch test: a homogeneous deformation of a distorted mesh gives zero force at the interior node', () => {
      const { points, ...topo } = box(kind, 3);
      // move the centre node (index 13 of the 3×3×3 grid) off the cell corners
      const X = Float64Array.from(points);
      X[39] += 0.13;
      X[40] -= 0.08;
      X[41] += 0.11;
      const ff = tled(kind, X, topo);
      const A = [1.15, 0.2, -0.1, 0.05, 0.9, 0.12, -0.07, 0.1, 1.08];
      const x = new Float64Array(X.length);
      for (let i = 0; i < X.length; i += 3)
        for (let r = 0; r < 3; r++) x[i + r] = A[3 * r] * X[i] + A[3 * r + 1] * X[i + 1] + A[3 * r + 2] * X[i + 2] + 0.5 * r;
      const f = forceAt(ff, x);
      const scale = maxAbs(f);
      expect(scale).to.be.above(1);
      for (let c = 0; c < 3; c++) {
        expect(Math.abs(f[39 + c])).to.be.below(1e-10 * scale);
        let sum = 0;
        for (let i = c; i < f.length; i += 3) sum += f[i];
        expect(Math.abs(sum)).to.be.below(1e-10 * scale);
      }
    });

    // TetrahedronFEMForceField integrates tetrahedra; the hexahedron (one point and hourglass
    // control) has no linear twin: its small-strain limit is checked by the patch test and the
    // closed-form stretch.
    if (kind === 'tetra')
      it('small-strain limit: the forces of a small displacement are those of TetrahedronFEMForceField "small" (linear elasticity)', () => {
        const { points, tets } = box('tetra', 3);
        const ff = tled('tetra', points, { tets });
        const lin = femScene(points, { tets }, new TetrahedronFEMForceField(), (l) => {
          l.method.value = 'small';
          l.youngModulus.value = Float64Array.of(E);
          l.poissonRatio.value = Float64Array.of(NU);
        }).ff;
        const r = rng(21);
        for (const eps of [1e-4, 1e-6]) {
          const x = Float64Array.from(points, (c) => c + eps * (r() - 0.5));
          const fl = forceAt(lin, x),
            ft = forceAt(ff, x);
          // the difference is second order in the displacement: relative to the force, of the order of the strain
          expect(maxAbsDiff(ft, fl) / maxAbs(fl)).to.be.below(3 * eps);
        }
      });
  });
}

describe('CudaTetrahedronTLEDForceField on a hexahedral topology', () => {
  it('cuts each hexahedron into 6 tetrahedra, as SofaCUDA does, and the cut mesh carries the closed-form P11', () => {
    const points = Float64Array.from(gridPoints(3, 3, 3, 1, 1, 1));
    const hexa = Uint32Array.from(gridHexahedra(3, 3, 3));
    const ff = tled('tetra', points, { hexa });
    expect(ff.elementCount).to.equal(6 * 8);
    const l = [1.1, 0.95, 0.97];
    const f = forceAt(
      ff,
      Float64Array.from(points, (c, i) => c * l[i % 3]),
    );
    let fx = 0;
    for (let i = 0; i < points.length / 3; i++) if (points[3 * i] === 1) fx += f[3 * i];
    const J = l[0] * l[1] * l[2],
      I1 = l[0] ** 2 + l[1] ** 2 + l[2] ** 2;
    const P11 = MU * Math.pow(J, -2 / 3) * (l[0] - I1 / (3 * l[0])) + BULK * (J - 1) * l[1] * l[2];
    expect(-fx).to.be.closeTo(P11, 1e-9 * Math.abs(P11));
  });
});

describe('CudaHexahedronTLEDForceField hourglass control', () => {
  /** The 4 hourglass patterns ξη, ηζ, ξζ, ξηζ at the corners of a cube, in SOFA's node order. */
  const signs = [
    [-1, -1, -1],
    [1, -1, -1],
    [1, 1, -1],
    [-1, 1, -1],
    [-1, -1, 1],
    [1, -1, 1],
    [1, 1, 1],
    [-1, 1, 1],
  ];
  const modes = [
    (s: number[]) => s[0] * s[1],
    (s: number[]) => s[1] * s[2],
    (s: number[]) => s[0] * s[2],
    (s: number[]) => s[0] * s[1] * s[2],
  ];

  it('resists the 12 hourglass modes of a cube with Flanagan-Belytschko’s force −κ(λ + 2μ)·(3a/2)·u (κ = 0.5)', () => {
    const a = 2;
    const points = Float64Array.from(signs.flatMap((s) => s.map((c) => ((c + 1) / 2) * a)));
    const ff = tled('hexa', points, { hexa: Uint32Array.from([0, 1, 2, 3, 4, 5, 6, 7]) });
    const eps = 1e-3;
    for (const mode of modes)
      for (let dir = 0; dir < 3; dir++) {
        const u = new Float64Array(24);
        signs.forEach((s, i) => (u[3 * i + dir] = eps * mode(s)));
        const x = Float64Array.from(points, (c, i) => c + u[i]);
        const f = forceAt(ff, x);
        // one point sees F = I for an hourglass mode: the whole force is the hourglass term
        const k = 0.5 * (LAMBDA + 2 * MU) * ((3 * a) / 2);
        for (let i = 0; i < 24; i++) expect(f[i]).to.be.closeTo(-k * u[i], 1e-9 * k * eps);
        // and its energy is positive
        expect(ff.getPotentialEnergy([x])).to.be.closeTo(0.5 * k * eps * eps * 8, 1e-9 * k * eps * eps);
      }
  });
});

describe('TLED viscoelasticity (isViscoelastic)', () => {
  it('a held stretch relaxes as the one-term Prony series: S_iso·(1 − α(1 − e^(−t/τ))), α = 0.5, τ = 0.58 s', () => {
    const { points, tets } = box('tetra', 2);
    const dt = 0.01;
    const ff = tled('tetra', points, { tets }, (f) => {
      f.isViscoelastic.value = 1;
      f.timestep.value = dt;
    });
    const elastic = tled('tetra', points, { tets });
    // an isochoric stretch (J = 1): the stress is S_iso only
    const l = [1.2, 1 / Math.sqrt(1.2), 1 / Math.sqrt(1.2)];
    const x = Float64Array.from(points, (c, i) => c * l[i % 3]);
    const f0 = forceAt(elastic, x);
    for (let step = 1; step <= 200; step++) {
      const f = forceAt(ff, x);
      // the force of an addForce that is not the step's last one does not advance the series
      forceAt(ff, x);
      ff.handleEvent(new AnimateEndEvent(dt));
      if (step % 50 === 0) {
        const t = step * dt,
          ratio = 1 - 0.5 * (1 - Math.exp(-t / 0.58));
        // the recursion D_n = A·S + B·D_{n−1} is the series' backward-Euler form: O(dt/τ) from it
        expect(
          maxAbsDiff(
            f,
            Float64Array.from(f0, (v) => v * ratio),
          ) / maxAbs(f0),
        ).to.be.below(dt / 0.58);
      }
    }
  });

  it('refuses isAnisotropic with a located error (SofaCUDA never sets its material constant)', () => {
    const { points, tets } = box('tetra', 2);
    expect(() => tled('tetra', points, { tets }, (f) => (f.isAnisotropic.value = 1))).to.throw(/isAnisotropic is not supported/);
  });
});
