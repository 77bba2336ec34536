import { expect } from 'chai';
import { KeypressedEvent, loadSceneFromString, mechanics, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * BeamAdapter's instrument path through the XML path users take (WireRestShape with its rod
 * sections, WireBeamInterpolation, InterventionalRadiologyController, AdaptiveBeamForceFieldAndMass),
 * against closed forms: a spire left free takes its rest circle, the deployed beams always add up
 * to x_tip, a deployed straight wire under a tip load bends as the cantilever P·L³/(3EI), and under
 * an axial tip load carries the same force all along (u(s) = −F·s/(EA), base reaction F).
 */

interface Instrument {
  name: string;
  sections: string;
}

/** A controller node deploying `instruments` on `nodes` frames with the given solver and extra components. */
function sceneXml(o: {
  instruments: Instrument[];
  nodes: number;
  speed: number;
  solver: string;
  extra?: string;
  xtip?: string;
  dt?: number;
}): string {
  const shapes = o.instruments
    .map(
      (i) => `<Node name="${i.name}Shape">${i.sections}
    <WireRestShape name="rest" wireMaterials="${[...i.sections.matchAll(/name="(\w+)"/g)].map((m) => '@' + m[1]).join(' ')}"/>
    <EdgeSetTopologyContainer/>
  </Node>`,
    )
    .join('\n');
  const interps = o.instruments
    .map(
      (i) => `<WireBeamInterpolation name="${i.name}" WireRestShape="@../${i.name}Shape/rest"/>
    <AdaptiveBeamForceFieldAndMass name="${i.name}FF" interpolation="@${i.name}" computeMass="false"/>`,
    )
    .join('\n');
  return `<Node name="root" dt="${o.dt ?? 0.01}" gravity="0 0 0">
  <RequiredPlugin pluginName="BeamAdapter"/>
  <DefaultAnimationLoop/>
  ${shapes}
  <Node name="beam">
    ${o.solver}
    <RegularGridTopology name="lines" nx="${o.nodes}" ny="1" nz="1" xmax="0" xmin="0" ymin="0" ymax="0" zmax="0" zmin="0"/>
    <MechanicalObject name="dofs" template="Rigid3d"/>
    ${interps}
    <InterventionalRadiologyController name="irc" instruments="${o.instruments.map((i) => i.name).join(' ')}" startingPos="0 0 0 0 0 0 1" xtip="${o.xtip ?? '0'}" speed="${o.speed}"/>
    <FixedProjectiveConstraint indices="0"/>
    <RestShapeSpringsForceField name="springs" points="@irc.indexFirstNode" stiffness="1e8" angularStiffness="1e8"/>
    ${o.extra ?? ''}
  </Node>
</Node>`;
}

const STATIC = `<StaticSolver newton_iterations="20" absolute_correction_tolerance_threshold="1e-14" relative_correction_tolerance_threshold="1e-13" absolute_residual_tolerance_threshold="1e-14" relative_residual_tolerance_threshold="1e-13"/>
    <SparseLDLSolver template="CompressedRowSparseMatrixd"/>`;

type Irc = mechanics.InterventionalRadiologyController;
type Wire = mechanics.WireBeamInterpolation;

function parts(scene: SofaScene): { x: Float64Array; irc: Irc; size: number } {
  const s = scene.get<BaseMechanicalState>('/beam/dofs')!;
  return { x: s.x, size: s.size, irc: scene.get<Irc>('/beam/irc')! };
}

