#!/usr/bin/env node
// The cost of the divergence guard (Simulation checks every state for NaN/Infinity after each
// step) against a step of Demos/liver.scn: median step time, then the check alone, repeated.
// Run after a build: node benchmarks/divergence-guard.mjs
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DivergenceGuard, allStates, loadScene } from 'sofa-ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node benchmarks/divergence-guard.mjs
The cost of the divergence guard against a step of Demos/liver.scn (the corpus: ../shared/sofa-regression
or SOFA_REGRESSION_DIR). No options.
  -h, --help    print this and exit`);
  process.exit(0);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = process.env.SOFA_REGRESSION_DIR ?? path.resolve(here, '..', '..', 'shared', 'sofa-regression');
const ex = path.join(corpus, 'sofa', 'examples');
const scene = await loadScene(path.join(ex, 'Demos', 'liver.scn'), { dataPaths: [path.join(corpus, 'sofa', 'share'), ex] });
for (let i = 0; i < 50; i++) scene.step();
const scalars = allStates(scene.root).reduce((n, s) => n + s.state.x.length + s.state.v.length, 0);
const ms = [];
for (let i = 0; i < 300; i++) {
  const t = performance.now();
  scene.step();
  ms.push(performance.now() - t);
}
ms.sort((a, b) => a - b);
const step = ms[ms.length >> 1];
const guard = new DivergenceGuard(scene.root);
for (let i = 0; i < 1000; i++) guard.check(1, 0);
const n = 100000;
const t = performance.now();
for (let i = 0; i < n; i++) guard.check(1, 0);
const check = (performance.now() - t) / n;
console.log(
  `liver.scn: ${scalars} scalars in x and v; step ${step.toFixed(3)} ms (median of 300, guard included); check ${(check * 1000).toFixed(2)} µs = ${((100 * check) / step).toFixed(2)} % of a step`,
);
