import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inv } from 'mathjs';
import { loadScene, loadSceneFromString, type BaseMechanicalState, type SofaScene, mechanics } from 'sofa-ts';
import { corpusRoot, hasCorpus } from './corpus-test-support.js';

/**
 * Rigid templates through the XML path, each against a closed form:
 *   - a rigid body on RestShapeSpringsForceField springs oscillates with the periods 2π√(m/k)
 *     (centre) and 2π√(I/κ) (orientation about a principal axis, exact at any amplitude since the
 *     restoring torque is κ·θ);
 *   - a physical pendulum (a frame turning about its fixed centre, a point mass carried by a
 *     RigidMapping) has the period 4·√(I_pivot/(m·g·d))·K(sin(θ0/2));
 *   - a `.rigid` file's inertia: one explicit step gives ω = h·(m·J)⁻¹·τ (mathjs inverse);
 *   - FixedPlane, PartialFixed and LinearMovement projective constraints on Rigid3 frames do what
 *     their closed forms say.
 */

/** Times where y(t) crosses `level` going down (linear interpolation between samples). */
function downCrossings(t: number[], y: number[], level = 0): number[] {
  const out: number[] = [];
  for (let i = 1; i < y.length; i++) {
    const a = y[i - 1] - level,
      b = y[i] - level;
    if (a > 0 && b <= 0) out.push(t[i - 1] + ((t[i] - t[i - 1]) * a) / (a - b));
  }
  return out;
}

/** Mean spacing of successive crossings. */
function period(c: number[]): number {
  expect(c.length, 'at least two crossings').to.be.at.least(2);
  return (c[c.length - 1] - c[0]) / (c.length - 1);
}

/** Complete elliptic integral of the first kind K(k) = π / (2·AGM(1, √(1 − k²))). */
function ellipticK(k: number): number {
  let a = 1,
    b = Math.sqrt(1 - k * k);
  for (let i = 0; i < 30; i++) [a, b] = [(a + b) / 2, Math.sqrt(a * b)];
  return Math.PI / (2 * a);
}

function state(s: SofaScene, p: string): BaseMechanicalState {
  const o = s.get<BaseMechanicalState>(p);
  if (!o) throw new Error(`no state ${p}`);
  return o;
}

/** Angle of a quaternion (x, y, z, w) turning about a known axis component k (0, 1 or 2). */
const angleAbout = (x: Float64Array, o: number, k: number): number => 2 * Math.atan2(x[o + 3 + k], x[o + 6]);

