import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';

/** SparseTAUCSLLtSolver: TAUCS's LLᵀ solved by the sparse Cholesky; what it cannot honour is one located warning. */
describe('SparseTAUCSLLtSolver', () => {
  const scene = (attrs: string, solver: string) => `<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    <${solver} ${attrs}/>
    <RegularGridTopology name="grid" n="4 2 2" min="0 0 0" max="3 1 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="1"/>
    <HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3"/>
    <FixedProjectiveConstraint indices="0 4 8 12"/>
  </Node>
</Node>`;

  it('steps a scene as SparseCholeskySolver does, without a warning at its defaults', async () => {
    const a = await loadSceneFromString(scene('name="taucs"', 'SparseTAUCSLLtSolver'));
    const b = await loadSceneFromString(scene('', 'SparseCholeskySolver'));
    a.step(5);
    b.step(5);
    expect(Array.from(a.get<BaseMechanicalState>('/beam/dofs')!.x)).to.deep.equal(Array.from(b.get<BaseMechanicalState>('/beam/dofs')!.x));
    expect(a.warnings.map(String).filter((w) => w.includes('SparseTAUCSLLtSolver'))).to.deep.equal([]);
  });

  it('warns once, at the component, of an incomplete factorization or several processors it does not honour', async () => {
    const sc = await loadSceneFromString(scene('name="taucs" ic_dropTol="1e-3" nproc_simu="4"', 'SparseTAUCSLLtSolver'));
    const w = sc.warnings.map(String).filter((x) => x.includes("SparseTAUCSLLtSolver 'taucs'"));
    expect(w).to.have.length(1);
    expect(w[0]).to.match(/ic_dropTol=0\.001.*nproc_simu=4/);
  });
});
