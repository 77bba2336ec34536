import { expect } from 'chai';
import { type BaseMechanicalState, type SofaScene, softrobots } from 'sofa-ts';
import { softRobotScene } from './softrobots-test-support.js';

/**
 * SoftRobots' other direct constraints through the XML path, against closed forms.
 *
 * UnilateralPlaneConstraint: a point of mass 1 falls under gravity g onto the plane z = 0 through
 * three fixed points. Backward Euler with a constant force is exact for v and gives
 * z_n = z_0 − g·dt²·n(n+1)/2 while the point is above the plane (the constraint does not act);
 * then it rests on the plane (z = 0) with a contact force m·g. With the plane points on springs
 * of stiffness k and the point pushed by F over their centroid, each plane point carries F/3 and
 * sinks by F/(3k), the point with them.
 */

const dt = 0.01;
const g = 10;

async function planeScene(plane: string, points = '0.2 0.2 1  -1 -1 0  2 -1 0  -1 2 0'): Promise<SofaScene> {
  return softRobotScene({
    dt,
    gravity: `0 0 -${g}`,
    body: `
      <MechanicalObject name="dofs" position="${points}"/>
      <UniformMass totalMass="4"/>
      <FixedProjectiveConstraint indices="1 2 3"/>
      <UnilateralPlaneConstraint name="plane" ${plane}/>
    `,
  });
}

function dofs(s: SofaScene): BaseMechanicalState {
  return s.get<BaseMechanicalState>('p/dofs')!;
}

describe('softrobots: UnilateralPlaneConstraint scenes (closed forms)', () => {
  for (const [label, plane] of [
    ['normal up', 'indices="0 1 2 3"'],
    ['normal down, flipNormal', 'indices="0 1 3 2" flipNormal="true"'],
  ] as const) {
    it(`a falling point: free fall above the plane, then at rest on it with the force m·g (${label})`, async () => {
      const s = await planeScene(plane);
      const c = s.get<softrobots.UnilateralPlaneConstraint>('p/plane')!;
      // z_n = 1 − g dt² n(n+1)/2 > 0 for n ≤ 43
      for (let n = 1; n <= 40; n++) {
        s.step();
        expect(dofs(s).x[2]).to.be.closeTo(1 - (g * dt * dt * n * (n + 1)) / 2, 1e-12);
        expect(c.force.value).to.equal(0);
      }
      s.step(200);
      const x = dofs(s).x;
      expect(x[0]).to.be.closeTo(0.2, 1e-12);
      expect(x[1]).to.be.closeTo(0.2, 1e-12);
      expect(x[2]).to.be.closeTo(0, 1e-10);
      expect(c.physicalForce.value).to.be.closeTo(1 * g, 1e-8);
    });
  }

  it('a point moving away from the plane is not held', async () => {
    const s = await softRobotScene({
      dt,
      body: `
      <MechanicalObject name="dofs" position="0.2 0.2 0  -1 -1 0  2 -1 0  -1 2 0" velocity="0 0 1  0 0 0  0 0 0  0 0 0"/>
      <UniformMass totalMass="4"/>
      <FixedProjectiveConstraint indices="1 2 3"/>
      <UnilateralPlaneConstraint name="plane" indices="0 1 2 3"/>
    `,
    });
    s.step(10);
    expect(dofs(s).x[2]).to.be.closeTo(10 * dt, 1e-14);
  });

  it('plane points on springs: a point pushed by F over their centroid sinks by F/(3k) with them', async () => {
    const F = 3,
      k = 100;
    const s = await softRobotScene({
      dt,
      ode: 'rayleighStiffness="0.1" rayleighMass="0.1"',
      body: `
      <MechanicalObject name="dofs" position="0 0 0.05  -1 -1 0  2 -1 0  -1 2 0"/>
      <UniformMass totalMass="4"/>
      <RestShapeSpringsForceField points="1 2 3" stiffness="${k}"/>
      <ConstantForceField indices="0" force="0 0 -${F}"/>
      <UnilateralPlaneConstraint name="plane" indices="0 1 2 3"/>
    `,
    });
    s.step(3000);
    const x = dofs(s).x;
    for (let p = 1; p < 4; p++) expect(x[3 * p + 2]).to.be.closeTo(-F / (3 * k), 1e-9);
    expect(x[2]).to.be.closeTo(-F / (3 * k), 1e-9);
    expect(s.get<softrobots.UnilateralPlaneConstraint>('p/plane')!.physicalForce.value).to.be.closeTo(F, 1e-6);
  });

  it('errors: not four indices, aligned plane points', async () => {
    for (const [plane, re] of [
      ['indices="0 1 2"', /groups of 4/],
      ['indices="0 1 2 3"', /aligned/],
    ] as const) {
      let err: unknown;
      try {
        await planeScene(plane, '0 0 1  0 0 0  1 0 0  2 0 0');
      } catch (e) {
        err = e;
      }
      expect(String(err)).to.match(re);
    }
  });
});

