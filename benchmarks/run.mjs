#!/usr/bin/env node
// `npm run bench`: ms/step and solver iterations of reference scenes (a benchmark, not a test).
//   - Demos/liver.scn from the SOFA corpus (../shared/sofa-regression, or SOFA_REGRESSION_DIR);
//   - the 16 Validation/cantilever_beam scenes of the corpus (SOFA v26's element FEM);
//   - the BeamFEM_LARGE beam of TetrahedronFEMForceField.scn (large corotational tetrahedra,
//     implicit Euler, 25 CG iterations) on grids 5x5x20 … 30x30x120: matrix-free CG, CG on the
//     assembled matrix (CompressedRowSparseMatrixMat3x3d, rebuilt each step) and SparseLDLSolver
//     (up to 10x10x40: direct factorisations of the 96k and 324k unknowns of the larger grids are
//     not what one runs there; --all includes them).
// Each line gives the native C++/Eigen reference of the issue for the same step and the ratio.
// Options: --quick (smaller grids and fewer steps), --only TEXT, --all.
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
  const linear = {
    cg: '<CGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9"/>',
    'cg-csr': '<CGLinearSolver iterations="25" name="linear solver" tolerance="1.0e-9" threshold="1.0e-9" template="CompressedRowSparseMatrixMat3x3d"/>',
    ldl: '<SparseLDLSolver name="linear solver" template="CompressedRowSparseMatrixMat3x3d"/>',
  }[solver];
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

async function measure(name, load, steps, nativeMs) {
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
  const m = median(ms);
  const vsNative = nativeMs ? `   native ${String(nativeMs).padStart(5)} ms → ${(m / nativeMs).toFixed(2)}x` : '';
  console.log(`${name.padEnd(44)} ${m.toFixed(3).padStart(10)} ms/step (median of ${steps})   ${(its / steps).toFixed(1).padStart(6)} solver it/step${vsNative}`);
}

const grids = quick ? [[5, 5, 20], [10, 10, 40]] : [[5, 5, 20], [10, 10, 40], [20, 20, 80], [30, 30, 120]];
const stepsFor = (n) => Math.max(3, Math.round((quick ? 20 : 60) * 2000 / (n[0] * n[1] * n[2])));

console.log(`sofa-ts benchmarks (Node ${process.version}, ${new Date().toISOString()})`);
const liver = path.join(corpus, 'sofa/examples/Demos/liver.scn');
if (fs.existsSync(liver)) {
  await measure('Demos/liver.scn', () => loadScene(liver, { dataPaths: [path.join(corpus, 'sofa/share'), path.join(corpus, 'sofa/examples')] }), quick ? 20 : 100, 0.9);
}
// SOFA's Validation/cantilever_beam scenes (v26 element FEM: FEMMass, LinearSmallStrain- and
// CorotationalFEMForceField on 5x5x30 grid hexahedra or their tetrahedra; SparseLDLSolver on the
// ConstantSparsityPatternSystem, or matrix-free CG of 250 iterations). The 'parallel' variants run
// the same single-threaded code as the 'sequential' ones.
const cantilever = path.join(corpus, 'sofa/examples/Validation/cantilever_beam');
if (fs.existsSync(cantilever)) {
  const dataPaths = [path.join(corpus, 'sofa/share'), path.join(corpus, 'sofa/examples')];
  for (const element of ['hexahedron', 'tetrahedron']) {
    for (const law of ['linear', 'corotational']) {
      for (const threads of ['sequential', 'parallel']) {
        for (const solver of ['assembled', 'matrixfree']) {
          const dir = path.join(cantilever, element, law, threads, solver);
          if (!fs.existsSync(dir)) continue;
          for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.scn'))) {
            await measure(`cantilever ${element.slice(0, 5)} ${law.slice(0, 6)} ${threads.slice(0, 3)} ${solver}`, () => loadScene(path.join(dir, file), { dataPaths }), quick ? 10 : 30);
          }
        }
      }
    }
  }
}
// Native C++/Eigen single-threaded references (ms/step) given with the benchmark's definition.
const native = { cg: [2.0, 21.6, 193, 726], 'cg-csr': [1.6, 15.9, 159, 551] };
const label = { cg: 'CG matrix-free', 'cg-csr': 'CG assembled 3x3 CSR', ldl: 'SparseLDLSolver' };
const all = process.argv.includes('--all');
for (const [g, n] of grids.entries()) {
  for (const solver of ['cg', 'cg-csr', 'ldl']) {
    if (solver === 'ldl' && n[0] * n[1] * n[2] > 10000 && !all) continue;
    await measure(`BeamFEM_LARGE ${n.join('x')} ${label[solver]}`, () => loadSceneFromString(beamScene(n, solver)), stepsFor(n), native[solver]?.[g]);
  }
}

