import { expect } from 'chai';
import {
  BaseForceField,
  ComponentError,
  DivergenceError,
  Enum,
  Int,
  Str,
  SofaError,
  componentModule,
  createRegistry,
  isMechanicalState,
  loadSceneFromString,
  sofaComponent,
  type BaseMechanicalState,
  type MatrixAccumulator,
} from 'sofa-ts';
import { explodingScene, firstNonFiniteStep, stableScene } from './safety-test-support.js';

/**
 * A force field as a plugin with a bug would have it: it throws, where and how its Data say, a
 * plain Error, a TypeError of its own code, or a SofaError of its own checks; otherwise no force.
 */
@sofaComponent({ name: 'FaultyForceField', category: 'ForceField', description: 'test: throws where it is told' })
class FaultyForceField extends BaseForceField {
  readonly failIn = this.initData({
    name: 'failIn',
    type: Enum(['none', 'init', 'bwdInit', 'addForce', 'reset', 'handleEvent']),
    default: 'none',
    help: 'where to throw',
  });
  readonly failAtStep = this.initData({
    name: 'failAtStep',
    type: Int,
    default: 1,
    help: 'first step that throws (addForce, handleEvent)',
  });
  readonly failWith = this.initData({ name: 'failWith', type: Str, default: 'Error', help: 'Error, TypeError or SofaError' });
  readonly mstate = this.initLink<BaseMechanicalState>({
    name: 'mstate',
    help: 'its state',
    accepts: isMechanicalState,
    expected: 'a state',
    search: 'local',
    required: true,
  });
  private steps = 0;

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return [this.mstate.require()];
  }
  private fail(where: string): void {
    if (this.failIn.value !== where) return;
    if (this.failWith.value === 'SofaError') throw this.error(`cannot go on in ${where}`, 'a hint of the component');
    if (this.failWith.value === 'TypeError') {
      const missing = (this as unknown as { missing: { length: number } | undefined }).missing;
      void missing!.length; // a genuine TypeError, thrown by the engine
    }
    throw new Error(`plugin bug in ${where}`);
  }
  override init(): void {
    this.fail('init');
  }
  override bwdInit(): void {
    this.fail('bwdInit');
  }
  override reset(): void {
    this.fail('reset');
  }
  override handleEvent(e: { constructor: { name: string } }): void {
    if (e.constructor.name === 'AnimateBeginEvent' && ++this.steps >= this.failAtStep.value) this.fail('handleEvent');
  }
  addForce(): void {
    if (this.context.getTime() >= (this.failAtStep.value - 1) * this.context.getDt() - 1e-12) this.fail('addForce');
  }
  addDForce(): void {}
  addKToMatrix(_acc: MatrixAccumulator): void {}
}

function registry() {
  const r = createRegistry();
  r.load('faulty-plugin', componentModule('faulty-plugin', [FaultyForceField]));
  return r;
}

/** A particle under gravity, implicit Euler, with two FaultyForceFields (the second one configurable). */
function faultyScene(attrs: string): string {
  return `<Node name="root" dt="0.01">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="10" tolerance="1e-12" threshold="1e-12"/>
    <MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass totalMass="1"/>
    <FaultyForceField name="quiet"/>
    <FaultyForceField name="faulty" ${attrs}/>
  </Node>
</Node>`;
}

async function failure(p: Promise<unknown> | (() => unknown)): Promise<ComponentError> {
  try {
    if (typeof p === 'function') p();
    else await p;
  } catch (e) {
    expect(e).to.be.instanceOf(ComponentError);
    return e as ComponentError;
  }
  throw new Error('expected a ComponentError');
}

describe('errors thrown inside components', () => {
  const load = (attrs: string) => loadSceneFromString(faultyScene(attrs), { registry: registry(), fileName: 'faulty.scn' });

  it('init: a plain Error of a plugin names the component, its node, its line and the phase', async () => {
    const err = await failure(load('failIn="init"'));
    expect(err.message).to.match(
      /\/faulty\.scn:9:5: FaultyForceField 'faulty' in \/root\/body: init threw Error: plugin bug in init \(an unchecked error inside the component: a bug of its code, or a case it does not report yet\)$/,
    );
    expect(err.phase).to.deep.equal({ kind: 'init' });
    expect(err.isInternal).to.equal(true);
    expect((err.cause as Error).message).to.equal('plugin bug in init');
  });

  it('bwdInit: the same, with its phase', async () => {
    const err = await failure(load('failIn="bwdInit"'));
    expect(err.message).to.contain("faulty.scn:9:5: FaultyForceField 'faulty' in /root/body: bwdInit threw Error: plugin bug in bwdInit");
    expect(err.phase.kind).to.equal('bwdInit');
  });

  it('step 3: a TypeError in addForce names the method, the step and its start time; steps 1-2 ran', async () => {
    const scene = await load('failIn="addForce" failAtStep="3" failWith="TypeError"');
    scene.step(2);
    const err = await failure(() => scene.step());
    expect(err.message).to.match(
      /\/faulty\.scn:9:5: FaultyForceField 'faulty' in \/root\/body: addForce threw TypeError: Cannot read properties of undefined \(reading 'length'\) \(at step 3, t = 0\.02 s\) \(an unchecked error inside the component: a bug of its code, or a case it does not report yet\)$/,
    );
    expect(err.phase).to.deep.equal({ kind: 'step', step: 3, time: 0.02 });
    expect(err.source).to.equal(scene.get('/body/faulty'));
    expect(err.cause).to.be.instanceOf(TypeError);
  });

  it("a component's own SofaError keeps its words and hint, and gains node path and step", async () => {
    const scene = await load('failIn="addForce" failAtStep="2" failWith="SofaError"');
    const err = await failure(() => scene.step(5));
    expect(err.message).to.match(
      /\/faulty\.scn:9:5: FaultyForceField 'faulty' in \/root\/body: cannot go on in addForce \(at step 2, t = 0\.01 s\) \(a hint of the component\)$/,
    );
    expect(err.isInternal).to.equal(false);
  });

  it('an event handler is named as the component that threw (not the loop that sent the event)', async () => {
    const scene = await load('failIn="handleEvent" failAtStep="4"');
    const err = await failure(() => scene.step(10));
    expect(err.message).to.contain(
      "FaultyForceField 'faulty' in /root/body: handleEvent threw Error: plugin bug in handleEvent (at step 4, t = 0.03 s)",
    );
    expect(scene.simulation.stepCount).to.equal(3);
  });

  it('reset: named with its phase', async () => {
    const scene = await load('failIn="reset"');
    scene.step(2);
    const err = await failure(() => scene.reset());
    expect(err.message).to.contain("FaultyForceField 'faulty' in /root/body: reset threw Error: plugin bug in reset");
    expect(err.phase.kind).to.equal('reset');
  });

  it('a component that throws nothing runs normally (the tracking leaves no trace)', async () => {
    const scene = await load('');
    scene.step(20);
    const dofs = scene.get<BaseMechanicalState>('/body/dofs')!;
    // implicit Euler under gravity from rest: v_n = −g·h·n
    expect(dofs.v[1]).to.be.closeTo(-9.81 * 0.01 * 20, 1e-9);
  });
});

