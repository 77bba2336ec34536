import { expect } from 'chai';
import { loadScene, loadSceneFromString, mechanics, softrobots, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * Context Data and component Data read at every step, and script controllers called inside the
 * step. Data set between steps through the API (gravity on the root, ConstantForceField forces, a
 * MechanicalObject's rest_position, a PositionEffector goal) act from the next step on; a
 * controller's onAnimateBeginEvent runs before the solve (what it sets acts in that step), its
 * onAnimateEndEvent after time advanced. Oracles: the closed-form velocities of a particle under
 * piecewise constant forces, the rest position a damped spring settles to, and the goal the inverse
 * solver reaches.
 */

const dt = 0.01;

/** A particle of mass m in a child node (so that gravity is inherited), explicit Euler: v_{n+1} = v_n + dt·f/m. */
async function particle(extra = '', gravity = '0 -10 0', m = 2): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${dt}" gravity="${gravity}">
    <DefaultAnimationLoop/>
    <Node name="body">
      <EulerExplicitSolver symplectic="1"/>
      <MechanicalObject name="dofs" position="0 0 0"/>
      <UniformMass totalMass="${m}"/>
      ${extra}
    </Node>
  </Node>`);
}

const v = (s: SofaScene, axis: number): number => s.get<BaseMechanicalState>('body/dofs')!.v[axis];

describe('Data set between steps act at the next step', () => {
  it('gravity set on the root after step 50 acts from step 51 on, in a child node (v = 50·dt·g₁ + k·dt·g₂)', async () => {
    const s = await particle();
    s.step(50);
    expect(v(s, 1)).to.be.closeTo(50 * dt * -10, 1e-12);
    s.root.gravity.value = Float64Array.of(3, -20, 0);
    s.step();
    expect(v(s, 1)).to.be.closeTo(50 * dt * -10 + dt * -20, 1e-12);
    expect(v(s, 0)).to.be.closeTo(dt * 3, 1e-15);
    s.step(9);
    expect(v(s, 1)).to.be.closeTo(50 * dt * -10 + 10 * dt * -20, 1e-12);
    expect(v(s, 0)).to.be.closeTo(10 * dt * 3, 1e-14);
    // every node reads the root's gravity
    expect(Array.from(s.getNode('body')!.gravity.value)).to.deep.equal([3, -20, 0]);
  });

  it('ConstantForceField: forces, then force, then totalForce set between steps (v = Σ dt·F/m)', async () => {
    const m = 2;
    const s = await particle('<ConstantForceField name="load" forces="1 0 0"/>', '0 0 0', m);
    const load = s.get<mechanics.ConstantForceField>('body/load')!;
    s.step(10);
    expect(v(s, 0)).to.be.closeTo((10 * dt * 1) / m, 1e-14);
    load.forces.value = Float64Array.of(0, 4, 0);
    s.step(5);
    expect(v(s, 0)).to.be.closeTo((10 * dt * 1) / m, 1e-14);
    expect(v(s, 1)).to.be.closeTo((5 * dt * 4) / m, 1e-14);
    expect(Array.from(load.totalForce.value)).to.deep.equal([0, 4, 0]);
    load.force.value = Float64Array.of(0, 0, -6);
    s.step(5);
    expect(v(s, 1)).to.be.closeTo((5 * dt * 4) / m, 1e-14);
    expect(v(s, 2)).to.be.closeTo((5 * dt * -6) / m, 1e-14);
    load.totalForce.value = Float64Array.of(8, 0, 0);
    s.step(5);
    expect(v(s, 0)).to.be.closeTo((10 * dt * 1 + 5 * dt * 8) / m, 1e-14);
    expect(v(s, 2)).to.be.closeTo((5 * dt * -6) / m, 1e-14);
  });

  it('a ConstantForceField forces list of the wrong size set between steps is a located error at the next step', async () => {
    const s = await particle('<ConstantForceField name="load" forces="1 0 0"/>', '0 0 0');
    s.step();
    s.get<mechanics.ConstantForceField>('body/load')!.forces.value = Float64Array.of(1, 2, 3, 4, 5, 6);
    expect(() => s.step()).to.throw(/<string>:7:\d+: ConstantForceField 'load'( in \S+)?: 'forces' has 2 forces for 1 indices/);
  });

  it('rest_position set between steps: a damped rest-shape spring brings the point to the new rest position', async () => {
    const s = await loadSceneFromString(`<Node name="root" dt="${dt}" gravity="0 0 0">
      <DefaultAnimationLoop/>
      <Node name="body">
        <EulerImplicitSolver rayleighMass="2"/>
        <CGLinearSolver iterations="50" tolerance="1e-20" threshold="1e-30"/>
        <MechanicalObject name="dofs" position="1 2 3"/>
        <UniformMass totalMass="1"/>
        <RestShapeSpringsForceField stiffness="100"/>
      </Node>
    </Node>`);
    const x = s.get<mechanics.MechanicalObject>('body/dofs')!;
    s.step(20);
    expect(Array.from(x.x)).to.deep.equal([1, 2, 3]); // at rest
    x.restPosition.value = Float64Array.of(1, 0, 3);
    s.step();
    expect(x.x[1]).to.be.below(2); // pulled at the very next step
    s.step(2000);
    expect(x.x[1]).to.be.closeTo(0, 1e-9);
    expect(x.x[0]).to.equal(1);
    expect(x.restPosition.value).to.equal(x.x0); // the Data shows the state's rest positions again
  });
});

describe('script controllers (SofaScene.addController)', () => {
  it('onAnimateBeginEvent runs before the solve, onAnimateEndEvent after time advanced', async () => {
    const s = await particle();
    const seen: string[] = [];
    s.addController({
      onAnimateBeginEvent: (scene, e) => seen.push(`begin t=${scene.time.toFixed(2)} dt=${e.dt} v=${v(scene, 1).toFixed(2)}`),
      onAnimateEndEvent: (scene) => seen.push(`end t=${scene.time.toFixed(2)} v=${v(scene, 1).toFixed(2)}`),
    });
    s.step(2);
    expect(seen).to.deep.equal(['begin t=0.00 dt=0.01 v=0.00', 'end t=0.01 v=-0.10', 'begin t=0.01 dt=0.01 v=-0.10', 'end t=0.02 v=-0.20']);
  });

  it('a controller changing gravity at the begin of step 51 acts in that step (closed-form velocity)', async () => {
    const s = await particle();
    let steps = 0;
    s.addController({
      onAnimateBeginEvent(scene) {
        if (++steps === 51) scene.root.gravity.value = Float64Array.of(0, 5, 0);
      },
    });
    s.step(50);
    expect(v(s, 1)).to.be.closeTo(50 * dt * -10, 1e-12);
    s.step(10);
    expect(v(s, 1)).to.be.closeTo(50 * dt * -10 + 10 * dt * 5, 1e-12);
    s.removeController(s.get('controller1')!);
    expect(s.get('controller1')).to.equal(undefined);
  });

  it('a controller moves the goal of the inverse finger (scenes/softrobots/finger-inverse.scn): the tip follows it', async () => {
    const s = await loadScene(new URL('../../scenes/softrobots/finger-inverse.scn', import.meta.url).pathname);
    const tipY = (): number => s.get<BaseMechanicalState>('finger/dofs')!.x[3 * 54 + 1];
    const effector = s.get<softrobots.PositionEffector>('finger/effector')!;
    let step = 0;
    s.addController(
      {
        onAnimateBeginEvent() {
          step++;
          if (step === 11) effector.effectorGoal.value = Float64Array.of(100, 7.5, 5);
          if (step === 21) effector.effectorGoal.value = Float64Array.of(100, 12, 5);
        },
      },
      { node: 'finger', name: 'goalController' },
    );
    s.step(10);
    expect(Math.abs(tipY() - 10)).to.be.at.most(1e-10);
    s.step(10);
    expect(Math.abs(tipY() - 7.5)).to.be.at.most(1e-10);
    s.step(10);
    expect(Math.abs(tipY() - 12)).to.be.at.most(1e-10);
    expect(s.get('finger/goalController')).to.not.equal(undefined);
  });

  it('an effector goal of the wrong length set by a controller is a located error at that step', async () => {
    const s = await loadScene(new URL('../../scenes/softrobots/finger-inverse.scn', import.meta.url).pathname);
    const effector = s.get<softrobots.PositionEffector>('finger/effector')!;
    s.addController({ onAnimateBeginEvent: () => void (effector.effectorGoal.value = Float64Array.of(100, 7.5)) });
    expect(() => s.step()).to.throw(
      /finger-inverse\.scn:\d+:\d+: PositionEffector 'effector'( in \S+)?: effectorGoal holds 2 numbers: expected 3 per index/,
    );
  });
});
