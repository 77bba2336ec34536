import { expect } from 'chai';
import * as path from 'node:path';
import { loadScene, loadSceneFromString, engine, mechanics, topology, type SofaScene } from 'sofa-ts';
import { corpusRoot, hasCorpus } from './corpus-test-support.js';

const examples = path.join(corpusRoot, 'sofa', 'examples');
const share = path.join(corpusRoot, 'sofa', 'share');
const arr = (a: ArrayLike<number>): number[] => Array.from(a);

async function load(body: string): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="0.1" gravity="0 -10 0"><DefaultAnimationLoop/>${body}</Node>`);
}

/** Every edge of the triangles used exactly twice, once in each direction (a closed, consistently oriented surface). */
function isClosedOriented(tri: Uint32Array): boolean {
  const count = new Map<string, number>();
  for (let i = 0; i < tri.length; i += 3) {
    for (let j = 0; j < 3; j++) {
      const k = `${tri[i + j]},${tri[i + ((j + 1) % 3)]}`;
      count.set(k, (count.get(k) ?? 0) + 1);
    }
  }
  for (const [k, c] of count) {
    const [a, b] = k.split(',');
    if (c !== 1 || count.get(`${b},${a}`) !== 1) return false;
  }
  return true;
}

describe('engines in scenes (XML path)', () => {
  it('an engine fed by a falling state follows it from step to step, and a changed parameter acts at the next read', async () => {
    const s = await load(`
      <Node name="body">
        <EulerExplicitSolver/>
        <MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/>
        <UniformMass vertexMass="1"/>
        <PointsFromIndices name="pfi" position="@dofs.position" indices="2 0"/>
        <TransformEngine name="t" input_position="@dofs.position" translation="0 5 0"/>
        <Node name="copy"><MechanicalObject name="sel" position="@../pfi.indices_position"/></Node>
      </Node>`);
    const dofs = s.get<mechanics.MechanicalObject>('/body/dofs')!;
    const pfi = s.get<engine.PointsFromIndices>('/body/pfi')!;
    const t = s.get<engine.TransformEngine>('/body/t')!;
    expect(s.get<mechanics.MechanicalObject>('/body/copy/sel')!.size).to.equal(2);
    for (let step = 0; step < 3; step++) {
      s.step();
      const x = dofs.x;
      expect(x[1]).to.be.below(0);
      expect(arr(pfi.indicesPosition.value)).to.deep.equal([x[6], x[7], x[8], x[0], x[1], x[2]]);
      expect(arr(t.outputPosition.value)).to.deep.equal(arr(x).map((v, i) => (i % 3 === 1 ? v + 5 : v)));
    }
    t.translation.read('1 0 0');
    expect(t.outputPosition.value[0]).to.equal(dofs.x[0] + 1);
  });

  it("SphereROI, PlaneROI and PairBoxROI select grid points; a FixedProjectiveConstraint holds the sphere's", async () => {
    const s = await load(`
      <Node name="body">
        <EulerImplicitSolver/><CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-12"/>
        <RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="2 2 2"/>
        <MechanicalObject name="dofs"/>
        <UniformMass totalMass="27"/>
        <MeshSpringForceField stiffness="100"/>
        <SphereROI name="sphere" centers="0 0 0" radii="1.1"/>
        <PlaneROI name="plane" plane="0 0 2  2 0 2  2 2 2  0.1"/>
        <PairBoxROI name="pair" inclusiveBox="-0.1 -0.1 -0.1 2.1 2.1 0.1" includedBox="0.5 0.5 -1 1.5 1.5 1"/>
        <FixedProjectiveConstraint indices="@sphere.indices"/>
      </Node>`);
    const id = (i: number, j: number, k: number): number => i + 3 * (j + 3 * k);
    expect(arr(s.get<engine.SphereROI>('/body/sphere')!.indices.value)).to.deep.equal([id(0, 0, 0), id(1, 0, 0), id(0, 1, 0), id(0, 0, 1)]);
    expect(s.get<engine.PlaneROI>('/body/plane')!.indices.value.length).to.equal(9);
    expect(s.get<engine.PairBoxROI>('/body/pair')!.indices.value.length).to.equal(8);
    const x0 = arr(s.get<mechanics.MechanicalObject>('/body/dofs')!.x);
    s.step(3);
    const x = s.get<mechanics.MechanicalObject>('/body/dofs')!.x;
    for (const i of [0, 1, 3, 9]) for (let k = 0; k < 3; k++) expect(x[3 * i + k]).to.equal(x0[3 * i + k]);
    expect(x[3 * 26 + 1]).to.be.below(x0[3 * 26 + 1]);
  });

  it('GenerateGrid feeds a TetrahedronSetTopologyContainer whose volume VolumeFromVolumetricElements measures', async () => {
    const s = await load(`
      <GenerateGrid name="slab" max="0.5 1.5 1" resolution="5 3 4"/>
      <Node name="tetra">
        <TetrahedronSetTopologyContainer name="c" tetrahedra="@../slab.tetrahedra" position="@../slab.output_position"/>
        <MechanicalObject name="dofs"/>
        <VolumeFromVolumetricElements name="v"/>
      </Node>`);
    expect(s.get<mechanics.MechanicalObject>('/tetra/dofs')!.size).to.equal(120);
    expect(s.get<engine.VolumeFromVolumetricElements>('/tetra/v')!.volume.value).to.be.closeTo(0.75, 1e-12);
  });

  it('GenerateRigidMass gives a Rigid3 UniformMass its mass and the frame its centre', async () => {
    const cube = '0 0 0  2 0 0  2 1 0  0 1 0  0 0 1  2 0 1  2 1 1  0 1 1';
    const quads = '0 3 2 1  4 5 6 7  0 1 5 4  1 2 6 5  2 3 7 6  3 0 4 7';
    const s = await load(`
      <Node name="rigid">
        <GenerateRigidMass name="m" density="500" position="${cube}" quads="${quads}"/>
        <MechanicalObject template="Rigid3" name="frame" translation="@m.massCenter"/>
        <UniformMass name="mass" template="Rigid3" vertexMass="@m.rigidMass"/>
      </Node>`);
    expect(arr(s.get<mechanics.MechanicalObject>('/rigid/frame')!.x.subarray(0, 3))).to.deep.equal([1, 0.5, 0.5]);
    expect(s.get<engine.GenerateRigidMass>('/rigid/m')!.mass.value).to.be.closeTo(1000, 1e-9);
  });

  it('MergeMeshes of two grids carries a MeshTopology with shifted elements', async () => {
    const s = await load(`
      <RegularGridTopology name="g1" n="2 2 1" min="0 0 0" max="1 1 0" computeTriangleList="false"/>
      <RegularGridTopology name="g2" n="2 2 1" min="5 0 0" max="6 1 0" computeTriangleList="false"/>
      <MergeMeshes name="m" nbMeshes="2" position1="@g1.position" position2="@g2.position" quads1="@g1.quads" quads2="@g2.quads"/>
      <Node name="merged"><MeshTopology name="t" src="@../m"/><MechanicalObject name="dofs"/></Node>`);
    const t = s.get<topology.MeshTopology>('/merged/t')!;
    expect(arr(t.getQuads())).to.deep.equal([0, 1, 3, 2, 4, 5, 7, 6]);
    expect(s.get<mechanics.MechanicalObject>('/merged/dofs')!.size).to.equal(8);
  });

  (hasCorpus ? it : it.skip)('corpus: SubsetTopology.scn splits square3.msh by its box; the two parts run', async () => {
    const scene = await loadScene(path.join(examples, 'Component/Engine/Select/SubsetTopology.scn'), { dataPaths: [share] });
    const sub = scene.get<engine.SubsetTopology>('/SquareGravity/Subset')!;
    const x = sub.restPosition.value,
      tin = sub.trianglesInROI.value;
    for (const v of tin) expect(x[3 * v]).to.be.within(0.3, 0.6);
    const nIn = tin.length / 3,
      nOut = sub.trianglesOutROI.value.length / 3;
    expect(nIn).to.be.above(0);
    expect(nIn + nOut).to.equal(sub.triangles.value.length / 3);
    scene.step(5);
  });

  (hasCorpus ? it : it.skip)('corpus: liver.vtk (binary legacy) loads as a closed, consistently oriented surface', async () => {
    const scene = await loadScene(path.join(examples, 'Component/IO/Mesh/MeshVTKLoader.scn'), { dataPaths: [share] });
    const l = scene.root.children[0].objects.find((o) => o.className === 'MeshVTKLoader') as topology.MeshVTKLoader;
    expect(l.position.value.length / 3).to.equal(5008);
    expect(l.triangles.value.length / 3).to.equal(10000);
    expect(isClosedOriented(l.triangles.value)).to.equal(true);
  });

  (hasCorpus ? it : it.skip)('corpus: the engine, IO and grid scenes unlocked here load and step', async () => {
    const scenes = [
      'Component/Engine/Transform/TransformEngine.scn',
      'Component/Engine/Transform/TransformMatrixEngine.scn',
      'Component/Engine/Transform/vertex2frame.scn',
      'Component/Engine/Generate/MergeMeshes.scn',
      'Component/Engine/Generate/ExtrudeSurface.scn',
      'Component/Engine/Select/MeshBoundaryROI.scn',
      'Component/Topology/Container/Grid/CylinderGridTopology.scn',
      'Component/Topology/Container/Grid/SphereGridTopology.scn',
      'Component/IO/Mesh/VoxelGridLoader.scn',
      'Component/Constraint/Projective/PlaneConstraint.scn',
    ];
    for (const f of scenes) {
      const scene = await loadScene(path.join(examples, f), { dataPaths: [share, examples] });
      scene.step(2);
    }
  });
});
