import { expect } from 'chai';
import { loadSceneFromString, type SofaScene } from 'sofa-ts';

/**
 * Bodies of SOFA's CollisionOBBCapsule plugin falling on a fixed oriented box, through the XML path,
 * against the static equilibrium of the penalty response: one contact under the centre of mass
 * (four, at the corners, for a box lying on the face),
 * rest distance d = contactDistance (0 here) + radius, stiffness k = k₁·k₂/d (k₁·k₂ when d = 0),
 * so at rest k·(d − gap) = m·g and the body's centre sits at
 *   z = top of the box + (radius or half-height) − m·g/k.
 * The box's top is at z = 0.5 (extents 3 3 0.5 at the origin).
 */

const g = 9.81,
  m = 2,
  k1 = 100,
  k2 = 100;

function scene(body: string): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 0 ${-g}">
    <RequiredPlugin pluginName="CollisionOBBCapsule"/>
    <DefaultAnimationLoop/>
    <CollisionPipeline/>
    <BruteForceBroadPhase/>
    <BVHNarrowPhase/>
    <CollisionResponse response="PenalityContactForceField"/>
    <DefaultCollisionGroupManager/>
    <NewProximityIntersection alarmDistance="0.3" contactDistance="0"/>
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="100" tolerance="1e-14" threshold="1e-14"/>
    <Node name="floor">
      <MechanicalObject template="Rigid3d" position="0 0 0 0 0 0 1"/>
      <UniformMass totalMass="1"/>
      <FixedProjectiveConstraint indices="0"/>
      <OBBCollisionModel extents="3 3 0.5" contactStiffness="${k1}"/>
    </Node>
    ${body}
  </Node>`);
}

const position = (s: SofaScene, path: string): Float64Array => s.get(path)!.findData('position')!.value as Float64Array;

describe('CollisionOBBCapsule bodies resting on a box (scene, static equilibrium)', () => {
  it('a capsule on a rigid body settles with its axis at height radius − m·g/k over the face', async () => {
    const r = 0.2;
    const s = await scene(`<Node name="body">
      <MechanicalObject template="Rigid3d" name="frame" position="0 0 1 0 0 0 1"/>
      <UniformMass totalMass="${m}"/>
      <Node name="axis">
        <MechanicalObject name="ends" position="-0.5 0 0  0.5 0 0"/>
        <MeshTopology edges="0 1"/>
        <CapsuleCollisionModel defaultRadius="${r}" contactStiffness="${k2}"/>
        <RigidMapping/>
      </Node>
    </Node>`);
    s.step(300);
    const x = position(s, '/body/frame');
    const k = (k1 * k2) / r;
    expect(x[2]).to.be.closeTo(0.5 + r - (m * g) / k, 1e-7);
    expect(Math.abs(x[0]) + Math.abs(x[1])).to.be.below(1e-9); // no sideways push: the normal is the face's
    const ends = position(s, '/body/axis/ends');
    expect(ends[2]).to.be.closeTo(ends[5], 1e-9); // stays level: the contact is the axis's middle
  });

  it('a box on the box settles face on face on its 4 corners, its centre at half-height − m·g/(4·k₁·k₂)', async () => {
    const s = await scene(`<Node name="body">
      <MechanicalObject template="Rigid3d" name="frame" position="0.2 -0.1 1.2 0 0 0 1"/>
      <UniformMass totalMass="${m}"/>
      <OBBCollisionModel extents="0.5 0.4 0.25" contactStiffness="${k2}"/>
    </Node>`);
    s.step(300);
    const x = position(s, '/body/frame');
    // one contact per bottom corner (all over the floor's face), rest distance 0: 4·k₁·k₂·pen = m·g
    expect(x[2]).to.be.closeTo(0.5 + 0.25 - (m * g) / (4 * k1 * k2), 1e-9);
    expect(x[0]).to.be.closeTo(0.2, 1e-9);
    expect(x[1]).to.be.closeTo(-0.1, 1e-9);
    expect(x[6]).to.be.closeTo(1, 1e-12); // no rotation: the contact is under the centre
  });

  it('a sphere settles with its centre at radius − m·g/k over the face', async () => {
    const r = 0.3;
    const s = await scene(`<Node name="body">
      <MechanicalObject name="ball" position="0.7 0.3 1"/>
      <UniformMass totalMass="${m}"/>
      <SphereCollisionModel radius="${r}" contactStiffness="${k2}"/>
    </Node>`);
    s.step(300);
    const x = position(s, '/body/ball');
    expect(x[2]).to.be.closeTo(0.5 + r - (m * g) / ((k1 * k2) / r), 1e-7);
    expect(x[0]).to.be.closeTo(0.7, 1e-9);
  });
});
