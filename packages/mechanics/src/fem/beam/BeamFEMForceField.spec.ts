import { expect } from 'chai';
import { Rigid3d } from '@sofa-ts/core';
import { buildNode, StubTopology } from '../../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../../load/fd-check-test-support.js';
import { BeamFEMForceField } from './BeamFEMForceField.js';
import { beamStiffness, circularSection } from './beam-kernels.js';
import { maxRelError, quat, rigidMotion } from './beam-test-support.js';

/** Frames along direction u (unit), spacing L, all with orientation q (x y z w). */
function chain(n: number, L: number, u: number[], q: number[]): number[] {
  const x: number[] = [];
  for (let i = 0; i < n; i++) x.push(i * L * u[0], i * L * u[1], i * L * u[2], ...q);
  return x;
}

function beam(n: number, x: number[], E: number, nu: number, r: number): BeamFEMForceField {
  const ff = new BeamFEMForceField();
  ff.youngModulus.value = E;
  ff.poissonRatio.value = nu;
  ff.radius.value = r;
  const edges: number[] = [];
  for (let i = 0; i + 1 < n; i++) edges.push(i, i + 1);
  buildNode(x, new StubTopology(n, { edges }), [ff], { template: 'Rigid3d' });
  return ff;
}

describe('BeamFEMForceField', () => {
  const E = 2e7,
    nu = 0.49,
    r = 0.1;

  it('has the Euler–Bernoulli local stiffness (no shear area: φ = 0), symmetric with the rigid modes in its kernel', () => {
    const s = circularSection(0.1, 0.02);
    expect(s.A).to.be.closeTo(Math.PI * (0.01 - 0.0004), 1e-15);
    expect(s.Iz).to.be.closeTo((Math.PI * (1e-4 - 1.6e-7)) / 4, 1e-18);
    const L = 0.7,
      k = beamStiffness(new Float64Array(144), 0, E, nu, L, s);
    const EI = E * s.Iz;
    expect(k[12 * 1 + 1]).to.be.closeTo((12 * EI) / L ** 3, 1e-9);
    expect(k[12 * 5 + 1]).to.be.closeTo((6 * EI) / L ** 2, 1e-9);
    expect(k[12 * 11 + 5]).to.be.closeTo((2 * EI) / L, 1e-9);
    expect(k[12 * 9 + 9]).to.be.closeTo(((E / (2 * (1 + nu))) * s.J) / L, 1e-9);
    for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) expect(k[12 * i + j]).to.equal(k[12 * j + i]);
    // a rigid rotation about z by δ: node a θz = δ, node b (u_y, θz) = (Lδ, δ) → no force
    const rigid = [0, 0, 0, 0, 0, 1, 0, L, 0, 0, 0, 1];
    for (let i = 0; i < 12; i++) {
      let f = 0;
      for (let j = 0; j < 12; j++) f += k[12 * i + j] * rigid[j];
      expect(Math.abs(f)).to.be.below(1e-6 * k[12 * 1 + 1]);
    }
  });

  it('kernel with shear areas: one clamped element gives the Timoshenko tip deflection PL³/(3EI) + PL/(G·A_s)', () => {
    const L = 0.4,
      s = circularSection(0.05, 0);
    const As = 0.9 * s.A;
    const k = beamStiffness(new Float64Array(144), 0, E, nu, L, { ...s, Asy: As, Asz: As });
    // free node b: k_bb (6×6) · u = F with a tip force P along y
    const P = 3,
      A = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => k[12 * (6 + i) + 6 + j]));
    const u = solveDense(A, [0, P, 0, 0, 0, 0]);
    const G = E / (2 * (1 + nu)),
      EI = E * s.Iz;
    expect(u[1]).to.be.closeTo((P * L ** 3) / (3 * EI) + (P * L) / (G * As), 1e-12);
    expect(u[5]).to.be.closeTo((P * L * L) / (2 * EI), 1e-12);
  });

  it('exerts no force at rest nor at a rigid motion; K equals the finite differences there (Rigid3 increments)', () => {
    const u = [0.6, 0.8, 0],
      q0 = quat([0, 0, 1], Math.atan2(0.8, 0.6));
    const x0 = chain(4, 0.5, u, q0);
    const ff = beam(4, x0, E, nu, r);
    const x = Float64Array.from(x0);
    const f = new Float64Array(24);
    ff.addForce([f], [x], [new Float64Array(24)]);
    for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-6);
    for (const at of [x, rigidMotion(x0, quat([0.36, 0.48, 0.8], 0.7), [1, -2, 0.5])]) {
      const { K, FD } = stiffnessAndFiniteDifferences(ff, at, new Float64Array(24), 1e-6, Rigid3d);
      expect(maxRelError(K, FD)).to.be.below(1e-6);
    }
  });

  it('addDForce applies the K it assembles', () => {
    const x0 = chain(3, 1, [1, 0, 0], [0, 0, 0, 1]);
    const ff = beam(3, x0, E, nu, r);
    const x = Float64Array.from(x0);
    x[8] += 0.01;
    ff.addForce([new Float64Array(18)], [x], [new Float64Array(18)]);
    const K = Array.from({ length: 18 }, () => new Array<number>(18).fill(0));
    ff.addKToMatrix({ add: (i, j, v) => (K[i][j] += v) }, 1);
    const dx = Float64Array.from({ length: 18 }, (_, i) => Math.cos(5 * i));
    const df = new Float64Array(18);
    ff.addDForce([df], [dx], -0.2, 0);
    for (let i = 0; i < 18; i++) {
      let s = 0;
      for (let j = 0; j < 18; j++) s += K[i][j] * dx[j];
      expect(df[i]).to.be.closeTo(-0.2 * s, 1e-9 * E);
    }
  });
});

/** x = A⁻¹·b by Gaussian elimination with partial pivoting (small dense test systems). */
function solveDense(A: number[][], b: number[]): number[] {
  const n = b.length,
    M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = c + 1; r < n; r++) {
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = M[r][n];
    for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k];
    x[r] = s / M[r][r];
  }
  return x;
}
