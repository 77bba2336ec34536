import { expect } from 'chai';
import { create, all } from 'mathjs';
import {
  BaseMeshTopology,
  IndexArray,
  MechanicalSystem,
  RealArray,
  componentModule,
  createRegistry,
  loadSceneFromString,
  sofaComponent,
  type SofaScene,
  mechanics,
} from 'sofa-ts';
import { csrToDense } from '@sofa-ts/linalg';

const math = create(all);

/**
 * A topology given in the scene (points and elements), so these scenes do not depend on the
 * topology package: <TestTopology position="..." tetrahedra="..."/>.
 */
@sofaComponent({ name: 'TestTopology', category: 'Topology', description: 'test topology with explicit elements' })
class TestTopology extends BaseMeshTopology {
  readonly position = this.initData({ name: 'position', type: RealArray(3), default: new Float64Array(0), help: 'points' });
  readonly edges = this.initData({ name: 'edges', type: IndexArray(2), default: new Uint32Array(0), help: 'edges' });
  readonly triangles = this.initData({ name: 'triangles', type: IndexArray(3), default: new Uint32Array(0), help: 'triangles' });
  readonly tetrahedra = this.initData({ name: 'tetrahedra', type: IndexArray(4), default: new Uint32Array(0), help: 'tetrahedra' });
  getNbPoints() {
    return this.position.value.length / 3;
  }
  getPositions() {
    return this.position.value;
  }
  getEdges() {
    return this.edges.value;
  }
  getTriangles() {
    return this.triangles.value;
  }
  getQuads() {
    return new Uint32Array(0);
  }
  getTetrahedra() {
    return this.tetrahedra.value;
  }
  getHexahedra() {
    return new Uint32Array(0);
  }
}

/** A unit cube cut in 6 tetrahedra around its diagonal (0, 6), scaled to (2, 1, 3). */
const cube = {
  position: '0 0 0  2 0 0  2 1 0  0 1 0  0 0 3  2 0 3  2 1 3  0 1 3',
  tetrahedra: '0 1 2 6  0 2 3 6  0 3 7 6  0 7 4 6  0 4 5 6  0 5 1 6',
};

async function scene(body: string, options: { gravity?: string; dt?: number } = {}): Promise<SofaScene> {
  const registry = createRegistry();
  registry.load('test-topology', componentModule('test-topology', [TestTopology]));
  const xml = `<Node name="root" gravity="${options.gravity ?? '0 -9.81 0'}" dt="${options.dt ?? 0.01}">
    <DefaultAnimationLoop/>
    <Node name="body">${body}</Node>
  </Node>`;
  return loadSceneFromString(xml, { registry });
}

const solvers = {
  cg: '<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/><CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-20"/>',
  ldl: '<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/><SparseLDLSolver template="CompressedRowSparseMatrixd"/>',
};

function positions(s: SofaScene): Float64Array {
  return s.get<mechanics.MechanicalObject>('/body/dofs')!.x;
}

