import { expect } from 'chai';
import { loadScene, type BaseMechanicalState, type SofaScene, softrobots } from 'sofa-ts';
import { softRobotScene } from './softrobots-test-support.js';

/**
 * SoftRobots' SurfacePressureConstraint through the XML path, against closed forms. The tiny
 * problem: a tetrahedral cavity a = (0,0,0), b = (1,0,0), c = (0,1,0) (fixed), d = (0,0,1) (free,
 * mass 1, held by a spring of stiffness k to its rest position). Its volume is V = d_z/6 exactly
 * (base area A = 1/2), so ∂V/∂d = (0, 0, A/3) whatever d, and a pressure p pushes d up by p/6:
 *   - pressure mode (λ = value, p = λ/dt): at rest d_z − 1 = p/(6k), volume growth p/(36k);
 *   - volumeGrowth mode (growth g): d_z = 1 + 6g from the first step (the volume is linear in d),
 *     and at rest the pressure balances the spring, p = 36·k·g;
 *   - bounds: maxPressure caps λ (both modes), maxVolumeGrowth caps the growth in pressure mode,
 *     maxVolumeGrowthVariation limits its change per step.
 * Then scenes/softrobots/cavity-direct.scn: its cavity volume at init is the box's 7.5·7.5·10, and
 * it reaches the volume growth of 40 within 10% in 15 steps; the pressure variant, given the
 * pressure the volume-driven cavity ends with, settles at the same growth.
 */

const dt = 0.1;
const k = 100;

/** The faces of the tetrahedron, normals out of the cavity. */
const OUTWARD = '0 2 1  0 1 3  0 3 2  1 2 3';
const INWARD = '0 1 2  0 3 1  0 2 3  1 3 2';

async function tetScene(attrs: string, faces = `triangles="${OUTWARD}"`, topology = '', extra = ''): Promise<SofaScene> {
  return softRobotScene({
    dt,
    body: `
      ${topology}
      <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0  0 0 1"/>
      <UniformMass totalMass="4"/>
      <RestShapeSpringsForceField stiffness="${k}"/>
      <FixedProjectiveConstraint indices="0 1 2"/>
      <SurfacePressureConstraint name="cavity" ${faces} ${attrs}/>
      ${extra}
    `,
  });
}

function apex(s: SofaScene): Float64Array {
  return s.get<BaseMechanicalState>('p/dofs')!.x.subarray(9, 12);
}

function cavity(s: SofaScene, path = 'p/cavity'): softrobots.SurfacePressureConstraint {
  return s.get<softrobots.SurfacePressureConstraint>(path)!;
}

