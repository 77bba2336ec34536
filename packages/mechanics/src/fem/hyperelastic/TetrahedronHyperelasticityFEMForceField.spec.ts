import { expect } from 'chai';
import { buildNode, gridPoints, gridTetrahedra, StubTopology } from '../../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../../load/fd-check-test-support.js';
import { TetrahedronHyperelasticityFEMForceField } from './TetrahedronHyperelasticityFEMForceField.js';
import type { MaterialName } from './hyperelastic-materials.js';

/**
 * Each material's strain energy written here in the principal stretches (λ1, λ2, λ3) of a diagonal
 * F, independently of the force field's invariant kernel: the oracle of the uniaxial tests
 * (P11 = ∂Ŵ/∂λ1, the first Piola-Kirchhoff stress).
 */
const energies: Record<Exclude<MaterialName, 'Costa'>, { params: number[]; W: (l: number[], p: number[]) => number }> = {
  StVenantKirchhoff: {
    params: [3448.2759, 31034.483],
    W: (l, [mu, la]) => {
      const E = l.map((x) => (x * x - 1) / 2);
      const tr = E[0] + E[1] + E[2];
      return 0.5 * la! * tr * tr + mu! * (E[0] ** 2 + E[1] ** 2 + E[2] ** 2);
    },
  },
  NeoHookean: {
    params: [3448.2759, 31034.483],
    W: (l, [mu, la]) => {
      const J = l[0] * l[1] * l[2];
      return 0.5 * mu! * (l[0] ** 2 + l[1] ** 2 + l[2] ** 2 - 3) - mu! * Math.log(J) + 0.5 * la! * Math.log(J) ** 2;
    },
  },
  StableNeoHookean: {
    params: [3448.2759, 31034.483],
    W: (l, [mu, la]) => {
      const J = l[0] * l[1] * l[2],
        alpha = 1 + mu! / (la! + mu!);
      return 0.5 * (mu! * (l[0] ** 2 + l[1] ** 2 + l[2] ** 2 - 3) + (la! + mu!) * (J - alpha) ** 2);
    },
  },
  MooneyRivlin: {
    params: [5000, 7000, 10],
    W: (l, [c1, c2, k0]) => {
      const J = l[0] * l[1] * l[2],
        sq = l.map((x) => x * x);
      const I1 = sq[0] + sq[1] + sq[2],
        I2 = sq[0] * sq[1] + sq[1] * sq[2] + sq[0] * sq[2];
      return c1! * (I1 * J ** (-2 / 3) - 3) + c2! * (I2 * J ** (-4 / 3) - 3) + 0.5 * k0! * Math.log(J) ** 2;
    },
  },
  ArrudaBoyce: {
    params: [3448.2759, 31034.483],
    W: (l, [mu, k0]) => {
      const J = l[0] * l[1] * l[2],
        I = (l[0] ** 2 + l[1] ** 2 + l[2] ** 2) * J ** (-2 / 3);
      const c = [1 / 2, 1 / 160, 11 / 1050 / 64, 19 / 7000 / 512, 519 / 673750 / 4096];
      let w = 0;
      c.forEach((cn, i) => (w += cn * (I ** (i + 1) - 3 ** (i + 1))));
      return mu! * w + 0.5 * k0! * Math.log(J) ** 2;
    },
  },
  VerondaWestman: {
    params: [2000, 0.5, 20000],
    W: (l, [c1, c2, k0]) => {
      const J = l[0] * l[1] * l[2],
        sq = l.map((x) => x * x);
      const I1 = (sq[0] + sq[1] + sq[2]) * J ** (-2 / 3),
        I2 = (sq[0] * sq[1] + sq[1] * sq[2] + sq[0] * sq[2]) * J ** (-4 / 3);
      return c1! * (Math.exp(c2! * (I1 - 3)) - 1) - 0.5 * c1! * c2! * (I2 - 3) + 0.5 * k0! * Math.log(J) ** 2;
    },
  },
  Ogden: {
    params: [1500, 500, 5000],
    W: (l, [mu, a, k0]) => {
      const J = l[0] * l[1] * l[2];
      return (mu! / (a! * a!)) * (J ** (-a! / 3) * (l[0] ** a! + l[1] ** a! + l[2] ** a!) - 3) + 0.5 * k0! * Math.log(J) ** 2;
    },
  },
};

