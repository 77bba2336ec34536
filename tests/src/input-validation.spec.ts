import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './corpus-test-support.js';
import {
  MAX_POINTS,
  SofaError,
  SofaErrors,
  loadSceneFromString,
  type BaseMechanicalState,
  type BaseObject,
  type Data,
  type SofaScene,
} from 'sofa-ts';

/**
 * Values a scene gives, through the XML path: the cases a fuzzing campaign found running with NaN
 * states, refused with an error at the attribute; the values SOFA warns about and resets, reset
 * with a located warning (and the simulation then equals the one given the reset value).
 */

const file = 'v.scn';
const at = (line: number, column: number): string => `${path.resolve(file)}:${line}:${column}`;

async function errorOf(p: Promise<unknown>): Promise<SofaError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(SofaError);
    return e as SofaError;
  }
  throw new Error('expected a SofaError');
}

function messages(e: SofaError): string[] {
  return e instanceof SofaErrors ? e.errors.map((x) => x.message) : [e.message];
}

/** A clamped FEM beam; `o` replaces pieces of it. Line 1: root; line 5: the state; 6: the mass; 7: the force field. */
function beam(o: { root?: string; grid?: string; state?: string; mass?: string; ff?: string; solver?: string } = {}): string {
  return `<Node name="root" ${o.root ?? 'dt="0.01" gravity="0 -9.81 0"'}>
  <EulerImplicitSolver/>
  ${o.solver ?? '<CGLinearSolver iterations="100" tolerance="1e-12" threshold="1e-20"/>'}
  <RegularGridTopology name="grid" ${o.grid ?? 'n="3 3 5"'} min="0 0 0" max="1 1 4"/>
  <MechanicalObject name="dofs" ${o.state ?? ''}/>
  <UniformMass ${o.mass ?? 'totalMass="1"'}/>
  ${o.ff ?? '<HexahedronFEMForceField name="ff" youngModulus="1000" poissonRatio="0.3"/>'}
  <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
</Node>`;
}

const load = (xml: string): Promise<SofaScene> => loadSceneFromString(xml, { fileName: file });

describe('input validation: the values the fuzzing campaign found (errors at the attribute)', () => {
  const cases: Array<[string, string, string]> = [
    ['dt="NaN"', beam({ root: 'dt="NaN"' }), `${at(1, 19)}: Node 'root': 'dt' must be finite and > 0, got nan`],
    ['dt="-1"', beam({ root: 'dt="-1"' }), `${at(1, 19)}: Node 'root': 'dt' must be finite and > 0, got -1`],
    [
      'totalMass="NaN"',
      beam({ mass: 'totalMass="NaN"' }),
      `${at(6, 16)}: UniformMass 'UniformMass1': 'totalMass' must be finite and >= 0, got nan`,
    ],
    [
      'poissonRatio="NaN"',
      beam({ ff: '<HexahedronFEMForceField youngModulus="1000" poissonRatio="NaN"/>' }),
      `${at(7, 48)}: HexahedronFEMForceField 'HexahedronFEMForceField1': 'poissonRatio' must hold numbers finite and in [0, 0.5), got nan at index 0`,
    ],
    [
      'position="inf …"',
      beam({ state: 'position="inf 0 0"' }),
      `${at(5, 33)}: MechanicalObject 'dofs': 'position' must hold finite numbers, got inf at index 0`,
    ],
    [
      'gravity with NaN',
      beam({ root: 'dt="0.01" gravity="0 NaN 0"' }),
      `${at(1, 29)}: Node 'root': 'gravity' must hold finite numbers, got nan at index 1`,
    ],
  ];
  for (const [name, xml, message] of cases) {
    it(`${name} is refused before any component runs`, async () => {
      expect(messages(await errorOf(load(xml)))).to.deep.equal([message]);
    });
  }

  it('youngModulus="1e308" overflows the hexahedra\'s stiffness: refused at youngModulus', async () => {
    const hexa = await errorOf(load(beam({ ff: '<HexahedronFEMForceField youngModulus="1e308" poissonRatio="0.3"/>' })));
    expect(hexa.message).to.equal(
      `${at(7, 28)}: HexahedronFEMForceField 'HexahedronFEMForceField1': the stiffness of hexahedron 0 is not finite (youngModulus 1e+308 overflows, or the element is degenerate)`,
    );
  });

  it('youngModulus="1e308" on tetrahedra of this size stays finite (λ + 2μ / 36V ≈ 9e307): it runs, and its states stay finite', async () => {
    const s = await load(beam({ ff: '<TetrahedronFEMForceField youngModulus="1e308" poissonRatio="0.3"/>' }));
    s.step(3);
    expect(Array.from(s.get<BaseMechanicalState>('dofs')!.x).every(Number.isFinite)).to.equal(true);
  });

  it('negative counts and tolerances of solvers are refused where SOFA has no reset', async () => {
    const e = await errorOf(load(beam({ solver: '<CGLinearSolver iterations="-5"/>' })));
    expect(e.message).to.equal(`${at(3, 19)}: CGLinearSolver 'CGLinearSolver1': 'iterations' must be finite and >= 0, got -5`);
  });
});

