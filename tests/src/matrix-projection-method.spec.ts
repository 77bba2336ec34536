import { expect } from 'chai';
import { loadSceneFromString, type BaseMechanicalState } from 'sofa-ts';

/**
 * SOFA's MatrixProjectionMethod: the stiffness of a spring between two subset-mapped points,
 * projected onto the parent's dofs as J_aᵀ·K·J_b, couples the two parent points. One implicit
 * Euler step of two particles (mass m, no gravity) pulled together by a spring of stiffness k,
 * stretched by s along x: (M + dt²K) dv = dt·f gives in closed form
 *   dv_0 = dt·k·s / (m + 2·dt²·k) = −dv_1,
 * where a projection without the off-diagonal coupling would give dt·k·s / (m + dt²·k).
 */
function scene(withProjection: boolean): string {
  const pair = (a: string, b: string) =>
    `<MatrixProjectionMethod areJacobiansConstant="true" mechanicalStates="@/body/${a}/dofs @/body/${b}/dofs"/>`;
  return `<Node name="root" dt="0.1" gravity="0 0 0">
  <Node name="body">
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    <SparseLDLSolver template="CompressedRowSparseMatrixd"/>
    <MechanicalObject name="dofs" position="0 0 0  1.5 0 0"/>
    <UniformMass vertexMass="2"/>
    <Node name="a"><MechanicalObject name="dofs"/><SubsetMapping input="@../dofs" output="@dofs" indices="0"/></Node>
    <Node name="b"><MechanicalObject name="dofs"/><SubsetMapping input="@../dofs" output="@dofs" indices="1"/></Node>
    ${withProjection ? pair('a', 'a') + pair('a', 'b') + pair('b', 'a') + pair('b', 'b') : ''}
    <SpringForceField object1="@a/dofs" object2="@b/dofs" spring="0 0 30 0 1"/>
  </Node>
</Node>`;
}

describe('MatrixProjectionMethod (J_aᵀ·K·J_b of mapped pairs)', () => {
  it('one implicit step of a spring between two subset-mapped points: dv_0 = dt·k·s/(m + 2dt²k) = −dv_1', async () => {
    const [dt, k, s, m] = [0.1, 30, 0.5, 2];
    const expected = (dt * k * s) / (m + 2 * dt * dt * k);
    for (const withProjection of [true, false]) {
      const sc = await loadSceneFromString(scene(withProjection));
      sc.step(1);
      const v = sc.get<BaseMechanicalState>('/body/dofs')!.v;
      expect(v[0]).to.be.closeTo(expected, 1e-12);
      expect(v[3]).to.be.closeTo(-expected, 1e-12);
      for (const i of [1, 2, 4, 5]) expect(v[i]).to.equal(0);
    }
  });

  it('refuses a list that is not a pair of states', async () => {
    const xml = scene(false).replace('<SpringForceField', '<MatrixProjectionMethod mechanicalStates="@/body/a/dofs"/><SpringForceField');
    let err: unknown;
    try {
      await loadSceneFromString(xml);
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(/mechanicalStates must name 2 mechanical states \(got 1\)/);
  });
});
