#!/usr/bin/env node
// `npm run bench:contact`: the HapCo benchmarks (scenes/contact/hapco-1.scn, hapco-2.scn; Talbi et
// al. 2008, figures 6-9) solved by projected block Gauss-Seidel, local Uzawa and global Uzawa for
// friction coefficients 0.0 … 0.6. The μ values of each scene and solver are one sweep
// (@sofa-ts/sweep: the scene with its solver, --param /response.responseParams=mu={…}, each case on a
// worker thread; `--jobs J` threads, default one per core, `--jobs 1` for undisturbed times; its
// results in out/bench-contact/sweep-hapco-{b}-{solver}/). Prints, per scene, solver and μ, the constraint solver's
// iterations per step (mean, max) and the milliseconds per step (whole step and constraint solve),
// and writes hand-written SVG plots of iterations and time per step to out/bench-contact/.
// It also prints the common residual e_rel (packages/constraint/src/solver/friction-residual.ts) each
// solver's own stop test leaves.
// Then the equal-residual comparison: along the trajectory of the Gauss-Seidel run, the problem of
// each step (W, δ_free, contacts) is solved again from λ = 0 by each solver (Gauss-Seidel, local and
// global Uzawa with one ρ and with ρ per contact), sweep by sweep, and the first sweep (and the
// time of the sweeps up to it) at which e_rel falls below each target is recorded; plots in
// out/bench-contact/hapco-{b}-mu{μ}-residual{target}-iterations.svg, -iterations-vs-mu-residual{target}.svg.
// Options: --quick (μ = 0 and 0.3 only), --mu 0.3 (one μ), --tolerance 1e-4 (all solvers' own stop
// tests; default 1e-6), --targets 1e-4,1e-6 (residual targets), --cap 5000 (sweeps per step and solver
// in the equal-residual runs), --skip-own (only the equal-residual comparison), --skip-equal (only the
// solvers' own runs, the μ sweeps).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSceneFromString } from 'sofa-ts';
import { Journal, decodeResult, parseParam, parseRecord, runSweep } from '@sofa-ts/sweep';
import {
  ConstraintProblem,
  FrictionResidualWork,
  GaussSeidelWork,
  UzawaWork,
  frictionResidual,
  gaussSeidelSweep,
  initResolutions,
  uzawaStart,
  uzawaSweep,
} from '@sofa-ts/constraint';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const outDir = path.join(root, 'out', 'bench-contact');
const muIdx = process.argv.indexOf('--mu');
const mus = muIdx > 0 ? [Number(process.argv[muIdx + 1])] : process.argv.includes('--quick') ? [0, 0.3] : [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
// 5 + 20 + 7 + 4 + 1 displacements of P. Step j (from 0, time j) solves the contacts with the pusher
// where the end of step j − 1 put it, m(j − 1) (LinearMovementProjectiveConstraint at the time of the
// start of the step; the free motion does not move it): the phases are steps [0, 7), [7, 27), [27, 34),
// [34, 38), [38, 39) (steps 0 and 1 have no contact force yet).
const STEPS = 39;
const PHASES = [
  [0, 7],
  [7, 27],
  [27, 34],
  [34, 38],
  [38, 39],
];

// Same tolerance meaning for all three: a displacement of 1e-6 cm (Gauss-Seidel: Σ|W_jj·Δλ_j| per row;
// Uzawa: ‖Δr‖/ρ, the paper's "Uzawa error").
// --tolerance X changes it (the paper's figure 8 uses an Uzawa error of 1e-4).
const tolIdx = process.argv.indexOf('--tolerance');
const tol = tolIdx > 0 ? process.argv[tolIdx + 1] : '1e-6';
export const SOLVERS = {
  'gauss-seidel': `<BlockGaussSeidelConstraintSolver name="constraintSolver" maxIterations="1000" tolerance="${tol}"/>`,
  'local-uzawa': `<BipotentialUzawaConstraintSolver name="constraintSolver" method="local" maxIterations="1000" tolerance="${tol}"/>`,
  'global-uzawa': `<BipotentialUzawaConstraintSolver name="constraintSolver" method="global" maxIterations="1000" tolerance="${tol}"/>`,
};

/** The scene's text with its constraint solver and friction coefficient replaced. */
export function hapcoScene(file, solver, mu) {
  const xml = fs.readFileSync(file, 'utf8');
  const out = xml
    .replace(/<BlockGaussSeidelConstraintSolver name="constraintSolver"[^>]*\/>/, SOLVERS[solver])
    .replace(/(<CollisionResponse [^>]*responseParams=")mu=[^"]*"/, `$1mu=${mu}"`);
  if (!out.includes(SOLVERS[solver]) || !out.includes(`responseParams="mu=${mu}"`))
    throw new Error(`${file}: no constraintSolver or CollisionResponse mu to replace`);
  return out;
}

/**
 * The μ sweep of one scene and solver, on @sofa-ts/sweep: per μ, per step, the constraint solver's
 * iterations, the common residual e_rel its own stop test left (frictionResidual), the step's wall
 * time, and at the end the block's deflection. A diverged case (a NaN) is a failed case: finite false.
 */
async function sweepMus(file, b, solver, mus) {
  const scene = path.join(outDir, `hapco-${b}-${solver}.scn`);
  fs.writeFileSync(scene, hapcoScene(file, solver, mus[0]));
  const out = path.join(outDir, `sweep-hapco-${b}-${solver}`);
  fs.rmSync(out, { recursive: true, force: true }); // times are measured afresh, nothing resumed
  const jobsIdx = process.argv.indexOf('--jobs');
  const s = await runSweep({
    scene,
    params: [parseParam(`/response.responseParams=mu={${mus.join(',')}}`)],
    steps: STEPS,
    records: ['/constraintSolver.currentIterations:1', '/constraintSolver.frictionResidual:1', 'wall:1', '/block/dofs.position[304]'].map(
      parseRecord,
    ),
    out,
    retries: 0,
    ...(jobsIdx > 0 ? { threads: Number(process.argv[jobsIdx + 1]) } : {}),
  });
  const entries = [...Journal.read(s.files.journal).values()];
  return mus.map((mu) => {
    const e = entries.find((x) => x.params['/response.responseParams'] === mu);
    if (!e || e.status !== 'ok') return { its: [], ms: [], res: [], finite: false, deflection: NaN, error: e?.error };
    const r = decodeResult(e.result);
    const col = (name) => r.columns.find((c) => c.name === name).values.slice(1); // steps 1 … STEPS
    const tip = r.columns.find((c) => c.name === '/block/dofs.position[304]').values.at(-1);
    return {
      its: col('/constraintSolver.currentIterations'),
      res: col('/constraintSolver.frictionResidual'),
      ms: col('wall.stepMs'),
      finite: true,
      deflection: 2 - tip[1],
    };
  });
}

const targetIdx = process.argv.indexOf('--targets');
const TARGETS = targetIdx > 0 ? process.argv[targetIdx + 1].split(',').map(Number) : [1e-4, 1e-6];
const capIdx = process.argv.indexOf('--cap');
const CAP = capIdx > 0 ? Number(process.argv[capIdx + 1]) : 5000;
// the local method's inner loop solved tightly (ε2 = 1e-10 cm, up to 1000 iterations) so that its
// imprecision does not put a floor under e_rel; its cost shows in the inner iterations and the time
const uzawaOptions = (method, rhoPerContact) => ({
  method,
  maxIterations: CAP,
  tolerance: 0,
  localTolerance: 1e-10,
  maxLocalIterations: 1000,
  rho: 0,
  rhoFactor: 0.3,
  rhoPerContact,
});
/** The solvers of the equal-residual comparison: their sweep, from λ = 0 on the problem q. */
export const SWEEPERS = {
  'gauss-seidel': () => {
    const gs = new GaussSeidelWork();
    return { start: (q) => initResolutions(q), sweep: (q) => gaussSeidelSweep(q, false, 0, gs), inner: () => 0 };
  },
  ...Object.fromEntries(
    ['local', 'global'].flatMap((method) =>
      [false, true].map((per) => [
        `${method}-uzawa${per ? '-rho-per-contact' : ''}`,
        () => {
          const w = new UzawaWork();
          const o = uzawaOptions(method, per);
          return { start: (q) => uzawaStart(q, o, w), sweep: (q) => uzawaSweep(q, o, w), inner: () => w.innerIterations };
        },
      ]),
    ),
  ),
};

/**
 * Runs the scene with its Gauss-Seidel solver; at each step, the step's problem is solved again by
 * every solver of SWEEPERS from λ = 0: per step and solver, the sweeps, milliseconds (sweeps only)
 * and local inner iterations to reach e_rel < each target (NaN: not within CAP sweeps).
 */
async function runEqualResidual(file, mu) {
  const s = await loadSceneFromString(hapcoScene(file, 'gauss-seidel', mu), { sceneDir: path.dirname(file) });
  const cs = s.get('constraintSolver');
  const out = Object.fromEntries(
    Object.keys(SWEEPERS).map((k) => [
      k,
      { its: TARGETS.map(() => []), ms: TARGETS.map(() => []), inner: TARGETS.map(() => []), rows: [] },
    ]),
  );
  const q = new ConstraintProblem();
  const rw = new FrictionResidualWork();
  const solvers = Object.fromEntries(Object.entries(SWEEPERS).map(([k, make]) => [k, make()]));
  const original = cs.solveConstraint.bind(cs);
  cs.solveConstraint = (step) => {
    original(step);
    const p = cs.problem;
    for (const [name, sv] of Object.entries(solvers)) {
      const o = out[name];
      o.rows.push(p.n);
      q.resize(p.n);
      q.W.set(p.W);
      q.dfree.set(p.dfree);
      for (let i = 0; i < p.n; i++) q.resolutions[i] = p.resolutions[i];
      const hit = TARGETS.map(() => NaN),
        hitMs = TARGETS.map(() => NaN),
        hitInner = TARGETS.map(() => NaN);
      let ms = 0;
      if (p.n === 0) (hit.fill(0), hitMs.fill(0), hitInner.fill(0));
      else {
        let t0 = performance.now();
        sv.start(q);
        ms += performance.now() - t0;
        let e = frictionResidual(q, rw);
        TARGETS.forEach((t, k) => {
          if (e < t) ((hit[k] = 0), (hitMs[k] = ms), (hitInner[k] = 0));
        });
        for (let it = 1; it <= CAP && hit.some(Number.isNaN); it++) {
          t0 = performance.now();
          sv.sweep(q);
          ms += performance.now() - t0;
          e = frictionResidual(q, rw);
          TARGETS.forEach((t, k) => {
            if (Number.isNaN(hit[k]) && e < t) ((hit[k] = it), (hitMs[k] = ms), (hitInner[k] = sv.inner()));
          });
        }
      }
      // a target not reached: the time of all CAP sweeps (a lower bound, like the sweeps counted as CAP)
      TARGETS.forEach((_, k) => {
        o.its[k].push(hit[k]);
        o.ms[k].push(Number.isNaN(hitMs[k]) ? ms : hitMs[k]);
        o.inner[k].push(Number.isNaN(hitInner[k]) ? sv.inner() : hitInner[k]);
      });
    }
  };
  for (let n = 0; n < STEPS; n++) s.step();
  return out;
}

function mean(a) {
  return a.reduce((x, y) => x + y, 0) / a.length;
}

const COLORS = {
  'gauss-seidel': '#1f77b4',
  'local-uzawa': '#d62728',
  'global-uzawa': '#2ca02c',
  'local-uzawa-rho-per-contact': '#ff9896',
  'global-uzawa-rho-per-contact': '#98df8a',
};
const DASH = { 'local-uzawa-rho-per-contact': '5,3', 'global-uzawa-rho-per-contact': '5,3' };

/** Median over the steps (a step not reaching the target within CAP sweeps counts as +∞). */
function median(a) {
  const s = a.map((v) => (Number.isNaN(v) ? Infinity : v)).sort((x, y) => x - y);
  return s.length ? s[s.length >> 1] : NaN;
}
/** Mean of the sweeps to a target, a step not reaching it within CAP counted as CAP (a lower bound then). */
function meanCapped(a) {
  return mean(a.map((v) => (Number.isNaN(v) ? CAP : v)));
}

/** A line chart of series { label, color, values } against the step number. */
function svgPlot(title, yLabel, series) {
  const W = 640,
    H = 360,
    L = 60,
    R = 150,
    T = 30,
    B = 40;
  const n = Math.max(...series.map((s) => s.values.length));
  const yMax = Math.max(1e-9, ...series.flatMap((s) => s.values.filter(Number.isFinite))) * 1.05;
  const X = (i) => L + ((W - L - R) * i) / Math.max(1, n - 1);
  const Y = (v) => T + (H - T - B) * (1 - Math.min(v, yMax) / yMax);
  const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="13">${esc(title)}</text>`,
    `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="black"/>`,
    `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="black"/>`,
  ];
  for (let k = 0; k <= 4; k++) {
    const v = (yMax * k) / 4;
    parts.push(
      `<text x="${L - 5}" y="${Y(v) + 4}" text-anchor="end">${v < 10 ? v.toFixed(2) : v.toFixed(0)}</text>`,
      `<line x1="${L}" y1="${Y(v)}" x2="${W - R}" y2="${Y(v)}" stroke="#ddd"/>`,
    );
  }
  // phase boundaries
  for (const p of [7, 27, 34, 38])
    parts.push(`<line x1="${X(p - 0.5)}" y1="${T}" x2="${X(p - 0.5)}" y2="${H - B}" stroke="#aaa" stroke-dasharray="3,3"/>`);
  for (let i = 0; i < n; i += 5) parts.push(`<text x="${X(i)}" y="${H - B + 15}" text-anchor="middle">${i + 1}</text>`);
  parts.push(
    `<text x="${(L + W - R) / 2}" y="${H - 5}" text-anchor="middle">step</text>`,
    `<text x="14" y="${(T + H - B) / 2}" transform="rotate(-90 14 ${(T + H - B) / 2})" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  series.forEach((s, j) => {
    const pts = s.values.map((v, i) => `${X(i).toFixed(1)},${Y(Number.isFinite(v) ? v : yMax).toFixed(1)}`).join(' ');
    parts.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="1.5" ${s.dash ? `stroke-dasharray="${s.dash}"` : ''} points="${pts}"/>`,
    );
    parts.push(
      `<line x1="${W - R + 10}" y1="${T + 10 + 16 * j}" x2="${W - R + 30}" y2="${T + 10 + 16 * j}" stroke="${s.color}" stroke-width="2" ${s.dash ? `stroke-dasharray="${s.dash}"` : ''}/>`,
      `<text x="${W - R + 35}" y="${T + 14 + 16 * j}">${esc(s.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}

const HELP = `usage: node benchmarks/contact.mjs [--quick] [--mu X] [--tolerance T] [--targets A,B] [--cap N]
                                  [--skip-own] [--skip-equal] [--jobs J]
The HapCo benchmarks (scenes/contact/hapco-1.scn, hapco-2.scn) solved by Gauss-Seidel, local and global
Uzawa (npm run bench:contact); plots and sweeps in out/bench-contact/.
  --quick         mu = 0 and 0.3 only
  --mu X          one friction coefficient
  --tolerance T   the solvers' own stop tests (default 1e-6)
  --targets A,B   residual targets of the equal-residual comparison (default 1e-4,1e-6)
  --cap N         sweeps per step and solver in the equal-residual runs (default 5000)
  --skip-own      only the equal-residual comparison
  --skip-equal    only the solvers' own runs (the mu sweeps)
  --jobs J        worker threads of the sweeps (default one per core)
  -h, --help      print this and exit`;

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  (process.argv.includes('--help') || process.argv.includes('-h'))
) {
  console.log(HELP);
} else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.mkdirSync(outDir, { recursive: true });
  const all = {};
  if (!process.argv.includes('--skip-own')) {
    console.log(
      'scene    solver         mu    iter/step (mean  max)  capped  ms/step (mean  median)  deflection  finite  e_rel left by own test (median max)  iterations per phase (5P down, 20P +x, 7P -x, 4P +z, 1P up)',
    );
    for (const b of [1, 2]) {
      const file = path.join(root, 'scenes', 'contact', `hapco-${b}.scn`);
      for (const solver of Object.keys(SOLVERS)) {
        const rs = await sweepMus(file, b, solver, mus);
        mus.forEach((mu, k) => (all[`${b}/${solver}/${mu}`] = rs[k]));
      }
      for (const mu of mus) {
        for (const solver of Object.keys(SOLVERS)) {
          const r = all[`${b}/${solver}/${mu}`];
          if (!r.finite) {
            console.log(`hapco-${b}  ${solver.padEnd(13)} ${mu.toFixed(1)}   failed: ${r.error}`);
            continue;
          }
          const med = [...r.ms].sort((a, c) => a - c)[r.ms.length >> 1];
          console.log(
            `hapco-${b}  ${solver.padEnd(13)} ${mu.toFixed(1)}   ${mean(r.its).toFixed(1).padStart(8)} ${String(Math.max(...r.its)).padStart(5)}   ${String(r.its.filter((i) => i >= 1000).length).padStart(4)}      ${mean(r.ms).toFixed(2).padStart(8)} ${med.toFixed(2).padStart(7)}    ${r.deflection.toFixed(4).padStart(9)}   ${r.finite}   ${[...r.res].sort((a, c) => a - c)[r.res.length >> 1].toExponential(1)} ${Math.max(...r.res).toExponential(1)}   ${PHASES.map(([a, b]) => mean(r.its.slice(a, b)).toFixed(0)).join(' / ')}`,
          );
        }
        const series = (key) =>
          Object.keys(SOLVERS).map((solver) => ({ label: solver, color: COLORS[solver], values: all[`${b}/${solver}/${mu}`][key] }));
        const tag = tol === '1e-6' ? '' : `-tol${tol}`;
        fs.writeFileSync(
          path.join(outDir, `hapco-${b}-mu${mu}${tag}-iterations.svg`),
          svgPlot(`HapCo benchmark ${b}, μ = ${mu}, tolerance ${tol}: iterations per step`, 'iterations', series('its')),
        );
        fs.writeFileSync(
          path.join(outDir, `hapco-${b}-mu${mu}${tag}-time.svg`),
          svgPlot(`HapCo benchmark ${b}, μ = ${mu}, tolerance ${tol}: time per step`, 'ms per step', series('ms')),
        );
      }
      // iterations per step of each solver against μ (the paper's figure 7)
      const byMu = Object.keys(SOLVERS).map((solver) => ({
        label: solver,
        color: COLORS[solver],
        values: mus.map((mu) => mean(all[`${b}/${solver}/${mu}`].its)),
      }));
      fs.writeFileSync(
        path.join(outDir, `hapco-${b}-iterations-vs-mu${tol === '1e-6' ? '' : `-tol${tol}`}.svg`),
        svgPlot(`HapCo benchmark ${b}: mean iterations per step, μ = ${mus.join(', ')} (x axis: μ index)`, 'iterations', byMu),
      );
    }
  }
  // equal residual: every solver on the same problems, to the same e_rel
  if (!process.argv.includes('--skip-equal')) {
    console.log(
      `\nequal residual: sweeps per step from λ = 0 until e_rel < target over the ${STEPS} steps: median, mean (a step not reaching it in ${CAP} sweeps counted as ${CAP}), [steps not reaching it]; ms of those sweeps (median; to the cap when not reached); local inner iterations per step (median)`,
    );
    console.log(
      `scene    solver                        mu    ${TARGETS.map((t) => `e<${t}: sweeps med  mean [n]  ms  inner`).join('    ')}`,
    );
    const eq = {};
    for (const b of [1, 2]) {
      const file = path.join(root, 'scenes', 'contact', `hapco-${b}.scn`);
      for (const mu of mus) {
        const r = await runEqualResidual(file, mu);
        eq[`${b}/${mu}`] = r;
        for (const [name, o] of Object.entries(r)) {
          const cols = TARGETS.map((_, k) => {
            const miss = o.its[k].filter(Number.isNaN).length;
            const inner = name.startsWith('local') ? median(o.inner[k]).toFixed(0) : '-';
            return `${String(median(o.its[k])).padStart(8)} ${meanCapped(o.its[k]).toFixed(0).padStart(5)} [${miss}] ${median(o.ms[k]).toFixed(2).padStart(7)} ${inner.padStart(7)}`;
          });
          console.log(`hapco-${b}  ${name.padEnd(29)} ${mu.toFixed(1)}   ${cols.join('      ')}`);
        }
        TARGETS.forEach((t, k) => {
          const series = Object.keys(r).map((name) => ({
            label: name.replace('-rho-per-contact', ' ρα'),
            color: COLORS[name],
            dash: DASH[name],
            values: r[name].its[k],
          }));
          fs.writeFileSync(
            path.join(outDir, `hapco-${b}-mu${mu}-residual${t}-iterations.svg`),
            svgPlot(
              `HapCo ${b}, μ = ${mu}: sweeps to e_rel < ${t} (same problems, from λ = 0; top = not reached in ${CAP})`,
              'sweeps',
              series,
            ),
          );
          const times = Object.keys(r).map((name) => ({
            label: name.replace('-rho-per-contact', ' ρα'),
            color: COLORS[name],
            dash: DASH[name],
            values: r[name].ms[k],
          }));
          fs.writeFileSync(
            path.join(outDir, `hapco-${b}-mu${mu}-residual${t}-time.svg`),
            svgPlot(`HapCo ${b}, μ = ${mu}: ms to e_rel < ${t} (sweeps only)`, 'ms', times),
          );
        });
      }
      TARGETS.forEach((t, k) => {
        const byMu = Object.keys(SWEEPERS).map((name) => ({
          label: name.replace('-rho-per-contact', ' ρα'),
          color: COLORS[name],
          dash: DASH[name],
          values: mus.map((mu) => Math.min(CAP, median(eq[`${b}/${mu}`][name].its[k]))),
        }));
        fs.writeFileSync(
          path.join(outDir, `hapco-${b}-iterations-vs-mu-residual${t}.svg`),
          svgPlot(`HapCo ${b}: median sweeps to e_rel < ${t}, μ = ${mus.join(', ')} (x axis: μ index)`, 'sweeps', byMu),
        );
      });
    }
    fs.writeFileSync(path.join(outDir, 'equal-residual.json'), JSON.stringify({ targets: TARGETS, cap: CAP, mus, results: eq }));
  }
  console.log(`plots in ${path.relative(root, outDir)}/`);
}