// The Compliant engine on a mapped scene of 10k nodes: a 100 × 100 cloth whose edges are compliant
// distance constraints (DistanceMapping + UniformCompliance, 29.6k constraint rows). The phases of
// CompliantImplicitSolver's step: forces and assembly of the KKT system, factorization, solves.
function clothScene(n, kkt) {
  return `<Node dt="0.01" gravity="0 -9.81 0"><DefaultAnimationLoop/><CompliantImplicitSolver name="odesolver"/>${kkt}
  <Node name="cloth"><RegularGridTopology name="grid" n="${n} 1 ${n}" min="0 0 0" max="1 0 1"/><MechanicalObject template="Vec3d"/><UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 ${n - 1}"/>
    <Node name="edges"><MechanicalObject template="Vec1d"/><DistanceMapping topology="@../grid"/><UniformCompliance compliance="1e-4" damping="0.01"/></Node></Node></Node>`;
}
const clothN = quick ? 30 : 100;
for (const [label, kkt] of [['LDLTSolver schur=0', '<LDLTSolver schur="0"/>'], ['MinresSolver 50 it + DiagonalResponse', '<MinresSolver iterations="50" precision="1e-8"/><DiagonalResponse/>']]) {
  const name = `Compliant cloth ${clothN}x${clothN} ${label}`;
  if (only && !name.includes(only)) continue;
  const scene = await loadSceneFromString(clothScene(clothN, kkt));
  const solver = scene.get('/odesolver');
  scene.step(2);
  const phases = { assembly: [], factor: [], solve: [], step: [] };
  for (let i = 0; i < (quick ? 5 : 7); i++) {
    const t0 = performance.now();
    scene.step();
    phases.step.push(performance.now() - t0);
    for (const k of ['assembly', 'factor', 'solve']) phases[k].push(solver.timings[k]);
  }
  const m = (k) => median(phases[k]).toFixed(1);
  console.log(`${name.padEnd(44)} ${m('step').padStart(10)} ms/step: assembly ${m('assembly')} ms, factor ${m('factor')} ms, solve ${m('solve')} ms`);
}

// The real-time inverse method on the soft robots of scenes/softrobots/ (QPInverseProblemSolver):
// per step, the free motion (ODE solve with λ = 0), W = J·A⁻¹·Jᵀ from the constraint corrections,
// the QP, and the correction (x = x_free + A⁻¹Jᵀλ and the components' outputs).
const softrobots = path.resolve(here, '..', 'scenes', 'softrobots');
for (const [robot, steps] of [['diamond', quick ? 20 : 100], ['trunk', quick ? 20 : 100]]) {
  const name = `Inverse QP ${robot}.scn`;
  if (only && !name.includes(only)) continue;
  const scene = await loadScene(path.join(softrobots, `${robot}.scn`));
  const loop = scene.root.objects.find((o) => o.timings && 'freeMotion' in o.timings);
  const solver = scene.get('/solver');
  scene.step(3);
  const phases = { step: [], freeMotion: [], compliance: [], solve: [], correction: [] };
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    scene.step();
    phases.step.push(performance.now() - t0);
    phases.freeMotion.push(loop.timings.freeMotion);
    for (const k of ['compliance', 'solve', 'correction']) phases[k].push(solver.timings[k]);
  }
  const m = (k) => median(phases[k]).toFixed(2);
  const rows = solver.problem.n;
  console.log(`${name.padEnd(44)} ${m('step').padStart(10)} ms/step (median of ${steps}, ${rows} rows): free motion ${m('freeMotion')} ms, W ${m('compliance')} ms, QP ${m('solve')} ms, correction ${m('correction')} ms`);
}