describe('masses, loads and projections through scenes', () => {
  for (const mass of [
    '<DiagonalMass massDensity="3"/>',
    '<MeshMatrixMass massDensity="3"/>',
    '<MeshMatrixMass totalMass="2" lumping="1"/>',
  ]) {
    for (const [name, solver] of Object.entries(solvers)) {
      it(`${mass} (${name}): free fall of a mesh is the closed form x_N = x0 + g·dt²·N(N+1)/2 (gravity = M·g)`, async () => {
        const s = await scene(
          `${solver}<TestTopology name="topo" position="${cube.position}" tetrahedra="${cube.tetrahedra}"/><MechanicalObject name="dofs"/>${mass}`,
        );
        const x0 = Float64Array.from(positions(s));
        s.step(5);
        const x = positions(s);
        const fall = -9.81 * 0.01 * 0.01 * 15;
        for (let i = 0; i < 8; i++) {
          expect(x[3 * i]).to.be.closeTo(x0[3 * i], 1e-12);
          expect(x[3 * i + 1]).to.be.closeTo(x0[3 * i + 1] + fall, 1e-11);
        }
      });
    }
  }

  it('DiagonalMass of the scene: Σm = ρ·V, a quarter of each tetrahedron per vertex', async () => {
    const s = await scene(
      `${solvers.cg}<TestTopology position="${cube.position}" tetrahedra="${cube.tetrahedra}"/><MechanicalObject name="dofs"/><DiagonalMass name="mass" massDensity="3"/>`,
    );
    const m = s.get<mechanics.DiagonalMass>('/body/mass')!;
    expect(m.totalMass.value).to.be.closeTo(3 * 6, 1e-12);
    // Vertices 0 and 6 belong to the 6 tetrahedra (volume 1 each), the others to 2.
    expect(m.pointMasses[0]).to.be.closeTo((3 * 6) / 4, 1e-12);
    expect(m.pointMasses[1]).to.be.closeTo((3 * 2) / 4, 1e-12);
  });

  it('ConstantForceField: the momentum Σ M·v grows by totalForce·dt per step', async () => {
    const s = await scene(
      `${solvers.cg}<TestTopology position="${cube.position}" tetrahedra="${cube.tetrahedra}"/><MechanicalObject name="dofs"/><MeshMatrixMass massDensity="1"/><ConstantForceField indices="0 5 6" totalForce="3 0 -6"/>`,
      { gravity: '0 0 0' },
    );
    s.step(4);
    const mass = s.get<mechanics.MeshMatrixMass>('/body/MeshMatrixMass1')!;
    const v = s.get<mechanics.MechanicalObject>('/body/dofs')!.v;
    const Mv = new Float64Array(24);
    mass.addMDx(Mv, v, 1);
    let px = 0,
      pz = 0;
    for (let i = 0; i < 8; i++) [px, pz] = [px + Mv[3 * i], pz + Mv[3 * i + 2]];
    expect(px).to.be.closeTo(3 * 0.04, 1e-12);
    expect(pz).to.be.closeTo(-6 * 0.04, 1e-12);
  });

  it('PlaneForceField: a damped particle rests at the depth where k·δ balances m·g', async () => {
    const s = await scene(
      `${solvers.cg}<MechanicalObject name="dofs" position="0 0.2 0"/><UniformMass vertexMass="0.5"/><PlaneForceField normal="0 1 0" d="0" stiffness="1000" damping="20"/>`,
      { dt: 0.005 },
    );
    s.step(2000);
    expect(positions(s)[1]).to.be.closeTo((-0.5 * 9.81) / 1000, 1e-9);
  });

  it('RestShapeSpringsForceField: points hang at x0 + m·g/k, with each solver', async () => {
    for (const solver of Object.values(solvers)) {
      const s = await scene(
        `${solver}<MechanicalObject name="dofs" position="0 0 0  1 2 3"/><UniformMass vertexMass="2"/><RestShapeSpringsForceField stiffness="50 200"/>`,
        { dt: 0.05 },
      );
      s.step(800);
      // Implicit Euler is dissipative: it settles without damping.
      expect(positions(s)[1]).to.be.closeTo((2 * -9.81) / 50, 1e-8);
      expect(positions(s)[4]).to.be.closeTo(2 + (2 * -9.81) / 200, 1e-8);
    }
  });

  it('PartialFixedProjectiveConstraint: the fixed directions do not move, the others fall freely', async () => {
    const s = await scene(
      `${solvers.ldl}<MechanicalObject name="dofs" position="0 0 0  1 1 1"/><UniformMass totalMass="2"/><PartialFixedConstraint indices="1" fixedDirections="0 1 0"/>`,
      { gravity: '1 -9.81 2' },
    );
    s.step(3);
    const x = positions(s);
    const k = 0.01 * 0.01 * 6;
    expect(Array.from(x).map((v) => +v.toFixed(12))).to.deep.equal([k, -9.81 * k, 2 * k, 1 + k, 1, 1 + 2 * k].map((v) => +v.toFixed(12)));
  });

  for (const [name, solver] of Object.entries(solvers)) {
    it(`FixedPlaneProjectiveConstraint, oblique direction (${name}): the points slide in the plane, x − x0 = dt²·N(N+1)/2·(g − n·(n·g))`, async () => {
      const s = await scene(
        `${solver}<TestTopology position="${cube.position}" tetrahedra="${cube.tetrahedra}"/><MechanicalObject name="dofs"/><MeshMatrixMass massDensity="1" lumping="1"/><FixedPlaneConstraint direction="1 2 -2" indices="0 1 2 3 4 5 6 7"/>`,
      );
      const x0 = Float64Array.from(positions(s));
      s.step(3);
      const x = positions(s);
      const n = [1 / 3, 2 / 3, -2 / 3];
      const g = [0, -9.81, 0];
      const ng = n[0] * g[0] + n[1] * g[1] + n[2] * g[2];
      for (let i = 0; i < 8; i++)
        for (let k = 0; k < 3; k++) expect(x[3 * i + k] - x0[3 * i + k]).to.be.closeTo(1e-4 * 6 * (g[k] - n[k] * ng), 1e-12);
    });
  }

  it('assembles A = P·A₀·P + (I − P) for a non-diagonal projection (dense mathjs oracle)', async () => {
    const body = `<TestTopology position="${cube.position}" tetrahedra="${cube.tetrahedra}"/><MechanicalObject name="dofs"/><MeshMatrixMass massDensity="1"/><RestShapeSpringsForceField stiffness="7"/>`;
    const free = await scene(solvers.ldl + body);
    const A0 = csrToDense(MechanicalSystem.compile(free.getNode('/body')!).assembleMBK({ m: 1, b: 0, k: -0.3 }));
    const s = await scene(solvers.ldl + body + '<FixedPlaneConstraint direction="0 3 4" indices="2 5"/>');
    const A = csrToDense(MechanicalSystem.compile(s.getNode('/body')!).assembleMBK({ m: 1, b: 0, k: -0.3 }));
    const identity = (): number[][] => Array.from({ length: 24 }, (_, i) => Array.from({ length: 24 }, (_, j) => (i === j ? 1 : 0)));
    const P = identity();
    for (const p of [2, 5])
      for (let r = 0; r < 3; r++)
        for (let c = 0; c < 3; c++) P[3 * p + r][3 * p + c] = (r === c ? 1 : 0) - [0, 0.6, 0.8][r] * [0, 0.6, 0.8][c];
    const I = identity();
    const expected = math.add(math.multiply(math.multiply(P, A0), P), math.subtract(I, P)) as number[][];
    for (let i = 0; i < 24; i++) for (let j = 0; j < 24; j++) expect(A[i][j]).to.be.closeTo(expected[i][j], 1e-13);
  });
});
