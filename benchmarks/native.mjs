// The native C++/Eigen anchor (../shared/anchors/fem-cpp, or FEM_ANCHOR_DIR): built by the benchmark
// itself into out/native (never inside the anchor's folder) and run beside each sofa-ts figure.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';

/**
 * Copies the anchor's source and Makefile into buildDir and runs make there (as the anchor's README
 * says). Returns { exe } or { reason } telling why it cannot be built.
 */
export function buildNative(anchorDir, buildDir) {
  const src = path.join(anchorDir, 'fem-anchor.cpp');
  if (!fs.existsSync(src)) return { reason: `no native anchor at ${anchorDir} (set FEM_ANCHOR_DIR)` };
  fs.mkdirSync(buildDir, { recursive: true });
  for (const f of ['fem-anchor.cpp', 'Makefile']) {
    const from = path.join(anchorDir, f),
      to = path.join(buildDir, f);
    if (!fs.existsSync(to) || !fs.readFileSync(to).equals(fs.readFileSync(from))) fs.copyFileSync(from, to);
  }
  const make = spawnSync('make', ['-C', buildDir, 'fem-anchor'], { encoding: 'utf8' });
  if (make.error) return { reason: `make cannot run (${make.error.code ?? make.error.message}): install make, g++ and libeigen3-dev` };
  if (make.status !== 0) {
    const err =
      (make.stderr || make.stdout)
        .trim()
        .split('\n')
        .find((l) => /error/i.test(l)) ?? `make exited with ${make.status}`;
    return { reason: `the native anchor does not build: ${err.trim()} (it needs g++ and Eigen 3: apt-get install -y g++ libeigen3-dev)` };
  }
  return { exe: path.join(buildDir, 'fem-anchor') };
}

/** Runs the anchor once and returns its RESULT json (ms_per_step_median, max_rss_mib, tets, ...). */
export function runNative(exe, args) {
  const out = execFileSync(exe, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`fem-anchor ${args.join(' ')} printed no RESULT line`);
  return JSON.parse(line.slice(7));
}

/**
 * Runs the anchor under bash and returns its RESULT json plus cpu_s, the user + system CPU seconds of
 * the whole process (bash's `times` for its children): CPU time is far less sensitive than wall time
 * to the other processes of a loaded machine.
 */
export function runNativeCpu(exe, args) {
  const out = execFileSync('bash', ['-c', '"$0" "$@" && times', exe, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const lines = out.trim().split('\n');
  const line = lines.find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`fem-anchor ${args.join(' ')} printed no RESULT line`);
  const seconds = (t) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? 60 * Number(m[1]) + Number(m[2]) : NaN;
  };
  const [user, sys] = lines[lines.length - 1].trim().split(/\s+/).map(seconds);
  return { ...JSON.parse(line.slice(7)), cpu_s: user + sys };
}
