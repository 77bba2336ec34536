import { expect } from 'chai';
import { loadSceneFromString, verifyCheckpoint, collision, type BaseMechanicalState } from 'sofa-ts';

/**
 * RayTraceNarrowPhase through the XML path: a rigid box (its surface a TriangleOctreeCollisionModel
 * under a RigidMapping) dropped on a fixed slab stays in the slab's top, where without detection it
 * falls through; a run resumed from a checkpoint goes on bit for bit (the point normals are made of the
 * previous step's triangle normals, which the checkpoint keeps).
 */

/** The 12 triangles of a box on corners (x + 2y + 4z bits), oriented outwards, the top face first. */
const boxTriangles = '4 5 6  5 7 6  0 2 1  1 2 3  0 1 4  1 5 4  2 6 3  3 6 7  0 4 2  2 4 6  1 3 5  3 7 5';

function corners(lo: number[], hi: number[]): string {
  const p: number[] = [];
  for (let c = 0; c < 8; c++) p.push(c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]);
  return p.join(' ');
}

function scene(narrowPhase: string): string {
  return `<Node name="root" dt="0.01" gravity="0 0 -10">
    <DefaultAnimationLoop/>
    <CollisionPipeline/>
    <BruteForceBroadPhase/>
    <${narrowPhase}/>
    <NewProximityIntersection alarmDistance="0.5" contactDistance="0.05"/>
    <CollisionResponse response="PenalityContactForceField"/>
    <Node name="slab">
      <MeshTopology position="${corners([-10, -10, -2], [10, 10, 0])}" triangles="${boxTriangles}"/>
      <MechanicalObject/>
      <TriangleOctreeCollisionModel name="slabModel" simulated="0" moving="0" contactStiffness="1"/>
    </Node>
    <Node name="body">
      <EulerImplicitSolver rayleighMass="2"/>
      <CGLinearSolver iterations="100" tolerance="1e-14" threshold="1e-20"/>
      <MechanicalObject name="rigid" template="Rigid3d" position="0.3 -0.2 1.2  0 0 0 1"/>
      <UniformMass totalMass="1"/>
      <Node name="surface">
        <MeshTopology position="${corners([-1, -1.5, -1], [1, 1.5, 1])}" triangles="${boxTriangles}"/>
        <MechanicalObject name="points"/>
        <TriangleOctreeCollisionModel name="bodyModel" contactStiffness="1"/>
        <RigidMapping/>
      </Node>
    </Node>
  </Node>`;
}

function lowest(x: Float64Array): number {
  let z = Infinity;
  for (let i = 2; i < x.length; i += 3) z = Math.min(z, x[i]);
  return z;
}

describe('RayTraceNarrowPhase in a scene', function () {
  this.timeout(60000);

  it('a rigid box dropped 0.2 above a fixed slab is held in it (with its collision model inactive it falls through)', async () => {
    const s = await loadSceneFromString(scene('RayTraceNarrowPhase'));
    const points = s.get<BaseMechanicalState>('body/surface/points')!;
    let min = Infinity,
      max = -Infinity,
      contacts = 0;
    for (let k = 0; k < 300; k++) {
      s.step(1);
      if (k < 100) continue;
      const z = lowest(points.x);
      min = Math.min(min, z);
      max = Math.max(max, z);
      s.root.visit((n) => {
        for (const o of n.objects) if (o instanceof collision.PenalityContactForceField) contacts += o.count;
      });
    }
    expect(contacts).to.be.greaterThan(0);
    // held in the slab's top (2 thick): only its corners make contacts, along their uneven normals
    // (12 triangles), so it rocks and sinks by up to a half side, not a closed-form rest
    expect(min).to.be.above(-1.5);
    expect(max).to.be.below(0.5);
    // the same box with its collision model inactive falls through the slab (at most g/2 = 5 m/s: rayleighMass)
    const free = await loadSceneFromString(scene('RayTraceNarrowPhase').replace('name="bodyModel"', 'name="bodyModel" active="0"'));
    free.step(200);
    expect(lowest(free.get<BaseMechanicalState>('body/surface/points')!.x)).to.be.below(-5);
  });

  it('checkpoint and resume at step 60 of 120 go on bit for bit', async () => {
    const v = await verifyCheckpoint(() => loadSceneFromString(scene('RayTraceNarrowPhase')), 120, 60);
    expect(v.mismatch).to.equal(undefined);
    expect(v.warnings).to.deep.equal([]);
  });
});
