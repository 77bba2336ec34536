import { expect } from 'chai';
import { loadSceneFromString, type SofaScene } from 'sofa-ts';

// The memory of a matrix-free step of 'large' tetrahedra (docs/performance.md, "Memory"): the
// element data live in the WebAssembly kernel only, structures nothing reads are not made, and
// every result is the one of the JavaScript arrays, to the bit.

/**
 * The BeamFEM_LARGE beam (matrix-free CG) on a small grid, beside a topology modifier; the
 * elements' stiffness factors vary along the element list (so that each element's material is its own).
 */
function beam(n: [number, number, number], template = ''): string {
  return `<Node name="root" dt="0.01" gravity="0 -9 0">
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver name="cg" iterations="25" tolerance="1e-9" threshold="1e-9" ${template}/>
    <RegularGridTopology name="grid" min="-5 -5 0" max="5 5 40" n="${n.join(' ')}"/>
    <MechanicalObject name="dofs" template="Vec3"/>
    <TetrahedronSetTopologyContainer name="tetra"/>
    <TetrahedronSetTopologyModifier name="modifier"/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@tetra" swapping="true"/>
    <DiagonalMass massDensity="0.2"/>
    <TetrahedronFEMForceField name="fem" youngModulus="1000" poissonRatio="0.4" method="large" localStiffnessFactor="1 1.3 0.7 1.9 0.4 1.6 1.1"/>
    <BoxROI name="box" box="-6 -6 -1 50 6 0.1"/>
    <FixedProjectiveConstraint indices="@box.indices"/>
  </Node>
</Node>`;
}

/** The force field's private stores, as this test reads them. */
interface Stores {
  productKernel: 'auto' | 'js';
  _grad: Float64Array;
  _mat: Float64Array;
  _rest: Float64Array;
  _rot: Float64Array;
  plastic: Float64Array;
  grad: Float64Array;
  mat: Float64Array;
  rest: Float64Array;
  reinit(): void;
}

const fem = (scene: SofaScene) => scene.get('/beam/fem') as unknown as Stores;
const state = (scene: SofaScene) => scene.get('/beam/dofs') as unknown as { x: Float64Array; v: Float64Array; x0: Float64Array };
const bitwise = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

/** The tetrahedra whose rest centre lies beyond z. */
function beyond(scene: SofaScene, z: number): number[] {
  const tet = (scene.get('/beam/tetra') as unknown as { getTetrahedra(): Uint32Array }).getTetrahedra();
  const x0 = state(scene).x0;
  const cut: number[] = [];
  for (let t = 0; t < tet.length / 4; t++) {
    let c = 0;
    for (let j = 0; j < 4; j++) c += x0[3 * tet[4 * t + j] + 2] / 4;
    if (c > z) cut.push(t);
  }
  return cut;
}

