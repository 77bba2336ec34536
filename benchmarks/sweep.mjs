#!/usr/bin/env node
// `npm run bench:sweep`: what the sweep machinery costs and gives (docs/sweep.md).
// 1. The local pool's speed-up: the same sweep (scenes/softrobots/finger-two-cables.scn, 80 cases
//    of 60 steps) on 1 thread and on one thread per core, alternately --repeat times (default 2),
//    the best wall time of each; the whole sweep (the coordinator's probe load and the threads'
//    start included).
// 2. The queue's overhead per case: 200 small cases (a ball, 10 steps: the cost is the case's load)
//    run (a) directly, one after the other in this thread (runCase: load, set, init, steps, record),
//    (b) on the local pool with 1 thread, (c) through a BullMQ queue in a private redis-server with
//    one `sofa-ts worker -j 1` process (started and warmed before the clock). Overhead =
//    (T − T_direct)/200, each T the best of --repeat runs.
// Options: --cases N (part 2), --only speedup|queue. The machine's load average is printed: the
// numbers are meaningful only on a machine doing nothing else.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseParam, parseRecord, runCase, runSweep, defaultThreads } from '@sofa-ts/sweep';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node benchmarks/sweep.mjs [--only speedup|queue] [--cases N] [--repeat R]
The local pool's speed-up and the queue's overhead per case (docs/sweep.md; npm run bench:sweep).
Writes out/bench-sweep/.
  --only speedup|queue   one of the two parts
  --cases N              small cases of the queue part (default 200)
  --repeat R             runs of each measure, the best kept (default 2)
  -h, --help             print this and exit`);
  process.exit(0);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'out', 'bench-sweep');
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const only = arg('--only', undefined);
const N = Number(arg('--cases', '200'));
const R = Number(arg('--repeat', '2'));
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
console.log(
  `node ${process.version}, ${os.availableParallelism()} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);

/** Wall time and CPU time (this process, all its threads) of f. */
async function timed(f) {
  const t0 = performance.now(),
    c0 = process.cpuUsage();
  const r = await f();
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, r };
}
/** The best of R runs of each function, run alternately (a, b, a, b, …): [ms of a, ms of b, …];
 *  best.cpu: the CPU ms of those best runs. */
async function best(...fs) {
  const ms = fs.map(() => Infinity);
  best.cpu = fs.map(() => NaN);
  for (let k = 0; k < R; k++) {
    for (let i = 0; i < fs.length; i++) {
      const t = await timed(() => fs[i](k));
      if (t.ms < ms[i]) ((ms[i] = t.ms), (best.cpu[i] = t.cpuMs));
    }
  }
  return ms;
}

if (!only || only === 'speedup') {
  const M = 80;
  const sweep = (threads, k) => ({
    scene: path.join(root, 'scenes/softrobots/finger-two-cables.scn'),
    params: [parseParam('/finger/lower.value=lhs:0:400'), parseParam('/finger/side.value=lhs:0:400')],
    samples: M,
    steps: 60,
    records: [parseRecord('/finger/dofs.position[54]')],
    out: path.join(out, `speedup-${threads}-${k}`),
    threads,
  });
  const cores = defaultThreads();
  const [one, all] = await best(
    (k) => runSweep(sweep(1, k)),
    (k) => runSweep(sweep(cores, k)),
  );
  const [cpu1, cpuN] = best.cpu;
  console.log(
    `local pool, ${M} cases of finger-two-cables (60 steps), best of ${R}: 1 thread ${(one / 1000).toFixed(1)} s (${(one / M).toFixed(0)} ms/case, CPU ${(cpu1 / 1000).toFixed(1)} s), ${cores} threads ${(all / 1000).toFixed(1)} s (${(all / M).toFixed(0)} ms/case, CPU ${(cpuN / 1000).toFixed(1)} s): speed-up ${(one / all).toFixed(2)}`,
  );
}

if (!only || only === 'queue') {
  const { startRedis, redisUnavailable } = await import('../packages/sweep/dist/test/redis-server.js');
  const why = redisUnavailable();
  const scene = path.join(out, 'ball.scn');
  fs.writeFileSync(
    scene,
    fs.readFileSync(path.join(root, 'packages/sweep/src/results-test-support.ts'), 'utf8').match(/BALL_SCENE = `([^`]*)`/)[1],
  );
  const params = [parseParam(`/root.gravity=0 {lin:-20:0:${N}} 0`)];
  const records = [parseRecord('/ball/dofs.position')];
  // (a) directly: the cases one after the other in this thread; (b) the local pool, 1 thread
  const [direct, pool] = await best(
    async () => {
      for (const p of params[0].values)
        await runCase({
          id: 'direct',
          index: 0,
          scene,
          params: [{ path: params[0].path, text: p.text }],
          steps: 10,
          records,
          load: { dataPaths: [] },
        });
    },
    (k) => runSweep({ scene, params, steps: 10, records, out: path.join(out, `pool-${k}`), threads: 1 }),
  );
  let line = `${N} cases of a ball (10 steps), best of ${R}: direct ${(direct / N).toFixed(2)} ms/case; local pool (1 thread) ${(pool / N).toFixed(2)} ms/case, overhead ${((pool - direct) / N).toFixed(2)} ms/case`;
  if (why) line += `; queue skipped: ${why}`;
  else {
    const redis = await startRedis();
    const worker = spawn(
      process.execPath,
      [path.join(root, 'packages/cli/bin/sofa-ts.js'), 'worker', '--queue', redis.url, '--queue-name', 'bench', '-j', '1', '--quiet'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => worker.stdout.on('data', (d) => String(d).includes(' ready ') && resolve()));
    try {
      // warm the worker's thread (its first case loads the modules), then measure
      await runSweep({
        scene,
        params: [parseParam('/root.gravity=0 -1 0')],
        steps: 10,
        records,
        out: path.join(out, 'queue-warm'),
        queue: { url: redis.url, name: 'bench' },
      });
      const [queue] = await best((k) =>
        runSweep({ scene, params, steps: 10, records, out: path.join(out, `queue-${k}`), queue: { url: redis.url, name: 'bench' } }),
      );
      line += `; queue (1 worker, 1 thread) ${(queue / N).toFixed(2)} ms/case, overhead ${((queue - direct) / N).toFixed(2)} ms/case`;
    } finally {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.on('exit', resolve));
      await redis.stop();
    }
  }
  console.log(line);
}
console.log(
  `load average now ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
