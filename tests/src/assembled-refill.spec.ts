import { expect } from 'chai';
import { MechanicalSystem, loadSceneFromString, solvers } from 'sofa-ts';
import type { CsrMatrix } from '@sofa-ts/linalg';

/**
 * The assembled system is refilled into a fixed pattern, and the projective constraints' rows and
 * columns are written through slots listed once per pattern and set of projected dofs. When a
 * constraint's dofs change between steps, the refilled matrix must be that of a freshly compiled
 * system, bit for bit, with identity rows and columns exactly at the new dofs.
 */
const scene = `<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="beam">
    <EulerImplicitSolver name="ode" rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="25" tolerance="1e-9" threshold="1e-9" template="CompressedRowSparseMatrixMat3x3d"/>
    <RegularGridTopology name="grid" n="3 3 5" min="0 0 0" max="1 1 3"/>
    <MechanicalObject name="dofs" template="Vec3"/>
    <TetrahedronSetTopologyContainer name="tetra"/>
    <TetrahedronSetTopologyModifier/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@tetra"/>
    <DiagonalMass massDensity="1"/>
    <TetrahedronFEMForceField youngModulus="500" poissonRatio="0.3" method="large"/>
    <FixedProjectiveConstraint name="fixed" indices="0 1 2 3"/>
  </Node>
</Node>`;

function entries(A: CsrMatrix): Map<string, number> {
  const m = new Map<string, number>();
  for (let r = 0; r < A.rows; r++) for (let k = A.rowPtr[r]; k < A.rowPtr[r + 1]; k++) m.set(`${r},${A.colInd[k]}`, A.values[k]);
  return m;
}

describe('Assembled system refill', () => {
  it('follows a change of the projected dofs: the matrix of a fresh system, identity at the new dofs only', async () => {
    const s = await loadSceneFromString(scene);
    s.step(3);
    const ode = s.get<solvers.EulerImplicitSolver>('/beam/ode')!;
    const fixed = s.get('/beam/fixed')! as unknown as { indices: { value: Uint32Array }; init(): void };
    fixed.indices.value = Uint32Array.of(5, 9);
    fixed.init(); // FixedProjectiveConstraint reads its indices at init
    const factors = ode.systemMatrixFactors(0.02);
    const A = entries(ode.getSystem().assembleMBK(factors));
    const fresh = entries(MechanicalSystem.compile(s.root.children[0]).assembleMBK(factors));
    expect([...A.keys()]).to.deep.equal([...fresh.keys()]);
    for (const [k, v] of fresh) expect(Object.is(A.get(k), v), k).to.equal(true);
    const projected = new Set([15, 16, 17, 27, 28, 29]);
    let offDiagonalAtOldDofs = 0;
    for (const [k, v] of A) {
      const [r, c] = k.split(',').map(Number) as [number, number];
      if (projected.has(r) || projected.has(c)) expect(v).to.equal(r === c ? 1 : 0);
      else if (r < 12 && r !== c && v !== 0) offDiagonalAtOldDofs++;
    }
    expect(offDiagonalAtOldDofs).to.be.above(0); // the rows of the old dofs are free again
  });
});