describe('corotational tetrahedra keep their element data in the WebAssembly kernel', () => {
  it('a matrix-free step makes no arrays of gradients, materials, rest shapes, rotations or plastic strains', async () => {
    const scene = await loadSceneFromString(beam([4, 4, 10]));
    scene.step(3);
    const f = fem(scene);
    expect(state(scene).x.some((v, i) => Math.abs(v - state(scene).x0[i]) > 1e-3)).to.equal(true);
    for (const k of ['_grad', '_mat', '_rest', '_rot', 'plastic'] as const) expect(f[k].length, k).to.equal(0);
  });

  it('an assembled step reads the gradients, materials and frames from the kernel a batch at a time (no arrays of them), the states those of the JavaScript arrays to the bit', async () => {
    const run = async (kernel: 'auto' | 'js') => {
      const scene = await loadSceneFromString(beam([4, 4, 10], 'template="CompressedRowSparseMatrixMat3x3d"'));
      fem(scene).productKernel = kernel;
      fem(scene).reinit();
      scene.step(3);
      return { x: Float64Array.from(state(scene).x), v: Float64Array.from(state(scene).v), f: fem(scene) };
    };
    const wasm = await run('auto');
    for (const k of ['_grad', '_mat', '_rest', '_rot'] as const) expect(wasm.f[k].length, k).to.equal(0);
    const js = await run('js');
    expect(js.f._grad.length).to.be.greaterThan(0);
    expect(bitwise(wasm.x, js.x)).to.equal(true);
    expect(bitwise(wasm.v, js.v)).to.equal(true);
  });

  it('the data copied back out of the kernel are the arrays the JavaScript initialisation computes, to the bit', async () => {
    const scene = await loadSceneFromString(beam([4, 4, 10]));
    const f = fem(scene);
    expect(f._grad.length).to.equal(0);
    const fromKernel = { grad: Float64Array.from(f.grad), mat: Float64Array.from(f.mat), rest: Float64Array.from(f.rest) };
    // the JavaScript initialisation (no kernel): its own arrays
    f.productKernel = 'js';
    f.reinit();
    expect(f._grad.length).to.be.greaterThan(0);
    expect(bitwise(fromKernel.grad, f._grad)).to.equal(true);
    expect(bitwise(fromKernel.mat, f._mat)).to.equal(true);
    // 'large' reads the rest components 3, 6, 7, 9, 10, 11 (0, 1, 2 are 0 by construction); 4, 5, 8 are read by no computation
    const read = [0, 1, 2, 3, 6, 7, 9, 10, 11];
    for (let e = 0; e < f._rest.length / 12; e++)
      for (const k of read) expect(Object.is(fromKernel.rest[12 * e + k], f._rest[12 * e + k]), `rest ${e}.${k}`).to.equal(true);
  });

  it('a removal of tetrahedra moves the data inside the kernel: the same states as through the JavaScript arrays', async () => {
    const run = async (kernel: 'auto' | 'js') => {
      const scene = await loadSceneFromString(beam([5, 5, 12]));
      fem(scene).productKernel = kernel;
      scene.step(2);
      const modifier = scene.get('/beam/modifier') as unknown as { removeTetrahedra(ids: number[]): void };
      modifier.removeTetrahedra(beyond(scene, 30));
      scene.step(2);
      modifier.removeTetrahedra(beyond(scene, 20).filter((_, i) => i % 3 === 0));
      scene.step(3);
      return { x: Float64Array.from(state(scene).x), v: Float64Array.from(state(scene).v), f: fem(scene) };
    };
    const wasm = await run('auto');
    const js = await run('js');
    expect(wasm.f._grad.length).to.equal(0);
    expect(js.f._grad.length).to.be.greaterThan(0);
    expect(bitwise(wasm.x, js.x)).to.equal(true);
    expect(bitwise(wasm.v, js.v)).to.equal(true);
  });

  // The editable mesh (the shells around each vertex, triangle and edge: about 27 MiB at 171k
  // tetrahedra) is read by a topological change only, never by a step: it is built by the first
  // change (SOFA creates an around-array when first asked for), not ahead of it beside a modifier.
  it('no container builds its editable mesh before the first change; the first change builds the changed one only', async () => {
    const scene = await loadSceneFromString(beam([4, 4, 10]));
    const dynamic = (path: string) => (scene.get(path) as unknown as { isDynamic: boolean }).isDynamic;
    scene.step(2);
    expect(dynamic('/beam/tetra')).to.equal(false);
    expect(dynamic('/beam/grid')).to.equal(false);
    const modifier = scene.get('/beam/modifier') as unknown as { removeTetrahedra(ids: number[]): void };
    modifier.removeTetrahedra(beyond(scene, 30));
    expect(dynamic('/beam/tetra')).to.equal(true);
    expect(dynamic('/beam/grid')).to.equal(false);
  });

  // A component that will change the container (TopologicalChangeProcessor) has it build its
  // editable mesh at bwdInit, as SOFA builds its cross-element arrays at init: the first change
  // then takes that mesh, and the states are those of the lazily built one, bit for bit.
  it('a TopologicalChangeProcessor has its container build the full editable mesh ahead (the modifier alone, the lean one); the states are the same as without', async () => {
    const run = async (tcp: boolean): Promise<{ x: Float64Array; prepared: string | undefined }> => {
      const xml = beam([4, 4, 10]).replace(
        '<DiagonalMass',
        tcp ? '<TopologicalChangeProcessor useDataInputs="true" timeToRemove="100"/>\n    <DiagonalMass' : '<DiagonalMass',
      );
      const scene = await loadSceneFromString(xml);
      const tetra = scene.get('/beam/tetra') as unknown as { isPrepared: boolean; isDynamic: boolean; preparedMesh: string | undefined };
      const prepared = tetra.preparedMesh;
      scene.step(2);
      const modifier = scene.get('/beam/modifier') as unknown as { removeTetrahedra(ids: number[]): void };
      modifier.removeTetrahedra(beyond(scene, 30));
      expect(tetra.isDynamic).to.equal(true);
      expect(tetra.isPrepared).to.equal(false);
      scene.step(3);
      return { x: Float64Array.from(state(scene).x), prepared };
    };
    const ahead = await run(true);
    const lazy = await run(false);
    // with the processor the full mesh (faces and edges), without it the modifier's lean one
    expect(ahead.prepared).to.equal('full');
    expect(lazy.prepared).to.equal('lean');
    expect(bitwise(ahead.x, lazy.x)).to.equal(true);
  });
});
