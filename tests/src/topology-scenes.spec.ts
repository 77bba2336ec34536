import { expect } from 'chai';
import * as path from 'node:path';
import {
  contextMeshTopology,
  loadScene,
  loadSceneFromString,
  localMeshTopology,
  mechanics,
  type BaseMeshTopology,
  type Node,
} from 'sofa-ts';
import { corpusRoot, hasCorpus } from './corpus-test-support.js';

const examples = path.join(corpusRoot, 'sofa', 'examples');
const share = path.join(corpusRoot, 'sofa', 'share');

function nodeOf(root: Node, name: string): Node {
  const n = root.children.find((c) => c.getName() === name);
  if (!n) throw new Error(`no node ${name}`);
  return n;
}

describe('topology scenes through the XML path', () => {
  (hasCorpus ? it : it.skip)(
    'TetrahedronFEMForceField.scn: grid, tetrahedra from Hexa2Tetra, and which topology each component gets',
    async () => {
      const scene = await loadScene(path.join(examples, 'Component/SolidMechanics/FEM/TetrahedronFEMForceField.scn'), {
        dataPaths: [share],
      });
      for (const name of ['BeamFEM_SMALL', 'BeamFEM_LARGE']) {
        const node = nodeOf(scene.root, name);
        const grid = scene.get<BaseMeshTopology>(`/${name}/grid`)!;
        const tetra = scene.get<BaseMeshTopology>(`/${name}/Tetra_topo`)!;
        expect(grid.getNbPoints()).to.equal(500);
        expect(grid.getHexahedra().length / 8).to.equal(4 * 4 * 19);
        expect(tetra.getTetrahedra().length / 4).to.equal(6 * 4 * 4 * 19);
        expect(tetra.getNbPoints()).to.equal(500);
        // SOFA: the MechanicalObject takes the first topology of its node (the grid, which has
        // positions); force fields and masses take the last one (the tetrahedra)
        expect(localMeshTopology(node)).to.equal(grid);
        expect(contextMeshTopology(node)).to.equal(tetra);
        const dofs = node.objects.find((o) => o instanceof mechanics.MechanicalObject) as mechanics.MechanicalObject;
        expect(dofs.size).to.equal(500);
      }
      // the LARGE beam's points are the grid's, translated by 11 along x at init
      const large = nodeOf(scene.root, 'BeamFEM_LARGE').objects.find(
        (o) => o instanceof mechanics.MechanicalObject,
      ) as mechanics.MechanicalObject;
      expect(Array.from(large.x.subarray(0, 6))).to.deep.equal([6, -5, 0, 8.5, -5, 0]);
    },
  );

  (hasCorpus ? it : it.skip)(
    'EulerExplicitSolver.scn: a grid declared after its MechanicalObject, and its boundary quads for the visual model',
    async () => {
      const scene = await loadScene(path.join(examples, 'Component/ODESolver/Forward/EulerExplicitSolver.scn'), { dataPaths: [share] });
      const dofs = scene.get<mechanics.MechanicalObject>('/DeformableObject/dofs')!;
      expect(dofs.size).to.equal(4 * 4 * 11);
      expect(Array.from(dofs.x.subarray(0, 3))).to.deep.equal([-1.5, -1.5, 0]);
      expect(Array.from(dofs.x.subarray(dofs.x.length - 3))).to.deep.equal([1.5, 1.5, 10]);
      const quads = scene.get<BaseMeshTopology>('/DeformableObject/visual/Container')!;
      // boundary faces of 3 × 3 × 10 cells
      expect(quads.getQuads().length / 4).to.equal(2 * 9 + 4 * 30);
      expect(quads.getNbPoints()).to.equal(176);
    },
  );

  it('a tetrahedron container declared after its mapping, in a child node, gets its elements; the triangle surface follows', async () => {
    const xml = `<Node name="root">
      <DefaultAnimationLoop/>
      <RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="2 2 2"/>
      <Node name="tetra">
        <Hexa2TetraTopologicalMapping input="@../grid" output="@Container" swapping="true"/>
        <TetrahedronSetTopologyContainer name="Container"/>
        <TetrahedronSetTopologyModifier/>
        <TetrahedronSetGeometryAlgorithms template="Vec3"/>
        <Node name="surface">
          <TriangleSetTopologyContainer name="Container"/>
          <TriangleSetTopologyModifier/>
          <Tetra2TriangleTopologicalMapping input="@../Container" output="@Container"/>
        </Node>
      </Node>
    </Node>`;
    const scene = await loadSceneFromString(xml);
    expect(scene.get<BaseMeshTopology>('/tetra/Container')!.getTetrahedra().length / 4).to.equal(48);
    expect(scene.get<BaseMeshTopology>('/tetra/surface/Container')!.getTriangles().length / 3).to.equal(2 * 6 * 4);
  });

  it("a topological mapping naming neither input nor output maps the parent node's topology into its own node's, as SOFA", async () => {
    const xml = (surface: string) => `<Node name="root"><DefaultAnimationLoop/>
      <RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="2 2 2"/>
      <Node name="tetra">
        <TetrahedronSetTopologyContainer name="Container"/><TetrahedronSetTopologyModifier/>
        <Hexa2TetraTopologicalMapping/>
        <Node name="surface">${surface}</Node>
      </Node>
    </Node>`;
    const scene = await loadSceneFromString(
      xml('<TriangleSetTopologyContainer name="Container"/><TriangleSetTopologyModifier/><Tetra2TriangleTopologicalMapping/>'),
    );
    // 8 cells of 6 tetrahedra; the boundary of the 2 × 2 × 2 cube, 2 triangles per face square
    expect(scene.get<BaseMeshTopology>('/tetra/Container')!.getTetrahedra().length / 4).to.equal(48);
    expect(scene.get<BaseMeshTopology>('/tetra/surface/Container')!.getTriangles().length / 3).to.equal(2 * 6 * 4);
    // no container in the mapping's node: SOFA's "@./" finds the input's topology, refused
    let message = '';
    await loadSceneFromString(xml('<Tetra2TriangleTopologicalMapping/>')).catch((e: Error) => (message = e.message));
    expect(message).to.match(/the input and the output are the same topology/);
  });
});
