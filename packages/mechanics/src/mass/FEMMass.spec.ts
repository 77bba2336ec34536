import { expect } from 'chai';
import { Node } from '@sofa-ts/core';
import { TestTopology, boxGrid, maxAbs, maxAbsDiff, rng } from '../fem/fem-test-support.js';
import { tetrahedraFromHexahedra } from '../fem/volume-elasticity.js';
import { MechanicalObject } from '../MechanicalObject.js';
import { FEMMass } from './FEMMass.js';
import { NodalMassDensity } from './NodalMassDensity.js';

type Kind = 'Tetrahedron' | 'Hexahedron';

/** A node with a box mesh (hexahedra, or 6 tetrahedra per cube), a NodalMassDensity and FEMMass. */
function massScene(kind: Kind, n: [number, number, number], size: [number, number, number], density: Float64Array) {
  const { points, hexa } = boxGrid(n, size);
  const root = new Node('root');
  root.gravity.value = Float64Array.of(0, -9.81, 0);
  const mo = root.addObject(new MechanicalObject());
  mo.position.value = Float64Array.from(points);
  mo.init();
  const tets = kind === 'Tetrahedron' ? tetrahedraFromHexahedra(hexa, n[0] - 1, n[1] - 1) : new Uint32Array(0);
  root.addObject(new TestTopology(points.length / 3, tets, kind === 'Hexahedron' ? hexa : new Uint32Array(0)));
  const rho = root.addObject(new NodalMassDensity());
  rho.property.value = density;
  const mass = root.addObject(new FEMMass());
  mass.template = `Vec3d,${kind}`;
  mass.init();
  return { mass, mo, points };
}

/** The dense 3n × 3n matrix mFactor·M from addMToMatrix. */
function denseM(mass: FEMMass, n: number, factor = 1): Float64Array {
  const M = new Float64Array(n * n);
  mass.addMToMatrix({ add: (r, c, v) => (M[r * n + c] += v) }, factor);
  return M;
}

