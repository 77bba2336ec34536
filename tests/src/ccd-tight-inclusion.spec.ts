import { expect } from 'chai';
import { loadSceneFromString, collision, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * CCDTightInclusionIntersection through the XML path: a point fast enough to cross a floor of
 * triangles within one step (tunnelling) is stopped at the minimum separation by the continuous
 * detection (FreeMotion sweeps the boxes over the free motion), not by the discrete detections;
 * the detection outputs follow SOFA (points at the start of the step, normal of the triangle,
 * value = distance at the start − ms).
 */

const g = 10;
const dt = 0.01;
const ms = 0.01; // contactDistance of the method (the models have none)

async function fallingPoint(intersection: string, z0: number, vx: number, vz: number): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${dt}" gravity="0 0 ${-g}">
    <FreeMotionAnimationLoop/>
    <BlockGaussSeidelConstraintSolver maxIterations="100" tolerance="1e-14"/>
    <CollisionPipeline/>
    <BruteForceBroadPhase/>
    <BVHNarrowPhase/>
    ${intersection}
    <CollisionResponse response="FrictionContactConstraint" responseParams="mu=0"/>
    <Node name="floor">
      <MeshTopology position="-5 -5 0  5 -5 0  5 5 0  -5 5 0" triangles="0 1 2  0 2 3"/>
      <MechanicalObject/>
      <TriangleCollisionModel name="floorModel" simulated="0" moving="0"/>
    </Node>
    <Node name="ball">
      <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
      <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
      <MechanicalObject name="dofs" position="0.5 0.25 ${z0}" velocity="${vx} 0 ${vz}"/>
      <UniformMass totalMass="1"/>
      <UncoupledConstraintCorrection/>
      <PointCollisionModel name="ballModel"/>
    </Node>
  </Node>`);
}

// The box tests reach alarmDistance (+ the models' contactDistance): alarmDistance = ms keeps a point
// resting at the separation in the tests (with alarmDistance 0 it would slip through the boxes).
const ccd = (type: string): string =>
  `<CCDTightInclusionIntersection continuousCollisionType="${type}" alarmDistance="${ms}" contactDistance="${ms}" maxIterations="100"/>`;

describe('CCDTightInclusionIntersection (scenes)', () => {
  it('a point crossing the floor within one step is stopped at the minimum separation, then rests there', async () => {
    const s = await fallingPoint(ccd('FreeMotion'), 0.3, 0, -50);
    const x = s.get<BaseMechanicalState>('ball/dofs')!;
    s.step();
    // free motion: z = 0.3 + dt·v_free (−0.2 and below): crossed; the contact holds z at ms
    expect(x.x[2]).to.be.closeTo(ms, 1e-10);
    expect(x.v[2]).to.be.closeTo((ms - 0.3) / dt, 1e-8); // v = (x − x_start)/dt
    s.step(20);
    expect(x.x[2]).to.be.closeTo(ms, 1e-10);
    expect(x.v[2]).to.be.closeTo(0, 1e-8);
    expect(x.x[0]).to.equal(0.5);
  });

  it('without swept boxes (continuousCollisionType="None") or with a discrete method, the same point tunnels through', async () => {
    const none = await fallingPoint(ccd('None'), 0.3, 0, -50);
    none.step();
    expect(none.get<BaseMechanicalState>('ball/dofs')!.x[2]).to.be.below(-0.19);
    const discrete = await fallingPoint('<NewProximityIntersection alarmDistance="0.2" contactDistance="0.01"/>', 0.3, 0, -50);
    discrete.step();
    expect(discrete.get<BaseMechanicalState>('ball/dofs')!.x[2]).to.be.below(-0.19);
  });

  it("detection outputs: triangle point from the projection at the time of impact, the point at the start, the triangle's normal, value = start distance − ms", async () => {
    const s = await fallingPoint(ccd('FreeMotion'), 0.3, 20, -50);
    s.step();
    const narrow = s.root.objects.find((o) => o.className === 'BVHNarrowPhase') as collision.NarrowPhase;
    const pairs = narrow.getDetectionOutputs();
    expect(pairs.length).to.equal(1);
    const { a, b, outputs: out } = pairs[0];
    expect(a.getName()).to.equal('floorModel');
    expect(b.getName()).to.equal('ballModel');
    expect(out.count).to.equal(1);
    expect(Array.from(out.normal.subarray(0, 3))).to.deep.equal([0, 0, 1]);
    expect(Array.from(out.point1.subarray(0, 3))).to.deep.equal([0.5, 0.25, 0.3]);
    expect(out.value[0]).to.be.closeTo(0.3 - ms, 1e-15);
    expect(out.id[0]).to.equal(0); // the point's index (the point model has fewer elements: SOFA's rule picks the bigger model's)
    // x_free = 0.3 + dt·v_free: the point meets the skin (z = ms) at t* = (0.3 − ms)/(0.3 − z_free);
    // the conservative time of impact is at most t*, so point0.x ∈ [0.5, 0.5 + t*·Δx]
    const zFree = 0.3 + dt * (-50 - g * dt),
      xFree = 0.5 + dt * 20;
    const tStar = (0.3 - ms) / (0.3 - zFree);
    expect(out.point0[2]).to.be.closeTo(0, 1e-15);
    expect(out.point0[1]).to.be.closeTo(0.25, 1e-15);
    expect(out.point0[0]).to.be.at.least(0.5);
    expect(out.point0[0]).to.be.at.most(0.5 + tStar * (xFree - 0.5) + 1e-12);
  });

  it('refuses maxIterations ≤ 0 (an unlimited search never ends on queries with a minimum separation)', async () => {
    let error: unknown;
    try {
      await loadSceneFromString('<Node name="root"><CCDTightInclusionIntersection maxIterations="0"/></Node>');
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/maxIterations/);
  });
});
