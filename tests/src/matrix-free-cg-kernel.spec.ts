import { expect } from 'chai';
import { loadSceneFromString } from 'sofa-ts';

/** The BeamFEM_LARGE beam (matrix-free CG) on a small grid, with the given force field and header. */
function beam(n: [number, number, number], fem: string, head = '', extra = ''): string {
  return `<Node name="root" dt="0.01" gravity="0 -9 0">${head}
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver name="cg" iterations="25" tolerance="1e-9" threshold="1e-9"/>
    <RegularGridTopology name="grid" min="-5 -5 0" max="5 5 40" n="${n.join(' ')}"/>
    <MechanicalObject name="dofs" template="Vec3"/>
    <TetrahedronSetTopologyContainer name="tetra"/>
    <TetrahedronSetTopologyModifier/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@tetra" swapping="true"/>
    <DiagonalMass massDensity="0.2"/>
    <${fem} name="fem" youngModulus="1000" poissonRatio="0.4" method="large"/>
    <BoxROI name="box" box="-6 -6 -1 50 6 0.1"/>
    <FixedProjectiveConstraint indices="@box.indices"/>${extra}
  </Node>
</Node>`;
}

type Fem = { productKernel: 'auto' | 'js' };
type Solver = { sys?: { matrixFreeKernel(f: unknown): unknown }; factors: unknown };

/** Runs `steps` steps; 'js' keeps the force field (and so the CG) in JavaScript. Returns x, v and whether the WebAssembly CG ran. */
async function run(xml: string, steps: number, kernel: 'auto' | 'js') {
  const scene = await loadSceneFromString(xml);
  (scene.get('/beam/fem') as unknown as Fem).productKernel = kernel;
  scene.step(steps);
  const dofs = scene.get('/beam/dofs') as unknown as { x: Float64Array; v: Float64Array; x0: Float64Array };
  const cg = scene.get('/beam/cg') as unknown as Solver;
  const fused = cg.sys?.matrixFreeKernel(cg.factors) !== undefined;
  const moved = dofs.x.some((v, i) => Math.abs(v - dofs.x0[i]) > 1e-3);
  return { x: Float64Array.from(dofs.x), v: Float64Array.from(dofs.v), fused, moved };
}

const bitwise = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describe('Matrix-free CG in one WebAssembly memory (MatrixFreeKernel)', () => {
  it('runs for the beam (one Vec3 state, DiagonalMass, TetrahedronFEMForceField, FixedProjectiveConstraint) and gives the JavaScript path bit for bit', async () => {
    const xml = beam([4, 4, 10], 'TetrahedronFEMForceField');
    const wasm = await run(xml, 6, 'auto');
    const js = await run(xml, 6, 'js');
    expect(wasm.fused).to.equal(true);
    expect(js.fused).to.equal(false);
    expect(wasm.moved).to.equal(true);
    expect(bitwise(wasm.x, js.x)).to.equal(true);
    expect(bitwise(wasm.v, js.v)).to.equal(true);
  });

  it('with ParallelTetrahedronFEMForceField on 2 threads (the product in place on the threads), bit for bit', async () => {
    // 8x8x8 points: 2058 tetrahedra, over the threshold for threads
    const MT = '<RequiredPlugin name="MultiThreading"/><TaskSchedulerSettings nbThreads="2"/>';
    const par = await run(beam([8, 8, 8], 'ParallelTetrahedronFEMForceField', MT), 4, 'auto');
    const js = await run(beam([8, 8, 8], 'TetrahedronFEMForceField'), 4, 'js');
    expect(par.fused).to.equal(true);
    expect(bitwise(par.x, js.x)).to.equal(true);
    expect(bitwise(par.v, js.v)).to.equal(true);
  });

  it('leaves the JavaScript path to systems of another shape (a second force field)', async () => {
    const spring = '<ConstantForceField indices="5" forces="0 0.1 0"/>';
    const r = await run(beam([4, 4, 10], 'TetrahedronFEMForceField', '', spring), 2, 'auto');
    expect(r.fused).to.equal(false);
    expect(r.moved).to.equal(true);
  });
});
