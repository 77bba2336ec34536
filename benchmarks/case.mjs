#!/usr/bin/env node
// One sofa-ts benchmark case in its own process (so that its peak memory is its own), for
// benchmarks/run.mjs: `node benchmarks/case.mjs '{"kind":"beam","n":[10,10,40],"solver":"cg","steps":30}'`.
// Prints `RESULT {json}`: the median ms/step over the timed steps (after 3 warm-up steps), the
// solver iterations per step, the number of tetrahedra and the process's resident memory: before the
// scene is loaded (Node and sofa-ts's modules), after it is loaded (before the first step), the peak
// of the first step and the peak of the whole run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScene, loadSceneFromString, isOdeSolver } from 'sofa-ts';
import { beamScene } from './scenes.mjs';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node benchmarks/case.mjs SPEC_JSON
One benchmark case in its own process, for benchmarks/run.mjs; prints RESULT {json}.
  SPEC_JSON     e.g. '{"kind":"beam","n":[10,10,40],"solver":"cg","steps":30}' (kind beam or liver;
                solver cg, cg-csr or ldl; threads; warm)
  -h, --help    print this and exit`);
  process.exit(0);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const spec = JSON.parse(process.argv[2]);
const corpus = process.env.SOFA_REGRESSION_DIR ?? path.resolve(here, '..', '..', 'shared', 'sofa-regression');

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

const MiB = 1024 * 1024;
/** Peak resident memory of this process (VmHWM; ru_maxrss where /proc is missing), MiB. */
function peakRssMiB() {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // no /proc: the resource usage's peak
  }
  return process.resourceUsage().maxRSS / 1024;
}
/** Resets the peak to the current resident memory (Linux ≥ 4.0), so that the next peak is a phase's own; false where it cannot. */
function resetPeakRss() {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
const rssBeforeLoad = process.memoryUsage().rss / MiB;

let scene;
if (spec.kind === 'beam') scene = await loadSceneFromString(beamScene(spec.n, spec.solver, spec.threads));
else if (spec.kind === 'liver') {
  scene = await loadScene(path.join(corpus, 'sofa/examples/Demos/liver.scn'), {
    dataPaths: [path.join(corpus, 'sofa/share'), path.join(corpus, 'sofa/examples')],
  });
} else throw new Error(`unknown case kind ${spec.kind}`);

const solvers = [];
let tets = 0;
scene.root.visit((n) => {
  for (const o of n.objects) {
    if (isOdeSolver(o)) solvers.push(o);
    if (typeof o.getTetrahedra === 'function' && o.getTetrahedra().length > tets * 4) tets = o.getTetrahedra().length / 4;
  }
});
const rssAfterLoad = process.memoryUsage().rss / MiB;
const peakOfLoad = peakRssMiB();
// the first step's own peak (the peak counter reset after the load, where Linux allows it)
const phasePeaks = resetPeakRss();
const warm = spec.warm ?? 3;
let peakOfFirstStep = NaN;
for (let i = 0; i < warm; i++) {
  scene.step();
  if (i === 0) peakOfFirstStep = peakRssMiB();
}
const ms = [];
let its = 0;
const cpu0 = process.cpuUsage();
for (let i = 0; i < spec.steps; i++) {
  const t0 = performance.now();
  scene.step();
  ms.push(performance.now() - t0);
  for (const s of solvers) its += s.lastStats?.iterations ?? 0;
}
const cpu = process.cpuUsage(cpu0);
scene.dispose?.();
const result = {
  ms_per_step_median: median(ms),
  its_per_step: its / spec.steps,
  cpu_ms_per_step: (cpu.user + cpu.system) / 1000 / spec.steps,
  tets,
  max_rss_mib: phasePeaks ? Math.max(peakOfLoad, peakRssMiB()) : process.resourceUsage().maxRSS / 1024,
  rss_before_load_mib: rssBeforeLoad,
  rss_after_load_mib: rssAfterLoad,
  peak_first_step_mib: peakOfFirstStep,
};
console.log(`RESULT ${JSON.stringify(result)}`);
process.exit(0);