/**
 * PositionConstraint: particles of mass 1 held by springs of stiffness k to their rest positions
 * (backward Euler, LinearSolverConstraintCorrection), actuated along unit directions u with
 * weights w. A row measures δ = w·u·(x − x₀):
 *   - displacement mode: x moves by value/w along u at the first step, and at rest the force
 *     balances the spring, λ/dt = k·value/w²;
 *   - force mode: the force w·(λ/dt)·u gives at rest x − x₀ = w·F·u/k, δ = w²·F/k;
 *   - directions left out move freely (here not at all); bounds cap λ and δ.
 */
const kp = 100;
const dtp = 0.1;

async function positionScene(attrs: string, points = '0 0 0'): Promise<SofaScene> {
  return softRobotScene({
    dt: dtp,
    body: `
      <MechanicalObject name="dofs" position="${points}"/>
      <UniformMass vertexMass="1"/>
      <RestShapeSpringsForceField stiffness="${kp}"/>
      <PositionConstraint name="position" ${attrs}/>
    `,
  });
}

function position(s: SofaScene): softrobots.PositionConstraint {
  return s.get<softrobots.PositionConstraint>('p/position')!;
}

describe('softrobots: PositionConstraint scenes (closed forms)', () => {
  it('displacement mode along y: the point moves by value at the first step, force k·value at rest', async () => {
    const s = await positionScene('useDirections="0 1 0" value="0.3"');
    s.step();
    expect([...dofs(s).x]).to.deep.equal([0, dofs(s).x[1], 0]);
    expect(dofs(s).x[1]).to.be.closeTo(0.3, 1e-12);
    s.step(300);
    expect(dofs(s).x[1]).to.be.closeTo(0.3, 1e-12);
    expect(position(s).displacement.value).to.be.closeTo(0.3, 1e-12);
    expect(position(s).physicalForce.value).to.be.closeTo(kp * 0.3, 1e-6);
  });

  it('force mode along a normalised direction with a weight: x − x₀ = w·F·u/k at rest', async () => {
    const value = 0.4,
      w = 2;
    const s = await positionScene(
      `directions="1 1 0  0 0 1  0 1 0" useDirections="1 0 0" weight="${w}" valueType="force" value="${value}"`,
    );
    s.step(300);
    const F = value / dtp,
      u = Math.SQRT1_2;
    const x = dofs(s).x;
    expect(x[0]).to.be.closeTo((w * F * u) / kp, 1e-10);
    expect(x[1]).to.be.closeTo((w * F * u) / kp, 1e-10);
    expect(x[2]).to.be.closeTo(0, 1e-14);
    expect(position(s).displacement.value).to.be.closeTo((w * w * F) / kp, 1e-10);
  });

  it('displacement mode with a weight: the point moves by value/w', async () => {
    const s = await positionScene('useDirections="1 0 0" weight="2 1 1" value="0.3"');
    s.step();
    expect(dofs(s).x[0]).to.be.closeTo(0.15, 1e-12);
  });

  it('every point and every direction gets the value', async () => {
    const s = await positionScene('indices="0 1" value="0.2"', '0 0 0  1 2 3');
    s.step();
    expect([...dofs(s).x].map((v) => Math.round(v * 1e10) / 1e10)).to.deep.equal([0.2, 0.2, 0.2, 1.2, 2.2, 3.2]);
  });

  it('bounds: maxForce caps λ in displacement mode and the imposed λ in force mode, maxPositiveDisp caps δ in force mode', async () => {
    const s1 = await positionScene('useDirections="1 0 0" value="0.3" maxForce="0.5"'); // k·0.3·dt = 3 > 0.5
    s1.step(300);
    expect(position(s1).force.value).to.be.closeTo(0.5, 1e-14);
    expect(dofs(s1).x[0]).to.be.closeTo(0.5 / dtp / kp, 1e-10);
    const s2 = await positionScene('useDirections="1 0 0" valueType="force" value="2" maxForce="0.5"');
    s2.step(300);
    expect(dofs(s2).x[0]).to.be.closeTo(0.5 / dtp / kp, 1e-10);
    const s3 = await positionScene('useDirections="1 0 0" valueType="force" value="2" maxPositiveDisp="0.01"'); // free: 0.02
    s3.step(300);
    expect(dofs(s3).x[0]).to.be.closeTo(0.01, 1e-10);
    expect(position(s3).physicalForce.value).to.be.closeTo(kp * 0.01, 1e-6);
  });
});