describe('Rigid templates in scenes (closed forms)', () => {
  it('RestShapeSpringsForceField on a Rigid3 body: periods 2π√(m/k) of the centre and 2π√(I/κ) of the orientation', async () => {
    const m = 2,
      k = 50,
      Jyy = 0.3,
      kappa = 3,
      theta0 = 0.8,
      h = 0.002;
    const s = await loadSceneFromString(`<Node name="root" dt="${h}" gravity="0 0 0">
      <RungeKutta4Solver/>
      <MechanicalObject name="body" template="Rigid3" position="0.05 0 0  0 ${Math.sin(theta0 / 2)} 0 ${Math.cos(theta0 / 2)}" rest_position="0 0 0 0 0 0 1"/>
      <UniformMass vertexMass="${m} 1 [0.5 0 0,0 ${Jyy} 0,0 0 0.8]"/>
      <RestShapeSpringsForceField stiffness="${k}" angularStiffness="${kappa}"/>
    </Node>`);
    const body = state(s, 'body');
    const t: number[] = [],
      x: number[] = [],
      th: number[] = [];
    for (let n = 0; n < 4500; n++) {
      s.step();
      t.push(s.time);
      x.push(body.x[0]);
      th.push(angleAbout(body.x, 0, 1));
    }
    const Tx = period(downCrossings(t, x));
    const Tr = period(downCrossings(t, th));
    expect(Tx).to.be.closeTo(2 * Math.PI * Math.sqrt(m / k), 1e-5);
    expect(Tr).to.be.closeTo(2 * Math.PI * Math.sqrt((m * Jyy) / kappa), 1e-5);
    // the rotation stays about y (principal axis), the centre on x
    expect(Math.max(...Array.from(body.x.subarray(1, 3), Math.abs))).to.be.below(1e-12);
    expect(Math.abs(body.x[3]) + Math.abs(body.x[5])).to.be.below(1e-12);
  });

  it('a physical pendulum: RigidMapping bob on a frame turning about its fixed centre, T = 4√(I_pivot/(m·g·d))·K(sin(θ0/2))', async () => {
    const mf = 0.5,
      j = 0.1,
      mb = 2,
      d = 1.5,
      g = 9.81,
      theta0 = 0.6,
      h = 0.002;
    // An implicit solver: the bob's mass reaches the frame as Jᵀ·m·J through the assembled system
    // (explicit solvers use the masses' own inverse, as SOFA's accFromF, which ignores mapped masses).
    const s = await loadSceneFromString(`<Node name="root" dt="${h}" gravity="0 -${g} 0">
      <VariationalSymplecticSolver newtonError="1e-13" steps="50"/>
      <SparseLDLSolver/>
      <MechanicalObject name="pivot" template="Rigid3" position="0 0 0 0 0 ${Math.sin(theta0 / 2)} ${Math.cos(theta0 / 2)}"/>
      <UniformMass vertexMass="${mf} 1 [${j} 0 0,0 ${j} 0,0 0 ${j}]"/>
      <PartialFixedProjectiveConstraint indices="0" fixedDirections="1 1 1 0 0 0"/>
      <Node name="bob">
        <MechanicalObject name="point" template="Vec3" position="0 -${d} 0"/>
        <UniformMass totalMass="${mb}"/>
        <RigidMapping template=""/>
      </Node>
    </Node>`);
    const pivot = state(s, 'pivot');
    const bob = state(s, 'bob/point');
    // the bob hangs at R(θ0)·(0, −d, 0)
    expect(bob.x[0]).to.be.closeTo(d * Math.sin(theta0), 1e-14);
    expect(bob.x[1]).to.be.closeTo(-d * Math.cos(theta0), 1e-14);
    const t: number[] = [],
      th: number[] = [];
    for (let n = 0; n < 3000; n++) {
      s.step();
      t.push(s.time);
      th.push(angleAbout(pivot.x, 0, 2));
    }
    const Ipivot = mf * j + mb * d * d;
    const T = 4 * Math.sqrt(Ipivot / (mb * g * d)) * ellipticK(Math.sin(theta0 / 2));
    expect(period(downCrossings(t, th))).to.be.closeTo(T, 2e-5);
    // the pivot does not move, the bob stays on its circle
    expect(Math.hypot(pivot.x[0], pivot.x[1], pivot.x[2])).to.equal(0);
    expect(Math.hypot(bob.x[0], bob.x[1], bob.x[2])).to.be.closeTo(d, 1e-12);
  });

  describe('rigid mass files and rigid mass text', () => {
    let dir = '';
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-rigid-'));
      // A file with SOFA's keywords; the centre (read and not used by SOFA) must not shift anything.
      fs.writeFileSync(
        path.join(dir, 'body.rigid'),
        'Xsp 3.0\nvertexMass 4\nvolm 2\ninrt 1 0.2 0  0.2 2 0  0 0 3\ncenter 9 9 9\n# a comment line\n',
      );
      fs.writeFileSync(path.join(dir, 'odd.rigid'), 'Xsp 3.0\nmass 7\nvertexMass 3\nfrme 0 0 0 1\n');
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const scene = (massAttrs: string, force = '1 2 3 0.5 -1 2', h = 0.01) =>
      loadSceneFromString(`<Node name="root" dt="${h}" gravity="0 0 0">
        <EulerExplicitSolver/>
        <MechanicalObject name="body" template="Rigid3" position="1 2 3 0 0 0 1"/>
        <UniformMass name="mass" ${massAttrs}/>
        <ConstantForceField indices="0" forces="${force}"/>
      </Node>`);

    it("the file's inertia is used: after one step ω = h·(m·J)⁻¹·τ and v = h·F/m (the file's mass wins over totalMass)", async () => {
      const h = 0.01;
      const s = await scene(`filename="${path.join(dir, 'body.rigid')}" totalMass="100"`);
      const mass = s.get<mechanics.UniformMass>('mass')!;
      expect(Array.from(mass.vertexMass.value)).to.deep.equal([4, 2, 1, 0.2, 0, 0.2, 2, 0, 0, 0, 3]);
      expect(mass.totalMass.value).to.equal(4);
      s.step();
      const body = state(s, 'body');
      const I = [
        [4, 0.8, 0],
        [0.8, 8, 0],
        [0, 0, 12],
      ];
      const Iinv = inv(I) as number[][];
      const tau = [0.5, -1, 2];
      const w = Iinv.map((row) => h * row.reduce((a, v, k) => a + v * tau[k], 0));
      [1, 2, 3].forEach((f, k) => expect(body.v[k]).to.be.closeTo((h * f) / 4, 1e-15));
      w.forEach((wk, k) => expect(body.v[3 + k], `ω[${k}]`).to.be.closeTo(wk, 1e-15));
      // the frame moved from where it was given (the centre line of the file is not used)
      expect(body.x[0]).to.be.closeTo(1 + h * body.v[0], 1e-15);
    });

    it("SOFA's mass keyword is vertexMass: `mass` is reported as unknown and skipped; frme is read and not used", async () => {
      const s = await scene(`filename="${path.join(dir, 'odd.rigid')}"`);
      const mass = s.get<mechanics.UniformMass>('mass')!;
      expect(Array.from(mass.vertexMass.value)).to.deep.equal([3, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
      expect(s.warnings.map((w) => w.message).join('\n')).to.match(/odd\.rigid': line 2: unknown keyword 'mass'/);
    });

    it('vertexMass written as SOFA\'s RigidMass text "m volume [a b c,d e f,g h i]" gives the same mass as plain numbers', async () => {
      const a = await scene('vertexMass="2 1 [1 0 0,0 3 0,0 0 5]"');
      const b = await scene('vertexMass="2 1 1 0 0 0 3 0 0 0 5"');
      const ma = a.get<mechanics.UniformMass>('mass')!,
        mb = b.get<mechanics.UniformMass>('mass')!;
      expect(Array.from(ma.vertexMass.value)).to.deep.equal([2, 1, 1, 0, 0, 0, 3, 0, 0, 0, 5]);
      expect(Array.from(ma.vertexMass.value)).to.deep.equal(Array.from(mb.vertexMass.value));
      a.step();
      expect(state(a, 'body').v[4]).to.be.closeTo((0.01 * -1) / 6, 1e-16);
    });

    it('DiagonalMass on Rigid3 frames: one RigidMass per frame (given, padded with the last), or lumped from the mesh with J = I', async () => {
      const h = 0.01;
      const run = async (mass: string) => {
        const s = await loadSceneFromString(`<Node name="root" dt="${h}" gravity="0 0 0">
          <EulerExplicitSolver/>
          <MechanicalObject name="frames" template="Rigid3" position="0 0 0 0 0 0 1  3 0 0 0 0 0 1  3 4 0 0 0 0 1"/>
          <MeshTopology edges="0 1  1 2"/>
          ${mass}
          <ConstantForceField forces="1 0 0 0 0 2  0 1 0 2 0 0  0 0 1 0 2 0"/>
        </Node>`);
        s.step();
        return state(s, 'frames').v;
      };
      // given: frame 0 (m 2, J diag(1, 1, 4)), frame 1 and 2 (m 3, J diag(2, 3, 4)) — the last one repeated
      const v = await run('<DiagonalMass vertexMass="2 1 [1 0 0,0 1 0,0 0 4]  3 1 [2 0 0,0 3 0,0 0 4]"/>');
      const expected = [h / 2, 0, 0, 0, 0, (h * 2) / 8, 0, h / 3, 0, (h * 2) / 6, 0, 0, 0, 0, h / 3, 0, (h * 2) / 9, 0];
      expected.forEach((e, i) => expect(v[i], `v[${i}]`).to.be.closeTo(e, 1e-16));
      // lumped: ρ·L/2 per edge end: m = (1.5, 1.5 + 2, 2), rotational mass m·I
      const w = await run('<DiagonalMass massDensity="1"/>');
      const m = [1.5, 3.5, 2];
      const lumped = [h / m[0], 0, 0, 0, 0, (2 * h) / m[0], 0, h / m[1], 0, (2 * h) / m[1], 0, 0, 0, 0, h / m[2], 0, (2 * h) / m[2], 0];
      lumped.forEach((e, i) => expect(w[i], `w[${i}]`).to.be.closeTo(e, 1e-16));
    });

    it('a file that cannot be found stops the load, located at the mass', async () => {
      let msg = '';
      try {
        await scene('filename="BehaviorModels/none.rigid"');
      } catch (e) {
        msg = (e as Error).message;
      }
      expect(msg).to.match(/<string>:\d+:\d+: UniformMass 'mass': rigid mass file 'BehaviorModels\/none.rigid' not found/);
    });
  });

  describe('projective constraints on Rigid3 frames (symplectic Euler: v_n = n·h·a, x_n = x_0 + h²·a·n(n+1)/2)', () => {
    const h = 0.01,
      n = 20;
    const ramp = (a: number): number => h * h * a * ((n * (n + 1)) / 2);
    const body = (constraint: string, force: string, inertia: string) =>
      loadSceneFromString(`<Node name="root" dt="${h}" gravity="0 0 0">
        <EulerExplicitSolver/>
        <MechanicalObject name="body" template="Rigid3" position="1 2 3 0 0 0 1"/>
        <UniformMass vertexMass="2 1 [${inertia}]"/>
        <ConstantForceField indices="0" forces="${force}"/>
        ${constraint}
      </Node>`);

    it('FixedPlaneProjectiveConstraint: the centre slides in the plane z = 3, the orientation turns freely', async () => {
      const s = await body('<FixedPlaneProjectiveConstraint indices="0" direction="0 0 1"/>', '1 2 3 0 0 0.6', '1 0 0,0 1 0,0 0 0.5');
      s.step(n);
      const x = state(s, 'body').x;
      // a = F/m = (0.5, 1, ·), α_z = 0.6 / (2·0.5) = 0.6
      expect(x[0]).to.be.closeTo(1 + ramp(0.5), 1e-14);
      expect(x[1]).to.be.closeTo(2 + ramp(1), 1e-14);
      expect(x[2]).to.equal(3);
      expect(angleAbout(x, 0, 2)).to.be.closeTo(ramp(0.6), 1e-13);
    });

    it('PartialFixedProjectiveConstraint: x, z and the rotation about y are held; y and the other rotations move', async () => {
      const s = await body(
        '<PartialFixedProjectiveConstraint indices="0" fixedDirections="1 0 1 0 1 0"/>',
        '1 2 3 0.3 0.4 0.5',
        '1 0 0,0 1 0,0 0 1',
      );
      s.step(n);
      const x = state(s, 'body').x;
      expect([x[0], x[2]]).to.deep.equal([1, 3]);
      expect(x[1]).to.be.closeTo(2 + ramp(1), 1e-14);
      // ω grows along the fixed axis (0.15, 0, 0.25): a rotation about it of angle h²·|α|·n(n+1)/2
      const alpha = [0.15, 0, 0.25];
      const theta = ramp(Math.hypot(...alpha));
      const u = alpha.map((a) => a / Math.hypot(...alpha));
      for (let k = 0; k < 3; k++) expect(x[3 + k]).to.be.closeTo(Math.sin(theta / 2) * u[k], 1e-14);
      expect(x[6]).to.be.closeTo(Math.cos(theta / 2), 1e-14);
    });

    it('LinearMovementProjectiveConstraint: centre x0 + m(t), orientation q0 ⊗ slerp(R_k, R_k+1, α), mapped points follow; absolute movements too', async () => {
      const H = 0.1;
      const make = (relative: boolean) =>
        loadSceneFromString(`<Node name="root" dt="${H}" gravity="0 -9.81 0">
          <EulerImplicitSolver/>
          <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-20"/>
          <MechanicalObject name="body" template="Rigid3" position="0.5 0 0 0 0 ${Math.sin(0.15)} ${Math.cos(0.15)}"/>
          <UniformMass totalMass="1"/>
          <LinearMovementProjectiveConstraint template="Rigid3" relativeMovements="${relative}" keyTimes="0 1 3"
            movements="0 0 0 0 0 0   1 0 0 0 0 0.8   1 2 0 0 0 -0.4"/>
          <Node name="tip">
            <MechanicalObject name="point" position="1 0 0"/>
            <RigidMapping/>
          </Node>
        </Node>`);
      // m(t) and the rotation angle about z of slerp(R_k, R_k+1, α), at the projection time t
      const motion = (t: number): { m: number[]; angle: number; v: number[] } =>
        t < 1
          ? { m: [t, 0, 0], angle: 0.8 * t, v: [1, 0, 0, 0, 0, 0.8] }
          : { m: [1, (2 * (t - 1)) / 2, 0], angle: 0.8 - (1.2 * (t - 1)) / 2, v: [0, 1, 0, 0, 0, -0.6] };
      for (const relative of [true, false]) {
        const s = await make(relative);
        const b = state(s, 'body');
        const tip = state(s, 'tip/point');
        for (let step = 1; step <= 25; step++) {
          // positions are projected at the end of the step, with the (context) time of its start
          const e = motion(s.time);
          s.step();
          const c = relative ? [0.5 + e.m[0], e.m[1], 0] : e.m;
          const angle = (relative ? 0.3 : 0) + e.angle;
          for (let k = 0; k < 3; k++) expect(b.x[k], `step ${step} c[${k}]`).to.be.closeTo(c[k], 1e-13);
          expect(angleAbout(b.x, 0, 2), `step ${step} angle`).to.be.closeTo(angle, 1e-13);
          e.v.forEach((vk, k) => expect(b.v[k], `step ${step} v[${k}]`).to.be.closeTo(vk, 1e-13));
          expect(tip.x[0]).to.be.closeTo(c[0] + Math.cos(angle), 1e-13);
          expect(tip.x[1]).to.be.closeTo(c[1] + Math.sin(angle), 1e-13);
        }
      }
    });
  });

  describe('MechanicalObject and template deduction', () => {
    it('a Rigid3 position of 8 numbers is read as SOFA reads it: one frame, the last number dropped, its zero quaternion made the identity, both reported', async () => {
      const s = await loadSceneFromString(`<Node name="root" gravity="0 0 0">
        <MechanicalObject name="frame" template="Rigid3" position="0.1 0 0  0  0 0 0 1"/>
      </Node>`);
      const f = state(s, 'frame');
      expect(f.size).to.equal(1);
      expect(Array.from(f.x)).to.deep.equal([0.1, 0, 0, 0, 0, 0, 1]);
      const w = s.warnings.map((x) => x.message).join('\n');
      expect(w).to.match(/'position' has 8 numbers, not a multiple of 7 \(template Rigid3d\): the last 1 are ignored/);
      expect(w).to.match(/'position': 1 zero orientation quaternion made the identity/);
    });

    it("non-unit orientation quaternions are kept as written (SOFA's release build) and reported; 6-digit rounding is silent", async () => {
      const s = await loadSceneFromString(`<Node name="root" gravity="0 0 0">
        <MechanicalObject name="a" template="Rigid3" position="0 0 0  0.707 0 0.707 0"/>
        <MechanicalObject name="b" template="Rigid3" position="0 0 0  0.707107 0 0.707107 0"/>
      </Node>`);
      expect(Array.from(state(s, 'a').x)).to.deep.equal([0, 0, 0, 0.707, 0, 0.707, 0]);
      expect(Array.from(state(s, 'b').x)).to.deep.equal([0, 0, 0, 0.707107, 0, 0.707107, 0]);
      const w = s.warnings.map((x) => x.message).join('\n');
      expect(w).to.match(/'position': 1 orientation quaternion of non-unit norm \(\|q\|² = 0\.999698\) kept as written/);
      expect(s.warnings.filter((x) => x.message.includes('kept as written'))).to.have.length(1);
    });

    it('RigidMapping without a template (or template="") takes Rigid2d,Vec2d from its states', async () => {
      const s = await loadSceneFromString(`<Node name="root" gravity="0 0 0">
        <MechanicalObject name="frame" template="Rigid2" position="1 2 ${Math.PI / 2}"/>
        <Node name="child">
          <MechanicalObject name="p" template="Vec2" position="1 0"/>
          <RigidMapping name="map" template=""/>
        </Node>
      </Node>`);
      expect(s.get('child/map')!.template).to.equal('Rigid2d,Vec2d');
      const p = state(s, 'child/p');
      expect(p.x[0]).to.be.closeTo(1, 1e-15);
      expect(p.x[1]).to.be.closeTo(3, 1e-15);
    });
  });

  describe('SOFA example scenes that stopped on Rigid templates (corpus)', function () {
    this.timeout(120000);
    before(function () {
      if (!hasCorpus) this.skip();
    });
    const examples = path.join(corpusRoot, 'sofa', 'examples');
    const open = (scene: string) =>
      loadScene(path.join(examples, scene), { dataPaths: [path.join(corpusRoot, 'sofa', 'share'), examples] });
    const finite = (s: SofaScene): void => {
      s.root.visit((n) => {
        for (const o of n.objects) {
          const st = o as Partial<BaseMechanicalState>;
          if (st.x instanceof Float64Array && st.v instanceof Float64Array) {
            for (const v of st.x) expect(Number.isFinite(v), `${o.describe()} x`).to.equal(true);
          }
        }
        return true;
      });
    };

    for (const scene of [
      'Component/AnimationLoop/FreeMotionAnimationLoop.scn',
      'Component/Collision/Detection/CompositeCollisionPipeline.scn',
      'Component/Collision/Detection/CompositeCollisionPipeline_none.scn',
      'Component/Collision/Response/RuleBasedContactManager.scn',
      'Component/Constraint/Lagrangian/BilateralLagrangianConstraint_with_svd_regularization_solvable.scn',
      'Component/Mapping/NonLinear/RigidMapping2d-basic.scn',
      'Component/Mapping/NonLinear/RigidMapping.scn',
      'Component/Mapping/NonLinear/RigidRigidMapping-basic.scn',
      'Component/SolidMechanics/FEM/RestShapeSpringsForceField3.scn',
      'Component/SolidMechanics/Spring/RestShapeSpringsForceField.scn',
      'Tutorials/sandbox/rungekutta2_heterogeneousobjects.scn',
    ]) {
      it(`${scene} loads and steps`, async () => {
        const s = await open(scene);
        s.step(3);
        finite(s);
      });
    }

    it('RestShapeSpringsForceField2.scn: the 8-number Rigid3 positions are read as SOFA reads them, with warnings', async () => {
      const s = await open('Component/SolidMechanics/Spring/RestShapeSpringsForceField2.scn');
      expect(Array.from(state(s, 'Object2/mstate').x)).to.deep.equal([0.1, 0, 0, 0, 0, 0, 1]);
      expect(s.warnings.filter((w) => /has 8 numbers, not a multiple of 7/.test(w.message)).length).to.equal(2);
      s.step(3);
      // the spring pulls the frame back towards the origin (k = 11, m = 0.01)
      expect(state(s, 'Object2/mstate').x[0]).to.be.below(0.1);
    });

    it('LinearMovementProjectiveConstraint.scn: the spoons follow their key movements (relative, Rigid3)', async () => {
      const s = await open('Component/Constraint/Projective/LinearMovementProjectiveConstraint.scn');
      const spoon = state(s, 'Spoon1/default118');
      const z0 = spoon.x[2];
      while (s.time < 3 - 1e-9) s.step();
      // keys 2 → 10 s move the centre by (0, 0, −1): at the last projection, t = 2.9, m_z = −0.9/8
      expect(spoon.x[2] - z0).to.be.closeTo(-0.9 / 8, 1e-12);
    });

    it('TutorialMappingDragonRigid.scn: the mass comes from BehaviorModels/dragon.rigid (mass and inertia per unit mass)', async () => {
      const s = await open('Tutorials/Mappings/TutorialMappingDragonRigid.scn');
      const mass = s.get<mechanics.UniformMass>('Mass')!;
      expect(Array.from(mass.vertexMass.value)).to.deep.equal([
        608.8170814645, 608.8170814645, 16.5323364055, 2.3979416727, 0.441640834, 2.3979416727, 27.6442526083, 1.6423629423, 0.441640834,
        1.6423629423, 39.172687484,
      ]);
      s.step(3);
      finite(s);
    });
  });
});
