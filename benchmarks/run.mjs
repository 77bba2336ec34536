#!/usr/bin/env node
// `npm run bench`: ms/step and solver iterations of reference scenes (a benchmark, not a test).
//   - Demos/liver.scn from the SOFA corpus (../shared/sofa-regression, or SOFA_REGRESSION_DIR);
//   - the BeamFEM_LARGE beam of TetrahedronFEMForceField.scn (large corotational tetrahedra,
//     implicit Euler, 25 CG iterations) on grids 5x5x20 … 30x30x120, matrix-free CG and SparseLDLSolver.
// Options: --quick (smaller grids and fewer steps), --only TEXT.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScene, loadSceneFromString, isOdeSolver } from 'sofa-ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = process.env.SOFA_REGRESSION_DIR ?? path.resolve(here, '..', '..', 'shared', 'sofa-regression');
const quick = process.argv.includes('--quick');
const onlyIdx = process.argv.indexOf('--only');
const only = onlyIdx > 0 ? process.argv[onlyIdx + 1] : undefined;

/** The BeamFEM_LARGE node of TetrahedronFEMForceField.scn on an nx×ny×nz grid (same physical size). */
function beamScene(n, solver) {
  const linear =
    solver === 'cg'
      ? '<CGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9"/>'
      : '<SparseLDLSolver name="linear solver" template="CompressedRowSparseMatrixMat3x3d"/>';
  return `<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 -9 0">
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
    <TetrahedronFEMForceField name="FEM" youngModulus="1000" poissonRatio="0.4" computeGlobalMatrix="false" method="large"/>
    <BoxROI template="Vec3" name="box_roi" box="-6 -6 -1 50 6 0.1"/>
    <FixedProjectiveConstraint template="Vec3" indices="@box_roi.indices"/>
  </Node>
</Node>`;
}

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

async function measure(name, load, steps) {
  if (only && !name.includes(only)) return;
  let scene;
  try {
    scene = await load();
  } catch (e) {
    console.log(`${name.padEnd(40)} cannot run: ${String(e.message).split('\n')[0]}`);
    return;
  }
  const solvers = [];
  scene.root.visit((n) => {
    for (const o of n.objects) if (isOdeSolver(o)) solvers.push(o);
  });
  const warm = Math.min(3, steps);
  for (let i = 0; i < warm; i++) scene.step();
  const ms = [];
  let its = 0;
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    scene.step();
    ms.push(performance.now() - t0);
    for (const s of solvers) its += s.lastStats?.iterations ?? 0;
  }
  console.log(`${name.padEnd(40)} ${median(ms).toFixed(3).padStart(10)} ms/step (median of ${steps})   ${(its / steps).toFixed(1).padStart(6)} solver it/step`);
}

const grids = quick ? [[5, 5, 20], [10, 10, 40]] : [[5, 5, 20], [10, 10, 40], [20, 20, 80], [30, 30, 120]];
const stepsFor = (n) => Math.max(3, Math.round((quick ? 20 : 60) * 2000 / (n[0] * n[1] * n[2])));

console.log(`sofa-ts benchmarks (Node ${process.version}, ${new Date().toISOString()})`);
const liver = path.join(corpus, 'sofa/examples/Demos/liver.scn');
if (fs.existsSync(liver)) {
  await measure('Demos/liver.scn', () => loadScene(liver, { dataPaths: [path.join(corpus, 'sofa/share'), path.join(corpus, 'sofa/examples')] }), quick ? 20 : 100);
}
for (const n of grids) {
  for (const solver of ['cg', 'ldl']) {
    await measure(`BeamFEM_LARGE ${n.join('x')} ${solver === 'cg' ? 'CG matrix-free' : 'SparseLDLSolver'}`, () => loadSceneFromString(beamScene(n, solver)), stepsFor(n));
  }
}