describe('BeamAdapter instruments (WireRestShape, WireBeamInterpolation, InterventionalRadiologyController)', function () {
  this.timeout(60000);

  it('a spire left free takes its rest circle: p(s) = (L_s + R·sin θ, 0, R·(cos θ − 1)), θ = (s − L_s)/R', async () => {
    const [Ls, Lp, D] = [50, 30, 20],
      R = D / 2;
    const wire: Instrument = {
      name: 'guide',
      sections: `<RodStraightSection name="S" youngModulus="1e4" radius="0.5" nbBeams="5" length="${Ls}"/>
      <RodSpireSection name="P" youngModulus="1e4" radius="0.5" nbBeams="10" length="${Lp}" spireDiameter="${D}" spireHeight="0"/>`,
    };
    // pushed in 40 quasi-static steps of 2, then left alone
    const scene = await loadSceneFromString(sceneXml({ instruments: [wire], nodes: 20, speed: 200, solver: STATIC }));
    scene.step(50);
    const { x, irc, size } = parts(scene);
    expect(irc.xtip.value[0]).to.be.closeTo(Ls + Lp, 1e-9);
    const s = irc.nodeAbscissae,
      first = size - s.length;
    expect(s[s.length - 1]).to.be.closeTo(Ls + Lp, 1e-9);
    let worst = 0;
    for (let k = 0; k < s.length; k++) {
      const th = Math.max(0, s[k] - Ls) / R;
      const want = s[k] <= Ls ? [s[k], 0, 0] : [Ls + R * Math.sin(th), 0, R * (Math.cos(th) - 1)];
      const o = 7 * (first + k);
      worst = Math.max(worst, Math.hypot(x[o] - want[0], x[o + 1] - want[1], x[o + 2] - want[2]));
    }
    expect(worst).to.be.below(1e-6 * (Ls + Lp));
  });

  it('deployment: the beams of each nested instrument add up to its x_tip at every step, the frames behind are at the start and fixed', async () => {
    const outer: Instrument = { name: 'cath', sections: '<RodStraightSection name="S" youngModulus="1e4" nbBeams="10" length="100"/>' };
    const inner: Instrument = {
      name: 'guide',
      sections: `<RodStraightSection name="S" youngModulus="1e4" radius="0.5" nbBeams="12" length="120"/>
      <RodSpireSection name="P" youngModulus="1e4" radius="0.5" nbBeams="4" length="10" spireDiameter="8" spireHeight="0"/>`,
    };
    const scene = await loadSceneFromString(
      sceneXml({
        instruments: [outer, inner],
        nodes: 40,
        speed: 150,
        xtip: '30 20',
        solver: '<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/><BTDLinearSolver/>',
      }),
    );
    const { irc, size, x } = parts(scene);
    const cath = scene.get<Wire>('/beam/cath')!,
      guide = scene.get<Wire>('/beam/guide')!;
    const sum = (w: Wire): number => {
      let t = 0;
      for (let b = 0; b < w.beamCount; b++) t += w.lengths[b];
      return t;
    };
    for (let step = 0; step < 60; step++) {
      scene.step(1);
      const tips = irc.xtip.value;
      expect(sum(cath)).to.be.closeTo(tips[0], 1e-9);
      expect(sum(guide)).to.be.closeTo(tips[1], 1e-9);
      // the guide's beams end at its tip, on its own abscissa its length 130
      expect(guide.beamCount).to.be.above(0);
      expect(guide.curvAbs[2 * guide.beamCount - 1]).to.be.closeTo(130, 1e-9);
      const nodes = irc.nodeAbscissae.length;
      expect(irc.indexFirstNode.value).to.equal(size - nodes);
      for (let i = 0; i < size - nodes; i++) for (let c = 0; c < 7; c++) expect(x[7 * i + c]).to.equal(c === 6 ? 1 : 0);
    }
    // the controlled instrument (0) was pushed by speed·dt per step, the guide stayed
    expect(irc.xtip.value[0]).to.be.closeTo(Math.min(100, 30 + 60 * 1.5), 1e-9);
    expect(irc.xtip.value[1]).to.equal(20);
  });

  const [E, r, L] = [1e4, 0.5, 100],
    I = (Math.PI * r ** 4) / 4,
    A = Math.PI * r * r;
  const straight: Instrument = {
    name: 'guide',
    sections: `<RodStraightSection name="S" youngModulus="${E}" poissonRatio="0.3" radius="${r}" nbBeams="10" length="${L}"/>`,
  };

  it('a deployed straight wire under a tip force P bends as the cantilever: v = P·L³/(3EI), θ = P·L²/(2EI)', async () => {
    const P = (3 * E * I * 1e-4) / L ** 2; // v = 1e-4·L
    const scene = await loadSceneFromString(
      sceneXml({
        instruments: [straight],
        nodes: 15,
        speed: 1000,
        solver: STATIC,
        extra: `<ConstantForceField indices="14" forces="0 ${P} 0 0 0 0"/>`,
      }),
    );
    scene.step(15);
    const { x } = parts(scene),
      o = 7 * 14;
    expect(x[o]).to.be.closeTo(L, 1e-3);
    const v = (P * L ** 3) / (3 * E * I),
      theta = (P * L ** 2) / (2 * E * I);
    expect(x[o + 1] / v).to.be.closeTo(1, 2e-4);
    expect((2 * x[o + 5]) / theta).to.be.closeTo(1, 2e-4);
  });

  it('a deployed straight wire pushed against an axial tip load F: u(s) = −F·s/(EA) all along, the base holds F', async () => {
    const F = E * A * 1e-5;
    const scene = await loadSceneFromString(
      sceneXml({
        instruments: [straight],
        nodes: 15,
        speed: 1000,
        solver: STATIC,
        extra: `<ConstantForceField indices="14" forces="${-F} 0 0 0 0 0"/>`,
      }),
    );
    scene.step(15);
    const { x, irc, size } = parts(scene);
    const s = irc.nodeAbscissae,
      first = size - s.length;
    for (let k = 1; k < s.length; k++) {
      const o = 7 * (first + k),
        base = x[7 * first];
      expect((x[o] - base - s[k]) / ((-F * s[k]) / (E * A))).to.be.closeTo(1, 1e-6);
      expect(Math.abs(x[o + 1]) + Math.abs(x[o + 2])).to.be.below(1e-12);
    }
    // base reaction: the rest spring (1e8) carries F
    expect((-x[7 * first] * 1e8) / F).to.be.closeTo(1, 1e-6);
  });

  it('keys (as --key STEP:KEY delivers them): up/down move the controlled instrument by step, right/left turn it, 1 switches, "/" stops the push', async () => {
    const a: Instrument = { name: 'cath', sections: '<RodStraightSection name="S" youngModulus="1e4" nbBeams="10" length="100"/>' };
    const b: Instrument = {
      name: 'guide',
      sections: '<RodStraightSection name="S" youngModulus="1e4" radius="0.5" nbBeams="10" length="120"/>',
    };
    const scene = await loadSceneFromString(
      sceneXml({ instruments: [a, b], nodes: 30, speed: 100, xtip: '10 5', solver: '<EulerImplicitSolver/><BTDLinearSolver/>' }),
    );
    const { irc } = parts(scene);
    const press = (k: string): void => scene.root.propagateEvent(new KeypressedEvent(k));
    const [up, down, right, left] = [19, 21, 20, 18].map((c) => String.fromCharCode(c));
    scene.step(1); // pushed by speed·dt = 1
    expect(Array.from(irc.xtip.value)).to.deep.equal([11, 5]);
    press('/'); // stops the push
    press(up);
    press(up);
    scene.step(1);
    expect(irc.xtip.value[0]).to.be.closeTo(11 + 2 * 0.1, 1e-12);
    press('1');
    press(down);
    press(right);
    press(right);
    press(left);
    scene.step(1);
    expect(irc.xtip.value[1]).to.be.closeTo(5 - 0.1, 1e-12);
    expect(irc.rotationInstrument.value[1]).to.be.closeTo(3.1416 / 20, 1e-12);
    expect(irc.rotationInstrument.value[0]).to.equal(0);
  });

  it('BeamAdapterActionController plays its actions at their times (forward, backward, tool 1) and takes over the push', async () => {
    const a: Instrument = { name: 'cath', sections: '<RodStraightSection name="S" youngModulus="1e4" nbBeams="10" length="100"/>' };
    const b: Instrument = {
      name: 'guide',
      sections: '<RodStraightSection name="S" youngModulus="1e4" radius="0.5" nbBeams="10" length="120"/>',
    };
    const scene = await loadSceneFromString(
      sceneXml({
        instruments: [a, b],
        nodes: 30,
        speed: 100,
        xtip: '10 5',
        dt: 0.1,
        solver: '<EulerImplicitSolver/><BTDLinearSolver/>',
        extra:
          '<BeamAdapterActionController interventionController="@irc" writeMode="0" timeSteps="0.15 0.25 0.35 0.45" actions="1 1 9 2"/>',
      }),
    );
    const { irc } = parts(scene);
    const tips: number[][] = [];
    for (let i = 0; i < 6; i++) {
      scene.step(1);
      tips.push(Array.from(irc.xtip.value));
    }
    // step k starts at t = 0.1·k: the actions at 0.15, 0.25 play at the steps starting at 0.2, 0.3; tool 1 at 0.4, its backward at 0.5
    const want = [
      [10, 5],
      [10, 5],
      [10.1, 5],
      [10.2, 5],
      [10.2, 5],
      [10.2, 4.9],
    ];
    for (let k = 0; k < 6; k++) for (let i = 0; i < 2; i++) expect(tips[k][i]).to.be.closeTo(want[k][i], 1e-12);
    expect(irc.controlledInstrument.value).to.equal(1);
  });
});
