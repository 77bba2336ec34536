import { expect } from 'chai';
import { loadScene, loadSceneFromString, softrobots, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * The real-time inverse method on a cable-driven finger (the beam of
 * scenes/softrobots/finger-inverse.scn: 100 × 10 × 10 mm, 10 × 2 × 2 corotational hexahedra,
 * clamped at x = 0; dt = 1, first-order implicit Euler). The effector is the tip centre (grid
 * point 54, at y = 5, z = 5). Cables run along the upper face (y = 10) at z = 0, 5 or 10.
 *
 * What is checked against things we did not compute with the solver itself:
 *   - the effector reaches its goal (measured on the state, not the solver's δ);
 *   - bounds hold exactly on the outputs;
 *   - the direct CableConstraint, fed the inverse solution as forces, reproduces the motion;
 *   - with ε > 0 and redundant actuators the solution does not depend on the QP's starting point;
 *   - Gauss-Seidel and QP agree where the solution is unique.
 */

const TIP = 54;
/** Cable through the upper face at z-row k (0, 1, 2): grid points i + 11·(2 + 3k), i = 1..10. */
function cableIndices(k: number): string {
  return Array.from({ length: 10 }, (_, i) => i + 1 + 11 * (2 + 3 * k)).join(' ');
}

interface FingerOptions {
  solver?: string;
  /** Attributes of each cable (one CableActuator per entry, at z-rows 1, then 0, 2). */
  cables?: string[];
  /** Direct actuation instead: attributes of a CableConstraint at z-row 1. */
  direct?: string;
  effector?: string;
}

function fingerXml(o: FingerOptions): string {
  const rows = [1, 0, 2];
  const cables =
    o.direct !== undefined
      ? `<CableConstraint name="cable" indices="${cableIndices(1)}" pullPoint="-10 10 5" ${o.direct}/>`
      : (o.cables ?? ['minForce="0"'])
          .map((a, c) => `<CableActuator name="cable${c}" indices="${cableIndices(rows[c])}" pullPoint="-10 10 ${5 * rows[c]}" ${a}/>`)
          .join('\n');
  const effector =
    o.direct !== undefined
      ? ''
      : `<PositionEffector name="effector" indices="${TIP}" ${o.effector ?? 'effectorGoal="100 10 5" useDirections="0 1 0"'}/>`;
  return `<Node name="root" dt="1" gravity="0 0 0">
    <RequiredPlugin name="SoftRobots"/>
    <RequiredPlugin name="SoftRobots.Inverse"/>
    <FreeMotionAnimationLoop/>
    ${o.direct !== undefined ? '<BlockGaussSeidelConstraintSolver tolerance="1e-15" maxIterations="100"/>' : (o.solver ?? '<QPInverseProblemSolver name="solver" epsilon="0"/>')}
    <Node name="finger">
      <EulerImplicitSolver firstOrder="1" rayleighStiffness="0" rayleighMass="0"/>
      <SparseLDLSolver/>
      <RegularGridTopology nx="11" ny="3" nz="3" min="0 0 0" max="100 10 10"/>
      <MechanicalObject name="dofs"/>
      <UniformMass totalMass="0.01"/>
      <HexahedronFEMForceField youngModulus="18000" poissonRatio="0.3" method="large"/>
      <BoxROI name="clamp" box="-1 -1 -1 1 11 11"/>
      <FixedProjectiveConstraint indices="@clamp.indices"/>
      <LinearSolverConstraintCorrection/>
      ${cables}
      ${effector}
    </Node>
  </Node>`;
}

const finger = (o: FingerOptions): Promise<SofaScene> => loadSceneFromString(fingerXml(o));
const dofs = (s: SofaScene): BaseMechanicalState => s.get<BaseMechanicalState>('finger/dofs')!;
const cable = (s: SofaScene, c = 0): softrobots.CableActuator => s.get<softrobots.CableActuator>(`finger/cable${c}`)!;
const tip = (s: SofaScene, axis: number): number => dofs(s).x[3 * TIP + axis];

/** Runs `steps` steps and calls `each` after every one. */
function run(s: SofaScene, steps: number, each: () => void): void {
  for (let k = 0; k < steps; k++) {
    s.step();
    each();
  }
}

describe('softrobots: inverse problem on a cable-driven finger', () => {
  for (const goal of [7.5, 10, 15]) {
    it(`QP: the tip reaches y = ${goal} within 1e-10 after 10 steps (ε = 0, y only, maxPositiveDisp 15)`, async () => {
      const s = await finger({
        cables: ['minForce="0" maxPositiveDisp="15"'],
        effector: `effectorGoal="100 ${goal} 5" useDirections="0 1 0"`,
      });
      s.step(10);
      expect(Math.abs(tip(s, 1) - goal)).to.be.at.most(1e-10);
      const eff = s.get<softrobots.PositionEffector>('finger/effector')!;
      expect(eff.delta.value.length).to.equal(1);
      expect(Math.abs(eff.delta.value[0])).to.be.at.most(1e-10);
      expect(cable(s).force.value).to.be.greaterThan(0);
      expect(cable(s).displacement.value).to.be.within(0, 15);
      expect(cable(s).physicalForce.value).to.equal(cable(s).force.value); // dt = 1
    });
  }

  const bounds: Array<{
    what: string;
    cable: string;
    goal: number;
    check: (c: softrobots.CableActuator) => number;
    bound: number;
    sign: 1 | -1;
  }> = [
    { what: 'minForce 0 → λ ≥ 0', cable: 'minForce="0"', goal: 0, check: (c) => c.force.value, bound: 0, sign: -1 },
    { what: 'minForce −20 → λ ≥ −20', cable: 'minForce="-20"', goal: 0, check: (c) => c.force.value, bound: -20, sign: -1 },
    { what: 'maxForce 3000 → λ ≤ 3000', cable: 'maxForce="3000"', goal: 15, check: (c) => c.force.value, bound: 3000, sign: 1 },
    {
      what: 'maxPositiveDisp 15 → displacement ≤ 15',
      cable: 'maxPositiveDisp="15"',
      goal: 150,
      check: (c) => c.displacement.value,
      bound: 15,
      sign: 1,
    },
    {
      what: 'maxNegativeDisp 1 → displacement ≥ −1',
      cable: 'maxNegativeDisp="1"',
      goal: -15,
      check: (c) => c.displacement.value,
      bound: -1,
      sign: -1,
    },
  ];
  for (const b of bounds) {
    it(`QP: bounds hold exactly and bind when the goal asks for more: ${b.what}`, async () => {
      const s = await finger({ cables: [b.cable], effector: `effectorGoal="100 ${b.goal} 5" useDirections="0 1 0"` });
      let reached = false;
      run(s, 10, () => {
        const v = b.check(cable(s));
        // on the right side of the bound, up to round-off of the QP's working-set arithmetic
        expect(b.sign * (v - b.bound)).to.be.at.most(1e-9 * Math.max(1, Math.abs(b.bound)));
        if (Math.abs(v - b.bound) <= 1e-9 * Math.max(1, Math.abs(b.bound))) reached = true;
      });
      expect(reached, 'the bound is active at some step').to.equal(true);
    });
  }

  it('feeding the inverse solution (forces) to the direct CableConstraint reproduces the motion to 1e-8', async () => {
    const inv = await finger({ cables: ['minForce="0" maxPositiveDisp="15"'], effector: 'effectorGoal="100 12 5" useDirections="0 1 0"' });
    const direct = await finger({ direct: 'valueType="force" value="0"' });
    const c = direct.get<softrobots.CableConstraint>('finger/cable')!;
    for (let k = 0; k < 10; k++) {
      inv.step();
      c.value.value = Float64Array.of(cable(inv).force.value);
      direct.step();
      const a = dofs(inv).x,
        b = dofs(direct).x;
      let err = 0;
      for (let i = 0; i < a.length; i++) err = Math.max(err, Math.abs(a[i] - b[i]));
      expect(err, `step ${k}`).to.be.at.most(1e-8);
    }
    expect(tip(direct, 1)).to.be.closeTo(12, 1e-8);
  });

  it('ε > 0 with more actuators than effector directions: one solution whatever the QP starts from, effector error within 1% of the requested shift', async () => {
    // three cables, the tip driven along y and z: 3 unknowns, 2 directions
    const effector = 'effectorGoal="100 9 6" useDirections="0 1 1"';
    const cables = ['', '', '']; // unbounded: at ε = 0 a whole line of λ reaches the goal
    const s = await finger({ cables, effector, solver: '<QPInverseProblemSolver name="solver" epsilon="1e-3"/>' });
    const exact = await finger({ cables, effector, solver: '<QPInverseProblemSolver name="solver" epsilon="0"/>' });
    s.step(3);
    exact.step(3);
    const shift = Math.hypot(9 - 5, 6 - 5);
    const err = Math.hypot(tip(s, 1) - 9, tip(s, 2) - 6);
    const errExact = Math.hypot(tip(exact, 1) - 9, tip(exact, 2) - 6);
    expect(errExact).to.be.at.most(1e-9);
    expect(err).to.be.at.most(errExact + 0.01 * shift);

    // restarts of the QP of the last step from random starting points: the same λ with ε > 0
    const solver = s.get<softrobots.QPInverseProblemSolver>('solver')!;
    const p = solver.problem;
    const W = Float64Array.from(p.W),
      dfree = Float64Array.from(p.dfree),
      n = p.n;
    const rows = solver.rows;
    const solve = (eps: number, seed: number): Float64Array => {
      const qp = new softrobots.InverseQp();
      qp.epsilon = eps;
      let r = seed;
      const rand = (): number => ((r = (r * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
      const start = Float64Array.from({ length: n }, () => 1e4 * rand());
      expect(qp.solve(W, dfree, n, rows, 0, 1e-10, start)).to.equal('optimal');
      return Float64Array.from(qp.lambda);
    };
    const ref = solve(1e-3, 1);
    const scale = Math.max(...Array.from(ref, Math.abs));
    for (let seed = 2; seed < 12; seed++) {
      const l = solve(1e-3, seed);
      for (let i = 0; i < n; i++) expect(Math.abs(l[i] - ref[i])).to.be.at.most(1e-7 * scale);
    }
    // ... whereas at ε = 0 (3 actuators, 2 directions: a singular QP) the answer depends on the start
    let spread = 0;
    const ref0 = solve(0, 1);
    for (let seed = 2; seed < 12; seed++) {
      const l = solve(0, seed);
      for (let i = 0; i < n; i++) spread = Math.max(spread, Math.abs(l[i] - ref0[i]));
    }
    expect(spread).to.be.greaterThan(1e-3 * scale);
  });

  it('Gauss-Seidel and QP agree where the solution is unique (one cable, y; two cables, y and z)', async () => {
    const cases: FingerOptions[] = [
      { cables: ['minForce="0"'], effector: 'effectorGoal="100 11 5" useDirections="0 1 0"' },
      { cables: ['', ''], effector: 'effectorGoal="100 8 6" useDirections="0 1 1"' },
      // the bound binds: the goal below needs a push the cable cannot give
      { cables: ['minForce="0"'], effector: 'effectorGoal="100 2 5" useDirections="0 1 0"' },
    ];
    for (const o of cases) {
      const qp = await finger(o);
      const gs = await finger({
        ...o,
        solver: '<GaussSeidelInverseProblemSolver name="solver" maxIterations="100000" tolerance="1e-15"/>',
      });
      for (let k = 0; k < 5; k++) {
        qp.step();
        gs.step();
        const count = (o.cables ?? []).length;
        for (let c = 0; c < count; c++) {
          const a = cable(qp, c).force.value,
            b = cable(gs, c).force.value;
          expect(Math.abs(a - b), `cable ${c} step ${k}`).to.be.at.most(1e-6 * Math.max(1, Math.abs(a)));
        }
      }
    }
  });
});

describe('softrobots: inverse robots of scenes/softrobots', () => {
  const scenes = new URL('../../scenes/softrobots/', import.meta.url).pathname;

  it('diamond.scn: four pulling cables bring the hub top to the goals it visits; λ ≥ 0 and |Δδ| ≤ maxDispVariation every step', async () => {
    const s = await loadScene(`${scenes}diamond.scn`);
    const x = s.get<BaseMechanicalState>('diamond/dofs')!,
      goal = s.get<BaseMechanicalState>('goal/goalMO')!;
    const cables = [0, 1, 2, 3].map((c) => s.get<softrobots.CableActuator>(`diamond/cable${c}`)!);
    const last = cables.map(() => 0);
    let moved = 0;
    for (let k = 0; k < 260; k++) {
      s.step();
      cables.forEach((c, i) => {
        expect(c.force.value).to.be.at.least(0);
        expect(Math.abs(c.displacement.value - last[i])).to.be.at.most(1 + 1e-9);
        last[i] = c.displacement.value;
      });
      moved = Math.max(moved, Math.hypot(x.x[3 * 463], x.x[3 * 463 + 1] - 48, x.x[3 * 463 + 2]));
    }
    // the goal has been back at rest at (0, 48, 0) since t = 25 s
    expect(Array.from(goal.x)).to.deep.equal([0, 48, 0]);
    expect(Math.hypot(x.x[3 * 463], x.x[3 * 463 + 1] - 48, x.x[3 * 463 + 2])).to.be.at.most(1e-3);
    expect(moved, 'the hub has visited the targets').to.be.greaterThan(7);
  });

  it('trunk.scn: eight cables keep the tip within 1.5 mm of a goal moving at 1.6 mm/step', async () => {
    const s = await loadScene(`${scenes}trunk.scn`);
    const x = s.get<BaseMechanicalState>('trunk/dofs')!,
      goal = s.get<BaseMechanicalState>('goal/goalMO')!;
    const solver = s.get<softrobots.QPInverseProblemSolver>('solver')!;
    const tipIndex = 2 + 5 * 2 + 25 * 30;
    s.step(10);
    for (let k = 0; k < 40; k++) {
      s.step();
      expect(solver.status.value).to.equal(0);
      const err = Math.hypot(...[0, 1, 2].map((a) => x.x[3 * tipIndex + a] - goal.x[a]));
      expect(err).to.be.at.most(1.5);
    }
    expect(goal.x[0]).to.be.greaterThan(20); // the goal did move
  });
});

describe('softrobots: inverse problem with contacts (finger-inverse-contact.scn)', () => {
  it('the finger comes down onto the floor and stays on it: no penetration, contacts push only, the cable holds it', async () => {
    const s = await loadScene(new URL('../../scenes/softrobots/finger-inverse-contact.scn', import.meta.url).pathname);
    const x = s.get<BaseMechanicalState>('finger/dofs')!;
    const solver = s.get<softrobots.QPInverseProblemSolver>('solver')!;
    const cable = s.get<softrobots.CableActuator>('finger/cable')!;
    let contacts = 0;
    for (let k = 0; k < 25; k++) {
      s.step();
      let lowest = Infinity;
      for (let p = 0; p < x.size; p++) lowest = Math.min(lowest, x.x[3 * p + 1]);
      // floor at −3, contact distance 0.5: nothing below −2.5 (to the solver's tolerance)
      expect(lowest).to.be.at.least(-2.5 - 1e-6);
      expect(solver.status.value).to.equal(0);
      const rows = solver.rows;
      contacts = rows.contactCount;
      for (let c = 0; c < rows.contactCount; c++) {
        const i = rows.contactFirst[c];
        expect(solver.qp.lambda[i]).to.be.at.least(0);
        expect(solver.qp.delta[i]).to.be.at.least(-1e-9);
        // complementarity: a contact pushes only where it touches
        expect(solver.qp.lambda[i] * solver.qp.delta[i]).to.be.at.most(1e-6 * (1 + solver.qp.lambda[i]));
      }
    }
    expect(contacts).to.be.greaterThan(0);
    expect(cable.force.value).to.be.greaterThan(0);
    // the tip (at y = 5 on the neutral axis at rest) stays above its goal −10, held by the floor
    expect(x.x[3 * TIP + 1]).to.be.within(0, 5);
  });
});