describe('internal conditions reported where the scene can act on them', () => {
  it('a MechanicalObject of negative size is refused, not shrunk to nothing', async () => {
    const xml =
      '<Node name="root"><DefaultAnimationLoop/><Node name="body"><EulerImplicitSolver/><CGLinearSolver/><MechanicalObject name="dofs" size="-5"/></Node></Node>';
    let caught: unknown;
    try {
      await loadSceneFromString(xml);
    } catch (e) {
      caught = e;
    }
    expect((caught as Error).message).to.match(/MechanicalObject 'dofs': 'size' must be finite and in \[0, 4000000\], got -5$/);
  });

  it("a mapping whose Jacobian does not fit its states is named at its line, not as a sparse product's inner dimensions", async () => {
    // a SubsetMapping's Jacobian is built for its input's size at init (an IdentityMapping follows its input's size)
    const scene = await loadSceneFromString(stableScene.replace('<IdentityMapping/>', '<SubsetMapping indices="0 1 2"/>'), {
      fileName: 'stable.scn',
    });
    // the input grows after the mapping was initialised (as a topology change it did not follow would)
    scene.get<BaseMechanicalState & { resize(n: number): void }>('/body/dofs')!.resize(4);
    let caught: unknown;
    try {
      scene.step();
    } catch (e) {
      caught = e;
    }
    expect(caught).to.be.instanceOf(ComponentError);
    expect((caught as Error).message).to.match(
      /stable\.scn:12:7: SubsetMapping '\w+' in \/root\/body\/mapped: its Jacobian for input 0 is 9×9, but MechanicalObject 'copy' has 9 dofs and MechanicalObject 'dofs' 12 \(at step 1, t = 0 s\)/,
    );
  });
});

describe('divergence of a scene', () => {
  it("stops at the first step that leaves a NaN or an infinity, naming it, its time, state and node ('stop', the default)", async () => {
    const oracle = await loadSceneFromString(explodingScene, { onDivergence: 'continue' });
    const expected = firstNonFiniteStep(oracle, 1000);
    expect(expected).to.be.greaterThan(5);

    const scene = await loadSceneFromString(explodingScene, { fileName: 'explode.scn' });
    let caught: unknown;
    let k = 0;
    try {
      for (k = 1; k <= 1000; k++) scene.step();
    } catch (e) {
      caught = e;
    }
    expect(caught).to.be.instanceOf(DivergenceError);
    expect(k).to.equal(expected);
    const d = (caught as DivergenceError).divergence;
    expect(d.step).to.equal(expected);
    expect(d.time).to.be.closeTo(expected * 0.01, 1e-12);
    expect(d.state.getName()).to.equal('dofs');
    expect(d.nodePath).to.equal('/root/body');
    expect((caught as SofaError).message).to.match(
      new RegExp(
        `/explode\\.scn:6:5: MechanicalObject 'dofs' in /root/body: the simulation diverged: \\w+ \\d of point \\d is (NaN|-?Infinity) after step ${expected} \\(t = ${+(expected * 0.01).toFixed(12)} s\\)`,
      ),
    );
    expect(scene.divergence).to.equal(d);
  });

  it("'continue' goes on, keeps the first divergence in scene.divergence; reset forgets it", async () => {
    const scene = await loadSceneFromString(explodingScene, { onDivergence: 'continue' });
    scene.step(200);
    expect(scene.simulation.stepCount).to.equal(200);
    const d = scene.divergence!;
    expect(d.step).to.be.greaterThan(5).and.lessThan(200);
    expect(d.state.getName()).to.equal('dofs');
    scene.reset();
    expect(scene.divergence).to.equal(undefined);
    expect(scene.simulation.stepCount).to.equal(0);
  });
});
