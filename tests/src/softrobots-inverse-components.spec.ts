import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { loadSceneFromString, softrobots, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * The inverse components of SoftRobots.Inverse in scenes, against closed forms and independent
 * computations:
 *   - a tetrahedral cavity a = 0, b = e_x, c = e_y (fixed) and apex d = e_z (free, on a spring of
 *     stiffness k to its rest position): V = d_z/6 exactly, so the row ∂V/∂d = (0, 0, 1/6) is
 *     constant and a pressure p pushes the apex with p/6. A volume growth g is reached from the
 *     first step (d_z = 1 + 6g) and at rest the pressure balances the spring, p = 36·k·g;
 *     a capped pressure stops the cavity at the growth p_max/(36·k);
 *   - the hollow box of scenes/softrobots/cavity-direct.scn: the inverse problem with an equality
 *     (or an actuator and a volume effector) on the volume growth reproduces the direct
 *     SurfacePressureConstraint driven by the same growth.
 */

const dt = 0.1;
const k = 100;

/** The faces of the tetrahedron, normals out of the cavity. */
const OUTWARD = '0 2 1  0 1 3  0 3 2  1 2 3';

function tetScene(components: string, solver = '<QPInverseProblemSolver name="solver" epsilon="0"/>'): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${dt}" gravity="0 0 0">
    <RequiredPlugin name="SoftRobots"/>
    <RequiredPlugin name="SoftRobots.Inverse"/>
    <FreeMotionAnimationLoop/>
    ${solver}
    <Node name="p">
      <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
      <SparseLDLSolver/>
      <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0  0 0 1"/>
      <UniformMass totalMass="4"/>
      <RestShapeSpringsForceField stiffness="${k}"/>
      <FixedProjectiveConstraint indices="0 1 2"/>
      <LinearSolverConstraintCorrection/>
      ${components}
    </Node>
  </Node>`);
}

const apexZ = (s: SofaScene): number => s.get<BaseMechanicalState>('p/dofs')!.x[11]!;

describe('softrobots: inverse pressure components on a tetrahedral cavity (closed forms)', () => {
  const actuatorOf = (s: SofaScene): softrobots.SurfacePressureActuator => s.get<softrobots.SurfacePressureActuator>('p/actuator')!;
  const effectorOf = (s: SofaScene): softrobots.VolumeEffector => s.get<softrobots.VolumeEffector>('p/effector')!;

  for (const solver of ['QP', 'GS']) {
    it(`${solver}: SurfacePressureActuator driven to a VolumeEffector goal: growth g from the first step (d_z = 1 + 6g), p = 36·k·g at rest`, async () => {
      const g = 0.05;
      const s = await tetScene(
        `<SurfacePressureActuator name="actuator" triangles="${OUTWARD}" minPressure="0"/>
         <VolumeEffector name="effector" triangles="${OUTWARD}" desiredVolume="${1 / 6 + g}"/>`,
        solver === 'QP' ? undefined : '<GaussSeidelInverseProblemSolver name="solver" tolerance="1e-15"/>',
      );
      const a = actuatorOf(s), e = effectorOf(s);
      expect(a.initialCavityVolume.value).to.be.closeTo(1 / 6, 1e-15);
      s.step();
      expect(apexZ(s)).to.be.closeTo(1 + 6 * g, 1e-9);
      expect(a.cavityVolume.value).to.be.closeTo(1 / 6 + g, 1e-9);
      expect(a.volumeGrowth.value).to.be.closeTo(g, 1e-9);
      expect(e.cavityVolume.value).to.be.closeTo(1 / 6 + g, 1e-9);
      expect(Math.abs(e.delta.value)).to.be.at.most(1e-9);
      s.step(300);
      expect(a.cavityVolume.value - a.initialCavityVolume.value).to.be.closeTo(g, 1e-9);
      expect(a.physicalPressure.value).to.be.closeTo(36 * k * g, 1e-6);
      expect(a.pressure.value).to.be.closeTo(36 * k * g * dt, 1e-7);
    });
  }

  it('QP: maxPressure binds when the goal asks for more: λ = maxPressure exactly, the cavity stops at p_max/(36·k)', async () => {
    const maxPressure = 0.3; // p = 3 < 36·k·0.05 = 180
    const s = await tetScene(
      `<SurfacePressureActuator name="actuator" triangles="${OUTWARD}" minPressure="0" maxPressure="${maxPressure}"/>
       <VolumeEffector name="effector" triangles="${OUTWARD}" desiredVolume="${1 / 6 + 0.05}"/>`,
    );
    const a = actuatorOf(s);
    for (let i = 0; i < 300; i++) {
      s.step();
      expect(a.pressure.value).to.be.at.most(maxPressure * (1 + 1e-12));
    }
    expect(a.pressure.value).to.be.closeTo(maxPressure, 1e-12);
    expect(a.cavityVolume.value - 1 / 6).to.be.closeTo(maxPressure / dt / (36 * k), 1e-9);
  });

  it('QP: a goal below V₀ with minPressure 0: the cavity cannot be drained, λ = 0', async () => {
    const s = await tetScene(
      `<SurfacePressureActuator name="actuator" triangles="${OUTWARD}" minPressure="0"/>
       <VolumeEffector name="effector" triangles="${OUTWARD}" desiredVolume="${1 / 6 - 0.02}"/>`,
    );
    s.step(5);
    expect(actuatorOf(s).pressure.value).to.be.closeTo(0, 1e-14);
    expect(apexZ(s)).to.be.closeTo(1, 1e-12);
  });

  it('QP: maxVolumeGrowth binds (growth = the bound exactly), maxVolumeGrowthVariation limits each step', async () => {
    const s = await tetScene(
      `<SurfacePressureActuator name="actuator" triangles="${OUTWARD}" maxVolumeGrowth="0.03" maxVolumeGrowthVariation="0.01"/>
       <VolumeEffector name="effector" triangles="${OUTWARD}" desiredVolume="${1 / 6 + 0.05}"/>`,
    );
    const a = actuatorOf(s);
    const expected = [0.01, 0.02, 0.03, 0.03, 0.03];
    for (const g of expected) {
      s.step();
      expect(a.volumeGrowth.value).to.be.closeTo(g, 1e-12);
      expect(a.cavityVolume.value - 1 / 6).to.be.closeTo(g, 1e-12);
    }
  });

  it('QP: maxPressureVariation limits the change of λ per step', async () => {
    const s = await tetScene(
      `<SurfacePressureActuator name="actuator" triangles="${OUTWARD}" maxPressureVariation="0.5"/>
       <VolumeEffector name="effector" triangles="${OUTWARD}" desiredVolume="${1 / 6 + 0.05}"/>`,
    );
    const a = actuatorOf(s);
    let last = 0;
    for (let i = 0; i < 10; i++) {
      s.step();
      expect(Math.abs(a.pressure.value - last)).to.be.at.most(0.5 * (1 + 1e-12));
      last = a.pressure.value;
    }
    expect(last).to.be.closeTo(5, 1e-12); // the first steps need more than 0.5 per step
  });

  it('SurfacePressureEquality: eqVolumeGrowth holds the growth from the first step, p = 36·k·g at rest', async () => {
    const g = 0.02;
    const s = await tetScene(`<SurfacePressureEquality name="eq" triangles="${OUTWARD}" eqVolumeGrowth="${g}"/>`);
    const c = s.get<softrobots.SurfacePressureEquality>('p/eq')!;
    s.step();
    expect(apexZ(s)).to.be.closeTo(1 + 6 * g, 1e-12);
    expect(c.volumeGrowth.value).to.be.closeTo(g, 1e-12);
    s.step(300);
    expect(c.cavityVolume.value - 1 / 6).to.be.closeTo(g, 1e-12);
    expect(c.physicalPressure.value).to.be.closeTo(36 * k * g, 1e-6);
  });

  it('SurfacePressureEquality: eqPressure imposes λ, the apex settles at p/(6k) above its rest', async () => {
    const lambda = 0.6;
    const s = await tetScene(`<SurfacePressureEquality name="eq" triangles="${OUTWARD}" eqPressure="${lambda}"/>`);
    const c = s.get<softrobots.SurfacePressureEquality>('p/eq')!;
    s.step(300);
    expect(c.pressure.value).to.be.closeTo(lambda, 1e-14);
    expect(apexZ(s)).to.be.closeTo(1 + lambda / dt / (6 * k), 1e-10);
    expect(c.cavityVolume.value - 1 / 6).to.be.closeTo(lambda / dt / (36 * k), 1e-10);
  });
});

describe('softrobots: inverse pressure components on the hollow box of cavity-direct.scn (against the direct constraint)', () => {
  const file = new URL('../../scenes/softrobots/cavity-direct.scn', import.meta.url).pathname;
  const direct = readFileSync(file, 'utf8');
  const inverse = (components: string): string =>
    direct
      .replace('<RequiredPlugin name="SoftRobots"/>', '<RequiredPlugin name="SoftRobots"/>\n    <RequiredPlugin name="SoftRobots.Inverse"/>')
      .replace(/<BlockGaussSeidelConstraintSolver[^>]*\/>/, '<QPInverseProblemSolver name="solver" epsilon="0"/>')
      .replace(/<SurfacePressureConstraint[^>]*\/>/, components);

  const cases = [
    { what: 'SurfacePressureEquality eqVolumeGrowth="40"', xml: '<SurfacePressureEquality name="cavity" quads="@loader.quads" eqVolumeGrowth="40"/>' },
    {
      what: 'SurfacePressureActuator + VolumeEffector at V₀ + 40',
      xml: '<SurfacePressureActuator name="cavity" quads="@loader.quads"/>\n<VolumeEffector name="effector" quads="@loader.quads" desiredVolume="602.5"/>',
    },
  ];
  for (const c of cases) {
    it(`${c.what}: the same motion and pressure as SurfacePressureConstraint in volumeGrowth mode (10 steps, 1e-8)`, async () => {
      const sd = await loadSceneFromString(direct, { fileName: file });
      const si = await loadSceneFromString(inverse(c.xml), { fileName: file });
      const cd = sd.get<softrobots.SurfacePressureConstraint>('actuator/cavity')!;
      const ci = si.get<softrobots.SurfacePressureActuator | softrobots.SurfacePressureEquality>('actuator/cavity')!;
      expect(ci.initialCavityVolume.value).to.be.closeTo(562.5, 1e-9);
      for (let step = 0; step < 10; step++) {
        sd.step();
        si.step();
        const a = sd.get<BaseMechanicalState>('actuator/dofs')!.x, b = si.get<BaseMechanicalState>('actuator/dofs')!.x;
        let err = 0, scale = 0;
        for (let i = 0; i < a.length; i++) {
          err = Math.max(err, Math.abs(a[i]! - b[i]!));
          scale = Math.max(scale, Math.abs(a[i]!));
        }
        expect(err, `step ${step}`).to.be.at.most(1e-8 * scale);
        expect(ci.pressure.value).to.be.closeTo(cd.pressure.value, 1e-8 * Math.abs(cd.pressure.value));
        expect(ci.cavityVolume.value).to.be.closeTo(cd.cavityVolume.value, 1e-8 * cd.cavityVolume.value);
      }
      // the solver's growth is the imposed one; the measured one differs by the row's linearisation
      expect(ci.volumeGrowth.value).to.be.closeTo(40, 1e-8);
    });
  }
});
