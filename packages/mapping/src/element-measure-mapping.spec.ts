import { expect } from 'chai';
import { Vec1d, Vec3d } from '@sofa-ts/core';
import { AreaMapping } from './AreaMapping.js';
import { VolumeMapping } from './VolumeMapping.js';
import {
  checkGeometricStiffness,
  checkMultiJacobian,
  checkMultiTranspose,
  emittedGeometricStiffness,
  randomArray,
} from './compliant-test-support.js';
import { StubState, StubTopology, expectValidCsr, mount } from './test-support.js';

/** 5 points, scattered so that no element is degenerate. */
const x0 = [0, 0, 0, 1.2, 0.1, -0.2, 0.2, 0.9, 0.1, 0.3, 0.2, 1.1, 1.1, 1.0, 0.8];
const triangles = Uint32Array.of(0, 1, 2, 1, 4, 2, 0, 3, 1);
const tetrahedra = Uint32Array.of(0, 1, 2, 3, 1, 4, 2, 3);

function setup<M extends AreaMapping | VolumeMapping>(m: M, topo: StubTopology): { m: M; from: StubState; to: StubState } {
  const from = new StubState(Vec3d, x0, 'in');
  const to = new StubState(Vec1d, [0], 'out');
  mount(m, from, to, topo);
  return { m, from, to };
}

describe('AreaMapping', () => {
  it('maps each triangle to its area |(b − a) × (c − a)|/2', () => {
    const { to } = setup(new AreaMapping(), new StubTopology({ triangles }));
    expect(to.size).to.equal(3);
    for (let t = 0; t < 3; t++) {
      const [a, b, c] = [triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]];
      const u = [0, 1, 2].map((k) => x0[3 * b + k] - x0[3 * a + k]),
        w = [0, 1, 2].map((k) => x0[3 * c + k] - x0[3 * a + k]);
      expect(to.x[t]).to.be.closeTo(
        0.5 * Math.hypot(u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]),
        1e-15,
      );
    }
  });

  it('J against finite differences, Jᵀ by the dot-product test, Exact K_geo = Σ λ·∂²A/∂x² against finite differences of Jᵀλ', () => {
    const { m, from, to } = setup(new AreaMapping(), new StubTopology({ triangles }));
    expectValidCsr(m.getJ(0), 3, 15);
    checkMultiJacobian(m, [from], to, 1);
    checkMultiTranspose(m, [15], 3, 2);
    m.geometricStiffness.value = 'Exact';
    checkGeometricStiffness(m, from, randomArray(3, 3), 4);
  });

  it('Stabilized keeps λ < 0 only; quads are refused', () => {
    const { m } = setup(new AreaMapping(), new StubTopology({ triangles }));
    const f = Float64Array.of(-1, 2, -0.5);
    const stab = emittedGeometricStiffness(m, 15, f, 1);
    m.geometricStiffness.value = 'Exact';
    expect(stab.A).to.deep.equal(
      emittedGeometricStiffness(
        m,
        15,
        f.map((v) => Math.min(v, 0)),
        1,
      ).A,
    );
    expect(() => setup(new AreaMapping(), new StubTopology({ triangles, quads: Uint32Array.of(0, 1, 2, 3) }))).to.throw(/has quads/);
  });
});

describe('VolumeMapping', () => {
  it('maps each tetrahedron to its signed volume (x1 − x0)·((x2 − x0) × (x3 − x0))/6', () => {
    const { to } = setup(new VolumeMapping(), new StubTopology({ tetrahedra }));
    for (let t = 0; t < 2; t++) {
      const v = [0, 1, 2, 3].map((i) => tetrahedra[4 * t + i]);
      const d = [1, 2, 3].map((i) => [0, 1, 2].map((k) => x0[3 * v[i] + k] - x0[3 * v[0] + k]));
      const [a, b, c] = d as [number[], number[], number[]];
      const det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
      expect(to.x[t]).to.be.closeTo(det / 6, 1e-15);
    }
  });

  it('J against finite differences, Jᵀ by the dot-product test, Exact K_geo against finite differences of Jᵀλ', () => {
    const { m, from, to } = setup(new VolumeMapping(), new StubTopology({ tetrahedra }));
    checkMultiJacobian(m, [from], to, 5);
    checkMultiTranspose(m, [15], 2, 6);
    m.geometricStiffness.value = 'Exact';
    checkGeometricStiffness(m, from, randomArray(2, 7), 8);
  });
});