describe("input validation: SOFA's warn-and-reset, with a located warning and SOFA's value", () => {
  function ff(s: SofaScene): BaseObject & { poissonRatio: Data<Float64Array> } {
    return s.get('ff')!;
  }

  it('poissonRatio="0.7" on a volume FEM: warned, reset to 0.45, and the motion is that of poissonRatio 0.45', async () => {
    const warned = await load(beam({ ff: '<HexahedronFEMForceField name="ff" youngModulus="1000" poissonRatio="0.7"/>' }));
    expect(warned.warnings.map((w) => w.message)).to.deep.equal([
      `${at(7, 58)}: HexahedronFEMForceField 'ff': 'poissonRatio' must hold numbers in [0, 0.5), got 0.7 at index 0: set to 0.45, as SOFA does`,
    ]);
    expect(Array.from(ff(warned).poissonRatio.value)).to.deep.equal([0.45]);
    const given = await load(beam({ ff: '<HexahedronFEMForceField name="ff" youngModulus="1000" poissonRatio="0.45"/>' }));
    expect(given.warnings).to.have.length(0);
    warned.step(3);
    given.step(3);
    expect(Array.from(warned.get<BaseMechanicalState>('dofs')!.x)).to.deep.equal(Array.from(given.get<BaseMechanicalState>('dofs')!.x));
  });

  it('CGLinearSolver tolerance and threshold < 0: reset to 1e-5 (SOFA), with a warning', async () => {
    const s = await load(beam({ solver: '<CGLinearSolver name="cg" iterations="25" tolerance="-1" threshold="-2"/>' }));
    expect(s.warnings.map((w) => w.detail)).to.deep.equal([
      "'tolerance' must be >= 0, got -1: it is set to 0.00001, as SOFA does",
      "'threshold' must be >= 0, got -2: it is set to 0.00001, as SOFA does",
    ]);
    const cg = s.get<BaseObject & { tolerance: Data<number> }>('cg')!;
    expect(cg.tolerance.value).to.equal(1e-5);
  });

  it('DiagonalMass totalMass < 0 → 1; CollisionPipeline depth < 0 → 6; grid resolution below 1 → 2 2 2', async () => {
    const s = await load(`<Node name="root">
  <CollisionPipeline name="pipeline" depth="-3"/>
  <Node name="body">
    <EulerImplicitSolver/><CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>
    <RegularGridTopology name="grid" n="0 3 3" min="0 0 0" max="1 1 1"/>
    <MechanicalObject name="dofs"/>
    <DiagonalMass name="mass" totalMass="-2"/>
  </Node>
</Node>`);
    expect(s.warnings.map((w) => w.detail)).to.deep.equal([
      "'depth' must be >= 0, got -3: it is set to 6, as SOFA does",
      "'totalMass' must be >= 0, got -2: it is set to 1, as SOFA does",
      'the grid resolution 0 3 3 needs at least 1 point along each axis: 2 2 2 is used instead, as SOFA does',
    ]);
    expect(s.get<BaseObject & { totalMass: Data<number> }>('body/mass')!.totalMass.value).to.equal(1);
    expect(s.get<BaseMechanicalState>('body/dofs')!.size).to.equal(8);
  });

  it("MeshMatrixMass with a negative massDensity: SOFA's fallback to totalMass, said at massDensity", async () => {
    const s = await load(`<Node name="root">
  <EulerImplicitSolver/><CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>
  <RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>
  <MechanicalObject/>
  <MeshMatrixMass name="mass" massDensity="-3" lumping="1"/>
</Node>`);
    expect(s.warnings.map((w) => w.message)).to.deep.equal([
      `${at(5, 31)}: MeshMatrixMass 'mass': massDensity has a negative value: the mass comes from totalMass (1) instead, as SOFA does`,
    ]);
  });
});

