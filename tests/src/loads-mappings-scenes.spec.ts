import { expect } from 'chai';
import { loadSceneFromString, type SofaScene, mapping, mechanics } from 'sofa-ts';
import type { BaseMechanicalState, Node } from 'sofa-ts';

/**
 * Scene-level checks (the XML path users take) of the issue-12 loads, mappings and projective
 * constraints, against closed forms: a projected plane under gravity in the assembled (LDL) and
 * matrix-free (CG) paths, a centre of mass, distances to a plane, a balloon at rest under its
 * own pressure, a ramp of imposed velocity.
 */
async function scene(xml: string): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -10 0"><DefaultAnimationLoop/>${xml}</Node>`);
}

function state(s: SofaScene, path: string): BaseMechanicalState {
  const node = s.getNode(path) as Node;
  return node.objects.find((o) => (o as { isMechanicalState?: boolean }).isMechanicalState) as BaseMechanicalState;
}

describe('issue-12 components through scenes', () => {
  for (const solver of ['<CGLinearSolver iterations="100" tolerance="1e-14" threshold="1e-30"/>', '<SparseLDLSolver/>']) {
    it(`LineProjectiveConstraint along an oblique line (${solver.includes('CG') ? 'CG' : 'LDL'}): free fall of the projected gravity, x = x0 + ½·(g·n)·n·t² (backward Euler sums)`, async () => {
      const s = await scene(`
        <Node name="n">
          <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
          ${solver}
          <MechanicalObject name="dofs" position="0 0 0  1 1 1"/>
          <UniformMass vertexMass="1"/>
          <LineProjectiveConstraint indices="1" origin="1 1 1" direction="1 2 2"/>
        </Node>`);
      s.step(10);
      const x = state(s, '/n').x;
      const n = [1 / 3, 2 / 3, 2 / 3],
        gn = -10 * n[1];
      // backward Euler with a constant force: x_N = x0 + h²·a·N(N+1)/2
      const d = (0.01 * 0.01 * gn * (10 * 11)) / 2;
      for (let k = 0; k < 3; k++) expect(x[3 + k]).to.be.closeTo(1 + d * n[k], 1e-12);
      expect(x[1]).to.be.closeTo(0.01 * 0.01 * -10 * 55, 1e-12);
    });
  }

  it('CenterOfMassMapping: the mass-weighted mean of the frames follows them', async () => {
    const s = await scene(`
      <Node name="frames">
        <MechanicalObject template="Rigid3" position="0 0 0 0 0 0 1  2 0 0 0 0 0 1  0 4 0 0 0 0 1"/>
        <DiagonalMass template="Rigid3" vertexMass="1 1 1 0 0 0 1 0 0 0 1  1 1 1 0 0 0 1 0 0 0 1  2 1 1 0 0 0 1 0 0 0 1"/>
        <Node name="com">
          <MechanicalObject template="Vec3" name="c"/>
          <CenterOfMassMapping/>
        </Node>
      </Node>`);
    const c = state(s, '/frames/com').x;
    expect(Array.from(c)).to.deep.equal([0.5, 2, 0]);
    const m = (s.getNode('/frames/com') as Node).objects.find((o) => o instanceof mapping.CenterOfMassMapping) as InstanceType<
      typeof mapping.CenterOfMassMapping
    >;
    expect(Array.from(m.weights)).to.deep.equal([0.25, 0.25, 0.5]);
  });

  it('DistanceToPlaneMapping: signed distances (p − p0)·n̂, J = n̂ per point', async () => {
    const s = await scene(`
      <Node name="pts">
        <MechanicalObject position="0 0 0  1 2 3  -1 0 2"/>
        <Node name="d">
          <MechanicalObject template="Vec1" name="d"/>
          <DistanceToPlaneMapping planeNormal="0 0 2" planePoint="0 0 1"/>
        </Node>
      </Node>`);
    expect(Array.from(state(s, '/pts/d').x)).to.deep.equal([-1, 2, 1]);
  });

  it('SurfacePressureForceField on a closed cube: no net force; TaitSurfacePressureForceField at V = V0 pushes with p0', async () => {
    const cube = 'position="0 0 0 1 0 0 0 1 0 1 1 0 0 0 1 1 0 1 0 1 1 1 1 1" quads="0 2 3 1  4 5 7 6  0 1 5 4  2 6 7 3  0 4 6 2  1 3 7 5"';
    const s = await scene(`
      <Node name="c">
        <MeshTopology ${cube}/>
        <MechanicalObject/>
        <SurfacePressureForceField name="p" pressure="7"/>
        <TaitSurfacePressureForceField name="t" p0="2" B="100" gamma="1"/>
      </Node>`);
    const node = s.getNode('/c') as Node;
    const dofs = state(s, '/c');
    const p = node.objects.find((o) => o instanceof mechanics.SurfacePressureForceField) as InstanceType<
      typeof mechanics.SurfacePressureForceField
    >;
    const t = node.objects.find((o) => o instanceof mechanics.TaitSurfacePressureForceField) as InstanceType<
      typeof mechanics.TaitSurfacePressureForceField
    >;
    const f = new Float64Array(24);
    p.addForce([f], [dofs.x], [dofs.v]);
    for (let k = 0; k < 3; k++) expect(f.reduce((a, v, i) => a + (i % 3 === k ? v : 0), 0)).to.be.closeTo(0, 1e-14);
    // corner 7 = (1, 1, 1): three faces meet there; each face gives it P·A/6 per triangle on its outward axis
    expect(f[21]).to.be.greaterThan(0);
    expect(t.initialVolume.value).to.be.closeTo(1, 1e-15);
    const g = new Float64Array(24);
    t.addForce([g], [dofs.x], [dofs.v]);
    expect(t.currentPressure.value).to.equal(2);
    let w = 0;
    for (let i = 0; i < 24; i++) w += g[i] * dofs.x[i];
    expect(w).to.be.closeTo(3 * 2 * 1, 1e-13); // Σ f·x = 3·P·V
  });

  it('LinearVelocityProjectiveConstraint: a Vec3 point at constant velocity travels v·t', async () => {
    const s = await scene(`
      <Node name="n">
        <EulerImplicitSolver/>
        <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-30"/>
        <MechanicalObject position="0 0 0"/>
        <UniformMass vertexMass="1"/>
        <LinearVelocityProjectiveConstraint indices="0" keyTimes="0 1" velocities="1 2 0  1 2 0" continueAfterEnd="true"/>
      </Node>`);
    s.step(50);
    const x = state(s, '/n').x;
    expect(x[0]).to.be.closeTo(0.5, 1e-12);
    expect(x[1]).to.be.closeTo(1, 1e-12);
  });

  it('MechanicalObject reads the old dx/dy/dz as SOFA (atof: the leading number, old scenes give a vector there)', async () => {
    const s = await scene(`<Node name="m"><MechanicalObject position="1 2 3" dx="2 0 0" dy="0.5" dz="0 0 0 0"/></Node>`);
    expect(Array.from(state(s, '/m').x)).to.deep.equal([3, 2.5, 3]);
  });

  it("SkinningMapping through a scene: the blended points follow two frames (SOFA's 1/d² weights)", async () => {
    const s = await scene(`
      <Node name="frames">
        <MechanicalObject template="Rigid3" position="0 0 0 0 0 0 1  2 0 0 0 0 0 1" velocity="0 0 0 0 0 0  0 3 0 0 0 0"/>
        <Node name="skin">
          <MechanicalObject name="p" position="1 0 0  2 0 0"/>
          <SkinningMapping nbRef="2"/>
        </Node>
      </Node>`);
    // point 0 is halfway (weights ½, ½), point 1 sits on frame 1: v = ½·(0, 3, 0) and (0, 3, 0)
    const v = state(s, '/frames/skin').v;
    expect(Array.from(v).map((a) => +a.toFixed(12))).to.deep.equal([0, 1.5, 0, 0, 3, 0]);
  });
});
