import { expect } from 'chai';
import { SofaError, setDataByPath, loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';

// A beam of 4 x 2 x 2 hexahedra under gravity, clamped at x = 0: YOUNG and GRAVITY are put in the
// text (the scene a user would write) or left at other values and set by path.
const beam = (young: string, gravity: string, extra = ''): string => `
<Node name="root" dt="0.01" gravity="${gravity}">
  <DefaultAnimationLoop/>
  <Node name="Beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <SparseLDLSolver/>
    <RegularGridTopology name="grid" n="5 3 3" min="0 0 0" max="4 1 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="1"/>
    <HexahedronFEMForceField name="FEM" youngModulus="${young}" poissonRatio="0.3" method="large"/>
    <BoxROI name="box" box="-0.1 -0.1 -0.1 0.1 1.1 1.1"/>
    <FixedProjectiveConstraint indices="@box.indices"/>
    ${extra}
  </Node>
</Node>`;
const loc = { file: '--param test', line: 1, column: 1 };

describe('setDataByPath: a Data set by scene path before init, by the rules of a scene attribute', () => {
  it('gives bit for bit the run of the scene written with that attribute', async () => {
    const written = await loadSceneFromString(beam('12345.678', '0 -9.81 0'));
    const set = await loadSceneFromString(beam('1000', '0 0 0'), { init: false });
    setDataByPath(set.root, '/Beam/FEM.youngModulus', '12345.678', loc);
    setDataByPath(set.root, '/root.gravity', '0 -9.81 0', loc);
    set.init();
    written.step(20);
    set.step(20);
    const a = written.get<BaseMechanicalState>('/Beam/dofs')!,
      b = set.get<BaseMechanicalState>('/Beam/dofs')!;
    expect(Array.from(b.x)).to.deep.equal(Array.from(a.x));
    expect(Array.from(b.v)).to.deep.equal(Array.from(a.v));
    expect(a.x.some((v, i) => v !== written.get<BaseMechanicalState>('/Beam/dofs')!.x0[i])).to.equal(true);
  });

  it('a value that does not parse is an error naming what was expected, located at its origin', async () => {
    const s = await loadSceneFromString(beam('1000', '0 0 0'), { init: false });
    expect(() => setDataByPath(s.root, '/Beam/FEM.youngModulus', 'stiff', loc)).to.throw(
      SofaError,
      /--param test:1:1: .*bad value for 'youngModulus' \(vector<double>\): expected a list of numbers, got 'stiff'/,
    );
    expect(() => setDataByPath(s.root, '/root.gravity', '0 1', loc)).to.throw(SofaError, /gravity/);
    expect(() => setDataByPath(s.root, '/Beam/FEM.youngModulu', '1', loc)).to.throw(
      SofaError,
      /no Data 'youngModulu'.*did you mean 'youngModulus'/,
    );
    expect(() => setDataByPath(s.root, '/Beam/FEN.youngModulus', '1', loc)).to.throw(SofaError, /no node or object at '\/Beam\/FEN'/);
    expect(() => setDataByPath(s.root, '/Beam/FEM.youngModulus', '@../other.value', loc)).to.throw(SofaError, /not a link/);
  });

  it("the Data's range is checked at init, the error located at the value's origin", async () => {
    const s = await loadSceneFromString(beam('1000', '0 0 0'), { init: false });
    setDataByPath(s.root, '/Beam/FEM.poissonRatio', '0.7', loc);
    setDataByPath(s.root, '/root.dt', '-0.01', loc);
    let err: unknown;
    try {
      s.init();
    } catch (e) {
      err = e;
    }
    expect(String((err as Error).message)).to.match(/--param test:1:1: Node 'root': 'dt' must be finite and > 0, got -0.01/);
  });

  it('replaces a link the scene gave (as an attribute written in its place would)', async () => {
    const s = await loadSceneFromString(beam('1000', '0 0 0', '<FixedProjectiveConstraint name="more" indices="@box.indices"/>'), {
      init: false,
    });
    setDataByPath(s.root, '/Beam/more.indices', '14', loc);
    s.init();
    expect(Array.from(s.get('/Beam/more')!.findData('indices')!.value as Uint32Array)).to.deep.equal([14]);
  });

  it('accepts aliases (scale for scale3d), and a renamed name (maxIter for iterations) with a deprecation warning', async () => {
    const s = await loadSceneFromString(
      `<Node name="root"><Node name="n"><EulerImplicitSolver/><CGLinearSolver name="cg"/>
      <MechanicalObject name="dofs" position="1 1 1"/><UniformMass totalMass="1"/></Node></Node>`,
      { init: false },
    );
    expect(setDataByPath(s.root, '/n/dofs.scale', '2 3 4', loc).name).to.equal('scale3d');
    const warnings: SofaError[] = [];
    expect(setDataByPath(s.root, '/n/cg.maxIter', '7', loc, warnings).name).to.equal('iterations');
    expect(warnings.map((w) => w.message)).to.deep.equal([
      "--param test:1:1: CGLinearSolver 'cg': 'maxIter' is deprecated: SOFA renamed it 'iterations'",
    ]);
    s.init();
    expect(Array.from(s.get<BaseMechanicalState>('/n/dofs')!.x)).to.deep.equal([2, 3, 4]);
    expect(s.get('/n/cg')!.findData('iterations')!.value).to.equal(7);
  });
});
