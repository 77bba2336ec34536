import { expect } from 'chai';
import { DiagonalMass } from './DiagonalMass.js';
import { buildNode, gridHexahedra, gridPoints, gridTetrahedra, rng, StubTopology } from './mesh-test-support.js';

function mass(
  attrs: Partial<Record<'totalMass' | 'massDensity' | 'computeMassOnRest', number | boolean>> & { vertexMass?: number[] } = {},
): DiagonalMass {
  const m = new DiagonalMass();
  if (attrs.totalMass !== undefined) m.totalMass.value = attrs.totalMass as number;
  if (attrs.massDensity !== undefined) m.massDensity.value = attrs.massDensity as number;
  if (attrs.computeMassOnRest !== undefined) m.computeMassOnRest.value = attrs.computeMassOnRest as boolean;
  if (attrs.vertexMass) m.vertexMass.value = Float64Array.from(attrs.vertexMass);
  return m;
}

const sum = (a: ArrayLike<number>): number => Array.from(a).reduce((s, x) => s + x, 0);

describe('DiagonalMass', () => {
  it('gives each vertex of a tetrahedron ρV/4, V = |det[p1−p0, p2−p0, p3−p0]|/6', () => {
    // A tetrahedron with edges a, b, c along the axes: V = abc/6.
    const [a, b, c] = [2, 3, 0.5];
    const m = mass({ massDensity: 7 });
    buildNode([0, 0, 0, a, 0, 0, 0, b, 0, 0, 0, c], new StubTopology(4, { tetrahedra: [0, 1, 2, 3] }), [m]);
    for (const mi of m.pointMasses) expect(mi).to.be.closeTo((7 * a * b * c) / 6 / 4, 1e-14);
    expect(m.totalMass.value).to.be.closeTo((7 * a * b * c) / 6, 1e-14);
  });

  it('lumps a tetrahedral box to ρ·(box volume), a quarter of each tetrahedron per vertex', () => {
    const [nx, ny, nz, sx, sy, sz] = [4, 3, 3, 2, 1, 1.5];
    const pts = gridPoints(nx, ny, nz, sx, sy, sz);
    const tets = gridTetrahedra(nx, ny, nz);
    const m = mass({ massDensity: 3 });
    buildNode(pts, new StubTopology(pts.length / 3, { tetrahedra: tets, triangles: [0, 1, 2] }), [m]);
    expect(sum(m.pointMasses)).to.be.closeTo(3 * sx * sy * sz, 1e-12);
    // Each tetrahedron of a cell has volume V_cell/6; count the tetrahedra around each vertex.
    const vCell = (sx / (nx - 1)) * (sy / (ny - 1)) * (sz / (nz - 1));
    const count = new Array<number>(pts.length / 3).fill(0);
    for (const v of tets) count[v]++;
    count.forEach((k, i) => expect(m.pointMasses[i]).to.be.closeTo((3 * k * vCell) / 6 / 4, 1e-13));
  });

  it('shares ρV/8 of each hexahedron, ρA/4 of each quad, ρA/3 of each triangle, ρL/2 of each edge', () => {
    const pts = gridPoints(3, 3, 3, 2, 2, 2);
    const hm = mass({ massDensity: 2 });
    buildNode(pts, new StubTopology(27, { hexahedra: gridHexahedra(3, 3, 3), tetrahedra: [0, 1, 3, 9] }), [hm]);
    expect(hm.pointMasses[0]).to.be.closeTo((2 * 1) / 8, 1e-14); // corner: one unit cell
    expect(hm.pointMasses[13]).to.be.closeTo((8 * 2) / 8, 1e-14); // centre: eight cells
    expect(hm.totalMass.value).to.be.closeTo(2 * 8, 1e-12);

    // A 2 × 1 rectangle split in two quads, and in triangles.
    const rect = [0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0];
    const qm = mass({ massDensity: 5 });
    buildNode(rect, new StubTopology(6, { quads: [0, 1, 4, 3, 1, 2, 5, 4], triangles: [0, 1, 4] }), [qm]);
    expect(Array.from(qm.pointMasses)).to.deep.equal([1.25, 2.5, 1.25, 1.25, 2.5, 1.25]);
    const tm = mass({ massDensity: 6 });
    buildNode(rect, new StubTopology(6, { triangles: [0, 1, 4, 0, 4, 3] }), [tm]);
    expect(tm.pointMasses[0]).to.be.closeTo(2, 1e-15); // two triangles of area ½: 6·½/3 each
    expect(tm.pointMasses[1]).to.be.closeTo(1, 1e-15);
    expect(tm.pointMasses[2]).to.equal(0);
    const em = mass({ massDensity: 4 });
    buildNode([0, 0, 0, 3, 4, 0, 3, 4, 12], new StubTopology(3, { edges: [0, 1, 1, 2] }), [em]);
    expect(Array.from(em.pointMasses)).to.deep.equal([10, 34, 24]); // lengths 5 and 12
  });

  it('follows SOFA priorities: totalMass over massDensity over vertexMass, default totalMass = 1', () => {
    const pts = gridPoints(2, 2, 2, 1, 2, 3);
    const topo = () => new StubTopology(8, { hexahedra: gridHexahedra(2, 2, 2) });
    const both = mass({ totalMass: 12, massDensity: 100 });
    buildNode(pts, topo(), [both]);
    expect(sum(both.pointMasses)).to.be.closeTo(12, 1e-12);
    expect(both.massDensity.value).to.be.closeTo(2, 1e-14); // 12 / volume 6

    const dv = mass({ massDensity: 0.5, vertexMass: [1, 1, 1, 1, 1, 1, 1, 1] });
    buildNode(pts, topo(), [dv]);
    expect(dv.totalMass.value).to.be.closeTo(3, 1e-14);

    const vm = [1, 2, 3, 4, 5, 6, 7, 8];
    const v = mass({ vertexMass: vm });
    buildNode(pts, topo(), [v]);
    expect(Array.from(v.pointMasses)).to.deep.equal(vm);
    expect(v.totalMass.value).to.equal(36);
    expect(v.massDensity.value).to.be.closeTo(36 / 6, 1e-14);

    // A negative vertex mass falls back to totalMass (its default, 1); a short list is padded with its last value.
    const bad = mass({ vertexMass: [1, -1, 1, 1, 1, 1, 1, 1] });
    buildNode(pts, topo(), [bad]);
    expect(sum(bad.pointMasses)).to.be.closeTo(1, 1e-14);
    const short = mass({ vertexMass: [3, 2] });
    buildNode(pts, topo(), [short]);
    expect(Array.from(short.pointMasses)).to.deep.equal([3, 2, 2, 2, 2, 2, 2, 2]);

    const none = mass();
    buildNode(pts, topo(), [none]);
    expect(sum(none.pointMasses)).to.be.closeTo(1, 1e-14);
    none.pointMasses.forEach((mi) => expect(mi).to.be.closeTo(1 / 8, 1e-15));
  });

  it('measures the rest positions unless computeMassOnRest is off', () => {
    const onRest = mass({ massDensity: 1 });
    const onPos = mass({ massDensity: 1, computeMassOnRest: false });
    for (const m of [onRest, onPos])
      buildNode([0, 0, 0, 5, 0, 0], new StubTopology(2, { edges: [0, 1] }), [m], { rest: [0, 0, 0, 2, 0, 0] });
    expect(Array.from(onRest.pointMasses)).to.deep.equal([1, 1]);
    expect(Array.from(onPos.pointMasses)).to.deep.equal([2.5, 2.5]);
  });

  it('is diagonal: M·dx, the assembled M, M⁻¹f, gravity f = m·g and the energies agree', () => {
    const r = rng(3);
    const pts = gridPoints(3, 2, 2, 1, 1, 1).map((p) => p + 0.1 * r());
    const m = mass({ totalMass: 5 });
    const { node } = buildNode(pts, new StubTopology(12, { tetrahedra: gridTetrahedra(3, 2, 2) }), [m], { gravity: [1, -2, 3] });
    expect(node.getGravity()[2]).to.equal(3);
    const n = 36;
    const dx = Float64Array.from({ length: n }, () => r());
    const out = new Float64Array(n);
    m.addMDx(out, dx, 2);
    const diag = new Float64Array(n);
    m.addMToMatrix(
      {
        add: (i, j, v) => {
          expect(i).to.equal(j);
          diag[i] += v;
        },
      },
      2,
    );
    for (let i = 0; i < n; i++) expect(out[i]).to.be.closeTo(diag[i] * dx[i], 1e-14);
    const a = new Float64Array(n);
    m.accFromF(a, out);
    for (let i = 0; i < n; i++) expect(a[i]).to.be.closeTo(2 * dx[i], 1e-12);
    const f = new Float64Array(n);
    m.addForce(f, new Float64Array(n), new Float64Array(n));
    let fx = 0,
      fy = 0,
      fz = 0;
    for (let i = 0; i < 12; i++) [fx, fy, fz] = [fx + f[3 * i], fy + f[3 * i + 1], fz + f[3 * i + 2]];
    expect([fx, fy, fz].map((x) => +x.toFixed(12))).to.deep.equal([5, -10, 15]);
    expect(m.getKineticEnergy(dx)).to.be.closeTo(0.25 * sum(out.map((o, i) => o * dx[i])), 1e-12);
    expect(m.isDiagonal).to.equal(true);
  });

  it('works on 2D states (triangle areas in the plane)', () => {
    const m = mass({ massDensity: 2 });
    buildNode([0, 0, 4, 0, 0, 3], new StubTopology(3, { triangles: [0, 1, 2] }), [m], { template: 'Vec2d' });
    for (const mi of m.pointMasses) expect(mi).to.be.closeTo(4, 1e-14); // 2·6/3
  });

  it('refuses to start without a topology', () => {
    expect(() => buildNode([0, 0, 0], undefined, [mass()])).to.throw(/no topology found/);
  });
});
