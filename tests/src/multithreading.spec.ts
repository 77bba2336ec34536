import { expect } from 'chai';
import { loadSceneFromString, type SofaScene } from 'sofa-ts';

/** A beam of n grid points split in tetrahedra (SOFA's BeamFEM_LARGE layout), with the given components. */
function beam(n: [number, number, number], fem: string, linear: string, head = ''): string {
  return `<Node name="root" dt="0.01" gravity="0 -9 0">${head}
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    ${linear}
    <RegularGridTopology name="grid" min="-5 -5 0" max="5 5 40" n="${n.join(' ')}"/>
    <MechanicalObject name="dofs" template="Vec3"/>
    <TetrahedronSetTopologyContainer name="tetra"/>
    <TetrahedronSetTopologyModifier/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@tetra" swapping="true"/>
    <DiagonalMass massDensity="0.2"/>
    <${fem} name="fem" youngModulus="1000" poissonRatio="0.4" method="large"/>
    <BoxROI name="box" box="-6 -6 -1 50 6 0.1"/>
    <FixedProjectiveConstraint indices="@box.indices"/>
  </Node>
</Node>`;
}

const MT = '<RequiredPlugin name="MultiThreading"/><TaskSchedulerSettings nbThreads="2"/>';
const CG = '<CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>';

async function trajectory(xml: string, steps: number): Promise<{ x: Float64Array; v: Float64Array; scene: SofaScene }> {
  const scene = await loadSceneFromString(xml);
  scene.step(steps);
  const dofs = scene.get('/beam/dofs') as unknown as { x: Float64Array; v: Float64Array };
  return { x: Float64Array.from(dofs.x), v: Float64Array.from(dofs.v), scene };
}

