import { expect } from 'chai';
import { pyramidMassMatrix } from '../../mass/element-mass.js';
import { rng } from '../fem-test-support.js';
import { volumeElementOfTemplate } from './volume-elements.js';

/**
 * The pyramid element of SOFA's FiniteElement<Pyramid> (CorotationalFEMForceField / FEMMass
 * template `Vec3,Pyramid`), against oracles written here independently of the collapsed-hexahedron
 * kernels: the patch test (a linear displacement has the exact energy ½·V·ε:σ), rigid modes, and
 * the mass by a direct evaluation of SOFA's rule with the pyramid's own shape functions.
 */

/** A distorted pyramid: base near z = 0, apex near (0, 0, h). */
function pyramidNodes(seed: number): Float64Array {
  const r = rng(seed);
  const X = Float64Array.of(-1, -1, 0, 1.2, -0.9, 0.1, 1, 1.1, 0, -0.9, 1, -0.1, 0.1, 0.2, 1.5);
  return Float64Array.from(X, (v) => v + 0.1 * (r() - 0.5));
}

/** Volume of the pyramid: the 4 tetrahedra (base split along 0–2, apex) — exact for a ruled base. */
function volumeByTetrahedra(X: Float64Array): number {
  const tet = (a: number, b: number, c: number, d: number): number => {
    const u = [0, 1, 2].map((k) => X[3 * b + k] - X[3 * a + k]);
    const v = [0, 1, 2].map((k) => X[3 * c + k] - X[3 * a + k]);
    const w = [0, 1, 2].map((k) => X[3 * d + k] - X[3 * a + k]);
    return ((u[1] * v[2] - u[2] * v[1]) * w[0] + (u[2] * v[0] - u[0] * v[2]) * w[1] + (u[0] * v[1] - u[1] * v[0]) * w[2]) / 6;
  };
  // the bilinear base is not planar: average both diagonals' splits (exact for the ruled surface's volume)
  return (tet(0, 1, 2, 4) + tet(0, 2, 3, 4) + tet(0, 1, 3, 4) + tet(1, 2, 3, 4)) / 2;
}

/** SOFA's pyramid shape functions at (ξ, η, ζ) and their reference gradients (5 × 3). */
function shape(q: number[]): { N: number[]; dN: number[][] } {
  const [a, b, c] = q as [number, number, number];
  const N = [
    ((1 - a) * (1 - b) * (1 - c)) / 8,
    ((1 + a) * (1 - b) * (1 - c)) / 8,
    ((1 + a) * (1 + b) * (1 - c)) / 8,
    ((1 - a) * (1 + b) * (1 - c)) / 8,
    (1 + c) / 2,
  ];
  const dN = [
    [(-(1 - b) * (1 - c)) / 8, (-(1 - a) * (1 - c)) / 8, (-(1 - a) * (1 - b)) / 8],
    [((1 - b) * (1 - c)) / 8, (-(1 + a) * (1 - c)) / 8, (-(1 + a) * (1 - b)) / 8],
    [((1 + b) * (1 - c)) / 8, ((1 + a) * (1 - c)) / 8, (-(1 + a) * (1 + b)) / 8],
    [(-(1 + b) * (1 - c)) / 8, ((1 - a) * (1 - c)) / 8, (-(1 - a) * (1 + b)) / 8],
    [0, 0, 0.5],
  ];
  return { N, dN };
}

const gauss = [-1, 1].flatMap((a) => [-1, 1].flatMap((b) => [-1, 1].map((c) => [a, b, c].map((s) => s / Math.sqrt(3)))));

function detJ(X: Float64Array, q: number[]): number {
  const { dN } = shape(q);
  const J = [0, 1, 2].map((r) => [0, 1, 2].map((c) => dN.reduce((s, d, i) => s + X[3 * i + r] * d[c], 0)));
  return (
    J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
    J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
    J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0])
  );
}

