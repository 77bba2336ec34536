import { expect } from 'chai';
import { splitHexahedraIntoPrisms } from '@sofa-ts/topology';
import { prismMassMatrix, prismStiffness } from './prism-element.js';

/** A right prism: triangle (0,0), (a,0), (0,b) in z = 0, extruded by h; then sheared/rotated by M. */
function prism(a: number, b: number, h: number, M = [1, 0, 0, 0, 1, 0, 0, 0, 1]): Float64Array {
  const P = [0, 0, 0, a, 0, 0, 0, b, 0, 0, 0, h, a, 0, h, 0, b, h];
  const X = new Float64Array(18);
  for (let i = 0; i < 6; i++)
    for (let r = 0; r < 3; r++) X[3 * i + r] = M[3 * r] * P[3 * i] + M[3 * r + 1] * P[3 * i + 1] + M[3 * r + 2] * P[3 * i + 2];
  return X;
}

describe("Prism element (SOFA's FiniteElement<Prism>)", () => {
  const [lambda, mu] = [3, 2];
  const [d00, d01, d33] = [lambda + 2 * mu, lambda, mu];

  it('the volume is the triangle area × height; the mass matrix sums to ρ·V', () => {
    const X = prism(2, 3, 0.5);
    const K = new Float64Array(324);
    expect(prismStiffness(K, X, d00, d01, d33)).to.be.closeTo(0.5 * 2 * 3 * 0.5, 1e-12);
    const M = prismMassMatrix(new Float64Array(36), X, new Float64Array(6).fill(7));
    expect(M.reduce((s, v) => s + v, 0)).to.be.closeTo(7 * 1.5, 1e-12);
  });

  it('patch test: a linear displacement u = E·x has uᵀKu = V·(λ·tr(ε)² + 2μ·ε:ε) (exact), rigid motions none', () => {
    // a sheared prism (constant Jacobian): the element reproduces linear fields exactly
    const X = prism(1.5, 1, 2, [1, 0.2, 0.1, 0, 1, 0.3, 0, 0, 1]);
    const K = new Float64Array(324);
    const V = prismStiffness(K, X, d00, d01, d33);
    const quad = (u: Float64Array) => {
      let s = 0;
      for (let i = 0; i < 18; i++) for (let j = 0; j < 18; j++) s += u[i] * K[18 * i + j] * u[j];
      return s;
    };
    const E = [0.01, 0.02, -0.005, 0.003, -0.01, 0.004, 0.006, 0.001, 0.02];
    const u = new Float64Array(18);
    for (let i = 0; i < 6; i++)
      for (let r = 0; r < 3; r++) u[3 * i + r] = E[3 * r] * X[3 * i] + E[3 * r + 1] * X[3 * i + 1] + E[3 * r + 2] * X[3 * i + 2];
    const eps = [0, 1, 2].map((r) => [0, 1, 2].map((c) => (E[3 * r + c] + E[3 * c + r]) / 2));
    const tr = eps[0][0] + eps[1][1] + eps[2][2];
    const epsEps = eps.flat().reduce((s, v) => s + v * v, 0);
    expect(quad(u)).to.be.closeTo(V * (lambda * tr * tr + 2 * mu * epsEps), 1e-12);
    // a translation and an infinitesimal rotation: K·u = 0
    const W = [0, -0.3, 0.2, 0.3, 0, -0.1, -0.2, 0.1, 0];
    for (const [A, t] of [
      [W, [0, 0, 0]],
      [
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [1, -2, 0.5],
      ],
    ] as const) {
      const r = new Float64Array(18);
      for (let i = 0; i < 6; i++)
        for (let k = 0; k < 3; k++) r[3 * i + k] = t[k] + A[3 * k] * X[3 * i] + A[3 * k + 1] * X[3 * i + 1] + A[3 * k + 2] * X[3 * i + 2];
      for (let i = 0; i < 18; i++) {
        let f = 0;
        for (let j = 0; j < 18; j++) f += K[18 * i + j] * r[j];
        expect(f).to.be.closeTo(0, 1e-12);
      }
    }
  });

  it('Hexa2PrismTopologicalMapping: the 2 prisms of a unit cube have volume 1/2 each', () => {
    // SOFA's hexahedron vertex order on the unit cube
    const cube = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1];
    const prisms = splitHexahedraIntoPrisms(Uint32Array.from({ length: 8 }, (_, i) => i));
    expect(Array.from(prisms)).to.deep.equal([0, 5, 1, 3, 6, 2, 0, 4, 5, 3, 7, 6]);
    const K = new Float64Array(324);
    for (let p = 0; p < 2; p++) {
      const X = new Float64Array(18);
      for (let k = 0; k < 6; k++) X.set(cube.slice(3 * prisms[6 * p + k], 3 * prisms[6 * p + k] + 3), 3 * k);
      expect(Math.abs(prismStiffness(K, X, d00, d01, d33))).to.be.closeTo(0.5, 1e-12);
    }
  });
});
