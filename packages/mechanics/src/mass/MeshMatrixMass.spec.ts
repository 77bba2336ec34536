import { expect } from 'chai';
import { create, all } from 'mathjs';
import { MeshMatrixMass } from './MeshMatrixMass.js';
import { buildNode, denseFromEmission, gridHexahedra, gridPoints, gridTetrahedra, rng, StubTopology } from './mesh-test-support.js';

const math = create(all);

function mmm(
  attrs: { totalMass?: number; massDensity?: number[]; lumping?: boolean; vertexMass?: number[]; edgeMass?: number[] } = {},
): MeshMatrixMass {
  const m = new MeshMatrixMass();
  if (attrs.totalMass !== undefined) m.totalMass.value = attrs.totalMass;
  if (attrs.massDensity) m.massDensity.value = Float64Array.from(attrs.massDensity);
  if (attrs.lumping !== undefined) m.lumping.value = attrs.lumping;
  if (attrs.vertexMass) m.vertexMass.value = Float64Array.from(attrs.vertexMass);
  if (attrs.edgeMass) m.edgeMass.value = Float64Array.from(attrs.edgeMass);
  return m;
}

/** Meshes of each element kind, with their closed-form measure (volume, area or length). */
function meshes(): Array<{ name: string; points: number[]; topo: () => StubTopology; measure: number }> {
  const box = gridPoints(3, 3, 2, 2, 1.5, 1);
  const plate = gridPoints(4, 3, 1, 3, 2, 0);
  const nPlate = 12;
  const quads: number[] = [];
  const tris: number[] = [];
  for (let j = 0; j < 2; j++) {
    for (let i = 0; i < 3; i++) {
      const a = i + 4 * j;
      quads.push(a, a + 1, a + 5, a + 4);
      tris.push(a, a + 1, a + 5, a, a + 5, a + 4);
    }
  }
  const line = [0, 0, 0, 1, 0, 0, 1, 2, 0, 1, 2, 2];
  return [
    { name: 'tetrahedra', points: box, topo: () => new StubTopology(18, { tetrahedra: gridTetrahedra(3, 3, 2) }), measure: 3 },
    { name: 'hexahedra', points: box, topo: () => new StubTopology(18, { hexahedra: gridHexahedra(3, 3, 2) }), measure: 3 },
    { name: 'quads', points: plate, topo: () => new StubTopology(nPlate, { quads }), measure: 6 },
    // Triangles in a tilted plane: the area is unchanged by a rotation about x.
    {
      name: 'triangles',
      points: plate.map((p, i) => (i % 3 === 1 ? p * Math.cos(0.3) : i % 3 === 2 ? plate[i - 1] * Math.sin(0.3) : p)),
      topo: () => new StubTopology(nPlate, { triangles: tris }),
      measure: 6,
    },
    { name: 'edges', points: line, topo: () => new StubTopology(4, { edges: [0, 1, 1, 2, 2, 3] }), measure: 5 },
  ];
}

function denseM(m: MeshMatrixMass, n: number, factor = 1): number[][] {
  return denseFromEmission(3 * n, (acc) => m.addMToMatrix(acc, factor));
}