describe('pyramid element (SOFA FiniteElement<Pyramid>: Vec3,Pyramid)', () => {
  const el = volumeElementOfTemplate('Vec3d,Pyramid')!;
  const [young, nu] = [1000, 0.3];
  const lambda = (young * nu) / ((1 + nu) * (1 - 2 * nu)),
    mu = young / (2 * (1 + nu));

  it("is the element of template Vec3,Pyramid: 5 nodes, stable_polar by default (SOFA's first rotation method)", () => {
    expect(el.name).to.equal('Pyramid');
    expect(el.nodes).to.equal(5);
    expect(el.defaultRotation).to.equal('stable_polar');
  });

  it('returns the exact volume; K is symmetric and its rigid modes give no force', () => {
    const X = pyramidNodes(3);
    const K = new Float64Array(225);
    const V = el.stiffness(K, X, lambda + 2 * mu, lambda, mu);
    expect(V).to.be.closeTo(volumeByTetrahedra(X), 1e-12);
    let scale = 0;
    for (let i = 0; i < 15; i++)
      for (let j = 0; j < 15; j++) {
        scale = Math.max(scale, Math.abs(K[15 * i + j]));
        expect(K[15 * i + j]).to.be.closeTo(K[15 * j + i], 1e-9 * scale + 1e-12);
      }
    // translations and an infinitesimal rotation ω × X
    const w = [0.3, -0.2, 0.5];
    const modes = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ].map((t) => Float64Array.from({ length: 15 }, (_, k) => t[k % 3]));
    modes.push(
      Float64Array.from({ length: 15 }, (_, k) => {
        const p = [X[k - (k % 3)], X[k - (k % 3) + 1], X[k - (k % 3) + 2]];
        const c = [w[1] * p[2] - w[2] * p[1], w[2] * p[0] - w[0] * p[2], w[0] * p[1] - w[1] * p[0]];
        return c[k % 3];
      }),
    );
    for (const u of modes)
      for (let i = 0; i < 15; i++)
        expect(Math.abs(K.subarray(15 * i, 15 * i + 15).reduce((s, k, j) => s + k * u[j], 0))).to.be.below(1e-9 * scale);
  });

  it('patch test: a linear displacement u = G·X has the energy ½·V·ε:σ exactly', () => {
    const X = pyramidNodes(5);
    const K = new Float64Array(225);
    const V = el.stiffness(K, X, lambda + 2 * mu, lambda, mu);
    const G = [
      [0.01, 0.02, -0.005],
      [0.003, -0.01, 0.004],
      [0.006, 0.001, 0.02],
    ];
    const u = Float64Array.from({ length: 15 }, (_, k) => G[k % 3].reduce((s, g, c) => s + g * X[k - (k % 3) + c], 0));
    let energy = 0;
    for (let i = 0; i < 15; i++) for (let j = 0; j < 15; j++) energy += 0.5 * u[i] * K[15 * i + j] * u[j];
    const eps = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (G[i][j] + G[j][i]) / 2));
    const tr = eps[0][0] + eps[1][1] + eps[2][2];
    let es = 0;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) es += eps[i][j] * ((i === j ? lambda * tr : 0) + 2 * mu * eps[i][j]);
    expect(energy).to.be.closeTo(0.5 * V * es, 1e-10 * Math.abs(energy));
  });

  it("mass: SOFA's 8-point rule with the pyramid shape functions, evaluated directly; total ρ·V exact", () => {
    const X = pyramidNodes(7);
    const rho = [2, 3, 4, 5, 6];
    const M = pyramidMassMatrix(new Float64Array(25), X, rho);
    const expected = new Float64Array(25);
    for (const q of gauss) {
      const { N } = shape(q);
      const d = N.reduce((s, n, k) => s + n * rho[k], 0) * Math.abs(detJ(X, q));
      for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) expected[5 * i + j] += d * N[i] * N[j];
    }
    for (let k = 0; k < 25; k++) expect(M[k]).to.be.closeTo(expected[k], 1e-13);
    // uniform density: 1ᵀ·M·1 = ρ·V (the rule integrates det J, of degree 2 per axis, exactly)
    const M1 = pyramidMassMatrix(new Float64Array(25), X, [7, 7, 7, 7, 7]);
    expect(M1.reduce((s, m) => s + m, 0)).to.be.closeTo(7 * volumeByTetrahedra(X), 1e-12);
  });
});
