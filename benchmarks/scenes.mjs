// Scenes of the benchmarks, shared by benchmarks/run.mjs and benchmarks/case.mjs.

/**
 * The BeamFEM_LARGE node of SOFA's TetrahedronFEMForceField.scn on an nx×ny×nz grid (same physical
 * size): large corotational tetrahedra, implicit Euler, 25 CG iterations. solver: 'cg' (matrix-free),
 * 'cg-csr' (CG on the assembled 3x3-block matrix), 'ldl' (SparseLDLSolver). threads > 0: SOFA's
 * MultiThreading components on that many threads (ParallelTetrahedronFEMForceField, and
 * ParallelCGLinearSolver for 'cg-csr').
 */
export function beamScene(n, solver, threads = 0) {
  const mt = threads > 0;
  const linear = {
    cg: `<CGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9"/>`,
    'cg-csr': mt
      ? `<ParallelCGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9"/>`
      : `<CGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9" template="CompressedRowSparseMatrixMat3x3d"/>`,
    ldl: '<SparseLDLSolver name="linear solver" template="CompressedRowSparseMatrixMat3x3d"/>',
  }[solver];
  const fem = mt ? 'ParallelTetrahedronFEMForceField' : 'TetrahedronFEMForceField';
  return `<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 -9 0">
  ${mt ? `<RequiredPlugin name="MultiThreading"/>\n  <TaskSchedulerSettings nbThreads="${threads}"/>` : ''}
  <DefaultAnimationLoop/>
  <Node name="BeamFEM_LARGE">
    <EulerImplicitSolver name="cg_odesolver" rayleighStiffness="0.1" rayleighMass="0.1"/>
    ${linear}
    <RegularGridTopology name="grid" min="-5 -5 0" max="5 5 40" n="${n.join(' ')}"/>
    <MechanicalObject template="Vec3"/>
    <TetrahedronSetTopologyContainer name="Tetra_topo"/>
    <TetrahedronSetTopologyModifier name="Modifier"/>
    <TetrahedronSetGeometryAlgorithms template="Vec3" name="GeomAlgo"/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@Tetra_topo" swapping="true"/>
    <DiagonalMass massDensity="0.2"/>
    <${fem} name="FEM" youngModulus="1000" poissonRatio="0.4" computeGlobalMatrix="false" method="large"/>
    <BoxROI template="Vec3" name="box_roi" box="-6 -6 -1 50 6 0.1"/>
    <FixedProjectiveConstraint template="Vec3" indices="@box_roi.indices"/>
  </Node>
</Node>`;
}