describe('MeshMatrixMass', () => {
  for (const mesh of meshes()) {
    it(`${mesh.name}: 1ᵀM1 = totalMass per axis, M symmetric, lumped diagonal = row sums of the consistent matrix`, () => {
      const n = mesh.points.length / 3;
      const consistent = mmm({ massDensity: [2] });
      buildNode(mesh.points, mesh.topo(), [consistent]);
      const M = denseM(consistent, n);
      expect(consistent.totalMass.value).to.be.closeTo(2 * mesh.measure, 1e-12);
      for (let axis = 0; axis < 3; axis++) {
        let s = 0;
        for (let i = axis; i < 3 * n; i += 3) for (let j = axis; j < 3 * n; j += 3) s += M[i][j];
        expect(s).to.be.closeTo(2 * mesh.measure, 1e-12);
      }
      for (let i = 0; i < 3 * n; i++) for (let j = 0; j < 3 * n; j++) expect(M[i][j]).to.equal(M[j][i]);
      expect(consistent.isDiagonal).to.equal(false);

      const lumped = mmm({ massDensity: [2], lumping: true });
      buildNode(mesh.points, mesh.topo(), [lumped]);
      const L = denseM(lumped, n);
      expect(lumped.isDiagonal).to.equal(true);
      for (let i = 0; i < 3 * n; i++) {
        const rowSum = M[i].reduce((a, b) => a + b, 0);
        expect(L[i][i]).to.be.closeTo(rowSum, 1e-13);
        for (let j = 0; j < 3 * n; j++) if (j !== i) expect(L[i][j]).to.equal(0);
      }
      expect(lumped.totalMass.value).to.be.closeTo(2 * mesh.measure, 1e-12);
    });
  }

  it('gives a tetrahedron the P1 consistent matrix ρV/20·(1 + δij)⊗I, and a triangle ρA/12·(1 + δij)⊗I', () => {
    const tet = mmm({ massDensity: [3] });
    buildNode([0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3], new StubTopology(4, { tetrahedra: [0, 1, 2, 3] }), [tet]);
    const V = 1;
    const M = denseM(tet, 4);
    for (let i = 0; i < 12; i++)
      for (let j = 0; j < 12; j++) {
        const expected = i % 3 === j % 3 ? ((3 * V) / 20) * (i === j ? 2 : 1) : 0;
        expect(M[i][j]).to.be.closeTo(expected, 1e-15);
      }
    const tri = mmm({ massDensity: [6] });
    buildNode([0, 0, 0, 2, 0, 0, 0, 2, 0], new StubTopology(3, { triangles: [0, 1, 2] }), [tri]);
    const T = denseM(tri, 3);
    for (let i = 0; i < 9; i++)
      for (let j = 0; j < 9; j++) expect(T[i][j]).to.be.closeTo(i % 3 === j % 3 ? ((6 * 2) / 12) * (i === j ? 2 : 1) : 0, 1e-15);
  });

  it('addMDx, gravity and kinetic energy agree with the assembled M (consistent: f = M·(1⊗g))', () => {
    const r = rng(5);
    const pts = gridPoints(3, 2, 2, 1, 1, 1).map((p) => p + 0.05 * r());
    const m = mmm({ totalMass: 4 });
    buildNode(pts, new StubTopology(12, { tetrahedra: gridTetrahedra(3, 2, 2) }), [m], { gravity: [0.5, -9.81, 2] });
    const M = math.matrix(denseM(m, 12, 1.5));
    const dx = Array.from({ length: 36 }, () => r());
    const out = new Float64Array(36);
    m.addMDx(out, Float64Array.from(dx), 1.5);
    const ref = math.multiply(M, dx).toArray() as number[];
    ref.forEach((v, i) => expect(out[i]).to.be.closeTo(v, 1e-13));
    const f = new Float64Array(36);
    m.addForce(f, new Float64Array(36), new Float64Array(36));
    const g = Array.from({ length: 36 }, (_, i) => [0.5, -9.81, 2][i % 3] / 1.5);
    (math.multiply(M, g).toArray() as number[]).forEach((v, i) => expect(f[i]).to.be.closeTo(v, 1e-12));
    const e = (0.5 * (math.multiply(dx, math.multiply(M, dx)) as unknown as number)) / 1.5;
    expect(m.getKineticEnergy(Float64Array.from(dx))).to.be.closeTo(e, 1e-12);
    expect(() => m.accFromF(new Float64Array(36), f)).to.throw(/lumping/);
  });

  it('lumped: accFromF inverts the diagonal', () => {
    const m = mmm({ totalMass: 2, lumping: true });
    buildNode(gridPoints(2, 2, 2, 1, 1, 1), new StubTopology(8, { hexahedra: gridHexahedra(2, 2, 2) }), [m]);
    const f = Float64Array.from({ length: 24 }, (_, i) => i + 1);
    const a = new Float64Array(24);
    m.accFromF(a, f);
    for (let i = 0; i < 24; i++) expect(a[i]).to.be.closeTo((i + 1) / (2 / 8), 1e-13);
  });

  it('follows SOFA priorities and keeps given vertexMass and edgeMass', () => {
    const pts = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    const topo = () => new StubTopology(4, { tetrahedra: [0, 1, 2, 3], edges: [0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3] });
    const both = mmm({ totalMass: 6, massDensity: [100] });
    buildNode(pts, topo(), [both]);
    expect(both.massDensity.value[0]).to.be.closeTo(36, 1e-12); // 6 / (1/6)
    const byDefault = mmm();
    buildNode(pts, topo(), [byDefault]);
    expect(byDefault.totalMass.value).to.equal(1);
    expect(Array.from(byDefault.vertexMass.value).reduce((a, b) => a + b, 0)).to.be.closeTo(0.4, 1e-14);
    const given = mmm({ vertexMass: [1, 1, 1, 1], edgeMass: [0.5, 0.5, 0.5, 0.5, 0.5, 0.5] });
    buildNode(pts, topo(), [given]);
    const G = denseM(given, 4);
    expect(G[0][0]).to.equal(1);
    expect(G[0][3]).to.equal(0.5);
    expect(given.totalMass.value).to.equal(7); // SOFA: Σ vertexMass + Σ edgeMass
    // vertexMass without edgeMass needs lumping: otherwise totalMass (1) is used.
    const noEdges = mmm({ vertexMass: [1, 1, 1, 1] });
    buildNode(pts, topo(), [noEdges]);
    expect(noEdges.totalMass.value).to.equal(1);
    const perElement = mmm({ massDensity: [1, 3] });
    buildNode([...pts, 1, 1, 1], new StubTopology(5, { tetrahedra: [0, 1, 2, 3, 1, 2, 3, 4] }), [perElement]);
    expect(perElement.totalMass.value).to.be.closeTo(1 / 6 + 3 * (1 / 3), 1e-14); // second tetrahedron: volume 1/3
  });
});