const bitwise = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describe('MultiThreading (SOFA plugin)', () => {
  it('RequiredPlugin MultiThreading loads; ParallelTetrahedronFEMForceField runs on TaskSchedulerSettings nbThreads threads, bit for bit TetrahedronFEMForceField', async () => {
    // 8x8x8 points: 2058 tetrahedra, over the threshold for threads
    const seq = await trajectory(beam([8, 8, 8], 'TetrahedronFEMForceField', CG), 4);
    const par = await trajectory(beam([8, 8, 8], 'ParallelTetrahedronFEMForceField', CG, MT), 4);
    expect((par.scene.get('/beam/fem') as unknown as { threadCount: number }).threadCount).to.equal(2);
    expect(
      Math.abs(seq.x[3 * 500 + 1] - (par.scene.get('/beam/dofs') as unknown as { x0: Float64Array }).x0[3 * 500 + 1]),
    ).to.be.greaterThan(1e-3);
    expect(bitwise(par.x, seq.x)).to.equal(true);
    expect(bitwise(par.v, seq.v)).to.equal(true);
  });

  it('ParallelCGLinearSolver (ParallelCompressedRowSparseMatrixMat3x3d) is bit for bit CGLinearSolver on CompressedRowSparseMatrixMat3x3d', async () => {
    const seq = await trajectory(
      beam([8, 8, 12], 'TetrahedronFEMForceField', CG.replace('/>', ' template="CompressedRowSparseMatrixMat3x3d"/>')),
      3,
    );
    const par = await trajectory(
      beam([8, 8, 12], 'TetrahedronFEMForceField', CG.replace('<CGLinearSolver', '<ParallelCGLinearSolver name="cg"'), MT),
      3,
    );
    expect((par.scene.get('/beam/cg') as unknown as { threadCount: number }).threadCount).to.equal(2);
    expect(bitwise(par.x, seq.x)).to.equal(true);
    expect(bitwise(par.v, seq.v)).to.equal(true);
  });

  it('ParallelHexahedronFEMForceField is bit for bit HexahedronFEMForceField (2 threads, 512 hexahedra)', async () => {
    const hexa = (fem: string, head = '') => `<Node name="root" dt="0.01" gravity="0 -9 0">${head}<Node name="beam">
      <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>${CG}
      <RegularGridTopology name="grid" min="0 0 0" max="2 2 8" n="9 9 9"/>
      <MechanicalObject name="dofs"/>
      <DiagonalMass massDensity="1"/>
      <${fem} name="fem" youngModulus="5000" poissonRatio="0.3" method="large"/>
      <BoxROI name="box" box="-1 -1 -0.1 3 3 0.1"/>
      <FixedProjectiveConstraint indices="@box.indices"/></Node></Node>`;
    const seq = await trajectory(hexa('HexahedronFEMForceField'), 4);
    const par = await trajectory(hexa('ParallelHexahedronFEMForceField', MT), 4);
    expect((par.scene.get('/beam/fem') as unknown as { threadCount: number }).threadCount).to.equal(2);
    expect(seq.x.some((v, i) => Math.abs(v - (par.scene.get('/beam/dofs') as unknown as { x0: Float64Array }).x0[i]) > 1e-4)).to.equal(
      true,
    );
    expect(bitwise(par.x, seq.x)).to.equal(true);
    expect(bitwise(par.v, seq.v)).to.equal(true);
  });

  it('the WebAssembly SIMD product of tetrahedra is bit for bit the JavaScript loop (large, small, polar; an odd element count)', async () => {
    // a 4x4x3-cell box in Kuhn tetrahedra, minus one: 287 elements
    const n = [5, 5, 4];
    const id = (i: number, j: number, k: number) => i + n[0] * (j + n[1] * k);
    const tets: number[] = [];
    const kuhn = [
      [0, 1, 3, 7],
      [0, 1, 5, 7],
      [0, 2, 3, 7],
      [0, 2, 6, 7],
      [0, 4, 5, 7],
      [0, 4, 6, 7],
    ];
    for (let k = 0; k < n[2] - 1; k++)
      for (let j = 0; j < n[1] - 1; j++)
        for (let i = 0; i < n[0] - 1; i++)
          for (const t of kuhn) tets.push(...t.map((c) => id(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1))));
    tets.length -= 4;
    expect((tets.length / 4) % 2).to.equal(1);
    for (const method of ['large', 'small', 'polar']) {
      const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -9 0"><Node name="beam">
        <EulerImplicitSolver/><CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>
        <RegularGridTopology name="grid" n="${n.join(' ')}" min="0 0 0" max="4 4 3"/>
        <MechanicalObject name="dofs"/>
        <TetrahedronSetTopologyContainer name="tetra" tetrahedra="${tets.join(' ')}"/>
        <DiagonalMass massDensity="1"/>
        <TetrahedronFEMForceField name="fem" youngModulus="1000" poissonRatio="0.3" method="${method}"/>
        <FixedProjectiveConstraint indices="0 1 2 3 4"/></Node></Node>`);
      scene.step(3);
      const fem = scene.get('/beam/fem') as unknown as {
        productKernel: string;
        addDForce(df: Float64Array[], dx: Float64Array[], k: number, b: number): void;
      };
      const np = 3 * n[0] * n[1] * n[2];
      const dx = new Float64Array(np).map((_, i) => Math.sin(3 * i));
      const js = new Float64Array(np).map((_, i) => (i % 5) - 2),
        wasm = Float64Array.from(js);
      fem.productKernel = 'js';
      fem.addDForce([js], [dx], -0.013, 0);
      fem.productKernel = 'auto';
      fem.addDForce([wasm], [dx], -0.013, 0);
      expect(bitwise(wasm, js), method).to.equal(true);
    }
  });

  it('the WebAssembly force of large tetrahedra is bit for bit the JavaScript loop (forces and frames; an odd element count)', async () => {
    const n = [5, 5, 4];
    const id = (i: number, j: number, k: number) => i + n[0] * (j + n[1] * k);
    const tets: number[] = [];
    const kuhn = [
      [0, 1, 3, 7],
      [0, 1, 5, 7],
      [0, 2, 3, 7],
      [0, 2, 6, 7],
      [0, 4, 5, 7],
      [0, 4, 6, 7],
    ];
    for (let k = 0; k < n[2] - 1; k++)
      for (let j = 0; j < n[1] - 1; j++)
        for (let i = 0; i < n[0] - 1; i++)
          for (const t of kuhn) tets.push(...t.map((c) => id(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1))));
    tets.length -= 4;
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -9 0"><Node name="beam">
      <EulerImplicitSolver/><CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>
      <RegularGridTopology name="grid" n="${n.join(' ')}" min="0 0 0" max="4 4 3"/>
      <MechanicalObject name="dofs"/>
      <TetrahedronSetTopologyContainer name="tetra" tetrahedra="${tets.join(' ')}"/>
      <DiagonalMass massDensity="1"/>
      <TetrahedronFEMForceField name="fem" youngModulus="1000" poissonRatio="0.3" method="large"/>
      <FixedProjectiveConstraint indices="0 1 2 3 4"/></Node></Node>`);
    scene.step(3);
    type Fem = {
      productKernel: string;
      rot: Float64Array;
      wasmProduct(): unknown;
      addForce(f: Float64Array[], x: Float64Array[], v: Float64Array[]): void;
    };
    const fem = scene.get('/beam/fem') as unknown as Fem;
    expect(fem.wasmProduct()).to.not.equal(undefined); // the kernel the force runs in
    const np = 3 * n[0] * n[1] * n[2];
    // positions far from rest (a twisted, stretched box) and forces already accumulated
    const x = new Float64Array(np).map((_, i) => (i % 3) * 0.7 + Math.floor(i / 3) * 0.21 + 0.3 * Math.sin(5 * i));
    const v = new Float64Array(np);
    const js = new Float64Array(np).map((_, i) => (i % 7) - 3),
      wasm = Float64Array.from(js);
    fem.productKernel = 'js';
    fem.addForce([js], [x], [v]);
    const rotJs = Float64Array.from(fem.rot);
    fem.productKernel = 'auto';
    fem.addForce([wasm], [x], [v]);
    expect(bitwise(wasm, js)).to.equal(true);
    expect(bitwise(fem.rot, rotJs)).to.equal(true);
    expect(js.some((f, i) => Math.abs(f - ((i % 7) - 3)) > 1)).to.equal(true);
  });
  it("the assembled stiffness of large tetrahedra reads the kernel's gradients, materials and frames bit for bit as their JavaScript copies", async () => {
    const n = [5, 5, 4];
    const scene = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -9 0"><Node name="beam">
      <EulerImplicitSolver/><CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9"/>
      <RegularGridTopology name="grid" n="${n.join(' ')}" min="0 0 0" max="4 4 3"/>
      <MechanicalObject name="dofs"/>
      <TetrahedronSetTopologyContainer name="tetra"/>
      <TetrahedronSetTopologyModifier/>
      <Hexa2TetraTopologicalMapping input="@grid" output="@tetra"/>
      <DiagonalMass massDensity="1"/>
      <TetrahedronFEMForceField name="fem" youngModulus="1000" poissonRatio="0.3" method="large"/>
      <FixedProjectiveConstraint indices="0 1 2 3 4"/></Node></Node>`);
    scene.step(3);
    type Entry = [number, number, number];
    type Fem = {
      grad: Float64Array;
      rot: Float64Array;
      wasmProduct(): unknown;
      addKToMatrix(acc: { add(r: number, c: number, v: number): void }, k: number): void;
    };
    const fem = scene.get('/beam/fem') as unknown as Fem;
    expect(fem.wasmProduct()).to.not.equal(undefined);
    const emitted = (): Entry[] => {
      const out: Entry[] = [];
      fem.addKToMatrix({ add: (r, c, v) => out.push([r, c, v]) }, -0.7);
      return out;
    };
    // the data still in the kernel (the force of the last step wrote the frames there)
    const fromKernel = emitted();
    // the JavaScript copies made (reading them copies them out), then the same emission
    void fem.grad;
    void fem.rot;
    const fromCopies = emitted();
    expect(fromKernel.length).to.equal(fromCopies.length);
    expect(fromKernel.length).to.be.above(0);
    expect(
      fromKernel.every((e, i) => e[0] === fromCopies[i][0] && e[1] === fromCopies[i][1] && Object.is(e[2], fromCopies[i][2])),
    ).to.equal(true);
  });
});
