import { expect } from 'chai';
import { loadSceneFromString, constraint, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * FixedLagrangianConstraint and UniformLagrangianConstraint through the XML path, against closed
 * forms: fixed points stay at their rest positions (Vec1, Vec2, Vec3, Vec6, Rigid3, the rotation
 * measured as a rotation vector) while the others move freely; points held on a plane through a
 * DistanceToPlaneMapping; an inextensible edge corrected along its linearisation; the block
 * (BilateralConstraintResolutionNDof) and row-by-row resolutions agreeing.
 */

const h = 0.01;
const g = 10;

async function scene(body: string, gravity = `0 ${-g} 0`, loop = '<FreeMotionAnimationLoop/>'): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${h}" gravity="${gravity}">
    ${loop}
    <BlockGaussSeidelConstraintSolver tolerance="1e-14" maxIterations="5000"/>
    ${body}
  </Node>`);
}

function state(s: SofaScene, path: string): BaseMechanicalState {
  const o = s.get<BaseMechanicalState>(path);
  if (!o) throw new Error(`no state at ${path}`);
  return o;
}

const ode =
  '<EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/><CGLinearSolver iterations="50" tolerance="1e-16" threshold="1e-30"/>';

describe('constraint: FixedLagrangianConstraint', () => {
  it('Vec3: the fixed point stays at rest, the other falls freely (x = x0 − g·h²·N(N+1)/2)', async () => {
    const s = await scene(`<Node name="p">${ode}
        <MechanicalObject name="dofs" position="1 2 3  4 5 6"/>
        <UniformMass vertexMass="2"/>
        <UncoupledConstraintCorrection compliance="0.5"/>
        <FixedLagrangianConstraint indices="0"/>
      </Node>`);
    const x = state(s, 'p/dofs');
    const N = 20;
    s.step(N);
    expect(x.x[0]).to.be.closeTo(1, 1e-12);
    expect(x.x[1]).to.be.closeTo(2, 1e-12);
    expect(x.x[2]).to.be.closeTo(3, 1e-12);
    expect(x.x[3]).to.equal(4);
    expect(x.x[4]).to.be.closeTo(5 - (g * h * h * (N * (N + 1))) / 2, 1e-12);
    expect(x.x[5]).to.equal(6);
  });

  it('fixAll on Vec2 and Vec6 states holds every point (n×n block resolution)', async () => {
    for (const [t, pos] of [
      ['Vec2', '1 2  3 4'],
      ['Vec6', '1 2 3 4 5 6  7 8 9 10 11 12'],
    ] as const) {
      const s = await scene(
        `<Node name="p">${ode}
          <MechanicalObject name="dofs" template="${t}" position="${pos}" velocity="${pos}"/>
          <UniformMass vertexMass="1"/>
          <UncoupledConstraintCorrection compliance="1"/>
          <FixedLagrangianConstraint template="${t}" fixAll="true"/>
        </Node>`,
        '0 0 0',
      );
      const x = state(s, 'p/dofs');
      s.step(5);
      const rest = pos.split(/\s+/).map(Number);
      for (let i = 0; i < rest.length; i++) expect(x.x[i]).to.be.closeTo(rest[i], 1e-12);
    }
  });

  it('Rigid3: a spinning, drifting frame is brought back to its rest pose (centre and orientation)', async () => {
    const q = [Math.sin(0.3), 0, 0, Math.cos(0.3)];
    const s = await scene(`<Node name="r">${ode}
        <MechanicalObject name="dofs" template="Rigid3" position="1 2 3 ${q.join(' ')}" velocity="0.5 0 0 1 2 -3"/>
        <UniformMass totalMass="1"/>
        <UncoupledConstraintCorrection compliance="1 1 0 0 1 0 1"/>
        <FixedLagrangianConstraint template="Rigid3" indices="0"/>
      </Node>`);
    const x = state(s, 'r/dofs');
    for (let n = 0; n < 10; n++) {
      s.step();
      const expected = [1, 2, 3, ...q];
      for (let i = 0; i < 7; i++) expect(x.x[i]).to.be.closeTo(expected[i], 1e-10);
    }
  });

  it('the rotation vector of q·q0⁻¹ is axis·angle, angle in [0, π]', () => {
    const out = new Float64Array(3);
    const a = 2.5,
      axis = [2 / 3, -1 / 3, 2 / 3];
    const q0 = [0.1, 0.2, 0.3, 0.9].map((v) => v / Math.hypot(0.1, 0.2, 0.3, 0.9));
    // q = r ⊗ q0 with r the rotation (axis, a)
    const r = [...axis.map((v) => v * Math.sin(a / 2)), Math.cos(a / 2)];
    const qm = (p: number[], o: number[]): number[] => [
      p[3] * o[0] + p[0] * o[3] + p[1] * o[2] - p[2] * o[1],
      p[3] * o[1] - p[0] * o[2] + p[1] * o[3] + p[2] * o[0],
      p[3] * o[2] + p[0] * o[1] - p[1] * o[0] + p[2] * o[3],
      p[3] * o[3] - p[0] * o[0] - p[1] * o[1] - p[2] * o[2],
    ];
    constraint.rotationVectorOf(out, 0, qm(r, q0), 0, q0, 0);
    for (let k = 0; k < 3; k++) expect(out[k]).to.be.closeTo(a * axis[k], 1e-12);
    // the opposite quaternion is the same rotation
    constraint.rotationVectorOf(
      out,
      0,
      qm(r, q0).map((v) => -v),
      0,
      q0,
      0,
    );
    for (let k = 0; k < 3; k++) expect(out[k]).to.be.closeTo(a * axis[k], 1e-12);
  });

  it('Vec1 under a DistanceToPlaneMapping (SOFA example): the points land on the plane z = 2 in one step', async () => {
    const s = await scene(
      `<Node name="n">
        <EulerImplicitSolver/><SparseLDLSolver/>
        <MechanicalObject name="mstate" template="Vec3d" position="4 2 5  1 5 -8  0 1 -5  5 6 8"/>
        <UniformMass vertexMass="1"/>
        <Node name="d">
          <MechanicalObject name="distance" template="Vec1" rest_position="0 0 0 0"/>
          <FixedLagrangianConstraint template="Vec1" fixAll="true"/>
          <DistanceToPlaneMapping input="@../mstate" output="@distance" planeNormal="0 0 1" planePoint="0 0 2"/>
        </Node>
        <UncoupledConstraintCorrection defaultCompliance="1"/>
      </Node>`,
      '0 0 0',
    );
    const x = state(s, 'n/mstate');
    s.step();
    expect(Array.from(x.x).map((v) => +v.toFixed(12))).to.deep.equal([4, 2, 2, 1, 5, 2, 0, 1, 2, 5, 6, 2]);
  });

  it('refuses an index out of range, located', async () => {
    const s = await scene(`<Node name="p">${ode}
        <MechanicalObject name="dofs" position="0 0 0"/><UniformMass vertexMass="1"/>
        <UncoupledConstraintCorrection/><FixedLagrangianConstraint indices="3"/>
      </Node>`);
    expect(() => s.step()).to.throw(/FixedLagrangianConstraint.*index 3 is out of range/s);
  });
});

describe('constraint: UniformLagrangianConstraint', () => {
  const L = 0.5;
  const edge = (iterative: boolean, extra = ''): string => `<Node name="e">${ode}
      <EdgeSetTopologyContainer name="topo" position="0 0 0  ${L} 0 0  ${2 * L} 0 0" edges="0 1  1 2"/>
      <MechanicalObject name="dofs"/>
      <UniformMass vertexMass="1"/>
      <FixedProjectiveConstraint indices="0"/>
      <UncoupledConstraintCorrection compliance="1"/>
      <Node name="ext">
        <MechanicalObject name="d" template="Vec1"/>
        <DistanceMapping topology="@../topo"/>
        <UniformLagrangianConstraint template="Vec1" iterative="${iterative}" ${extra}/>
      </Node>
    </Node>`;

  it('one step of an edge under an oblique gravity: the free motion along the edge is removed (mapped free position x + dt·J·v_free, as SOFA)', async () => {
    const s = await scene(edge(true).replace(`${2 * L} 0 0" edges="0 1  1 2"`, `${2 * L} 0 0" edges="0 1"`), `${-0.6 * g} ${-0.8 * g} 0`);
    const x = state(s, 'e/dofs');
    s.step();
    // free motion x_free = x0 + h²·g (one backward Euler step from rest); δ = h·(J·v_free) = h²·g_x
    // along the edge; the correction moves the point by −δ along the edge
    expect(x.x[3]).to.be.closeTo(L, 1e-15);
    expect(x.x[4]).to.be.closeTo(-0.8 * g * h * h, 1e-15);
    expect(x.x[5]).to.equal(0);
  });

  it('the block resolution (iterative="false") gives the row-by-row Gauss-Seidel solution', async () => {
    const a = await scene(edge(true));
    const b = await scene(edge(false));
    a.step(30);
    b.step(30);
    const xa = state(a, 'e/dofs').x,
      xb = state(b, 'e/dofs').x;
    for (let i = 0; i < xa.length; i++) expect(xb[i]).to.be.closeTo(xa[i], 1e-10);
    // and the edges stay close to their length (second-order drift only)
    for (let k = 0; k < 2; k++) expect(Math.hypot(xa[3 * k + 3] - xa[3 * k], xa[3 * k + 4] - xa[3 * k + 1])).to.be.closeTo(L, 1e-3);
  });

  it('constrainToRestPos holds the dofs at their rest values; the velocity order uses v_free + (x − x_rest)/dt', async () => {
    const s = await scene(
      `<Node name="p">${ode}
        <MechanicalObject name="dofs" template="Vec1" position="0.3 -0.2" rest_position="0.5 0.5" velocity="1 -1"/>
        <UniformMass vertexMass="1"/>
        <UncoupledConstraintCorrection compliance="1"/>
        <UniformLagrangianConstraint template="Vec1" constrainToRestPos="true"/>
      </Node>`,
      '0 0 0',
    );
    const x = state(s, 'p/dofs');
    s.step();
    expect(x.x[0]).to.be.closeTo(0.5, 1e-14);
    expect(x.x[1]).to.be.closeTo(0.5, 1e-14);
    const v = await scene(
      `<Node name="p">${ode}
        <MechanicalObject name="dofs" template="Vec1" position="0.3" velocity="1"/>
        <UniformMass vertexMass="1"/>
        <UncoupledConstraintCorrection compliance="1"/>
        <UniformLagrangianConstraint template="Vec1"/>
      </Node>`,
      '0 0 0',
      '<FreeMotionAnimationLoop solveVelocityConstraintFirst="true"/>',
    );
    v.step();
    // velocity solve: v = −x/dt, then the position solve finds the position already at 0
    expect(state(v, 'p/dofs').x[0]).to.be.closeTo(0, 1e-14);
  });
});

describe("constraint: BilateralNResolution (SOFA's BilateralConstraintResolutionNDof)", () => {
  it('one local solve gives λ with W_b·λ = −d on its block (an SPD 4×4 block inside a larger W)', () => {
    const n = 6,
      line = 1,
      m = 4;
    const W = new Float64Array(n * n);
    // W = A·Aᵀ + I, A fixed
    const A = [
      [1, 2, 0, 1, 0, 3],
      [0, 1, 1, 2, 1, 0],
      [2, 0, 1, 0, 1, 1],
      [1, 1, 1, 1, 0, 2],
      [0, 3, 0, 1, 1, 1],
      [1, 0, 2, 0, 1, 0],
    ];
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let v = i === j ? 1 : 0;
        for (let k = 0; k < n; k++) v += A[i][k] * A[j][k];
        W[i * n + j] = v;
      }
    const r = new constraint.BilateralNResolution(m);
    const force = new Float64Array(n);
    r.init(line, W, n);
    const d = Float64Array.of(9, 0.5, -1, 2, 0.25, 7);
    r.resolution(line, W, n, d, force);
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let j = 0; j < m; j++) s += W[(line + i) * n + line + j] * force[line + j];
      expect(s).to.be.closeTo(-d[line + i], 1e-12);
    }
    expect(force[0]).to.equal(0);
    expect(force[5]).to.equal(0);
  });
});
