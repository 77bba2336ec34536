import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseParam } from './param-spec.js';
import { parseRecord } from './record-spec.js';
import { runSweep, type SweepOptions } from './sweep.js';
import { BALL_SCENE, cliBin, readCsv, readParquet, repoRoot } from './results-test-support.js';
import { redisUnavailable, startRedis, type RedisServer } from './redis-test-support.js';

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly lines: string[];
  /** Resolves with the first line matching `re` (lines already printed included). */
  waitFor(re: RegExp): Promise<string>;
  stop(): Promise<number | null>;
}

/** `sofa-ts worker` in its own process: one thread, a 2 s lock (a killed worker's case is back in the queue within ~4 s). */
async function startWorker(url: string, queue: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [cliBin, 'worker', '--queue', url, '--queue-name', queue, '-j', '1', '--lock-ms', '2000'], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  let rest = '';
  child.stdout!.on('data', (d: Buffer) => {
    rest += String(d);
    const parts = rest.split('\n');
    rest = parts.pop()!;
    for (const l of parts) {
      lines.push(l);
      for (const w of waiters.splice(0)) w.re.test(l) ? w.resolve(l) : waiters.push(w);
    }
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (re: RegExp): Promise<string> => {
    const seen = lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      waiters.push({ re, resolve });
      void exited.then((code) =>
        reject(new Error(`the worker exited (code ${code}) before printing ${re}:\n${lines.join('\n')}\n${stderr}`)),
      );
    });
  };
  await waitFor(/ ready /);
  return {
    child,
    lines,
    waitFor,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

const pidOf = (w: WorkerProcess): string => `:${w.child.pid}`;

describe('sofa-ts sweep on a Redis queue (BullMQ), two `sofa-ts worker` processes', function () {
  this.timeout(300000);
  const why = redisUnavailable();
  let redis: RedisServer | undefined;
  let workers: WorkerProcess[] = [];
  let dir = '';
  let scene = '';

  before(async function () {
    if (why) {
      console.log(`    (skipped: ${why})`);
      this.skip();
    }
    redis = await startRedis();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-queue-test-'));
    scene = path.join(dir, 'ball.scn');
    fs.writeFileSync(scene, BALL_SCENE);
    workers = await Promise.all([startWorker(redis.url, 'main'), startWorker(redis.url, 'main')]);
  });

  after(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await redis?.stop();
  });

  const sweep = (o: Partial<SweepOptions> & { out: string; queueName: string }): SweepOptions => ({
    scene,
    params: [parseParam('/root.gravity=0 {lin:-20:0:200} 0')],
    steps: 10,
    records: [parseRecord('/ball/dofs.position')],
    queue: { url: redis!.url, name: o.queueName },
    ...o,
  });

  it('a 200-case sweep completes with every case exactly once in the results, its numbers those of the closed form', async () => {
    const s = await runSweep(sweep({ out: path.join(dir, 'q200'), queueName: 'main' }));
    expect([s.total, s.ok, s.failed, s.ran, s.interrupted]).to.deep.equal([200, 200, 0, 200, false]);
    const rows = await readParquet(s.files.parquet);
    expect(rows).to.have.length(200);
    expect(new Set(rows.map((r) => r['case'])).size).to.equal(200);
    expect(rows.map((r) => r['index'])).to.deep.equal(Array.from({ length: 200 }, (_, i) => i));
    for (const r of rows) {
      const g = r['/root.gravity'] as number;
      expect((r['/ball/dofs.position'] as number[])[1]).to.be.closeTo((1e-4 * g * 110) / 2, 1e-13);
    }
    const journal = fs
      .readFileSync(s.files.journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; ranOn: string });
    expect(journal).to.have.length(200);
    // both worker processes took cases
    for (const w of workers)
      expect(
        journal.some((e) => e.ranOn.endsWith(pidOf(w))),
        `worker ${w.child.pid} ran cases`,
      ).to.equal(true);
  });

  it('a failing case is retried, then reported with its message', async () => {
    const s = await runSweep(
      sweep({ out: path.join(dir, 'qfail'), queueName: 'main', params: [parseParam('/root.dt=0.01,-0.01,0.02')], retries: 1 }),
    );
    expect([s.total, s.ok, s.failed]).to.deep.equal([3, 2, 1]);
    const failures = readCsv(s.files.failures);
    expect(failures).to.have.length(1);
    expect(failures[0]['index']).to.equal('1');
    expect(failures[0]['attempts']).to.equal('2');
    expect(failures[0]['error']).to.match(/^--param \/root\.dt:1:1: Node 'root': 'dt' must be finite and > 0, got -0\.01/);
    // the workers' logs: the case started twice, failed twice
    const id = failures[0]['case'];
    const log = workers.flatMap((w) => w.lines).filter((l) => l.includes(id));
    expect(log.filter((l) => / start case 1 /.test(l))).to.have.length(2);
    expect(log.filter((l) => / failed case 1 /.test(l))).to.have.length(2);
  });

  it('killing a worker during a case loses no case and counts none twice (stalled-job recovery)', async () => {
    const [a, b] = await Promise.all([startWorker(redis!.url, 'kill'), startWorker(redis!.url, 'kill')]);
    try {
      // cases of some 0.1 s (5000 steps) so that the kill lands inside one
      const run = runSweep(
        sweep({ out: path.join(dir, 'qkill'), queueName: 'kill', steps: 5000, params: [parseParam('/root.gravity=0 {lin:-20:0:40} 0')] }),
      );
      const started = await a!.waitFor(/ start case /);
      a!.child.kill('SIGKILL');
      const killedCase = / start case \d+ ([0-9a-f]+) /.exec(started)![1];
      const s = await run;
      expect([s.total, s.ok, s.failed, s.interrupted]).to.deep.equal([40, 40, 0, false]);
      const rows = await readParquet(s.files.parquet);
      expect(rows).to.have.length(40);
      expect(new Set(rows.map((r) => r['case'])).size).to.equal(40);
      const journal = fs
        .readFileSync(s.files.journal, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; ranOn: string; attempts: number });
      expect(journal).to.have.length(40);
      // the killed worker's case came back from the queue and was run by the other worker
      const killed = journal.filter((e) => e.id === killedCase);
      expect(killed).to.have.length(1);
      expect(killed[0].ranOn.endsWith(pidOf(b!))).to.equal(true);
      expect(b!.lines.some((l) => l.includes(`start case`) && l.includes(killedCase))).to.equal(true);
    } finally {
      await Promise.all([a!.stop(), b!.stop()]);
    }
  });
});