/**
 * JointConstraint: a joint coordinate q (Vec1, inertia 1) held by a spring of stiffness k to its
 * rest value: displacement mode gives q − q₀ = value at the first step and the effort k·value at
 * rest; force mode gives q − q₀ = (λ/dt)/k at rest; the bounds cap λ and q − q₀.
 */
async function jointScene(attrs: string): Promise<SofaScene> {
  return softRobotScene({
    dt: dtp,
    body: `
      <MechanicalObject template="Vec1d" name="dofs" position="0.5 1"/>
      <UniformMass template="Vec1d" vertexMass="1"/>
      <RestShapeSpringsForceField template="Vec1d" stiffness="${kp}"/>
      <JointConstraint name="joint" index="1" ${attrs}/>
    `,
  });
}

function joint(s: SofaScene): softrobots.JointConstraint {
  return s.get<softrobots.JointConstraint>('p/joint')!;
}

describe('softrobots: JointConstraint scenes (closed forms)', () => {
  it('displacement mode: q − q₀ = value from the first step, effort k·value at rest, the other coordinate untouched', async () => {
    const s = await jointScene('value="0.3"');
    s.step();
    expect(dofs(s).x[1]).to.be.closeTo(1.3, 1e-12);
    expect(joint(s).displacement.value).to.be.closeTo(0.3, 1e-12);
    s.step(300);
    expect(dofs(s).x[0]).to.equal(0.5);
    expect(joint(s).physicalForce.value).to.be.closeTo(kp * 0.3, 1e-6);
  });

  it('force mode: q − q₀ = (λ/dt)/k at rest', async () => {
    const s = await jointScene('valueType="force" value="0.2"');
    s.step(300);
    expect(joint(s).displacement.value).to.be.closeTo(0.2 / dtp / kp, 1e-10);
    expect(joint(s).force.value).to.equal(0.2);
  });

  it('bounds: maxForce caps λ in displacement mode, maxDisplacement the value, minDisplacement holds in force mode', async () => {
    const s1 = await jointScene('value="0.3" maxForce="1"'); // k·0.3·dt = 3 > 1
    s1.step(300);
    expect(joint(s1).force.value).to.be.closeTo(1, 1e-14);
    expect(joint(s1).displacement.value).to.be.closeTo(1 / dtp / kp, 1e-10);
    const s2 = await jointScene('value="0.3" maxDisplacement="0.1"');
    s2.step();
    expect(joint(s2).displacement.value).to.be.closeTo(0.1, 1e-12);
    const s3 = await jointScene('valueType="force" value="-2" minDisplacement="-0.05"'); // free: −0.2
    s3.step(300);
    expect(joint(s3).displacement.value).to.be.closeTo(-0.05, 1e-10);
    expect(joint(s3).physicalForce.value).to.be.closeTo(-kp * 0.05, 1e-6);
  });
});
