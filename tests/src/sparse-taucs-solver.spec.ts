import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState, type SofaScene } from 'sofa-ts';

/** SparseTAUCSSolver in a scene: TAUCS's LLᵀ solved by the sparse Cholesky; what it cannot honour is one located warning. */
describe('SparseTAUCSSolver', () => {
  const scene = (solver: string) => `<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    ${solver}
    <RegularGridTopology name="grid" n="4 2 2" min="0 0 0" max="3 1 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="1"/>
    <HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3"/>
    <FixedProjectiveConstraint indices="0 4 8 12"/>
  </Node>
</Node>`;
  const x = (s: SofaScene) => Array.from(s.get<BaseMechanicalState>('/beam/dofs')!.x);

  it('steps a scene as SparseCholeskySolver with the same ordering does, without a warning at SOFA’s scene options', async () => {
    const a = await loadSceneFromString(
      scene(
        '<SparseTAUCSSolver name="taucs" symmetric="true" options="taucs.factor.LLT=true taucs.factor.ordering=metis" printLog="false"/>',
      ),
    );
    const b = await loadSceneFromString(scene('<SparseCholeskySolver ordering="Metis"/>'));
    const c = await loadSceneFromString(scene('<TAUCSSolver/>'));
    a.step(5);
    b.step(5);
    c.step(5);
    expect(x(a)).to.deep.equal(x(b));
    expect(x(c)).to.deep.equal(x(b));
    expect(a.warnings.map(String).filter((w) => w.includes('SparseTAUCSSolver'))).to.deep.equal([]);
  });

  it('warns once, at the component, of the options, symmetric="0" and nproc it does not honour', async () => {
    const sc = await loadSceneFromString(
      scene('<SparseTAUCSSolver name="taucs" symmetric="0" nproc="4" options="taucs.factor.LU=true taucs.factor.ordering=colamd"/>'),
    );
    const w = sc.warnings.map(String).filter((m) => m.includes("SparseTAUCSSolver 'taucs'"));
    expect(w).to.have.length(1);
    expect(w[0]).to.match(/taucs\.factor\.LU=true \(.*symmetric=0.*nproc=4/);
    expect(w[0]).to.not.contain('colamd');
  });
});
