import { expect } from 'chai';
import { sofaComponent, type GridDescription } from '@sofa-ts/core';
import { RegularGridSpringForceField } from './RegularGridSpringForceField.js';
import { buildNode, gridPoints, rng, StubTopology } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';

/** A grid topology stub that names itself RegularGridTopology, as the node's grid would. */
@sofaComponent({ name: 'RegularGridTopology', category: 'Topology', description: 'test stub' })
class GridStub extends StubTopology {
  constructor(private readonly grid: GridDescription) {
    super(grid.n[0] * grid.n[1] * grid.n[2]);
  }
  override getGrid(): GridDescription {
    return this.grid;
  }
}

interface Spring {
  a: number;
  b: number;
  ks: number;
  kd: number;
  rest: number;
}

function springList(g: RegularGridSpringForceField): Spring[] {
  const s = g as unknown as { a: Uint32Array; b: Uint32Array; ks: Float64Array; kd: Float64Array; rest: Float64Array };
  return Array.from({ length: g.springCount }, (_, i) => ({ a: s.a[i], b: s.b[i], ks: s.ks[i], kd: s.kd[i], rest: s.rest[i] }));
}

describe('RegularGridSpringForceField', () => {
  const n: [number, number, number] = [4, 3, 2];
  const size: [number, number, number] = [3, 4, 5];
  const grid: GridDescription = { n, min: [0, 0, 0], max: size };
  const pts = gridPoints(n[0], n[1], n[2], size[0], size[1], size[2]);

  it('lays line, face-diagonal and body-diagonal springs on every cell, with ks = stiffness / rest length', () => {
    const g = new RegularGridSpringForceField();
    g.linesStiffness.value = 10;
    g.quadsStiffness.value = 20;
    g.cubesStiffness.value = 30;
    buildNode(pts, new GridStub(grid), [g]);
    const [nx, ny, nz] = n;
    const lines = (nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1);
    const quads = 2 * ((nx - 1) * (ny - 1) * nz + (nx - 1) * ny * (nz - 1) + nx * (ny - 1) * (nz - 1));
    const cubes = 4 * (nx - 1) * (ny - 1) * (nz - 1);
    const list = springList(g);
    expect(list).to.have.length(lines + quads + cubes);
    // every pair of points of a cell at most one cell apart along each axis is a spring, once
    const seen = new Set<string>();
    const h = [size[0] / (nx - 1), size[1] / (ny - 1), size[2] / (nz - 1)];
    for (const s of list) {
      const key = `${Math.min(s.a, s.b)}-${Math.max(s.a, s.b)}`;
      expect(seen.has(key)).to.equal(false);
      seen.add(key);
      const d = [0, 1, 2].map((k) => Math.abs(pts[3 * s.b + k] - pts[3 * s.a + k]) / h[k]);
      for (const dk of d) expect(Math.abs(dk - Math.round(dk))).to.be.below(1e-12);
      const steps = d.map(Math.round);
      expect(Math.max(...steps)).to.equal(1);
      const kind = steps.reduce((p, q) => p + q, 0);
      const dist = Math.hypot(...[0, 1, 2].map((k) => pts[3 * s.b + k] - pts[3 * s.a + k]));
      expect(s.rest).to.be.closeTo(dist, 1e-14);
      expect(s.ks).to.be.closeTo([10, 20, 30][kind - 1] / dist, 1e-14);
      expect(s.kd).to.be.closeTo(5 / dist, 1e-14);
    }
  });

  it('keeps the custom springs first, and without a RegularGridTopology has only them', () => {
    const g = new RegularGridSpringForceField();
    g.spring.value = Float64Array.of(0, 23, 7, 1, 2.5);
    buildNode(pts, new GridStub(grid), [g]);
    const list = springList(g);
    expect(list[0]).to.deep.equal({ a: 0, b: 23, ks: 7, kd: 1, rest: 2.5 });
    expect(g.customSpringCount).to.equal(1);
    expect(list.length).to.be.greaterThan(1);
    const alone = new RegularGridSpringForceField();
    alone.spring.value = Float64Array.of(0, 23, 7, 1, 2.5);
    buildNode(pts, new StubTopology(24, { edges: [0, 1] }), [alone]);
    expect(alone.springCount).to.equal(1);
  });

  it('takes `stiffness` and `damping` for every spring type, and per-type zero stiffness and damping removes a type', () => {
    const g = new RegularGridSpringForceField();
    g.stiffness.value = Float64Array.of(400);
    g.damping.value = Float64Array.of(4);
    g.cubesStiffness.value = 0;
    g.cubesDamping.value = 0;
    g.cubesStiffness.loc = g.cubesDamping.loc = { file: 't', line: 1, column: 50 };
    g.stiffness.loc = g.damping.loc = { file: 't', line: 1, column: 10 };
    buildNode(pts, new GridStub(grid), [g]);
    const list = springList(g);
    const [nx, ny, nz] = n;
    expect(list).to.have.length(
      (nx - 1) * ny * nz +
        nx * (ny - 1) * nz +
        nx * ny * (nz - 1) +
        2 * ((nx - 1) * (ny - 1) * nz + (nx - 1) * ny * (nz - 1) + nx * (ny - 1) * (nz - 1)),
    );
    for (const s of list) {
      expect(s.ks * s.rest).to.be.closeTo(400, 1e-12);
      expect(s.kd * s.rest).to.be.closeTo(4, 1e-13);
    }
  });

  it('exerts no force at rest, and its K equals the finite differences of the force', () => {
    const g = new RegularGridSpringForceField();
    buildNode(pts, new GridStub(grid), [g]);
    const x = Float64Array.from(pts);
    const v = new Float64Array(x.length);
    const f = new Float64Array(x.length);
    g.addForce([f], [x], [v]);
    for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-12);
    const r = rng(3);
    const xd = x.map((c) => c + 0.3 * r());
    const { K, FD } = stiffnessAndFiniteDifferences(g, xd, v);
    for (let i = 0; i < x.length; i++) for (let j = 0; j < x.length; j++) expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-6 * 100);
  });
});
