import { expect } from 'chai';
import { inv, matrix, multiply, transpose } from 'mathjs';
import { loadSceneFromString, constraint, solvers, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/**
 * W = J·A⁻¹·Jᵀ (times dt, the backward Euler position factor) from each constraint correction,
 * against the dense product computed by mathjs from the assembled system matrix A of the ODE solver
 * ((1 + h·rM)·M − h·(h + rK)·K, projected) and the constraint rows J of the step; and the motion
 * correction x − x_free = dt·A⁻¹·Jᵀ·λ.
 */

const h = 0.01;

function body(correction: string, linearSolver = 'SparseLDLSolver'): string {
  return `<Node name="ground"><MechanicalObject name="dofs" position="0 0 0  1 0 0"/></Node>
    <Node name="body">
      <EulerImplicitSolver name="ode" rayleighStiffness="0.05" rayleighMass="0.1"/>
      <${linearSolver} name="linear" template="CompressedRowSparseMatrixd"/>
      <MechanicalObject name="dofs" position="0 0.01 0  1 0.02 0  1 1 0  0 1 0.5"/>
      <UniformMass totalMass="4"/>
      <SpringForceField spring="0 1 100 0.5 1  1 2 200 0 1  2 3 150 0 1  3 0 100 0 1  0 2 80 0 1.4"/>
      <FixedProjectiveConstraint indices="3"/>
      ${correction}
    </Node>
    <UnilateralLagrangianConstraint object1="@ground/dofs" object2="@body/dofs" first_point="0 1" second_point="0 1" normals="0 1 0" mu="0.4"/>
    <BilateralLagrangianConstraint object1="@body/dofs" object2="@body/dofs" first_point="2 0" second_point="3 3" rest_vector="0 0 0.5  0 1 0.5"/>`;
}

async function load(xml: string): Promise<SofaScene> {
  return loadSceneFromString(`<Node name="root" dt="${h}" gravity="0 -10 0">
    <FreeMotionAnimationLoop/>
    <BlockGaussSeidelConstraintSolver tolerance="1e-10" maxIterations="1000"/>
    ${xml}
  </Node>`);
}

function parts(s: SofaScene) {
  const loop = s.root.objects.find((o) => o.className === 'FreeMotionAnimationLoop') as constraint.FreeMotionAnimationLoop;
  const solver = loop.constraintSolver.require();
  return { loop, solver, graph: loop.getGraph() };
}

/** Dense J (n × N) of a state's rows. */
function denseRows(rows: constraint.StateRows, n: number, N: number): number[][] {
  const J = Array.from({ length: n }, () => new Array<number>(N).fill(0));
  const d = rows.d;
  for (let k = 0; k < rows.nRows; k++) {
    for (let e = rows.rowPtr[k]; e < rows.rowPtr[k + 1]; e++) {
      for (let a = 0; a < d; a++) J[rows.rowIds[k]][rows.points[e] * d + a] += rows.values[e * d + a];
    }
  }
  return J;
}

function denseCsr(A: { rows: number; rowPtr: Int32Array; colInd: Int32Array; values: Float64Array }): number[][] {
  const out = Array.from({ length: A.rows }, () => new Array<number>(A.rows).fill(0));
  for (let r = 0; r < A.rows; r++) for (let q = A.rowPtr[r]; q < A.rowPtr[r + 1]; q++) out[r][A.colInd[q]] += A.values[q];
  return out;
}

function expectMatrixClose(W: Float64Array, ref: number[][], n: number, rel: number): void {
  let scale = 0;
  for (const row of ref) for (const v of row) scale = Math.max(scale, Math.abs(v));
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(W[i * n + j], `W[${i}][${j}]`).to.be.closeTo(ref[i][j], rel * scale);
}

/** dt·J·A⁻¹·Jᵀ of the body's solver at the current step. */
function reference(s: SofaScene): { W: number[][]; J: number[][]; Ainv: number[][]; n: number } {
  const { solver, graph } = parts(s);
  const n = solver.problem.n;
  const ode = s.get<solvers.EulerImplicitSolver>('body/ode')!;
  const sys = ode.getSystem();
  const A = denseCsr(sys.assembleMBK(constraint.systemFactors(ode, h, ode)));
  const J = denseRows(graph.rowsOf(s.get<BaseMechanicalState>('body/dofs')!), n, sys.size);
  const Ainv = inv(matrix(A)).toArray() as number[][];
  const W = (multiply(multiply(matrix(J), matrix(Ainv)), transpose(matrix(J))).toArray() as number[][]).map((r) => r.map((v) => h * v));
  return { W, J, Ainv, n };
}

describe('constraint: W from each constraint correction equals dt·J·A⁻¹·Jᵀ (mathjs)', () => {
  // SparseLDLSolver lends its factor: W = Yᵀ·D⁻¹·Y with Y = L⁻¹·P·Jᵀ, the correction by one backward
  // solve; EigenSimplicialLDLT does not: one solve per row, and one for the correction.
  const cases = [
    ['LinearSolverConstraintCorrection', 'SparseLDLSolver'],
    ['LinearSolverConstraintCorrection', 'EigenSimplicialLDLT'],
    ['GenericConstraintCorrection', 'SparseLDLSolver'],
    ['GenericConstraintCorrection', 'EigenSimplicialLDLT'],
    ['PrecomputedConstraintCorrection', 'SparseLDLSolver'],
  ] as const;
  for (const [correction, linear] of cases) {
    it(`${correction} with ${linear}: W of each step, and the correction x − x_free = dt·A⁻¹·Jᵀ·λ`, async () => {
      const s = await load(body(`<${correction}/>`, linear));
      // (the precomputed compliance is the first step's: see the next test)
      const steps = correction === 'PrecomputedConstraintCorrection' ? 1 : 3;
      for (let step = 0; step < steps; step++) {
        s.step();
        const { solver } = parts(s);
        const ref = reference(s);
        expect(ref.n).to.equal(2 * 3 + 2 * 3);
        expectMatrixClose(solver.problem.W, ref.W, ref.n, 1e-10);
        // the motion correction
        const x = s.get<BaseMechanicalState>('body/dofs')!;
        const lambda = Array.from(solver.problem.force);
        const JtL = multiply(transpose(matrix(ref.J)), lambda).toArray() as number[];
        const dx = (multiply(matrix(ref.Ainv), JtL).toArray() as number[]).map((v) => h * v);
        let scale = 0;
        for (const v of dx) scale = Math.max(scale, Math.abs(v));
        expect(scale).to.be.greaterThan(0);
        for (let i = 0; i < x.x.length; i++) expect(x.x[i] - x.xFree[i], `Δx[${i}]`).to.be.closeTo(dx[i], 1e-9 * scale + 1e-15);
      }
    });
  }

  it("with SparseLDLSolver, W and the correction reuse the free motion's factorization: one full solve per step", async () => {
    for (const correction of ['LinearSolverConstraintCorrection', 'GenericConstraintCorrection']) {
      const s = await load(body(`<${correction}/>`));
      const linear = s.get<solvers.SparseLDLSolver>('body/linear')!;
      let solves = 0;
      const solveMatrix = linear.solveMatrix.bind(linear);
      linear.solveMatrix = (out, rhs) => {
        solves++;
        solveMatrix(out, rhs);
      };
      s.step(2);
      expect(parts(s).solver.problem.n, correction).to.equal(12);
      expect(linear.factorizations, correction).to.equal(2);
      expect(solves, correction).to.equal(2);
    }
  });

  it('PrecomputedConstraintCorrection keeps the compliance of the first step', async () => {
    const s = await load(body('<PrecomputedConstraintCorrection/>'));
    s.step();
    const first = reference(s).Ainv;
    s.step(3);
    const { solver, graph } = parts(s);
    const n = solver.problem.n;
    const J = denseRows(graph.rowsOf(s.get<BaseMechanicalState>('body/dofs')!), n, 12);
    const W = (multiply(multiply(matrix(J), matrix(first)), transpose(matrix(J))).toArray() as number[][]).map((r) => r.map((v) => h * v));
    expectMatrixClose(solver.problem.W, W, n, 1e-10);
  });

  it('UncoupledConstraintCorrection (Vec3): W = dt·J·diag(c)·Jᵀ with its compliance per point', async () => {
    const c = [0.5, 0.25, 1, 2];
    const s = await load(body(`<UncoupledConstraintCorrection compliance="${c.join(' ')}"/>`));
    s.step();
    const { solver, graph } = parts(s);
    const n = solver.problem.n;
    const J = denseRows(graph.rowsOf(s.get<BaseMechanicalState>('body/dofs')!), n, 12);
    const C = Array.from({ length: 12 }, (_, i) => Array.from({ length: 12 }, (_, j) => (i === j ? c[Math.floor(i / 3)] : 0)));
    const W = (multiply(multiply(matrix(J), matrix(C)), transpose(matrix(J))).toArray() as number[][]).map((r) => r.map((v) => h * v));
    expectMatrixClose(solver.problem.W, W, n, 1e-12);
  });

  it('UncoupledConstraintCorrection (Rigid3, compliance from the mass): W = dt·J·M⁻¹·Jᵀ, J carried up through the RigidMapping', async () => {
    const s = await load(`<Node name="anchor"><MechanicalObject name="dofs" position="1 1 0  -1 0 1"/></Node>
      <Node name="frame">
        <EulerImplicitSolver name="ode"/>
        <CGLinearSolver iterations="30" tolerance="1e-16" threshold="1e-30"/>
        <MechanicalObject name="dofs" template="Rigid3" position="0 0 0  0.1 0.2 0.3 0.927361849549570"/>
        <UniformMass name="mass" vertexMass="2 1 0.5 0.1 0 0.1 0.7 0 0 0 0.9"/>
        <UncoupledConstraintCorrection name="cc"/>
        <Node name="points">
          <MechanicalObject name="dofs" position="1 1 0  -1 0 1"/>
          <RigidMapping/>
        </Node>
      </Node>
      <BilateralLagrangianConstraint object1="@anchor/dofs" object2="@frame/points/dofs" first_point="0 1" second_point="0 1"/>`);
    const cc = s.get<constraint.UncoupledConstraintCorrection>('frame/cc')!;
    // compliance = 1/m and the upper triangle of (m·J)⁻¹
    const mJ = [
      [1, 0.2, 0],
      [0.2, 1.4, 0],
      [0, 0, 1.8],
    ];
    const inv3 = inv(matrix(mJ)).toArray() as number[][];
    const comp = Array.from(cc.compliance.value);
    expect(comp[0]).to.be.closeTo(0.5, 1e-15);
    [inv3[0][0], inv3[0][1], inv3[0][2], inv3[1][1], inv3[1][2], inv3[2][2]].forEach((v, k) => expect(comp[k + 1]).to.be.closeTo(v, 1e-14));
    const { solver, graph } = parts(s);
    const frame = s.get<BaseMechanicalState>('frame/dofs')!;
    const points = s.get<BaseMechanicalState>('frame/points/dofs')!;
    // J of the frame = J of the points · J of the mapping (rows of the initial configuration)
    const n = graph.buildJacobian('posAndVel', 0, []);
    const Jp = denseRows(graph.rowsOf(points), n, 6);
    const map = s.getNode('frame/points')!.objects.find((o) => o.className === 'RigidMapping') as unknown as {
      getJ(i: number): { rows: number; cols: number; rowPtr: Int32Array; colInd: Int32Array; values: Float64Array };
    };
    const Jm = map.getJ(0);
    const Jmap = Array.from({ length: Jm.rows }, () => new Array<number>(Jm.cols).fill(0));
    for (let r = 0; r < Jm.rows; r++) for (let q = Jm.rowPtr[r]; q < Jm.rowPtr[r + 1]; q++) Jmap[r][Jm.colInd[q]] = Jm.values[q];
    const JfRef = multiply(matrix(Jp), matrix(Jmap)).toArray() as number[][];
    const Jf0 = denseRows(graph.rowsOf(frame), n, 6);
    for (let i = 0; i < n; i++) for (let j = 0; j < 6; j++) expect(Jf0[i][j]).to.be.closeTo(JfRef[i][j], 1e-14);
    s.step();
    const Jf = denseRows(graph.rowsOf(frame), n, 6);
    for (let i = 0; i < n; i++) for (let j = 0; j < 6; j++) expect(Jf[i][j]).to.be.closeTo(Jf0[i][j], 1e-14);
    const M = Array.from({ length: 6 }, () => new Array<number>(6).fill(0));
    (s.get('frame/mass') as unknown as { addMToMatrix(acc: { add(r: number, c: number, v: number): void }, f: number): void }).addMToMatrix(
      { add: (r, c, v) => (M[r][c] += v) },
      1,
    );
    const W = (multiply(multiply(matrix(Jf), inv(matrix(M))), transpose(matrix(Jf))).toArray() as number[][]).map((r) =>
      r.map((v) => h * v),
    );
    expectMatrixClose(solver.problem.W, W, n, 1e-12);
  });
});

describe('constraint: LinearSolverConstraintCorrection asks its ODE solver which system it inverts', () => {
  // One particle of mass m on a spring of stiffness k to a fixed point, held by a bilateral
  // constraint along x: W = pos·J·A⁻¹·Jᵀ with A the solver's matrix and pos its position factor.
  const m = 2,
    k = 300;
  const particle = (ode: string) => `<Node name="anchor"><MechanicalObject name="dofs" position="0 0 0"/></Node>
    <Node name="body">
      ${ode}
      <CGLinearSolver iterations="200" tolerance="1e-14" threshold="1e-30"/>
      <MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
      <UniformMass vertexMass="${m}"/>
      <SpringForceField spring="0 1 ${k} 0 1"/>
      <FixedProjectiveConstraint indices="0"/>
      <LinearSolverConstraintCorrection/>
    </Node>
    <BilateralLagrangianConstraint object1="@anchor/dofs" object2="@body/dofs" first_point="0" second_point="1" rest_vector="1 0 0"/>`;
  const Wxx = (s: SofaScene): number => parts(s).solver.problem.W[0];

  it('BDFOdeSolver order 1 on a NewtonRaphsonSolver: A = M − h·B − h²·K, so W_xx = h/(m + h²·k) (not the mass alone, h/m)', async () => {
    const s = await load(particle('<BDFOdeSolver order="1"/><NewtonRaphsonSolver maxNbIterationsNewton="1"/>'));
    s.step();
    // (the spring tilts a little under gravity: K_xx is k to ~1e-8; the mass alone is 1.5% off)
    expect(Wxx(s)).to.be.closeTo(h / (m + h * h * k), 1e-6 * (h / m));
  });

  it('an explicit solver inverts the mass: W_xx = h²/m', async () => {
    const s = await load(particle('<EulerExplicitSolver/>'));
    s.step();
    expect(Wxx(s)).to.be.closeTo((h * h) / m, 1e-12);
  });

  it('a solver that declares no system is refused with a located error', async () => {
    const s = await load(particle('<VariationalSymplecticSolver/>'));
    expect(() => s.step()).to.throw(/VariationalSymplecticSolver .* does not say which system it inverts/);
  });
});
