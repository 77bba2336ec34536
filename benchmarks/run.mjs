#!/usr/bin/env node
// `npm run bench`: ms/step and solver iterations of reference scenes (a benchmark, not a test).
//   - Side by side with the native C++/Eigen anchor (../shared/anchors/fem-cpp, or FEM_ANCHOR_DIR),
//     which this script builds into out/native and runs in the same run: Demos/liver.scn, and the
//     BeamFEM_LARGE beam of TetrahedronFEMForceField.scn (large corotational tetrahedra, implicit
//     Euler, 25 CG iterations) on grids 5x5x20 … 30x30x120 with matrix-free CG, CG on the assembled
//     matrix (CompressedRowSparseMatrixMat3x3d, rebuilt each step), SparseLDLSolver (up to 10x10x40;
//     --all includes the larger grids) and the MultiThreading components (ParallelTetrahedronFEM-
//     ForceField + ParallelCGLinearSolver, 2 threads) against native single-thread. Each case runs
//     --reps times (default 3), sofa-ts and native interleaved, each run in its own process; a run's
//     figure is its median ms/step; the line gives the medians over the runs, their ratio, the load
//     average and the memory: the peak of each program per 100k tetrahedra, above the program
//     without a scene (sofa-ts: Node with sofa-ts's modules loaded, before the scene; native: the
//     anchor's run of one element), and sofa-ts's resident memory of the loaded scene and of its
//     first step (docs/performance.md, "Memory"). Where the anchor cannot be built the script says
//     why and prints sofa-ts's figures alone.
//   - the 16 Validation/cantilever_beam scenes of the corpus (SOFA v26's element FEM), the Compliant
//     cloth and the soft robots' inverse steps (sofa-ts only).
// Options: --quick (smaller grids and fewer steps), --only TEXT, --all, --reps N, --threads N,
// --base DIR (a built checkout of another commit: its benchmarks/case.mjs runs interleaved with this
// one's and the native anchor, and each side-by-side line gets this commit's time over the base's).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as childProcess from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadScene, loadSceneFromString } from 'sofa-ts';
import { buildNative, runNative, runNativeCpu } from './native.mjs';
import { beamScene } from './scenes.mjs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node benchmarks/run.mjs [--quick] [--only TEXT] [--all] [--reps N] [--threads N] [--base DIR]
ms/step and solver iterations of reference scenes, beside the native C++/Eigen anchor where it builds
(after a build: npm run bench).
  --quick       smaller grids and fewer steps
  --only TEXT   only the cases whose name contains TEXT
  --all         also the SparseLDLSolver cases of the larger grids
  --reps N      runs of each case, sofa-ts and native interleaved (default 3)
  --threads N   threads of the MultiThreading cases (default: the cores, at least 2)
  --base DIR    a built checkout of another commit (npm ci && npx tsc -b in it): its case.mjs runs
                interleaved with this one's and native, and each side-by-side case gets a line with
                this commit's median over the base's and the ratio of each run
  -h, --help    print this and exit`);
  process.exit(0);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = process.env.SOFA_REGRESSION_DIR ?? path.resolve(here, '..', '..', 'shared', 'sofa-regression');
const quick = process.argv.includes('--quick');
const argOf = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const only = argOf('--only');
const reps = Number(argOf('--reps') ?? 3);
const threads = Number(argOf('--threads') ?? Math.max(2, os.availableParallelism?.() ?? 2));
const all = process.argv.includes('--all');
const baseDir = argOf('--base') ? path.resolve(argOf('--base')) : undefined;
if (baseDir && !fs.existsSync(path.join(baseDir, 'benchmarks', 'case.mjs'))) {
  console.error(`--base ${baseDir}: no benchmarks/case.mjs there (a checkout of sofa-ts, built with npm ci && npx tsc -b)`);
  process.exit(1);
}

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

console.log(
  `sofa-ts benchmarks (Node ${process.version}, ${new Date().toISOString()}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)})`,
);

// The native anchor, built here.
const anchorDir = process.env.FEM_ANCHOR_DIR ?? path.resolve(here, '..', '..', 'shared', 'anchors', 'fem-cpp');
const native = buildNative(anchorDir, path.resolve(here, '..', 'out', 'native'));
if (native.reason) console.log(`native anchor: not built: ${native.reason}. sofa-ts figures only.`);
else
  console.log(
    `native anchor: built ${path.relative(process.cwd(), native.exe)} from ${path.relative(process.cwd(), anchorDir)} (C++17, Eigen, one thread)`,
  );
const nativeTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-bench-'));
// the native program without a scene: its peak on one element (1 step), subtracted as sofa-ts's
// resident memory before its scene is
let nativeEmptyRss = 0;
if (native.exe) {
  try {
    nativeEmptyRss = runNative(native.exe, ['beam', '2', '2', '2', '1']).max_rss_mib;
  } catch {
    nativeEmptyRss = 0;
  }
}

/** One sofa-ts run of a case in a child process (benchmarks/case.mjs, this checkout's or dir's). */
function runTs(spec, dir = path.resolve(here, '..')) {
  const out = execFileSync(process.execPath, [path.join(dir, 'benchmarks', 'case.mjs'), JSON.stringify(spec)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`case ${JSON.stringify(spec)} printed no RESULT line`);
  return JSON.parse(line.slice(7));
}

/**
 * sofa-ts and native interleaved `reps` times; prints the medians over the runs (each run's figure is
 * its median ms/step), their ratio, the load average and the peak memory per 100k tetrahedra.
 */
function sideBySide(name, spec, nativeArgs, nativeOneStep) {
  if (only && !name.includes(only)) return;
  const ts = [],
    nat = [],
    loads = [],
    tsCpu = [],
    natCpu = [],
    base = [],
    baseCpu = [];
  let tsRss = 0,
    natRss = 0,
    tets = 0,
    its = 0,
    mem;
  try {
    for (let r = 0; r < reps; r++) {
      loads.push(os.loadavg()[0]);
      if (baseDir) {
        const c = runTs(spec, baseDir);
        base.push(c.ms_per_step_median);
        baseCpu.push(c.cpu_ms_per_step);
      }
      const a = runTs(spec);
      ts.push(a.ms_per_step_median);
      tsCpu.push(a.cpu_ms_per_step);
      if (a.max_rss_mib > tsRss) mem = a;
      tsRss = Math.max(tsRss, a.max_rss_mib);
      tets = a.tets;
      its = a.its_per_step;
      if (native.exe && nativeArgs) {
        const b = runNativeCpu(native.exe, nativeArgs);
        nat.push(b.ms_per_step_median);
        if (nativeOneStep) {
          // CPU per step without the setup: (cpu(S steps) − cpu(1 step)) / (S − 1)
          const c = runNativeCpu(native.exe, nativeOneStep);
          natCpu.push(((b.cpu_s - c.cpu_s) * 1000) / (b.steps - c.steps));
        }
        natRss = Math.max(natRss, b.max_rss_mib);
      }
    }
  } catch (e) {
    const lines = String(e.stderr || e.message)
      .trim()
      .split('\n');
    console.log(`${name.padEnd(50)} cannot run: ${lines.find((l) => /Error|error:/.test(l)) ?? lines[0]}`);
    return;
  }
  const per100k = (mib) => (tets > 0 ? `${((mib * 1e5) / tets).toFixed(0)} MiB/100k tets` : '');
  const mt = median(ts);
  let line = `${name.padEnd(50)} ${mt.toFixed(3).padStart(9)} ms/step ${its.toFixed(1).padStart(5)} it`;
  if (nat.length) {
    const mn = median(nat);
    line += `   native ${mn.toFixed(3).padStart(9)} ms → ${(mt / mn).toFixed(2)}x (runs ${ts.map((t, i) => (t / nat[i]).toFixed(2)).join(' ')})`;
  }
  if (natCpu.length)
    line += `   CPU ${median(tsCpu).toFixed(3)}/${median(natCpu).toFixed(3)} ms → ${(median(tsCpu) / median(natCpu)).toFixed(2)}x`;
  line += `   load ${median(loads).toFixed(1)}   peak ${tsRss.toFixed(0)} MiB = ${per100k(tsRss)}`;
  if (nat.length) line += ` (native ${natRss.toFixed(0)} MiB = ${per100k(natRss)})`;
  console.log(line);
  if (base.length) {
    const mb = median(base);
    let bline = `${''.padEnd(50)} base ${path.basename(baseDir)} ${mb.toFixed(3)} ms/step: this commit / base ${(mt / mb).toFixed(3)}x (runs ${ts.map((t, i) => (t / base[i]).toFixed(2)).join(' ')})`;
    if (baseCpu.every(Number.isFinite)) bline += `   CPU ${(median(tsCpu) / median(baseCpu)).toFixed(3)}x`;
    if (nat.length) bline += `   against native: base ${(mb / median(nat)).toFixed(2)}x, this commit ${(mt / median(nat)).toFixed(2)}x`;
    console.log(bline);
  }
  // the memory of the simulation: above each program without a scene, per 100k tetrahedra
  const empty = mem.rss_before_load_mib;
  const sim = tsRss - empty;
  let mline = `${''.padEnd(50)} memory: before the scene ${empty.toFixed(0)} MiB, loaded scene +${(mem.rss_after_load_mib - empty).toFixed(0)} MiB, first step's peak +${(mem.peak_first_step_mib - mem.rss_after_load_mib).toFixed(0)} MiB; peak above the empty program ${sim.toFixed(0)} MiB = ${per100k(sim)}`;
  if (nat.length) {
    const nsim = natRss - nativeEmptyRss;
    mline += ` (native ${nsim.toFixed(0)} MiB = ${per100k(nsim)}, empty ${nativeEmptyRss.toFixed(0)} MiB) → ${(sim / nsim).toFixed(2)}x`;
  }
  console.log(mline);
}