describe('FEMMass and NodalMassDensity', () => {
  const r = rng(5);

  for (const kind of ['Hexahedron', 'Tetrahedron'] as const) {
    it(`${kind}: the total mass 1ᵀM1 is ∫ρ dV = ρ·abc on a box (closed form)`, () => {
      const [a, b, c] = [0.02, 0.03, 0.2];
      const { mass } = massScene(kind, [3, 4, 6], [a, b, c], Float64Array.of(1100));
      expect(mass.totalMass).to.be.closeTo(1100 * a * b * c, 1e-12 * 1100 * a * b * c);
    });

    it(`${kind}: gravity is M·(1 ⊗ g), addMDx and addMToMatrix give the same M, ½vᵀMv for a uniform v is ½m|v|²`, () => {
      const { mass, mo } = massScene(kind, [2, 3, 3], [1, 1.5, 2], Float64Array.of(3));
      const n = mo.x0.length;
      const M = denseM(mass, n, 2);
      const dx = Float64Array.from({ length: n }, () => r() - 0.5);
      const out = new Float64Array(n);
      mass.addMDx(out, dx, 2);
      const expected = Array.from({ length: n }, (_, i) => M.slice(i * n, i * n + n).reduce((s, m, j) => s + m * dx[j], 0));
      expect(maxAbsDiff(out, expected)).to.be.below(1e-12 * maxAbs(expected));
      const g = Float64Array.from({ length: n }, (_, i) => (i % 3 === 1 ? -9.81 : 0));
      const f = new Float64Array(n);
      mass.addForce(f, mo.x0, new Float64Array(n));
      const Mg = new Float64Array(n);
      mass.addMDx(Mg, g, 1);
      expect(maxAbsDiff(f, Mg)).to.be.below(1e-12 * maxAbs(Mg));
      const v = Float64Array.from({ length: n }, (_, i) => [0.3, -0.2, 0.5][i % 3]);
      expect(mass.getKineticEnergy(v)).to.be.closeTo(0.5 * mass.totalMass * 0.38, 1e-12);
      expect(M.every((m, k) => Math.abs(m - M[(k % n) * n + Math.floor(k / n)]) < 1e-15)).to.equal(true);
    });
  }

  it('one box hexahedron: M_ij = ρ·abc·Π over the axes of 1/3 (same side) or 1/6 (closed form)', () => {
    const [a, b, c] = [0.5, 2, 1.5];
    const { mass, points } = massScene('Hexahedron', [2, 2, 2], [a, b, c], Float64Array.of(7));
    for (let i = 0; i < 8; i++)
      for (let j = 0; j < 8; j++) {
        let expected = 7 * a * b * c;
        for (let k = 0; k < 3; k++) expected *= points[3 * i + k] === points[3 * j + k] ? 1 / 3 : 1 / 6;
        expect(mass.entry(i, j)).to.be.closeTo(expected, 1e-14);
      }
  });

  it('a linear nodal density: ∫ρ dV = ρ(centre)·V, with ρ interpolated from the nodes', () => {
    const [a, b, c] = [1, 2, 3];
    const n: [number, number, number] = [3, 3, 4];
    const { points } = boxGrid(n, [a, b, c]);
    // ρ = 100 + 10x + 20y + 30z at the nodes
    const density = new Float64Array(points.length / 3);
    for (let i = 0; i < density.length; i++) density[i] = 100 + 10 * points[3 * i] + 20 * points[3 * i + 1] + 30 * points[3 * i + 2];
    const { mass } = massScene('Hexahedron', n, [a, b, c], density);
    expect(mass.totalMass).to.be.closeTo((100 + (10 * a) / 2 + (20 * b) / 2 + (30 * c) / 2) * a * b * c, 1e-10);
  });

  it("tetrahedra: SOFA's one-point rule gives ρV/16 for every pair of an element's nodes", () => {
    const { mass } = massScene('Tetrahedron', [2, 2, 2], [1, 1, 1], Float64Array.of(16));
    // 6 tetrahedra of volume 1/6 per cube: M_ij = (number of tetrahedra holding i and j)·16·(1/6)/16
    const { hexa } = boxGrid([2, 2, 2], [1, 1, 1]);
    const tets = tetrahedraFromHexahedra(hexa, 1, 1);
    let offDiagonal = 0;
    for (let i = 0; i < 8; i++)
      for (let j = 0; j < 8; j++) {
        let shared = 0;
        for (let e = 0; e < 6; e++) {
          const t = Array.from(tets.subarray(4 * e, 4 * e + 4));
          if (t.includes(i) && t.includes(j)) shared++;
        }
        if (i !== j && shared > 0) offDiagonal++;
        expect(mass.entry(i, j)).to.be.closeTo(shared / 6, 1e-14);
      }
    expect(offDiagonal).to.be.above(0);
  });

  it('NodalMassDensity: nodes beyond the list take its last value; FEMMass needs one in its node or above', () => {
    const d = new NodalMassDensity();
    d.property.value = Float64Array.of(1, 2, 3);
    expect([d.nodeDensity(0), d.nodeDensity(2), d.nodeDensity(10)]).to.deep.equal([1, 3, 3]);
    const root = new Node('root');
    const mo = root.addObject(new MechanicalObject());
    const { points, hexa } = boxGrid([2, 2, 2], [1, 1, 1]);
    mo.position.value = points;
    mo.init();
    root.addObject(new TestTopology(8, new Uint32Array(0), hexa));
    const mass = root.addObject(new FEMMass());
    mass.template = 'Vec3d,Hexahedron';
    expect(() => mass.init()).to.throw(/no NodalMassDensity found/);
    const child = root.addChild(new Node('child'));
    const m2 = child.addObject(new FEMMass());
    m2.template = 'Vec3d,Hexahedron';
    root.addObject(new NodalMassDensity());
    m2.init();
    expect(m2.totalMass).to.be.closeTo(1, 1e-14);
  });

  it('refuses accFromF (the matrix is not diagonal) and a template without an element type', () => {
    const { mass } = massScene('Hexahedron', [2, 2, 2], [1, 1, 1], Float64Array.of(1));
    expect(() => mass.accFromF(new Float64Array(24), new Float64Array(24))).to.throw(/not diagonal/);
    const bad = new FEMMass();
    expect(() => bad.init()).to.throw(/template must name the element type/);
  });
});