describe('softrobots: SurfacePressureConstraint scenes (closed forms)', () => {
  it('the tetrahedral cavity: V₀ = 1/6', async () => {
    const s = await tetScene('valueType="pressure" value="0"');
    expect(cavity(s).initialCavityVolume.value).to.be.closeTo(1 / 6, 1e-15);
    expect(cavity(s).cavityVolume.value).to.be.closeTo(1 / 6, 1e-15);
  });

  it('pressure mode: the apex settles at p/(6k) above its rest, growth p/(36k), p = value/dt', async () => {
    const value = 0.6;
    const s = await tetScene(`valueType="pressure" value="${value}"`);
    s.step(300);
    const p = value / dt;
    const d = apex(s);
    expect(d[0]).to.be.closeTo(0, 1e-14);
    expect(d[1]).to.be.closeTo(0, 1e-14);
    expect(d[2]).to.be.closeTo(1 + p / (6 * k), 1e-10);
    const c = cavity(s);
    expect(c.pressure.value).to.be.closeTo(value, 1e-14);
    expect(c.physicalPressure.value).to.be.closeTo(p, 1e-12);
    expect(c.volumeGrowth.value).to.be.closeTo(p / (36 * k), 1e-10);
    expect(c.cavityVolume.value).to.be.closeTo(1 / 6 + p / (36 * k), 1e-10);
  });

  it('pressure mode with inward faces and flipNormal: the same inflation', async () => {
    const value = 0.6;
    const s = await tetScene(`valueType="pressure" value="${value}" flipNormal="true"`, `triangles="${INWARD}"`);
    s.step(300);
    expect(apex(s)[2]).to.be.closeTo(1 + value / dt / (6 * k), 1e-10);
    expect(cavity(s).volumeGrowth.value).to.be.closeTo(value / dt / (36 * k), 1e-10);
  });

  it('the faces default to the triangles of the context topology', async () => {
    const value = 0.6;
    const s = await tetScene(`valueType="pressure" value="${value}"`, '', `<MeshTopology triangles="${OUTWARD}"/>`);
    s.step(300);
    expect([...cavity(s).triangles.value]).to.deep.equal(OUTWARD.trim().split(/\s+/).map(Number));
    expect(apex(s)[2]).to.be.closeTo(1 + value / dt / (6 * k), 1e-10);
  });

  it('volumeGrowth mode: the growth from the first step, pressure 36·k·g at rest', async () => {
    const g = 0.05;
    const s = await tetScene(`valueType="volumeGrowth" value="${g}"`);
    s.step();
    expect(cavity(s).volumeGrowth.value).to.be.closeTo(g, 1e-12);
    expect(apex(s)[2]).to.be.closeTo(1 + 6 * g, 1e-12);
    s.step(300);
    expect(cavity(s).volumeGrowth.value).to.be.closeTo(g, 1e-12);
    expect(cavity(s).physicalPressure.value).to.be.closeTo(36 * k * g, 1e-6);
  });

  it('volumeGrowth mode: maxPressure caps λ, the cavity stops where the capped pressure balances the spring', async () => {
    const maxPressure = 0.3; // p = 3 < 36·k·0.05 = 180
    const s = await tetScene(`valueType="volumeGrowth" value="0.05" maxPressure="${maxPressure}"`);
    s.step(300);
    expect(cavity(s).pressure.value).to.be.closeTo(maxPressure, 1e-14);
    expect(cavity(s).volumeGrowth.value).to.be.closeTo(maxPressure / dt / (36 * k), 1e-10);
  });

  it('pressure mode: maxPressure caps the imposed value, maxVolumeGrowth caps the growth', async () => {
    const s1 = await tetScene('valueType="pressure" value="5" maxPressure="0.6"');
    s1.step(300);
    expect(cavity(s1).pressure.value).to.be.closeTo(0.6, 1e-14);
    expect(cavity(s1).volumeGrowth.value).to.be.closeTo(0.6 / dt / (36 * k), 1e-10);
    const s2 = await tetScene('valueType="pressure" value="5" maxVolumeGrowth="0.004"'); // free of the bound: 50/3600 ≈ 0.0139
    s2.step(300);
    expect(cavity(s2).volumeGrowth.value).to.be.closeTo(0.004, 1e-10);
    expect(cavity(s2).physicalPressure.value).to.be.closeTo(36 * k * 0.004, 1e-6);
  });

  it('volumeGrowth mode: maxVolumeGrowth clamps the value, maxVolumeGrowthVariation limits each step', async () => {
    const s = await tetScene('valueType="volumeGrowth" value="0.05" maxVolumeGrowth="0.03" maxVolumeGrowthVariation="0.01"');
    s.step();
    expect(cavity(s).volumeGrowth.value).to.be.closeTo(0.01, 1e-12);
    s.step();
    expect(cavity(s).volumeGrowth.value).to.be.closeTo(0.02, 1e-12);
    s.step(5);
    expect(cavity(s).volumeGrowth.value).to.be.closeTo(0.03, 1e-12);
  });

  it('valueIndex picks the imposed entry of value', async () => {
    const s = await tetScene('valueType="volumeGrowth" value="0.01 0.02 0.04" valueIndex="2"');
    s.step();
    expect(cavity(s).volumeGrowth.value).to.be.closeTo(0.04, 1e-12);
  });

  it('errors: a face point out of range, a valueIndex past value', async () => {
    let err: unknown;
    try {
      await tetScene('value="1"', 'triangles="0 1 7"');
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(/out of range/);
    err = undefined;
    try {
      await tetScene('value="1 2" valueIndex="2"');
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(/valueIndex 2/);
  });

  const cavityDirect = new URL('../../scenes/softrobots/cavity-direct.scn', import.meta.url).pathname;
  const cavityPressure = new URL('../../scenes/softrobots/cavity-direct-pressure.scn', import.meta.url).pathname;

  it('scenes/softrobots/cavity-direct.scn: V₀ = 7.5·7.5·10 mm³, a growth of 40 within 10% in 15 steps, the box clamped and inflated', async () => {
    const s = await loadScene(cavityDirect);
    const c = s.get<softrobots.SurfacePressureConstraint>('actuator/cavity')!;
    expect(c.initialCavityVolume.value).to.be.closeTo(7.5 * 7.5 * 10, 1e-9);
    s.step(15);
    expect(c.volumeGrowth.value).to.be.closeTo(40, 4);
    expect(c.cavityVolume.value - c.initialCavityVolume.value).to.equal(c.volumeGrowth.value);
    expect(c.physicalPressure.value).to.be.greaterThan(0);
    const x = s.get<BaseMechanicalState>('actuator/dofs')!;
    let zmax = -Infinity;
    for (let i = 0; i < x.size; i++) {
      // the base (z = 0) does not move
      if (x.x0[3 * i + 2] === 0) for (let a = 0; a < 3; a++) expect(x.x[3 * i + a]).to.equal(x.x0[3 * i + a]);
      zmax = Math.max(zmax, x.x[3 * i + 2]);
    }
    expect(zmax).to.be.greaterThan(15);
  });

  it('scenes/softrobots/cavity-direct-pressure.scn: given the pressure of the volume-driven cavity at rest, it settles at the same growth', async () => {
    const sv = await loadScene(cavityDirect);
    sv.step(200);
    const cv = sv.get<softrobots.SurfacePressureConstraint>('actuator/cavity')!;
    const sp = await loadScene(cavityPressure);
    const cp = sp.get<softrobots.SurfacePressureConstraint>('actuator/cavity')!;
    cp.value.setValue(Float64Array.of(cv.pressure.value));
    sp.step(200);
    expect(cp.volumeGrowth.value).to.be.closeTo(cv.volumeGrowth.value, 0.01 * cv.volumeGrowth.value);
  });
});

/**
 * The sensors measure without acting: beside the closed-form problems above, a
 * SurfacePressureSensor reports the tetrahedral cavity's volume 1/6 + p/(36k) (its own faces, or
 * the context topology's), and CableSensors beside a cable pulling a particle on a spring to
 * x = −F/k report the cable's length 10 − F/k and, from another point (0, 3, 0), √((F/k)² + 9).
 */
describe('softrobots: SurfacePressureSensor and CableSensor', () => {
  it('SurfacePressureSensor: the volume and growth of the inflated tetrahedral cavity, V₀ at init', async () => {
    const value = 0.6;
    const s = await tetScene(
      `valueType="pressure" value="${value}"`,
      `triangles="${OUTWARD}"`,
      `<MeshTopology triangles="${INWARD}"/>`,
      `<SurfacePressureSensor name="sensor" triangles="${OUTWARD}"/><SurfacePressureSensor name="fromTopology"/>`,
    );
    const sensor = s.get<softrobots.SurfacePressureSensor>('p/sensor')!;
    const fromTopology = s.get<softrobots.SurfacePressureSensor>('p/fromTopology')!;
    expect(sensor.initialCavityVolume.value).to.be.closeTo(1 / 6, 1e-15);
    expect(fromTopology.initialCavityVolume.value).to.be.closeTo(1 / 6, 1e-15); // |V| of the inward faces
    s.step(300);
    const growth = value / dt / (36 * k);
    for (const x of [sensor, fromTopology]) {
      expect(x.cavityVolume.value).to.be.closeTo(1 / 6 + growth, 1e-10);
      expect(x.volumeGrowth.value).to.be.closeTo(growth, 1e-10);
    }
    expect(apex(s)[2]).to.be.closeTo(1 + value / dt / (6 * k), 1e-10);
  });

  it('CableSensor: the length of the pulling cable and of another cable through the particle', async () => {
    const value = 0.5;
    const s = await softRobotScene({
      dt,
      body: `
      <MechanicalObject name="dofs" position="0 0 0"/>
      <UniformMass totalMass="1"/>
      <RestShapeSpringsForceField stiffness="${k}"/>
      <CableConstraint name="cable" indices="0" pullPoint="-10 0 0" valueType="force" value="${value}"/>
      <CableSensor name="same" indices="0" pullPoint="-10 0 0"/>
      <CableSensor name="other" indices="0" pullPoint="0 3 0" cableInitialLength="2"/>
    `,
    });
    const same = s.get<softrobots.CableSensor>('p/same')!;
    const other = s.get<softrobots.CableSensor>('p/other')!;
    expect(same.cableInitialLength.value).to.be.closeTo(10, 1e-15);
    expect(other.cableInitialLength.value).to.equal(2);
    expect(other.cableLength.value).to.be.closeTo(3, 1e-15);
    s.step(300);
    const u = value / dt / k;
    expect(same.cableLength.value).to.be.closeTo(10 - u, 1e-10);
    expect(same.displacement.value).to.be.closeTo(u, 1e-10);
    expect(other.cableLength.value).to.be.closeTo(Math.hypot(u, 3), 1e-10);
    expect(other.displacement.value).to.be.closeTo(2 - Math.hypot(u, 3), 1e-10);
  });
});