const liverMesh = path.join(corpus, 'sofa/share/mesh/liver.msh');
if (fs.existsSync(path.join(corpus, 'sofa/examples/Demos/liver.scn'))) {
  sideBySide('Demos/liver.scn', { kind: 'liver', steps: 100 }, ['scene-liver', liverMesh, nativeTmp]);
}

const grids = quick
  ? [
      [5, 5, 20],
      [10, 10, 40],
    ]
  : [
      [5, 5, 20],
      [10, 10, 40],
      [20, 20, 80],
      [30, 30, 120],
    ];
const stepsFor = (n) => Math.max(3, Math.round(((quick ? 20 : 60) * 2000) / (n[0] * n[1] * n[2])));
const label = { cg: 'CG matrix-free', 'cg-csr': 'CG assembled 3x3 CSR', ldl: 'SparseLDLSolver' };
const nativeFlags = { cg: [], 'cg-csr': ['--assembled'], ldl: ['--direct'] };
for (const n of grids) {
  const steps = stepsFor(n);
  for (const solver of ['cg', 'cg-csr', 'ldl']) {
    if (solver === 'ldl' && n[0] * n[1] * n[2] > 10000 && !all) continue;
    const nargs = (s) => [...nativeFlags[solver], 'beam', ...n.map(String), String(s)];
    sideBySide(`BeamFEM_LARGE ${n.join('x')} ${label[solver]}`, { kind: 'beam', n, solver, steps }, nargs(steps), nargs(1));
  }
  const nargs = (s) => ['beam', ...n.map(String), String(s)];
  sideBySide(
    `BeamFEM_LARGE ${n.join('x')} CG matrix-free ${threads} threads`,
    { kind: 'beam', n, solver: 'cg', threads, steps },
    nargs(steps),
  );
}
fs.rmSync(nativeTmp, { recursive: true, force: true });

