import { expect } from 'chai';
import { loadSceneFromString, type SofaScene } from 'sofa-ts';

// HexahedronFEMForceField with its WebAssembly kernel (the element products and the stiffness
// blocks, fem/hexahedron/hexahedra-kernel.ts) against its JavaScript loops: the same trajectory to
// the bit, matrix-free (CG: addDForce) and assembled (SparseLDLSolver: the blocks), for each method.

function beam(method: string, solver: string): string {
  return `<Node name="root" dt="0.02" gravity="0 -9.8 0">
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    ${solver}
    <RegularGridTopology name="grid" nx="3" ny="3" nz="12" min="-5 -5 0" max="5 5 60"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="1"/>
    <HexahedronFEMForceField name="fem" youngModulus="3000" poissonRatio="0.4" method="${method}"/>
    <BoxROI name="base" box="-6 -6 -1 6 6 1"/>
    <FixedProjectiveConstraint indices="@base.indices"/>
  </Node>
</Node>`;
}

interface Fem {
  productKernel: 'auto' | 'js';
  kernel: unknown;
  reinit(): void;
}
const state = (s: SofaScene) => s.get('/beam/dofs') as unknown as { x: Float64Array; x0: Float64Array };

describe('HexahedronFEMForceField: the WebAssembly kernel against the JavaScript loops', () => {
  for (const method of ['large', 'polar', 'small'])
    for (const [what, solver] of [
      ['CG', '<CGLinearSolver iterations="40" tolerance="1e-12" threshold="1e-12"/>'],
      ['SparseLDLSolver', '<SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>'],
    ])
      it(`${method}, ${what}: 40 steps of a bending beam, the same positions to the bit`, async () => {
        const run = async (kernel: 'auto' | 'js') => {
          const s = await loadSceneFromString(beam(method, solver));
          const fem = s.get('/beam/fem') as unknown as Fem;
          fem.productKernel = kernel;
          fem.reinit();
          expect(fem.kernel !== undefined, `kernel ${kernel}`).to.equal(kernel === 'auto');
          s.step(40);
          const { x, x0 } = state(s);
          const result = { x: Float64Array.from(x), tip: x[x.length - 2] - x0[x0.length - 2] };
          s.dispose();
          return result;
        };
        const [kernel, js] = [await run('auto'), await run('js')];
        expect(Math.abs(kernel.tip), 'the tip moves').to.be.above(0.05);
        const [withKernel, withoutKernel] = [kernel.x, js.x];
        for (let i = 0; i < withKernel.length; i++)
          if (!Object.is(withKernel[i], withoutKernel[i])) expect.fail(`coordinate ${i}: ${withKernel[i]} against ${withoutKernel[i]}`);
      });
});
