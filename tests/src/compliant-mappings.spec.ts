import { expect } from 'chai';
import { Rigid3d, loadSceneFromString, type MechanicalSystem, type SofaScene, mechanics } from 'sofa-ts';
import { csrToDense } from '@sofa-ts/linalg';

/**
 * The Compliant engine's mappings in scenes, through the XML path: a force field acting on the
 * output of a mapping must move the bodies exactly as the equivalent direct force field does
 * (same forces, same stiffness matrix, hence the same implicit steps), the assembly engine must
 * chain the Jacobians of multi-mappings (K = ∂f/∂x by central differences of the engine's own
 * forces, matrix-free product = assembled one), and a stiff distance-to-target pendulum must keep
 * its length and swing with the period of the exact pendulum.
 */

const solver = `<EulerImplicitSolver name="ode" rayleighStiffness="0" rayleighMass="0"/>
    <CGLinearSolver iterations="2000" tolerance="1e-20" threshold="1e-30"/>`;

async function load(body: string, gravity = '0 -9.81 0', dt = '0.01'): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" gravity="${gravity}" dt="${dt}">
    <DefaultAnimationLoop/>
    ${solver}
    ${body}
  </Node>`);
}

function positions(s: SofaScene, path: string): Float64Array {
  return s.get<mechanics.MechanicalObject>(path)!.x;
}

function systemOf(s: SofaScene): MechanicalSystem {
  return (s.get('/ode') as unknown as { getSystem(): MechanicalSystem }).getSystem();
}

/** Steps two scenes side by side and checks that the listed states stay equal. */
function expectSameMotion(a: SofaScene, b: SofaScene, pairs: Array<[string, string]>, steps: number, tol: number): void {
  for (let k = 0; k < steps; k++) {
    a.step();
    b.step();
    for (const [pa, pb] of pairs) {
      const xa = positions(a, pa),
        xb = positions(b, pb);
      expect(xa.length).to.equal(xb.length);
      for (let i = 0; i < xa.length; i++) expect(xa[i], `${pa}[${i}] at step ${k + 1}`).to.be.closeTo(xb[i], tol);
    }
  }
  // the bodies did move
  const moved = pairs.some(([pa]) =>
    positions(a, pa).some((v, i) => Math.abs(v - (a.get<mechanics.MechanicalObject>(pa)!.x0[i] ?? v)) > 1e-3),
  );
  expect(moved).to.equal(true);
}

/** x ⊕ h·e_j on the masters' global coordinates (a world-frame rotation for the angular dofs of Rigid3d). */
function perturb(sys: MechanicalSystem, j: number, h: number): void {
  for (const m of sys.masters) {
    if (j < m.offset || j >= m.offset + m.derivLength) continue;
    const t = m.state.stateType;
    const p = Math.floor((j - m.offset) / t.derivSize);
    const a = (j - m.offset) % t.derivSize;
    const x = sys.x.subarray(m.coordOffset, m.coordOffset + m.coordLength);
    if (t !== Rigid3d || a < 3) {
      x[p * t.coordSize + a] += h;
      continue;
    }
    // q ← (sin(h/2)·e_a, cos(h/2)) ⊗ q
    const s = Math.sin(h / 2),
      c = Math.cos(h / 2);
    const o = 7 * p + 3;
    const [ax, ay, az] = [a === 3 ? s : 0, a === 4 ? s : 0, a === 5 ? s : 0];
    const [bx, by, bz, bw] = [x[o], x[o + 1], x[o + 2], x[o + 3]];
    x[o] = c * bx + ax * bw + ay * bz - az * by;
    x[o + 1] = c * by - ax * bz + ay * bw + az * bx;
    x[o + 2] = c * bz + ax * by - ay * bx + az * bw;
    x[o + 3] = c * bw - ax * bx - ay * by - az * bz;
  }
}

/** K (assembled, k = 1) against central differences of the engine's forces over the free master dofs. */
function expectStiffnessIsForceDerivative(sys: MechanicalSystem, tol: number): void {
  sys.v.fill(0);
  sys.propagatePositionsAndVelocities();
  sys.computeForce();
  const K = csrToDense(sys.assembleMBK({ m: 0, b: 0, k: 1 }));
  const probe = new Float64Array(sys.size).fill(1);
  sys.projectResponse(probe);
  const base = Float64Array.from(sys.x);
  const h = 1e-6;
  for (let j = 0; j < sys.size; j++) {
    if (probe[j] === 0) continue;
    const force = (sign: number): Float64Array => {
      sys.x.set(base);
      perturb(sys, j, sign * h);
      sys.propagatePositionsAndVelocities();
      sys.computeForce();
      return Float64Array.from(sys.f);
    };
    const fp = force(1);
    const fm = force(-1);
    for (let i = 0; i < sys.size; i++) {
      if (probe[i] === 0) continue;
      const fd = (fp[i] - fm[i]) / (2 * h);
      expect(K[i][j], `K[${i}][${j}]`).to.be.closeTo(fd, tol * Math.max(1, Math.abs(fd)));
    }
  }
  sys.x.set(base);
  sys.propagatePositionsAndVelocities();
  sys.computeForce();
  // matrix-free (m·M + k·K)·v equals the assembled product
  const f = { m: 1.3, b: 0, k: -0.02 };
  const A = csrToDense(sys.assembleMBK(f));
  const vec = Float64Array.from({ length: sys.size }, (_, i) => (probe[i] === 0 ? 0 : Math.sin(1.7 * i + 0.3)));
  const out = new Float64Array(sys.size);
  sys.applyMBK(out, f, vec);
  for (let i = 0; i < sys.size; i++) {
    if (probe[i] === 0) continue;
    expect(out[i]).to.be.closeTo(
      A[i].reduce((s, v, c) => s + v * vec[c], 0),
      1e-9,
    );
  }
}

/** Two free particle sets A (3 points) and B (2 points) with masses, A's first point fixed. */
const bodies = `
    <Node name="a"><MechanicalObject name="dofs" position="0 0 0  1 0.2 0  0.3 1 0.4"/><UniformMass vertexMass="0.5"/><FixedProjectiveConstraint indices="0"/></Node>
    <Node name="b"><MechanicalObject name="dofs" position="2 0.5 0.1  1.5 1.2 -0.3"/><UniformMass vertexMass="0.8"/></Node>`;

describe('Compliant mappings in scenes', () => {
  it('a spring on DifferenceMapping outputs (x_b − x_a and a zero point) moves the particles as a direct spring', async () => {
    const mapped = await load(`
      <Node name="p">
        <MechanicalObject name="dofs" position="0 0 0  1 0.2 0  0.3 1 0.4"/><UniformMass vertexMass="0.5"/><FixedProjectiveConstraint indices="0"/>
        <Node name="diff">
          <MechanicalObject name="d" template="Vec3d"/>
          <DifferenceMapping pairs="0 1  1 2  2 2"/>
          <StiffSpringForceField spring="0 2 300 0.5 0.8  1 2 200 0.3 1.1"/>
        </Node>
      </Node>`);
    const direct = await load(`
      <Node name="p">
        <MechanicalObject name="dofs" position="0 0 0  1 0.2 0  0.3 1 0.4"/><UniformMass vertexMass="0.5"/><FixedProjectiveConstraint indices="0"/>
        <SpringForceField spring="0 1 300 0.5 0.8  1 2 200 0.3 1.1"/>
      </Node>`);
    const d = positions(mapped, '/p/diff/d');
    const x = positions(mapped, '/p/dofs');
    expect(Array.from(d.subarray(0, 3))).to.deep.equal([x[3] - x[0], x[4] - x[1], x[5] - x[2]]);
    expectSameMotion(mapped, direct, [['/p/dofs', '/p/dofs']], 60, 1e-9);
  });

  it('DifferenceMultiMapping across two states: a zero-rest spring on x_B − x_A equals an interaction spring', async () => {
    const mapped = await load(`${bodies}
      <Node name="diff">
        <MechanicalObject name="d" template="Vec3d" rest_position="0 0 0  0 0 0"/>
        <DifferenceMultiMapping input="@../a/dofs @../b/dofs" output="@d" pairs="2 0  1 1"/>
        <RestShapeSpringsForceField stiffness="150"/>
      </Node>`);
    const direct = await load(`${bodies}
      <Node name="springs"><SpringForceField object1="@../a/dofs" object2="@../b/dofs" spring="2 0 150 0 0  1 1 150 0 0"/></Node>`);
    const sys = systemOf(mapped);
    expect(sys.mappedStates.map((s) => s.state.getName())).to.deep.equal(['d']);
    expect(sys.mappings[0].inputs).to.have.length(2);
    expectSameMotion(
      mapped,
      direct,
      [
        ['/a/dofs', '/a/dofs'],
        ['/b/dofs', '/b/dofs'],
      ],
      60,
      1e-9,
    );
  });

  it('SubsetMultiMapping gathers points of two states; springs on the gathered state equal interaction springs', async () => {
    const mapped = await load(`${bodies}
      <Node name="gather">
        <MechanicalObject name="g" template="Vec3d"/>
        <SubsetMultiMapping template="Vec3d,Vec3d" input="@../a/dofs @../b/dofs" output="@g" indexPairs="0 1  1 0  0 2  1 1"/>
        <StiffSpringForceField spring="0 1 250 0 0.9  2 3 120 0 0.6"/>
      </Node>`);
    const direct = await load(`${bodies}
      <Node name="springs"><SpringForceField object1="@../a/dofs" object2="@../b/dofs" spring="1 0 250 0 0.9  2 1 120 0 0.6"/></Node>`);
    expectSameMotion(
      mapped,
      direct,
      [
        ['/a/dofs', '/a/dofs'],
        ['/b/dofs', '/b/dofs'],
      ],
      60,
      1e-9,
    );
    const g = positions(mapped, '/gather/g');
    const b = positions(mapped, '/b/dofs');
    expect(Array.from(g.subarray(3, 6))).to.deep.equal(Array.from(b.subarray(0, 3)));
  });

  it('IdentityMultiMapping concatenates two states; springs on the concatenation equal interaction springs', async () => {
    const mapped = await load(`${bodies}
      <Node name="all">
        <MechanicalObject name="c" template="Vec3d"/>
        <IdentityMultiMapping input="@../a @../b" output="@c"/>
        <StiffSpringForceField spring="1 3 250 0 0.9  2 4 120 0 0.6"/>
      </Node>`);
    const direct = await load(`${bodies}
      <Node name="springs"><SpringForceField object1="@../a/dofs" object2="@../b/dofs" spring="1 0 250 0 0.9  2 1 120 0 0.6"/></Node>`);
    expectSameMotion(
      mapped,
      direct,
      [
        ['/a/dofs', '/a/dofs'],
        ['/b/dofs', '/b/dofs'],
      ],
      60,
      1e-9,
    );
    const c = positions(mapped, '/all/c');
    expect(Array.from(c)).to.deep.equal([...positions(mapped, '/a/dofs'), ...positions(mapped, '/b/dofs')]);
  });

  it('DistanceMapping on a StringMeshCreator chain with Vec1 springs (exact geometric stiffness) equals SpringForceField', async () => {
    const chain = `<StringMeshCreator name="loader" resolution="5" scale3d="2 1 1"/>
        <MeshTopology name="topo" src="@loader"/>
        <MechanicalObject name="dofs"/><UniformMass vertexMass="0.2"/><FixedProjectiveConstraint indices="0"/>`;
    const mapped = await load(`
      <Node name="rope">${chain}
        <Node name="lengths">
          <MechanicalObject name="e" template="Vec1d"/>
          <DistanceMapping template="Vec3d,Vec1d" topology="@../topo" geometricStiffness="Exact" restLengths="0.4 0.4 0.4 0.4"/>
          <RestShapeSpringsForceField template="Vec1d" stiffness="500"/>
        </Node>
      </Node>`);
    const direct = await load(`
      <Node name="rope">${chain}
        <SpringForceField spring="0 1 500 0 0.4  1 2 500 0 0.4  2 3 500 0 0.4  3 4 500 0 0.4"/>
      </Node>`);
    // four edges of length 2/4 stretched from their rest length 0.4
    for (const e of positions(mapped, '/rope/lengths/e')) expect(e).to.be.closeTo(0.1, 1e-15);
    expectSameMotion(mapped, direct, [['/rope/dofs', '/rope/dofs']], 80, 1e-8);
  });

  it('the engine chains a DistanceMapping under a SubsetMultiMapping: K = ∂f/∂x (geometric stiffness through both), matrix-free = assembled', async () => {
    const s = await load(`${bodies}
      <Node name="gather">
        <MechanicalObject name="g" template="Vec3d"/>
        <SubsetMultiMapping input="@../a/dofs @../b/dofs" output="@g" indexPairs="0 1  1 0  0 2  1 1"/>
        <EdgeSetTopologyContainer name="edges" edges="0 1  1 2  2 3  3 0"/>
        <Node name="lengths">
          <MechanicalObject name="e" template="Vec1d"/>
          <DistanceMapping topology="@../edges" geometricStiffness="Exact" restLengths="0.5 0.7 0.9 1.1"/>
          <RestShapeSpringsForceField template="Vec1d" stiffness="80 60 40 20"/>
        </Node>
      </Node>`);
    s.step(3);
    const sys = systemOf(s);
    expect(sys.mappedStates.map((m) => m.state.getName())).to.deep.equal(['g', 'e']);
    expectStiffnessIsForceDerivative(sys, 1e-5);
  });

  it('a rigid chain: RigidMapping (Exact) attachment points, a zero-length spring on their DifferenceMapping and a DistanceFromTarget spring: K = ∂f/∂x', async () => {
    const s = await load(`
      <Node name="bodies">
        <MechanicalObject name="frames" template="Rigid3d" position="0 0 0  0 0 0 1   1.1 0.1 -0.2  0.1 0.2 0.3 0.927362"/>
        <Node name="attach">
          <MechanicalObject name="pts" template="Vec3d" position="0.5 0 0  -0.5 0 0  1 0.2 0.1"/>
          <RigidMapping template="Rigid3d,Vec3d" rigidIndexPerPoint="0 1 1" geometricStiffness="Exact"/>
          <Node name="joint">
            <MechanicalObject name="d" template="Vec3d" rest_position="0 0 0"/>
            <DifferenceMapping pairs="0 1"/>
            <RestShapeSpringsForceField stiffness="300"/>
          </Node>
          <Node name="hang">
            <MechanicalObject name="e" template="Vec1d"/>
            <DistanceFromTargetMapping indices="2" targetPositions="2 2 0" restLengths="0.5" geometricStiffness="Exact"/>
            <RestShapeSpringsForceField template="Vec1d" stiffness="70"/>
          </Node>
        </Node>
      </Node>`);
    const sys = systemOf(s);
    expect(sys.mappedStates.map((m) => m.state.getName())).to.deep.equal(['pts', 'd', 'e']);
    expectStiffnessIsForceDerivative(sys, 1e-5);
  });

  it('a particle held at distance 1 of a point by a stiff spring on DistanceFromTargetMapping: equals a direct spring, keeps its length, swings with the exact period', async () => {
    const mapped = await load(
      `
      <Node name="bob">
        <MechanicalObject name="dofs" position="1 0 0"/><UniformMass vertexMass="1"/>
        <Node name="rod">
          <MechanicalObject name="e" template="Vec1d"/>
          <DistanceFromTargetMapping indices="0" targetPositions="0 0 0" restLengths="1" geometricStiffness="Exact"/>
          <RestShapeSpringsForceField template="Vec1d" stiffness="1e5"/>
        </Node>
      </Node>`,
      '0 -9.81 0',
      '0.001',
    );
    const direct = await load(
      `
      <Node name="bob">
        <MechanicalObject name="dofs" position="1 0 0  0 0 0"/><UniformMass vertexMass="1"/><FixedProjectiveConstraint indices="1"/>
        <SpringForceField spring="0 1 1e5 0 1"/>
      </Node>`,
      '0 -9.81 0',
      '0.001',
    );
    // Released horizontally: the bob reaches the bottom (x = 0) after a quarter of the period
    // T = 4·√(L/g)·K(sin 45°) of the exact pendulum of amplitude 90°.
    const K45 = 1.8540746773013719;
    const quarter = Math.sqrt(1 / 9.81) * K45;
    let t = 0;
    let crossed = -1;
    let maxStretch = 0;
    for (let k = 0; k < 700; k++) {
      mapped.step();
      direct.step();
      t += 0.001;
      const x = positions(mapped, '/bob/dofs');
      const y = positions(direct, '/bob/dofs');
      for (let a = 0; a < 3; a++) expect(x[a]).to.be.closeTo(y[a], 1e-9);
      maxStretch = Math.max(maxStretch, Math.abs(Math.hypot(x[0], x[1], x[2]) - 1));
      if (crossed < 0 && x[0] <= 0) crossed = t;
    }
    expect(maxStretch).to.be.below(1e-3);
    expect(crossed).to.be.closeTo(quarter, 0.01 * quarter);
  });

  it('reports a multi-mapping input path that names nothing', async () => {
    let error = '';
    try {
      await load(
        `${bodies}<Node name="d"><MechanicalObject name="d"/><DifferenceMultiMapping input="@../a/dofs @../nowhere/dofs"/></Node>`,
      );
    } catch (e) {
      error = (e as Error).message;
    }
    expect(error).to.match(/link 'input': no object at '@\.\.\/nowhere\/dofs'/);
  });

  it('nested as in SOFA scenes (input="@../../ @../" node paths) it works; an input initialised after the mapping is reported', async () => {
    const s = await load(`
      <Node name="one"><MechanicalObject name="dof1" position="0 0 0  1 0 0"/><UniformMass vertexMass="1"/>
        <Node name="two"><MechanicalObject name="dof2" position="0 1 0  1 1 0"/><UniformMass vertexMass="1"/>
          <Node name="all">
            <MechanicalObject name="dofall"/>
            <SubsetMultiMapping template="Vec3,Vec3" input="@../../ @../" output="@./" indexPairs="0 0  0 1  1 0  1 1"/>
          </Node>
        </Node>
      </Node>`);
    s.step(3);
    const all = positions(s, '/one/two/all/dofall');
    expect(Array.from(all)).to.deep.equal([...positions(s, '/one/dof1'), ...positions(s, '/one/two/dof2')]);
    let error = '';
    try {
      await load(`<Node name="m"><MechanicalObject name="c"/><IdentityMultiMapping input="@../a/dofs @../b/dofs"/></Node>${bodies}`);
    } catch (e) {
      error = (e as Error).message;
    }
    expect(error).to.match(/is initialised after this mapping/);
  });
});