async function measure(name, load, steps) {
  if (only && !name.includes(only)) return;
  let scene;
  try {
    scene = await load();
  } catch (e) {
    console.log(`${name.padEnd(50)} cannot run: ${String(e.message).split('\n')[0]}`);
    return;
  }
  const warm = Math.min(3, steps);
  for (let i = 0; i < warm; i++) scene.step();
  const ms = [];
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    scene.step();
    ms.push(performance.now() - t0);
  }
  console.log(`${name.padEnd(50)} ${median(ms).toFixed(3).padStart(9)} ms/step (median of ${steps})   load ${os.loadavg()[0].toFixed(1)}`);
}

// SOFA's Validation/cantilever_beam scenes (v26 element FEM: FEMMass, LinearSmallStrain- and
// CorotationalFEMForceField on 5x5x30 grid hexahedra or their tetrahedra; SparseLDLSolver on the
// ConstantSparsityPatternSystem, or matrix-free CG of 250 iterations).
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
            await measure(
              `cantilever ${element.slice(0, 5)} ${law.slice(0, 6)} ${threads.slice(0, 3)} ${solver}`,
              () => loadScene(path.join(dir, file), { dataPaths }),
              quick ? 10 : 30,
            );
          }
        }
      }
    }
  }
}

// A topological change on the BeamFEM_LARGE beam of ~100k tetrahedra (17×17×66 grid points,
// 99 840 tetrahedra, matrix-free CG): 10 % of the tetrahedra (those beyond 90 % of the length) are
// removed in one event (TetrahedronSetTopologyModifier.removeTetrahedra: the isolated triangles,
// edges and points go too; the state, the mass, the FEM's per-element data, the fixed points and
// the container's tables follow), against one step of the scene. Nothing reads the container's
// triangles and edges, so the event edits its lean mesh (the tetrahedra and the shells around their
// vertices, built at the modifier's bwdInit; the faces and edges are made when first read:
// docs/topology-changes.md) and the isolated triangles and edges are not listed. Measured twice on fresh scenes: the first
// event of the process (its code not yet compiled by the JIT), then a second one; "after" is the
// cost the next step adds (anything rebuilt at first use). Times are CPU times of the process (the
// machine may be shared: wall times would count the waits).
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
// A full collection before the event, so that it and the next step do not pay for the garbage of
// what ran before (the previous scene of the process above all: freeing its arrays made the next
// step of the second event 15–65 ms slower, run to run); what the change itself leaves is still theirs.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc');
async function topologicalChange(n) {
  const scene = await loadSceneFromString(beamScene(n, 'cg'));
  const tetra = scene.get('/BeamFEM_LARGE/Tetra_topo');
  const modifier = scene.get('/BeamFEM_LARGE/Modifier');
  const dofs = scene.root.children[0].objects.find((o) => o.className === 'MechanicalObject');
  scene.step(3);
  const steps = [];
  for (let i = 0; i < (quick ? 3 : 5); i++) {
    const t0 = cpuMs();
    scene.step();
    steps.push(cpuMs() - t0);
  }
  const step = median(steps);
  const tet = tetra.getTetrahedra();
  const x0 = dofs.x0;
  const cut = [];
  for (let t = 0; t < tet.length / 4; t++) {
    let z = 0;
    for (let j = 0; j < 4; j++) z += x0[3 * tet[4 * t + j] + 2] / 4;
    if (z > 36) cut.push(t);
  }
  collectGarbage();
  const t0 = cpuMs();
  modifier.removeTetrahedra(cut);
  const event = cpuMs() - t0;
  const t1 = cpuMs();
  scene.step();
  const after = Math.max(0, cpuMs() - t1 - step);
  return { event, after, step, removed: cut.length, points: dofs.size, total: tet.length / 4 };
}
{
  const n = quick ? [9, 9, 34] : [17, 17, 66];
  const name = `Topological change: remove 10% of ${(n[0] - 1) * (n[1] - 1) * (n[2] - 1) * 6} tetrahedra`;
  if (!only || name.includes(only)) {
    for (const label of ['first event', 'second event']) {
      const r = await topologicalChange(n);
      console.log(
        `${`${name} (${label})`.padEnd(44)} ${r.event.toFixed(1).padStart(10)} ms CPU (${r.removed} of ${r.total} tetrahedra, ${r.points} points left), next step +${r.after.toFixed(1)} ms; one step ${r.step.toFixed(1)} ms → ${((r.event + r.after) / r.step).toFixed(2)} step`,
      );
    }
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
for (const [label, kkt] of [
  ['LDLTSolver schur=0', '<LDLTSolver schur="0"/>'],
  ['MinresSolver 50 it + DiagonalResponse', '<MinresSolver iterations="50" precision="1e-8"/><DiagonalResponse/>'],
]) {
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
  console.log(
    `${name.padEnd(44)} ${m('step').padStart(10)} ms/step: assembly ${m('assembly')} ms, factor ${m('factor')} ms, solve ${m('solve')} ms`,
  );
}

// The real-time inverse method on the soft robots of scenes/softrobots/ (QPInverseProblemSolver):
// per step, the free motion (ODE solve with λ = 0), W = J·A⁻¹·Jᵀ from the constraint corrections,
// the QP, and the correction (x = x_free + A⁻¹Jᵀλ and the components' outputs). Each robot in two
// modes: exact (SparseLDLSolver: A assembled and factorised at every step, SOFA's algorithm), and
// fastest (SOFA's WarpPreconditioner with update_step = K: the factorisation of every K-th step,
// turned by the node rotations in between, nothing assembled then; the scene with the warp put
// before its SparseLDLSolver), with the effector's trajectory over 1000 steps against the exact mode's;
// and the exact mode with SparseLDLSolver's parallelFactorization (two threads, the same results).
const softrobots = path.resolve(here, '..', 'scenes', 'softrobots');
const inverseRobots = [
  { robot: 'diamond', effector: 463, warpStep: 12 },
  { robot: 'trunk', effector: 762, warpStep: 10 },
];
function warpedScene(xml, k) {
  return xml
    .replace(
      '<RequiredPlugin name="SoftRobots"/>',
      '<RequiredPlugin name="Sofa.Component.LinearSolver.Preconditioner"/>\n    <RequiredPlugin name="SoftRobots"/>',
    )
    .replace(
      /<SparseLDLSolver ([^/]*)\/>/,
      `<WarpPreconditioner linearSolver="@ldl" update_step="${k}"/>\n        <SparseLDLSolver name="ldl" $1/>`,
    );
}
for (const { robot, effector, warpStep } of inverseRobots) {
  const steps = quick ? 20 : 100;
  const file = path.join(softrobots, `${robot}.scn`);
  const xml = fs.readFileSync(file, 'utf8');
  const modes = [
    { label: `Inverse QP ${robot}.scn`, xml },
    { label: `Inverse QP ${robot}.scn, warp update_step=${warpStep}`, xml: warpedScene(xml, warpStep) },
  ];
  for (const mode of modes) {
    if (only && !mode.label.includes(only)) continue;
    const scene = await loadSceneFromString(mode.xml, { dataPaths: [softrobots], fileName: file });
    const loop = scene.root.objects.find((o) => o.timings && 'freeMotion' in o.timings);
    const solver = scene.get('/solver');
    scene.step(3);
    const phases = { step: [], freeMotion: [], compliance: [], solve: [], correction: [] };
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < steps; i++) {
      const t0 = performance.now();
      scene.step();
      phases.step.push(performance.now() - t0);
      phases.freeMotion.push(loop.timings.freeMotion);
      for (const k of ['compliance', 'solve', 'correction']) phases[k].push(solver.timings[k]);
    }
    const cpu = process.cpuUsage(cpu0);
    const m = (k) => median(phases[k]).toFixed(2);
    const rows = solver.problem.n;
    // CPU time per step (mean): the figure to quote when the machine is shared
    const cpuMs = ((cpu.user + cpu.system) / 1000 / steps).toFixed(2);
    console.log(
      `${mode.label.padEnd(44)} ${m('step').padStart(10)} ms/step (median of ${steps}, ${rows} rows; CPU ${cpuMs} ms/step, load ${os.loadavg()[0].toFixed(1)}): free motion ${m('freeMotion')} ms, W ${m('compliance')} ms, QP ${m('solve')} ms, correction ${m('correction')} ms`,
    );
    scene.dispose();
  }
  await parallelFactorizationSideBySide(robot, xml, file);
  // the effector's trajectory of the fastest mode against the exact one's, step by step
  const label = `Inverse QP ${robot}.scn, warp update_step=${warpStep}`;
  if (only && !label.includes(only)) continue;
  const n = quick ? 100 : 1000;
  const [exact, fast] = await Promise.all(
    modes.slice(0, 2).map((mode) => loadSceneFromString(mode.xml, { dataPaths: [softrobots], fileName: file })),
  );
  const at = (s) => s.get(`/${robot}/dofs`).position.value.subarray(3 * effector, 3 * effector + 3);
  const p0 = Float64Array.from(at(exact));
  let dev = 0,
    range = 0,
    worst = 0,
    diverged = -1;
  for (let i = 0; i < n && diverged < 0; i++) {
    exact.step();
    try {
      fast.step();
    } catch {
      diverged = i;
      break;
    }
    const a = at(exact),
      b = at(fast);
    const d = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    if (!(d < 1e3)) {
      diverged = i;
      break;
    }
    if (d > dev) ((dev = d), (worst = i));
    range = Math.max(range, Math.hypot(a[0] - p0[0], a[1] - p0[1], a[2] - p0[2]));
  }
  console.log(
    `${label.padEnd(44)} effector over ${n} steps against the exact mode: ` +
      (diverged >= 0
        ? `diverged at step ${diverged} (largest deviation before it ${dev.toExponential(2)} mm at step ${worst}; the exact effector moves up to ${range.toFixed(1)} mm)`
        : `largest deviation ${dev.toExponential(2)} mm (step ${worst}) = ${((100 * dev) / range).toFixed(2)} % of the largest effector displacement (${range.toFixed(1)} mm)`),
  );
  exact.dispose();
  fast.dispose();
}

// The exact mode with SparseLDLSolver's parallelFactorization (two subtrees at once, then the large
// dense products shared by rows) against the same scene on one thread,
// steps in blocks of 30, the two scenes in turn (ten rounds; medians): the same positions, checked.
async function parallelFactorizationSideBySide(robot, xml, file) {
  const label = `Inverse QP ${robot}.scn, parallelFactorization`;
  if (only && !label.includes(only)) return;
  const par = xml.replace('<SparseLDLSolver ', '<SparseLDLSolver parallelFactorization="true" ');
  const scenes = [
    await loadSceneFromString(xml, { dataPaths: [softrobots], fileName: file }),
    await loadSceneFromString(par, { dataPaths: [softrobots], fileName: file }),
  ];
  const t = [[], []];
  for (const s of scenes) s.step(3);
  for (let round = 0; round < (quick ? 2 : 10); round++)
    for (let k = 0; k < 2; k++)
      for (let i = 0; i < 30; i++) {
        const t0 = performance.now();
        scenes[k].step();
        t[k].push(performance.now() - t0);
      }
  const [a, b] = scenes.map((s) => s.get(`/${robot}/dofs`).position.value);
  const same = a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
  const ldl = scenes[1].root.children.find((c) => c.getName() === robot).objects.find((o) => o.className === 'SparseLDLSolver');
  const split = ldl.factorizationSplit;
  const shared = ldl.factorizationThreads.sharedProducts;
  const [one, two] = t.map(median);
  console.log(
    `${label.padEnd(44)} ${two.toFixed(2).padStart(10)} ms/step against ${one.toFixed(2)} on one thread: ${(two / one).toFixed(3)}x (interleaved, median of ${t[0].length}; ` +
      (split
        ? `two subtrees at once up to supernode ${split.r} (split at ${split.m}), ${(100 * split.time).toFixed(0)} % of the one-thread work on the longer path`
        : 'no two subtrees') +
      `, ${shared} dense products shared above` +
      `; positions ${same ? 'bit for bit' : 'DIFFERENT'})`,
  );
  for (const s of scenes) s.dispose();
}

// Python in the loop (docs/python.md): the cable finger of scenes/softrobots/finger-direct.scn as
// a SofaPython3 scene whose controller touches 10 Data per step (5 reads, 5 writes), against the
// XML scene, steps interleaved in one process (each row a median): the interpreter in the engine's
// process (the default) and python3 run apart (SOFATS_PYTHON_INPROCESS=0), with the controller's
// event and Python's handler within it; the in-process scene and the XML one again in runs of 50
// consecutive steps each (as each runs by itself); then the round trip of a Data write and read from a handler
// (a controller writing then reading the cable's value 1000 times per step), in each mode. The
// process holds one in-process interpreter, so the round-trip scene comes after the first is gone.
{
  const name = 'Python controller, finger (10 Data per step)';
  const py = path.join(here, 'python', 'finger_controller.py');
  if ((!only || name.includes(only)) && spawnSyncOk('python3', ['-c', 'import numpy'])) {
    const apart = async (file, options = {}) => {
      const before = process.env.SOFATS_PYTHON_INPROCESS;
      process.env.SOFATS_PYTHON_INPROCESS = '0';
      try {
        return await loadScene(file, options);
      } finally {
        if (before === undefined) delete process.env.SOFATS_PYTHON_INPROCESS;
        else process.env.SOFATS_PYTHON_INPROCESS = before;
      }
    };
    const xml = await loadScene(path.join(softrobots, 'finger-direct.scn'));
    const inside = await loadScene(py);
    const outside = await apart(py);
    const mode = inside.python?.inProcess ? "in the engine's process" : 'python3 apart: no in-process interpreter here';
    for (const s of [xml, inside, outside]) s.step(5);
    // the controller's own timings: the event's round trip, and Python's handler within it
    const timed = (s) => s.root.objects.find((o) => o.timings && 'python' in o.timings);
    const t = { xml: [], inside: [], outside: [], event: [], python: [], eventApart: [], pythonApart: [] };
    const steps = quick ? 50 : 300;
    for (let i = 0; i < steps; i++) {
      for (const [k, s] of [
        ['xml', xml],
        ['inside', inside],
        ['outside', outside],
      ]) {
        const t0 = performance.now();
        s.step();
        t[k].push(performance.now() - t0);
      }
      t.event.push(timed(inside).timings.event);
      t.python.push(timed(inside).timings.python);
      t.eventApart.push(timed(outside).timings.event);
      t.pythonApart.push(timed(outside).timings.python);
    }
    // the in-process scene and the XML one again, in runs of 50 consecutive steps each in turn: a
    // scene run by itself keeps its code and data in the caches from one step to the next, which
    // the step-by-step interleave above denies to both (to Python's side the most)
    const runs = { xml: [], inside: [], event: [], python: [] };
    for (let round = 0; round < (quick ? 4 : 20); round++)
      for (const [k, s] of [
        ['xml', xml],
        ['inside', inside],
      ])
        for (let i = 0; i < 50; i++) {
          const t0 = performance.now();
          s.step();
          runs[k].push(performance.now() - t0);
          if (k === 'inside') {
            runs.event.push(timed(inside).timings.event);
            runs.python.push(timed(inside).timings.python);
          }
        }
    for (const s of [inside, outside]) s.dispose();
    // a write-and-read round trip from a handler: 1000 per step, against the XML step
    const readsInside = await loadScene(py, { argv: ['roundtrips:1000'] });
    const readsOutside = await apart(py, { argv: ['roundtrips:1000'] });
    const r = { xml: [], inside: [], outside: [] };
    for (const s of [readsInside, readsOutside]) s.step(2);
    for (let i = 0; i < (quick ? 5 : 30); i++)
      for (const [k, s] of [
        ['xml', xml],
        ['inside', readsInside],
        ['outside', readsOutside],
      ]) {
        const t0 = performance.now();
        s.step();
        r[k].push(performance.now() - t0);
      }
    for (const s of [readsInside, readsOutside]) s.dispose();
    const x = median(t.xml);
    const us = (a) => (median(a) * 1000).toFixed(1);
    const perRead = (k) => (median(r[k]) - median(r.xml)).toFixed(1); // ms per 1000 = µs each
    console.log(
      `${name.padEnd(50)} ${median(t.inside).toFixed(3).padStart(9)} ms/step against XML ${x.toFixed(3)} ms/step: ${(median(t.inside) / x).toFixed(2)}x (${mode}; the event ${us(t.event)} µs, of which Python's handler ${us(t.python)} µs; a Data write and read round trip from a handler ${perRead('inside')} µs; median of ${steps}, load ${os.loadavg()[0].toFixed(1)})`,
    );
    const xr = median(runs.xml);
    console.log(
      `${'  in runs of 50 steps of each scene in turn'.padEnd(50)} ${median(runs.inside).toFixed(3).padStart(9)} ms/step against XML ${xr.toFixed(3)} ms/step: ${(median(runs.inside) / xr).toFixed(2)}x (${mode}; the event ${us(runs.event)} µs, of which Python's handler ${us(runs.python)} µs; median of ${runs.inside.length})`,
    );
    console.log(
      `${'  python3 apart (SOFATS_PYTHON_INPROCESS=0)'.padEnd(50)} ${median(t.outside).toFixed(3).padStart(9)} ms/step against XML ${x.toFixed(3)} ms/step: ${(median(t.outside) / x).toFixed(2)}x (the event ${us(t.eventApart)} µs, of which Python's handler ${us(t.pythonApart)} µs; a round trip ${perRead('outside')} µs)`,
    );
  }
}

function spawnSyncOk(cmd, args) {
  try {
    return childProcess.spawnSync(cmd, args).status === 0;
  } catch {
    return false;
  }
}
