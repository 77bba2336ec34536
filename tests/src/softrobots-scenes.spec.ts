import { expect } from 'chai';
import { loadScene, type BaseMechanicalState, type SofaScene, softrobots } from 'sofa-ts';
import { softRobotScene } from './softrobots-test-support.js';

/**
 * SoftRobots' CableConstraint through the XML path, against closed forms. A particle of mass m
 * on a spring of stiffness k to its rest position (RestShapeSpringsForceField), integrated by
 * backward Euler with a LinearSolverConstraintCorrection, is pulled by a cable from a pull point
 * on the −x axis:
 *   - force mode, λ = value (an impulse): the tension is value/dt and the particle settles at
 *     x = −value/(dt·k);
 *   - displacement mode: the cable shortens by value at the first step already, and at rest the
 *     tension balances the spring, k·value;
 *   - bounds: maxForce caps the tension, maxPositiveDisp caps the shortening in force mode.
 */

const dt = 0.1;
const k = 100;

async function cableScene(cable: string): Promise<SofaScene> {
  return softRobotScene({
    dt,
    body: `
      <MechanicalObject name="dofs" position="0 0 0"/>
      <UniformMass totalMass="1"/>
      <RestShapeSpringsForceField stiffness="${k}"/>
      <CableConstraint name="cable" indices="0" pullPoint="-10 0 0" ${cable}/>
    `,
  });
}

function state(s: SofaScene): BaseMechanicalState {
  return s.get<BaseMechanicalState>('p/dofs')!;
}

function cable(s: SofaScene): { force: number; physicalForce: number; displacement: number; cableLength: number } {
  const c = s.get<softrobots.CableConstraint>('p/cable')!;
  return {
    force: c.force.value,
    physicalForce: c.physicalForce.value,
    displacement: c.displacement.value,
    cableLength: c.cableLength.value,
  };
}

describe('softrobots: CableConstraint scenes (closed forms)', () => {
  it('force mode: a particle on a spring settles at F/k, F = value/dt', async () => {
    const value = 0.5;
    const s = await cableScene(`valueType="force" value="${value}"`);
    s.step(300);
    const F = value / dt;
    expect(state(s).x[0]).to.be.closeTo(-F / k, 1e-10);
    expect(state(s).x[1]).to.be.closeTo(0, 1e-14);
    const c = cable(s);
    expect(c.force).to.be.closeTo(value, 1e-14);
    expect(c.physicalForce).to.be.closeTo(F, 1e-12);
    expect(c.displacement).to.be.closeTo(F / k, 1e-10);
    expect(c.cableLength).to.be.closeTo(10 - F / k, 1e-10);
  });

  it('displacement mode: the requested shortening at the first step, tension k·value at rest', async () => {
    const value = 0.3;
    const s = await cableScene(`valueType="displacement" value="${value}"`);
    s.step();
    expect(cable(s).displacement).to.be.closeTo(value, 1e-10);
    expect(state(s).x[0]).to.be.closeTo(-value, 1e-10);
    s.step(300);
    expect(cable(s).displacement).to.be.closeTo(value, 1e-10);
    expect(cable(s).physicalForce).to.be.closeTo(k * value, 1e-6);
  });

  it('displacement mode: maxForce caps λ, and the particle stops where the capped tension balances the spring', async () => {
    const maxForce = 0.1; // tension maxForce/dt = 1 < k·0.3 = 30
    const s = await cableScene(`valueType="displacement" value="0.3" maxForce="${maxForce}"`);
    s.step(300);
    expect(cable(s).force).to.be.closeTo(maxForce, 1e-14);
    expect(cable(s).displacement).to.be.closeTo(maxForce / dt / k, 1e-10);
  });

  it('displacement mode: the value is clamped to maxPositiveDisp, and varies by at most maxDispVariation per step', async () => {
    const s = await cableScene(`valueType="displacement" value="0.3" maxPositiveDisp="0.2" maxDispVariation="0.05"`);
    s.step();
    expect(cable(s).displacement).to.be.closeTo(0.05, 1e-10);
    s.step();
    expect(cable(s).displacement).to.be.closeTo(0.1, 1e-10);
    s.step(5);
    expect(cable(s).displacement).to.be.closeTo(0.2, 1e-10);
  });

  it('force mode: maxPositiveDisp caps the shortening', async () => {
    const s = await cableScene(`valueType="force" value="5" maxPositiveDisp="0.2"`); // free of the bound: F/k = 0.5
    s.step(300);
    expect(cable(s).displacement).to.be.closeTo(0.2, 1e-10);
    expect(cable(s).physicalForce).to.be.closeTo(k * 0.2, 1e-6);
  });

  it('scenes/softrobots/finger-direct.scn: the finger bends down and the cable reaches the shortening (within the linearisation error)', async () => {
    const s = await loadScene(new URL('../../scenes/softrobots/finger-direct.scn', import.meta.url).pathname);
    s.step(100);
    const c = s.get<softrobots.CableConstraint>('finger/cable')!;
    const x = s.get<BaseMechanicalState>('finger/dofs')!;
    expect(c.displacement.value).to.be.closeTo(2, 0.02);
    expect(c.physicalForce.value).to.be.greaterThan(0);
    expect(x.x[3 * 43 + 1]).to.be.lessThan(-5);
  });
});

describe('softrobots: CableConstraint pulling an area (method sphere / geodesic)', () => {
  /** A free plate of 5×5 points (no gravity, nothing fixed), pulled in force mode at its centre point 12. */
  const plate = (cableAttributes: string): Promise<SofaScene> =>
    softRobotScene({
      dt,
      body: `
        <RegularGridTopology name="grid" nx="5" ny="5" nz="1" min="0 0 0" max="4 4 0"/>
        <MechanicalObject name="dofs"/>
        <UniformMass totalMass="2.5"/>
        <TriangularFEMForceField youngModulus="1000" poissonRatio="0.3"/>
        <CableConstraint name="cable" pullPoint="2 2 5" valueType="force" value="0.3" ${cableAttributes}/>
      `,
    });

  it('the tension is shared over the area: the plate gains the momentum of the point cable (λ times the unit direction), its pull spread', async () => {
    const point = await plate('indices="12"');
    const geodesic = await plate('method="geodesic" centers="2 2 0" radii="1.6"');
    const sphere = await plate('method="sphere" indices="12" radii="1.2"');
    const momentum = (s: SofaScene): number[] => {
      const x = s.get<BaseMechanicalState>('p/dofs')!;
      const p = [0, 0, 0];
      for (let i = 0; i < x.size; i++) for (let a = 0; a < 3; a++) p[a] += 0.1 * x.v[3 * i + a];
      return p;
    };
    for (const s of [point, geodesic, sphere]) s.step();
    // λ = 0.3 (an impulse) along +z from point 12 at (2, 2, 0) towards the pull point (2, 2, 5)
    for (const s of [point, geodesic, sphere]) {
      const p = momentum(s);
      expect(p[0]).to.be.closeTo(0, 1e-12);
      expect(p[1]).to.be.closeTo(0, 1e-12);
      expect(p[2]).to.be.closeTo(0.3, 1e-9);
    }
    // the point cable moves its point most; the areas move their neighbours too
    const vz = (s: SofaScene, i: number): number => s.get<BaseMechanicalState>('p/dofs')!.v[3 * i + 2];
    expect(vz(geodesic, 12)).to.be.lessThan(vz(point, 12));
    expect(vz(geodesic, 7)).to.be.greaterThan(vz(point, 7));
    expect(vz(sphere, 13)).to.be.greaterThan(vz(point, 13));
  });
});
