import { expect } from 'chai';
import { loadSceneFromString, type SofaScene } from 'sofa-ts';

/**
 * A removal of volumes from a container whose faces and edges nobody read edits the volumes alone
 * (the container's lean mesh); the faces and edges are made when first read, from the volumes of
 * the first change, with the changes replayed (deferred-sub-elements.ts). The oracle is the same
 * scene whose faces and edges were read before the first change (the mesh with faces and edges,
 * SOFA's way): after the same removals every list, the point count, the states and the shells are
 * the same, read before or after further changes.
 */
function scene(volumes: 'tetrahedron' | 'hexahedron', removeIsolated = true): string {
  const container =
    volumes === 'tetrahedron'
      ? `<TetrahedronSetTopologyContainer name="topo"/>
      <TetrahedronSetTopologyModifier name="modifier" removeIsolated="${removeIsolated}"/>
      <Hexa2TetraTopologicalMapping input="@grid" output="@topo" swapping="true"/>`
      : `<HexahedronSetTopologyContainer name="topo" hexahedra="@grid.hexahedra"/>
      <HexahedronSetTopologyModifier name="modifier" removeIsolated="${removeIsolated}"/>`;
  return `<Node name="root" dt="0.01" gravity="0 -9.8 0">
    <DefaultAnimationLoop/>
    <Node name="beam">
      <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
      <CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-20"/>
      <RegularGridTopology name="grid" n="4 3 6" min="0 0 0" max="3 2 5"/>
      <MechanicalObject name="dofs"/>
      ${container}
      <DiagonalMass massDensity="1"/>
      <${volumes === 'tetrahedron' ? 'TetrahedronFEMForceField' : 'HexahedronFEMForceField'} youngModulus="500" poissonRatio="0.3" method="large"/>
      <BoxROI name="roi" box="-0.1 -0.1 -0.1 3.1 2.1 0.1"/>
      <FixedProjectiveConstraint indices="@roi.indices"/>
    </Node>
  </Node>`;
}

type Container = {
  getTriangles(): Uint32Array;
  getQuads(): Uint32Array;
  getEdges(): Uint32Array;
  getTetrahedra(): Uint32Array;
  getHexahedra(): Uint32Array;
  getNbPoints(): number;
  getTrianglesAroundVertex(p: number): Uint32Array;
  waitingKinds: readonly string[];
  dynamicMesh(): { check(): string[] };
};
type Modifier = {
  removeTetrahedra(ids: readonly number[], removeIsolatedItems?: boolean): void;
  removeHexahedra(ids: readonly number[], removeIsolatedItems?: boolean): void;
  removeTriangles(ids: readonly number[], removeIsolatedEdges?: boolean, removeIsolatedPoints?: boolean): void;
};
const topo = (s: SofaScene) => s.get('/beam/topo') as unknown as Container;
const modifier = (s: SofaScene) => s.get('/beam/modifier') as unknown as Modifier;
const positions = (s: SofaScene) =>
  Array.from((s.get('/beam/dofs') as unknown as { position: { value: Float64Array } }).position.value, String);
const lists = (c: Container) => ({
  points: c.getNbPoints(),
  tetrahedra: Array.from(c.getTetrahedra()),
  hexahedra: Array.from(c.getHexahedra()),
  triangles: Array.from(c.getTriangles()),
  quads: Array.from(c.getQuads()),
  edges: Array.from(c.getEdges()),
});

/** Runs `fn` on the scene and its oracle (the same scene, its faces and edges read before any change: the mesh it edits has them). */
async function withOracle(
  volumes: 'tetrahedron' | 'hexahedron',
  removeIsolated: boolean,
  fn: (lean: SofaScene, full: SofaScene) => void,
): Promise<void> {
  const lean = await loadSceneFromString(scene(volumes, removeIsolated));
  const full = await loadSceneFromString(scene(volumes, removeIsolated));
  try {
    lists(topo(full));
    fn(lean, full);
  } finally {
    lean.dispose();
    full.dispose();
  }
}

/** Every list, the point count and the positions of the scene are its oracle's. */
function expectAsOracle(lean: SofaScene, full: SofaScene): void {
  expect(lists(topo(lean))).to.deep.equal(lists(topo(full)));
  expect(positions(lean)).to.deep.equal(positions(full));
}

