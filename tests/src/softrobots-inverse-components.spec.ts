import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { loadSceneFromString, softrobots, type BaseMechanicalState, type SofaScene } from 'sofa-ts';
import { softRobotScene } from './softrobots-test-support.js';

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
  return softRobotScene({
    dt,
    solver: solver,
    body: `
      <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0  0 0 1"/>
      <UniformMass totalMass="4"/>
      <RestShapeSpringsForceField stiffness="${k}"/>
      <FixedProjectiveConstraint indices="0 1 2"/>
      ${components}
    `,
  });
}

const apexZ = (s: SofaScene): number => s.get<BaseMechanicalState>('p/dofs')!.x[11];

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
      const a = actuatorOf(s),
        e = effectorOf(s);
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
      .replace(
        '<RequiredPlugin name="SoftRobots"/>',
        '<RequiredPlugin name="SoftRobots"/>\n    <RequiredPlugin name="SoftRobots.Inverse"/>',
      )
      .replace(/<BlockGaussSeidelConstraintSolver[^>]*\/>/, '<QPInverseProblemSolver name="solver" epsilon="0"/>')
      .replace(/<SurfacePressureConstraint[^>]*\/>/, components);

  const cases = [
    {
      what: 'SurfacePressureEquality eqVolumeGrowth="40"',
      xml: '<SurfacePressureEquality name="cavity" quads="@loader.quads" eqVolumeGrowth="40"/>',
    },
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
        const a = sd.get<BaseMechanicalState>('actuator/dofs')!.x,
          b = si.get<BaseMechanicalState>('actuator/dofs')!.x;
        let err = 0,
          scale = 0;
        for (let i = 0; i < a.length; i++) {
          err = Math.max(err, Math.abs(a[i] - b[i]));
          scale = Math.max(scale, Math.abs(a[i]));
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

/**
 * Particles of mass 1 on springs of stiffness k to their rest positions (RestShapeSpringsForceField),
 * dt = 0.1: an actuator's force F on a particle moves it, at rest, by F/k. The inverse problem
 * brings an effector to its goal from the first step (every row is linear in the positions) and,
 * once at rest, the actuator's physical force λ/dt is the spring's pull there.
 */
function particles(
  positions: string,
  components: string,
  solver = '<QPInverseProblemSolver name="solver" epsilon="0"/>',
  template = 'Vec3d',
  extra = '',
): Promise<SofaScene> {
  const n = positions.trim().split(/\s+/).length / (template === 'Vec1d' ? 1 : 3);
  return softRobotScene({
    dt,
    solver: solver,
    body: `
      <MechanicalObject name="dofs" template="${template}" position="${positions}"/>
      <UniformMass totalMass="${n}"/>
      <RestShapeSpringsForceField stiffness="${k}"/>
      ${extra}
      ${components}
    `,
  });
}

const xOf = (s: SofaScene): Float64Array => s.get<BaseMechanicalState>('p/dofs')!.x;

describe('softrobots: SlidingActuator, ForcePointActuator, JointActuator, BarycentricCenterEffector (closed forms)', () => {
  for (const solver of ['QP', 'GS']) {
    it(`${solver}: SlidingActuator drives a particle on a spring to a goal along x: reached from the first step, λ/dt = k·shift at rest`, async () => {
      const shift = 0.3;
      const s = await particles(
        '1 2 3',
        `<SlidingActuator name="actuator" direction="2 0 0"/>
         <PositionEffector name="effector" indices="0" effectorGoal="${1 + shift} 2 3" useDirections="1 0 0"/>`,
        solver === 'QP' ? undefined : '<GaussSeidelInverseProblemSolver name="solver" tolerance="1e-15"/>',
      );
      const a = s.get<softrobots.SlidingActuator>('p/actuator')!;
      s.step();
      expect(xOf(s)[0]).to.be.closeTo(1 + shift, 1e-12);
      expect(a.displacement.value).to.be.closeTo(shift, 1e-12);
      s.step(300);
      expect(xOf(s)[0]).to.be.closeTo(1 + shift, 1e-12);
      expect(a.physicalForce.value).to.be.closeTo(k * shift, 1e-8);
      expect(a.force.value).to.be.closeTo(k * shift * dt, 1e-9);
    });
  }

  it('SlidingActuator on two particles with a BarycentricCenterEffector: each gets λ/2, the barycenter reaches its goal, λ/dt = 2·k·shift at rest', async () => {
    const shift = 0.2;
    const s = await particles(
      '0 0 0  1 1 1',
      `<SlidingActuator name="actuator" direction="0 1 0"/>
       <BarycentricCenterEffector name="effector" effectorGoal="0.5 ${0.5 + shift} 0.5" axis="0 1 0"/>`,
    );
    const a = s.get<softrobots.SlidingActuator>('p/actuator')!,
      e = s.get<softrobots.BarycentricCenterEffector>('p/effector')!;
    s.step(300);
    expect(e.barycenter.value[1]).to.be.closeTo(0.5 + shift, 1e-12);
    expect(xOf(s)[1]).to.be.closeTo(shift, 1e-12);
    expect(xOf(s)[4]).to.be.closeTo(1 + shift, 1e-12);
    expect(a.displacement.value).to.be.closeTo(shift, 1e-12);
    expect(a.physicalForce.value).to.be.closeTo(2 * k * shift, 1e-8);
  });

  it('SlidingActuator bounds bind when the goal asks for more: maxPositiveDisp, maxDispVariation, maxForce', async () => {
    const effector = '<PositionEffector name="effector" indices="0" effectorGoal="2 0 0" useDirections="1 0 0"/>';
    const s1 = await particles('0 0 0', `<SlidingActuator name="actuator" maxPositiveDisp="0.5" maxDispVariation="0.2"/>${effector}`);
    const a1 = s1.get<softrobots.SlidingActuator>('p/actuator')!;
    for (const d of [0.2, 0.4, 0.5, 0.5]) {
      s1.step();
      expect(a1.displacement.value).to.be.closeTo(d, 1e-12);
      expect(xOf(s1)[0]).to.be.closeTo(d, 1e-12);
    }
    const s2 = await particles('0 0 0', `<SlidingActuator name="actuator" maxForce="1"/>${effector}`);
    const a2 = s2.get<softrobots.SlidingActuator>('p/actuator')!;
    for (let i = 0; i < 300; i++) {
      s2.step();
      expect(a2.force.value).to.be.at.most(1 + 1e-12);
    }
    expect(a2.force.value).to.be.closeTo(1, 1e-12);
    expect(xOf(s2)[0]).to.be.closeTo(1 / dt / k, 1e-9);
  });

  it('SlidingActuator on a free Rigid3d frame of mass m (translation, then rotation): the first step reaches the goal with λ = m·shift/dt', async () => {
    const m = 2,
      shift = 0.05,
      theta = 0.1;
    const frame = (direction: string, effector: string): Promise<SofaScene> =>
      softRobotScene({
        dt,
        solver: '<QPInverseProblemSolver name="solver" epsilon="0"/>',
        body: `
      <MechanicalObject name="dofs" template="Rigid3d" position="1 2 3 0 0 0 1"/>
      <UniformMass vertexMass="${m}"/>
      <SlidingActuator name="actuator" direction="${direction}"/>
      ${effector}
    `,
      });
    const st = await frame(
      '1 0 0 0 0 0',
      `<PositionEffector indices="0" effectorGoal="${1 + shift} 2 3 0 0 0 1" useDirections="1 0 0 0 0 0"/>`,
    );
    st.step();
    expect(xOf(st)[0]).to.be.closeTo(1 + shift, 1e-12);
    expect(st.get<softrobots.SlidingActuator>('p/actuator')!.force.value).to.be.closeTo((m * shift) / dt, 1e-10);
    // the rotational mass is m·I₃ (UniformMass' default inertia per unit mass)
    const qz = Math.sin(theta / 2),
      qw = Math.cos(theta / 2);
    const sr = await frame(
      '0 0 0 0 0 1',
      `<PositionEffector indices="0" effectorGoal="1 2 3 0 0 ${qz} ${qw}" useDirections="0 0 0 0 0 1"/>`,
    );
    sr.step();
    expect(xOf(sr)[5]).to.be.closeTo(qz, 1e-12);
    expect(xOf(sr)[6]).to.be.closeTo(qw, 1e-12);
    const a = sr.get<softrobots.SlidingActuator>('p/actuator')!;
    expect(a.force.value).to.be.closeTo((m * theta) / dt, 1e-10);
    expect(a.displacement.value).to.be.closeTo(theta, 1e-12);
  });

  it('ForcePointActuator along (1, 1, 0)/√2 drives a particle to a goal in x: F = √2·k·shift at rest, y follows by the same shift; maxForce binds', async () => {
    const shift = 0.1;
    const effector = `<PositionEffector name="effector" indices="0" effectorGoal="${shift} 0 0" useDirections="1 0 0"/>`;
    const s = await particles('0 0 0', `<ForcePointActuator name="actuator" indices="0" direction="1 1 0"/>${effector}`);
    const a = s.get<softrobots.ForcePointActuator>('p/actuator')!;
    s.step();
    expect(xOf(s)[0]).to.be.closeTo(shift, 1e-12);
    s.step(300);
    expect(xOf(s)[0]).to.be.closeTo(shift, 1e-12);
    expect(xOf(s)[1]).to.be.closeTo(shift, 1e-9);
    expect(a.physicalForce.value).to.be.closeTo(Math.SQRT2 * k * shift, 1e-8);

    const maxForce = 0.5; // F = 5 < √2·k·shift ≈ 14.1
    const sb = await particles(
      '0 0 0',
      `<ForcePointActuator name="actuator" indices="0" direction="1 1 0" maxForce="${maxForce}" maxForceVariation="0.2"/>${effector}`,
    );
    const ab = sb.get<softrobots.ForcePointActuator>('p/actuator')!;
    let last = 0;
    for (let i = 0; i < 300; i++) {
      sb.step();
      expect(ab.force.value).to.be.at.most(maxForce + 1e-12);
      expect(Math.abs(ab.force.value - last)).to.be.at.most(0.2 + 1e-12);
      last = ab.force.value;
    }
    expect(last).to.be.closeTo(maxForce, 1e-12);
    expect(xOf(sb)[0]).to.be.closeTo(maxForce / dt / (Math.SQRT2 * k), 1e-9);
  });

  it('ForcePointActuator on two points shares one force: both get F, their barycenter reaches the goal', async () => {
    const shift = 0.1;
    const s = await particles(
      '0 0 0  1 0 0  5 5 5',
      `<ForcePointActuator name="actuator" indices="0 1" direction="0 0 1"/>
       <BarycentricCenterEffector name="effector" indices="0 1" effectorGoal="0.5 0 ${shift}" axis="0 0 1"/>`,
    );
    s.step(300);
    const x = xOf(s);
    expect(x[2]).to.be.closeTo(shift, 1e-12);
    expect(x[5]).to.be.closeTo(shift, 1e-12);
    expect(x[8]).to.equal(5);
    expect(s.get<softrobots.ForcePointActuator>('p/actuator')!.physicalForce.value).to.be.closeTo(k * shift, 1e-8);
  });

  it('BarycentricCenterEffector with three SlidingActuators: the barycenter of all points reaches its goal in x, y, z from the first step', async () => {
    const goal = [0.4, 0.7, -0.2];
    const s = await particles(
      '0 0 0  1 0 0  0 1 0  0 0 1',
      `<SlidingActuator name="ax" indices="0" direction="1 0 0"/>
       <SlidingActuator name="ay" indices="1" direction="0 1 0"/>
       <SlidingActuator name="az" indices="2 3" direction="0 0 1"/>
       <BarycentricCenterEffector name="effector" effectorGoal="${goal.join(' ')}"/>`,
    );
    const e = s.get<softrobots.BarycentricCenterEffector>('p/effector')!;
    expect(Array.from(e.barycenter.value)).to.deep.equal([0.25, 0.25, 0.25]);
    s.step();
    for (let a = 0; a < 3; a++) expect(e.barycenter.value[a]).to.be.closeTo(goal[a], 1e-12);
    // measured on the state, independently of the component
    const x = xOf(s);
    for (let a = 0; a < 3; a++) expect((x[a] + x[3 + a] + x[6 + a] + x[9 + a]) / 4).to.be.closeTo(goal[a], 1e-12);
    s.step(300);
    for (let a = 0; a < 3; a++) expect(e.barycenter.value[a]).to.be.closeTo(goal[a], 1e-12);
    expect(e.delta.value.length).to.equal(3);
  });

  it('JointActuator (Vec1d joint on a spring, actuatorsOnly): the least effort that meets minAngle holds the angle on the limit, λ/dt = k·minAngle at rest; maxAngleVariation ramps it', async () => {
    const solver = '<QPInverseProblemSolver name="solver" epsilon="1" actuatorsOnly="1"/>';
    const s = await particles('0 0', '<JointActuator name="joint" index="1" minAngle="0.3"/>', solver, 'Vec1d');
    const j = s.get<softrobots.JointActuator>('p/joint')!;
    s.step();
    expect(xOf(s)[1]).to.be.closeTo(0.3, 1e-12);
    expect(xOf(s)[0]).to.equal(0);
    expect(j.angle.value).to.be.closeTo(0.3, 1e-12);
    s.step(300);
    expect(xOf(s)[1]).to.be.closeTo(0.3, 1e-12);
    expect(j.physicalForce.value).to.be.closeTo(k * 0.3, 1e-8);

    const sv = await particles('0 0', '<JointActuator name="joint" index="1" minAngle="0.3" maxAngleVariation="0.1"/>', solver, 'Vec1d');
    for (const q of [0.1, 0.2, 0.3, 0.3]) {
      sv.step();
      expect(xOf(sv)[1]).to.be.closeTo(q, 1e-12);
    }
  });
});
