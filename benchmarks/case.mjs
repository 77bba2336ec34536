#!/usr/bin/env node
// One sofa-ts benchmark case in its own process (so that its peak memory is its own), for
// benchmarks/run.mjs: `node benchmarks/case.mjs '{"kind":"beam","n":[10,10,40],"solver":"cg","steps":30}'`.
// Prints `RESULT {json}`: the median ms/step over the timed steps (after 3 warm-up steps), the
// solver iterations per step, the number of tetrahedra and the process's peak resident memory.
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
const warm = spec.warm ?? 3;
for (let i = 0; i < warm; i++) scene.step();
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
  max_rss_mib: process.resourceUsage().maxRSS / 1024,
};
console.log(`RESULT ${JSON.stringify(result)}`);
process.exit(0);