function remove(s: SofaScene, volumes: 'tetrahedron' | 'hexahedron', ids: number[], removeIsolatedItems = true): void {
  if (volumes === 'tetrahedron') modifier(s).removeTetrahedra(ids, removeIsolatedItems);
  else modifier(s).removeHexahedra(ids, removeIsolatedItems);
}

describe('A removal of volumes whose faces and edges nobody read (lean mesh)', () => {
  for (const volumes of ['tetrahedron', 'hexahedron'] as const) {
    it(`${volumes}: two removals, then the faces and edges read: the lists, points, states and shells of the mesh that had them all along`, async () => {
      await withOracle(volumes, true, (lean, full) => {
        const first = volumes === 'tetrahedron' ? [0, 5, 6, 7, 40, 41, 42, 43, 44, 45, 89] : [0, 1, 2, 20];
        const second = volumes === 'tetrahedron' ? [3, 10, 11, 12, 13, 60] : [5, 6, 12];
        for (const s of [lean, full]) {
          s.step();
          remove(s, volumes, first);
          s.step();
        }
        expect(topo(lean).waitingKinds.length, 'the lean mesh left its faces and edges').to.be.above(0);
        expect(topo(full).waitingKinds).to.deep.equal([]);
        for (const s of [lean, full]) {
          remove(s, volumes, second);
          s.step(3);
        }
        expect(positions(lean)).to.deep.equal(positions(full));
        expect(topo(lean).waitingKinds.length).to.be.above(0);
        const a = lists(topo(lean));
        expect(topo(lean).waitingKinds, 'read: made').to.deep.equal([]);
        expect(a).to.deep.equal(lists(topo(full)));
        expect(a[volumes === 'tetrahedron' ? 'triangles' : 'quads'].length).to.be.above(0);
        expect(topo(lean).dynamicMesh().check()).to.deep.equal([]);
        // a change after they were made goes on as on the oracle
        for (const s of [lean, full]) {
          remove(s, volumes, [1]);
          s.step();
        }
        expectAsOracle(lean, full);
      });
    });
  }

  it('removeIsolatedItems false and removeIsolated false: the faces, edges and points the oracle keeps are kept', async () => {
    await withOracle('tetrahedron', false, (lean, full) => {
      for (const s of [lean, full]) {
        remove(s, 'tetrahedron', [2, 3, 4, 50], false);
        remove(s, 'tetrahedron', [7, 8]);
        s.step();
      }
      expectAsOracle(lean, full);
    });
  });

  it('points removed without the faces and edges they isolate (removeVolumes with removeIsolatedItems false, points true): the full mesh, whose dangling faces and edges go with them', async () => {
    await withOracle('tetrahedron', true, (lean, full) => {
      for (const s of [lean, full]) {
        (
          modifier(s) as unknown as { ops: { removeVolumes(k: string, ids: number[], items: boolean, points: boolean): void } }
        ).ops.removeVolumes('tetrahedron', [0, 1, 2, 3, 4, 5], false, true);
        s.step();
      }
      expect(topo(lean).waitingKinds).to.deep.equal([]);
      expectAsOracle(lean, full);
    });
  });

  it('a modifier with no container beside it or above: the scene loads and steps; a change says why it cannot', async () => {
    const s = await loadSceneFromString(`<Node name="root" dt="0.01">
      <DefaultAnimationLoop/>
      <Node name="beam"><MechanicalObject name="dofs" position="0 0 0 1 0 0"/><TetrahedronSetTopologyModifier name="modifier"/></Node>
    </Node>`);
    try {
      s.step(2);
      expect(() => modifier(s).removeTetrahedra([0])).to.throw(/no topology container in this node or above/);
    } finally {
      s.dispose();
    }
  });

  it('another kind of change (removeTriangles) makes the faces and edges first, then changes them as on the oracle', async () => {
    await withOracle('tetrahedron', true, (lean, full) => {
      for (const s of [lean, full]) remove(s, 'tetrahedron', [0, 1, 2, 3, 4, 5]);
      expect(topo(lean).waitingKinds.length).to.be.above(0);
      // the shells around a vertex are a read of the faces too
      expect(Array.from(topo(lean).getTrianglesAroundVertex(7))).to.deep.equal(Array.from(topo(full).getTrianglesAroundVertex(7)));
      expect(topo(lean).waitingKinds).to.deep.equal([]);
      for (const s of [lean, full]) modifier(s).removeTriangles([0, 1]);
      expectAsOracle(lean, full);
    });
  });
});
