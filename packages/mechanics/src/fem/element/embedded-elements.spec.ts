import { expect } from 'chai';
import { volumeElementOfTemplate } from './volume-elements.js';

/**
 * Edges, triangles and quads in 3D for the element force fields (SOFA's `Vec3,Triangle`, …), against
 * closed forms of the 3D continuum restricted to the element: the energy ½·uᵀ·K·u of a uniform
 * strain is measure·½·ε:D:ε (λ + 2μ for a stretch along the element with the lateral strain held,
 * μ for an engineering shear γ), translations cost nothing, K is symmetric, and the element's
 * orientation in space does not matter.
 */

const E = 1000,
  nu = 0.3;
const lambda = (E * nu) / ((1 + nu) * (1 - 2 * nu)),
  mu = E / (2 * (1 + nu));

function stiffness(template: string, X: Float64Array): { K: Float64Array; measure: number } {
  const el = volumeElementOfTemplate(template)!;
  const n3 = 3 * el.nodes;
  const K = new Float64Array(n3 * n3);
  const measure = el.stiffness(K, X, lambda + 2 * mu, lambda, mu);
  return { K, measure };
}

/** ½·uᵀ·K·u. */
function energy(K: Float64Array, u: Float64Array): number {
  const n = u.length;
  let e = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) e += u[i] * K[i * n + j] * u[j];
  return e / 2;
}

/** u_i = G·X_i for a displacement gradient G (3 × 3, row-major). */
function linearDisplacement(X: Float64Array, G: number[]): Float64Array {
  const u = new Float64Array(X.length);
  for (let p = 0; p < X.length; p += 3)
    for (let i = 0; i < 3; i++) u[p + i] = G[3 * i] * X[p] + G[3 * i + 1] * X[p + 1] + G[3 * i + 2] * X[p + 2];
  return u;
}

/** Points rotated by the rotation of angle a about the unit axis n (Rodrigues). */
function rotate(X: Float64Array, n: [number, number, number], a: number): Float64Array {
  const c = Math.cos(a),
    s = Math.sin(a);
  const out = new Float64Array(X.length);
  for (let p = 0; p < X.length; p += 3) {
    const x = [X[p], X[p + 1], X[p + 2]];
    const d = n[0] * x[0] + n[1] * x[1] + n[2] * x[2];
    const cr = [n[1] * x[2] - n[2] * x[1], n[2] * x[0] - n[0] * x[2], n[0] * x[1] - n[1] * x[0]];
    for (let i = 0; i < 3; i++) out[p + i] = x[i] * c + cr[i] * s + n[i] * d * (1 - c);
  }
  return out;
}

const triangle = Float64Array.of(0, 0, 0, 2, 0, 0, 0.5, 1.5, 0); // area 1.5
const quad = Float64Array.of(0, 0, 0, 2, 0, 0, 2, 3, 0, 0, 3, 0); // 2 × 3 rectangle
const edge = Float64Array.of(0, 0, 0, 2.5, 0, 0);

describe('edges, triangles and quads in 3D (element force fields)', () => {
  for (const [template, X, measure] of [
    ['Vec3d,Triangle', triangle, 1.5],
    ['Vec3d,Quad', quad, 6],
  ] as const) {
    it(`${template}: the area, and the patch test of a stretch and a shear in the plane`, () => {
      const { K, measure: m } = stiffness(template, X);
      expect(m).to.be.closeTo(measure, 1e-10 * measure);
      const eps = 1e-3;
      // u_x = ε·x: ε_xx = ε, ε_yy = 0 (held), energy A·½·(λ + 2μ)·ε²
      expect(energy(K, linearDisplacement(X, [eps, 0, 0, 0, 0, 0, 0, 0, 0]))).to.be.closeTo(
        measure * 0.5 * (lambda + 2 * mu) * eps * eps,
        1e-9 * measure * mu * eps * eps,
      );
      // u_x = γ·y: engineering shear γ, energy A·½·μ·γ²
      expect(energy(K, linearDisplacement(X, [0, eps, 0, 0, 0, 0, 0, 0, 0]))).to.be.closeTo(
        measure * 0.5 * mu * eps * eps,
        1e-9 * measure * mu * eps * eps,
      );
      // ε_xx = ε_yy = ε: energy A·½·(2(λ + 2μ) + 2λ)·ε²
      expect(energy(K, linearDisplacement(X, [eps, 0, 0, 0, eps, 0, 0, 0, 0]))).to.be.closeTo(
        measure * (2 * lambda + 2 * mu) * eps * eps,
        1e-9 * measure * mu * eps * eps,
      );
    });
  }

  it('Vec3d,Edge: the length, a stretch (λ + 2μ) and a transverse shear (μ)', () => {
    const { K, measure } = stiffness('Vec3d,Edge', edge);
    expect(measure).to.be.closeTo(2.5, 1e-14);
    const eps = 1e-3;
    expect(energy(K, linearDisplacement(edge, [eps, 0, 0, 0, 0, 0, 0, 0, 0]))).to.be.closeTo(
      2.5 * 0.5 * (lambda + 2 * mu) * eps * eps,
      1e-12,
    );
    expect(energy(K, linearDisplacement(edge, [0, 0, 0, eps, 0, 0, 0, 0, 0]))).to.be.closeTo(2.5 * 0.5 * mu * eps * eps, 1e-12);
  });

  for (const [template, X] of [
    ['Vec3d,Triangle', triangle],
    ['Vec3d,Quad', quad],
    ['Vec3d,Edge', edge],
  ] as const) {
    it(`${template}: symmetric, no force for a translation, the same energies once the element is turned in space`, () => {
      const { K } = stiffness(template, X);
      const n = X.length;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(K[i * n + j]).to.be.closeTo(K[j * n + i], 1e-9 * mu);
      const t = new Float64Array(n);
      for (let p = 0; p < n; p += 3) t.set([0.3, -0.2, 0.7], p);
      for (let i = 0; i < n; i++) {
        let f = 0;
        for (let j = 0; j < n; j++) f += K[i * n + j] * t[j];
        expect(f).to.be.closeTo(0, 1e-9 * mu);
      }
      // turned: the same gradient expressed in the turned frame gives the same energy
      const axis: [number, number, number] = [1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)];
      const Y = rotate(X, axis, 0.7);
      const { K: KY } = stiffness(template, Y);
      const u = linearDisplacement(X, [1e-3, 2e-4, 0, -1e-4, 5e-4, 0, 3e-4, 0, 0]);
      expect(energy(KY, rotate(u, axis, 0.7))).to.be.closeTo(energy(K, u), 1e-9 * energy(K, u));
    });
  }
});