/** A unit cube cut in 6·n³ tetrahedra (n cells per side). */
function cube(n: number): { pts: number[]; tets: number[] } {
  return { pts: gridPoints(n + 1, n + 1, n + 1, 1, 1, 1), tets: gridTetrahedra(n + 1, n + 1, n + 1) };
}

function make(material: MaterialName, params: number[], pts: number[], tets: number[]): TetrahedronHyperelasticityFEMForceField {
  const ff = new TetrahedronHyperelasticityFEMForceField();
  ff.materialName.value = material;
  ff.parameterSet.value = Float64Array.from(params);
  buildNode(pts, new StubTopology(pts.length / 3, { tetrahedra: tets }), [ff]);
  return ff;
}

function forceAt(ff: TetrahedronHyperelasticityFEMForceField, x: Float64Array): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [new Float64Array(x.length)]);
  return f;
}

describe('TetrahedronHyperelasticityFEMForceField', () => {
  for (const [material, { params, W }] of Object.entries(energies) as [Exclude<MaterialName, 'Costa'>, (typeof energies)['Ogden']][]) {
    describe(material, () => {
      it('exerts no force at rest and gives F = I', () => {
        const { pts, tets } = cube(2);
        const ff = make(material, params, pts, tets);
        const f = forceAt(ff, Float64Array.from(pts));
        for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-9 * params[0]);
        const F = ff.deformationGradient(3);
        for (let k = 0; k < 9; k++) expect(F[k]).to.be.closeTo(k % 4 === 0 ? 1 : 0, 1e-12);
      });

      it('uniaxial stretch of a cube: the force on the face x = 1 equals the first Piola stress P11 = ∂W/∂λ1 of the material', () => {
        const { pts, tets } = cube(2);
        const ff = make(material, params, pts, tets);
        const l = [1.2, 0.93, 0.95];
        const x = Float64Array.from(pts, (c, i) => c * l[i % 3]);
        const f = forceAt(ff, x);
        // the face x = 1 (unit area at rest) carries −P11 (f is the internal force)
        let fx = 0;
        for (let i = 0; i < pts.length / 3; i++) if (pts[3 * i] === 1) fx += f[3 * i];
        const h = 1e-6;
        const P11 = (W([l[0] + h, l[1], l[2]], params) - W([l[0] - h, l[1], l[2]], params)) / (2 * h);
        expect(-fx).to.be.closeTo(P11, 1e-6 * Math.abs(P11));
        // and the energy is V·W (V = 1)
        expect(ff.getPotentialEnergy([x])).to.be.closeTo(W(l, params), 1e-9 * Math.abs(W(l, params)) + 1e-9);
      });

      it('K equals the finite differences of the force at a large deformation', () => {
        const { pts, tets } = cube(1);
        const ff = make(material, params, pts, tets);
        const r = (i: number): number => Math.sin(12.9898 * i + 78.233) * 0.5;
        const x = Float64Array.from(pts, (c, i) => c * (i % 3 === 0 ? 1.15 : 0.95) + 0.05 * r(i));
        const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(x.length), 1e-6);
        let err = 0,
          scale = 0;
        for (let i = 0; i < K.length; i++)
          for (let j = 0; j < K.length; j++) {
            err = Math.max(err, Math.abs(K[i][j] - FD[i][j]));
            scale = Math.max(scale, Math.abs(K[i][j]));
          }
        expect(err / scale).to.be.below(1e-6);
        // addDForce is the same K
        const dx = Float64Array.from(x, (_, i) => r(i + 100));
        const df = new Float64Array(x.length);
        ff.addDForce([df], [dx], -0.5, 0);
        for (let i = 0; i < x.length; i++) {
          let s = 0;
          for (let j = 0; j < x.length; j++) s += K[i][j] * dx[j];
          expect(df[i]).to.be.closeTo(-0.5 * s, 1e-9 * scale);
        }
      });
    });
  }

  it('refuses Costa (not implemented) and too few parameters, with located errors', () => {
    const { pts, tets } = cube(1);
    expect(() => make('Costa', [1, 2, 3, 4, 5, 6, 7, 8], pts, tets)).to.throw(/Costa' is not implemented/);
    expect(() => make('MooneyRivlin', [1, 2], pts, tets)).to.throw(/needs 3 values in ParameterSet/);
  });
});