describe('input validation: sizes a scene asks for are bounded before allocation', () => {
  it(`RegularGridTopology n="1000 1000 1000": refused at n, naming the limit of ${MAX_POINTS} points (no allocation)`, async () => {
    const t0 = performance.now();
    const e = await errorOf(load(beam({ grid: 'n="1000 1000 1000"' })));
    expect(messages(e)[0]).to.equal(
      `${at(4, 36)}: RegularGridTopology 'grid': a grid of 1000 × 1000 × 1000 = 1.00e+9 points is above the limit of ${MAX_POINTS} points (lower the resolution (n) or raise cellWidth)`,
    );
    expect(performance.now() - t0).to.be.below(5000);
  });

  it('a cellWidth that makes a huge grid is refused at cellWidth (regular and sparse grids)', async () => {
    const e = await errorOf(load(beam({ grid: 'cellWidth="1e-6"' })));
    expect(messages(e)[0]).to.match(
      /v\.scn:4:36: RegularGridTopology 'grid': a grid of 1000001 × 1000001 × 4000001 = .* points is above the limit/,
    );
    const sparse = await errorOf(
      load(`<Node name="root">
  <SparseGridTopology name="sg" cellWidth="1e-5" position="0 0 0  1 0 0  0 1 0  0 0 1" triangles="0 2 1  0 1 3  0 3 2  1 2 3"/>
</Node>`),
    );
    expect(messages(sparse)[0]).to.match(/v\.scn:2:33: SparseGridTopology 'sg': a grid of .* points is above the limit of 4000000 points/);
  });

  it('MechanicalObject size and a PointSetTopologyContainer nbPoints past the limit are refused at the attribute', async () => {
    const e = await errorOf(
      load('<Node name="root"><MechanicalObject size="1000000000"/><PointSetTopologyContainer nbPoints="99999999"/></Node>'),
    );
    expect(messages(e)).to.deep.equal([
      `${at(1, 37)}: MechanicalObject 'MechanicalObject1': 'size' must be finite and in [0, ${MAX_POINTS}], got 1000000000`,
      `${at(1, 83)}: PointSetTopologyContainer 'PointSetTopologyContainer1': 'nbPoints' must be finite and in [0, ${MAX_POINTS}], got 99999999`,
    ]);
  });

  it('a bounding tree depth of 1e9 costs nothing (levels past 64 would be empty)', async () => {
    const s = await load(`<Node name="root" dt="0.01">
  <CollisionPipeline depth="1000000000"/><BruteForceBroadPhase/><BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.1" contactDistance="0.05"/><CollisionResponse/>
  <Node name="a"><MechanicalObject position="0 0 0  1 0 0  2 0 0  3 0 0  4 0 0  5 0 0"/><PointCollisionModel/></Node>
</Node>`);
    s.step(2);
    expect(s.time).to.be.closeTo(0.02, 1e-15);
  });
});

describe('input validation: the component reference shows what a Data accepts', () => {
  it("sofa-ts components HexahedronFEMForceField prints the ranges and SOFA's resets", () => {
    const out = execFileSync(
      process.execPath,
      [path.join(repoRoot, 'packages/cli/bin/sofa-ts.js'), 'components', 'HexahedronFEMForceField'],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(out).to.contain('accepts: in [0, 0.5), else reset to 0.45 with a warning (as SOFA)');
    expect(out).to.contain('accepts: >= 0, else reset to 5000 with a warning (as SOFA)');
  });
});
