import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSceneFromString } from 'sofa-ts';
import { formatCppNumber } from '@sofa-ts/io';

/**
 * SofaMatrix's exporters: GlobalSystemMatrixExporter against the closed form of implicit Euler's
 * matrix on a spring, ComplianceMatrixExporter against the solver's W and its properties, the two
 * file formats read back by parsers written here from SOFA's BaseMatrix printing, and C's `%.pg`
 * printing (the digits of printf, facts of the C library, not our output).
 */

/** A csv matrix file: one line per row, comma-separated. */
function readCsv(text: string): number[][] {
  expect(text.endsWith('\n')).to.equal(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => l.split(',').map(Number));
}

/** A txt matrix file (SOFA's `operator<<(ostream, BaseMatrix)`): `[`, rows `\n[ a b ... ]`, then ` ]`. */
function readTxt(text: string): number[][] {
  expect(text.startsWith('[\n[')).to.equal(true);
  expect(text.endsWith(' ] ]')).to.equal(true);
  return text
    .slice(2, -2)
    .split('\n')
    .map((l) => {
      expect(l.startsWith('[ ') && l.endsWith(' ]')).to.equal(true);
      return l.slice(2, -2).split(' ').map(Number);
    });
}

describe('formatCppNumber: printf %.pg digits', () => {
  it('prints as glibc printf("%.*g") does, ties to even on the exact binary value', () => {
    const cases: [number, number, string][] = [
      [0.1, 12, '0.1'],
      [1 / 3, 12, '0.333333333333'],
      [2 / 3, 12, '0.666666666667'],
      [1e-5, 12, '1e-05'],
      [123456789012345, 12, '1.23456789012e+14'],
      [100, 2, '1e+02'],
      [0.5, 0, '0.5'],
      [2.5, 1, '2'],
      [3.5, 1, '4'],
      [0.125, 2, '0.12'],
      [-0, 6, '-0'],
      [1e21, 6, '1e+21'],
      [0.0001, 3, '0.0001'],
      [0.00001234, 3, '1.23e-05'],
    ];
    for (const [x, p, s] of cases) expect(formatCppNumber(x, p), `${x} at ${p}`).to.equal(s);
  });
});

describe('GlobalSystemMatrixExporter and ComplianceMatrixExporter (SofaMatrix)', () => {
  let dir = '';
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sofa-ts-matrix-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // h, Rayleigh factors, mass, spring stiffness: A = (1 + h·rm)·M + h·(h + rs)·K_spring on the free
  // node (SOFA's implicit Euler: mFact = 1 + h·rm, kFact = −h·(h + rs), K = −k·e·eᵀ at rest length),
  // identity on the fixed node's rows and columns.
  const h = 0.01,
    rm = 0.2,
    rs = 0.1,
    m = 3,
    k = 50;
  const springScene = (exporter: string, solver: string): string => `<Node name="root" dt="${h}" gravity="0 0 0">
      <DefaultAnimationLoop/>
      <Node name="n">
        <EulerImplicitSolver rayleighStiffness="${rs}" rayleighMass="${rm}"/>
        ${solver}
        ${exporter}
        <MechanicalObject name="dofs" position="0 0 0  2 0 0"/>
        <UniformMass vertexMass="${m}"/>
        <FixedProjectiveConstraint indices="0"/>
        <SpringForceField indices1="0" indices2="1" stiffness="${k}" damping="0" lengths="2"/>
      </Node>
    </Node>`;

  it("writes implicit Euler's global matrix of a spring: the closed form, every step, csv and txt", async () => {
    const sim = await loadSceneFromString(
      springScene(
        `<GlobalSystemMatrixExporter name="csv" exportEveryNumberOfSteps="1" filename="${join(dir, 'A')}" format="csv" precision="17"/>
         <GlobalSystemMatrixExporter name="txt" exportEveryNumberOfSteps="2" filename="${join(dir, 'B')}" precision="17"/>`,
        '<SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>',
      ),
    );
    for (let s = 0; s < 2; s++) sim.step();
    expect(readdirSync(dir).sort()).to.deep.equal(['A00001.csv', 'A00002.csv', 'B00001.txt']);
    const expected = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j): number => (i === j ? 1 : 0)));
    expected[3][3] = (1 + h * rm) * m + h * (h + rs) * k;
    expected[4][4] = expected[5][5] = (1 + h * rm) * m;
    for (const A of [readCsv(readFileSync(join(dir, 'A00002.csv'), 'utf8')), readTxt(readFileSync(join(dir, 'B00001.txt'), 'utf8'))]) {
      expect(A.length).to.equal(6);
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(A[i][j]).to.be.closeTo(expected[i][j], 1e-12 * (1 + expected[i][j]));
    }
  });

  it('a matrix-free CG assembles no matrix: a warning, no file, the scene goes on', async () => {
    const sim = await loadSceneFromString(
      springScene(
        `<GlobalSystemMatrixExporter exportEveryNumberOfSteps="1" filename="${join(dir, 'A')}" format="jpg"/>`,
        '<CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-12"/>',
      ),
    );
    sim.step();
    const text = sim.warnings.map((w) => w.message).join('\n');
    expect(text).to.match(/'jpg' is not a matrix file format/);
    expect(text).to.match(/does not assemble explicitly the system matrix/);
    expect(readdirSync(dir)).to.deep.equal([]);
  });

  it("writes the constraint solver's compliance W: symmetric, positive, equal to the solver's to the last digit", async () => {
    const sim = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -9.81 0">
      <RequiredPlugin name="SofaMatrix"/>
      <FreeMotionAnimationLoop/>
      <BlockGaussSeidelConstraintSolver name="cs" tolerance="1e-12" maxIterations="1000"/>
      <ComplianceMatrixExporter exportEveryNumberOfSteps="1" filename="${join(dir, 'W')}" format="csv" precision="17"/>
      <Node name="string">
        <EulerImplicitSolver/>
        <SparseLDLSolver/>
        <GenericConstraintCorrection/>
        <MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0  3 0 0"/>
        <EdgeSetTopologyContainer edges="0 1  1 2  2 3"/>
        <FixedProjectiveConstraint indices="0"/>
        <UniformMass totalMass="1e-3"/>
        <Node name="extensions">
          <MechanicalObject template="Vec1d" name="lengths"/>
          <DistanceMapping/>
          <UniformLagrangianConstraint template="Vec1d" iterative="false"/>
        </Node>
      </Node>
    </Node>`);
    sim.step();
    const solver = sim.root.getObjectByName('cs') as unknown as { problem: { n: number; W: Float64Array } };
    const { n, W } = solver.problem;
    expect(n).to.equal(3);
    const file = readCsv(readFileSync(join(dir, 'W00001.csv'), 'utf8'));
    expect(file.length).to.equal(n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(file[i][j]).to.equal(W[i * n + j]);
    for (let i = 0; i < n; i++) {
      expect(W[i * n + i]).to.be.greaterThan(0);
      for (let j = 0; j < n; j++) expect(W[i * n + j]).to.be.closeTo(W[j * n + i], 1e-12 * W[i * n + i]);
    }
  });
});
