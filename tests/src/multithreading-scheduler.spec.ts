import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';

/**
 * MultiThreading's AnimationLoopParallelScheduler, DataExchange and MeanComputation through the XML
 * path: independent child simulations step exactly as they do alone, the root's time advances
 * once per step, DataExchange copies after every step, MeanComputation gives the mean.
 */

/** A particle under the root's gravity (SOFA copies it into every node), symplectic Euler. */
const particle = (name: string, x: string, loop = '<DefaultAnimationLoop/>') =>
  `<Node name="${name}">${loop}<EulerExplicitSolver symplectic="1"/>
     <MechanicalObject name="dofs" position="${x}"/><UniformMass totalMass="1"/></Node>`;

describe("MultiThreading's parallel scheduler, DataExchange and MeanComputation (sofa-ts: children in turn)", function () {
  this.timeout(60000);
  const dt = 0.01;

  it('each child steps as it does alone (symplectic Euler: v_n = n·g·h, x_n = x₀ + g·h²·n(n+1)/2), and time advances by dt per step', async () => {
    const scene = await loadSceneFromString(`<Node name="root" dt="${dt}" gravity="0 -10 0">
      <AnimationLoopParallelScheduler nbThreads="2"/>
      ${particle('a', '0 1 0')}${particle('b', '5 0 0')}${particle('still', '7 7 7', '')}
    </Node>`);
    const n = 25;
    scene.step(n);
    expect(scene.time).to.be.closeTo(n * dt, 1e-12);
    const x = (p: string) => Array.from(scene.get<BaseMechanicalState>(`/${p}/dofs`)!.x);
    const alone = await loadSceneFromString(
      `<Node name="root" dt="${dt}" gravity="0 -10 0">${particle('a', '0 1 0', '')}<DefaultAnimationLoop/></Node>`,
    );
    alone.step(n);
    expect(x('a')).to.deep.equal(Array.from(alone.get<BaseMechanicalState>('/a/dofs')!.x));
    const fall = (g: number) => g * dt * dt * ((n * (n + 1)) / 2);
    expect(x('a')[1]).to.be.closeTo(1 + fall(-10), 1e-12);
    expect(x('b')[0]).to.equal(5);
    expect(x('b')[1]).to.be.closeTo(fall(-10), 1e-12);
    // a child without an animation loop does not move (as in SOFA)
    expect(x('still')).to.deep.equal([7, 7, 7]);
    expect(scene.warnings.map((w) => w.message).join('\n')).to.match(/steps its 2 child simulation\(s\) one after the other/);
  });

  it('DataExchange copies the source into the destination after init and after each step (a destination without a solver keeps the copy)', async () => {
    const scene = await loadSceneFromString(`<Node name="root" dt="${dt}" gravity="0 -10 0">
      <AnimationLoopParallelScheduler/>
      ${particle('a', '0 1 0')}<Node name="b"><DefaultAnimationLoop/><MechanicalObject name="dofs" position="5 0 0"/></Node>
      <DataExchange template="vector<Vec3d>" from="@a/dofs.position" to="@b/dofs.position"/>
    </Node>`);
    const a = scene.get<BaseMechanicalState>('/a/dofs')!,
      b = scene.get<BaseMechanicalState>('/b/dofs')!;
    expect(Array.from(b.x)).to.deep.equal([0, 1, 0]);
    for (let k = 0; k < 3; k++) {
      scene.step();
      expect(Array.from(b.x)).to.deep.equal(Array.from(a.x));
    }
    // b has no solver: between exchanges it keeps the copied position
    expect(Array.from(b.v)).to.deep.equal([0, 0, 0]);
  });

  it('DataExchange without a link to a Data on each side says that nothing is exchanged', async () => {
    const scene = await loadSceneFromString(`<Node name="root" dt="${dt}">
      <AnimationLoopParallelScheduler/>${particle('a', '0 1 0')}<DataExchange from="@a/dofs.position"/></Node>`);
    expect(scene.warnings.map((w) => w.message).join('\n')).to.match(/'to' must link to a Data/);
  });

  it('MeanComputation gives the mean of its node’s states; the state tagged MeanOutput follows it', async () => {
    const scene = await loadSceneFromString(`<Node name="root" dt="${dt}" gravity="0 0 0">
      <DefaultAnimationLoop/>
      <Node name="n">
        <MechanicalObject name="s1" position="0 0 0  1 2 3"/>
        <MechanicalObject name="s2" position="2 4 6  3 2 1"/>
        <MechanicalObject name="s3" position="1 -1 0  2 5 2"/>
        <MeanComputation name="mean"/>
        <MechanicalObject name="out" position="0 0 0  0 0 0" tags="MeanOutput"/>
      </Node>
    </Node>`);
    const mean = [1, 1, 2, 2, 3, 2];
    expect(Array.from(scene.get('/n/mean')!.findData('result')!.value as Float64Array)).to.deep.equal(mean);
    scene.step(2);
    expect(Array.from(scene.get<BaseMechanicalState>('/n/out')!.x)).to.deep.equal(mean);
    expect(scene.warnings.map((w) => w.message).join('\n')).to.match(/SOFA's MeanComputation adds the inputs onto its previous result/);
  });
});
