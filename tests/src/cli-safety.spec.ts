import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { reportError, runRegressionScene } from '@sofa-ts/cli';
import { ComponentError, SofaError, addObject, createScene, io, loadSceneFromString } from 'sofa-ts';
import { repoRoot } from './corpus-test-support.js';
import { explodingScene, firstNonFiniteStep, stableScene } from './safety-test-support.js';

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
const env = { ...process.env, NO_COLOR: '1' };

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-safety-'));
}

function sceneFile(dir: string, name: string, xml: string): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, xml);
  return f;
}

/** The state files of a run, read back (every frame must parse), sorted by name. */
function readStates(dir: string): Array<{ name: string; frames: io.StateFrame[] }> {
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => ({ name, frames: io.readStateFile(path.join(dir, name)) }));
}

/** Every frame holds the 3 points' X and V, all finite. */
function expectCompleteFrames(frames: io.StateFrame[]): void {
  for (const f of frames) {
    expect(f.X.length, `X at T=${f.time}`).to.equal(9);
    expect(f.V?.length, `V at T=${f.time}`).to.equal(9);
    for (const a of [...f.X, ...f.V!]) expect(Number.isFinite(a)).to.equal(true);
  }
}

/** A running `sofa-ts run`, its output collected. */
function start(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exit, out: () => ({ stdout, stderr }) };
}

/** Waits until every file of `dir` (expecting `n` files) holds at least `frames` frames. */
async function waitForFrames(dir: string, n: number, frames: number, timeoutMs = 30000): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    const counts = files.map((f) => (fs.readFileSync(path.join(dir, f), 'latin1').match(/T= /g) ?? []).length);
    if (files.length === n && counts.every((c) => c >= frames)) return;
    if (Date.now() - t0 > timeoutMs) throw new Error(`no ${frames} frames in ${dir} after ${timeoutMs} ms (${counts.join(', ')})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sofa-ts run: divergence, interruption, durable states', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function divergenceStep(): Promise<number> {
    return firstNonFiniteStep(await loadSceneFromString(explodingScene, { onDivergence: 'continue' }), 1000);
  }

  it('an explicit solver that blows up stops the run at the diverging step: exit 3, a located message, the frames before it kept', async () => {
    const k = await divergenceStep();
    const scn = sceneFile(dir, 'explode.scn', explodingScene);
    const out = path.join(dir, 'out');
    const r = spawnSync(process.execPath, [bin, 'run', scn, '-n', '100', '--write-state', out, '--write-period', '5'], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).to.equal(3);
    expect(r.stderr).to.contain(`error: ${scn}:6:5: MechanicalObject 'dofs' in /root/body: the simulation diverged:`);
    expect(r.stderr).to.contain(`after step ${k} (t = ${+(k * 0.01).toFixed(12)} s)`);
    const frames = Math.floor((k - 1) / 5) + 1; // T=0, then every 5th step before step k
    expect(r.stderr).to.contain(`states kept: ${frames} frame(s) of 2 state(s) in ${out}`);
    const states = readStates(out);
    expect(states.map((s) => s.name)).to.deep.equal(['0_dofs.state.txt', '1_copy.state.txt']);
    for (const s of states) {
      expect(s.frames).to.have.length(frames);
      expectCompleteFrames(s.frames);
    }
  });

  it('--on-divergence continue warns once, writes every frame, and still exits 3', async () => {
    const k = await divergenceStep();
    const scn = sceneFile(dir, 'explode.scn', explodingScene);
    const out = path.join(dir, 'out');
    const r = spawnSync(
      process.execPath,
      [bin, 'run', scn, '-n', '100', '--write-state', out, '--write-period', '5', '--on-divergence', 'continue'],
      { cwd: repoRoot, env, encoding: 'utf8' },
    );
    expect(r.status, r.stderr).to.equal(3);
    expect(r.stderr.match(/warning: .*diverged/g)).to.have.length(1);
    expect(r.stderr).to.contain(`after step ${k} `);
    expect(r.stderr).to.contain(`error: the run diverged at step ${k}`);
    expect(r.stdout).to.match(/steps\s+100 × dt 0.01 s → t = 1 s/);
    for (const s of readStates(out)) expect(s.frames).to.have.length(21);
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} finishes the step, ends every state file on the same complete frame, exits ${code}`, async () => {
      const scn = sceneFile(dir, 'stable.scn', stableScene);
      const out = path.join(dir, 'out');
      const run = start(['run', scn, '-n', '100000000', '--write-state', out, '--write-period', '3']);
      await waitForFrames(out, 2, 5);
      run.child.kill(signal);
      const { code: status } = await run.exit;
      const { stdout, stderr } = run.out();
      expect(status, stderr).to.equal(code);
      const m = /interrupted by (\w+) after step (\d+) \(t = ([\d.e-]+) s\); states written: (\d+) frame\(s\) of 2 state\(s\)/.exec(stderr);
      expect(m, stderr).to.not.equal(null);
      expect(m![1]).to.equal(signal);
      const steps = Number(m![2]);
      expect(stdout).to.contain(`steps        ${steps} of 100000000 × dt 0.01 s`);
      const states = readStates(out);
      const expectedFrames = Math.floor(steps / 3) + 1;
      expect(Number(m![4])).to.equal(expectedFrames);
      for (const s of states) {
        expect(s.frames, s.name).to.have.length(expectedFrames);
        expect(s.frames[s.frames.length - 1].time).to.be.closeTo(Math.floor(steps / 3) * 3 * 0.01, 1e-9);
        expectCompleteFrames(s.frames);
      }
      expect(fs.readdirSync(out)).to.have.length(2); // no temporary file
    });
  }

  it('kill -9 leaves only complete frames, the files at most one frame apart, and no temporary file', async () => {
    const scn = sceneFile(dir, 'stable.scn', stableScene);
    const out = path.join(dir, 'out');
    const run = start(['run', scn, '-n', '100000000', '--write-state', out]);
    await waitForFrames(out, 2, 20);
    run.child.kill('SIGKILL');
    expect((await run.exit).signal).to.equal('SIGKILL');
    const states = readStates(out);
    expect(states).to.have.length(2);
    for (const s of states) expectCompleteFrames(s.frames);
    const [a, b] = states.map((s) => s.frames.length) as [number, number];
    expect(a).to.be.at.least(20);
    expect(a - b).to.be.oneOf([0, 1]); // killed between the two files of one frame at worst
  });

  it('kill -9 of a process writing gzip state files leaves valid gzip files with complete frames', async () => {
    const file = path.join(dir, 'state.txt.gz');
    const script = `import { StateWriter } from '@sofa-ts/io';
const w = new StateWriter(${JSON.stringify(file)});
const x = new Float64Array(300);
for (let k = 0; ; k++) { x.fill(k); w.writeFrame(k * 0.01, x, x); }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, env });
    const t0 = Date.now();
    while (!fs.existsSync(file) || fs.statSync(file).size < 5000) {
      if (Date.now() - t0 > 30000) throw new Error('the writer wrote nothing');
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const frames = io.readStateFile(file);
    expect(frames.length).to.be.greaterThan(5);
    frames.forEach((f, k) => {
      expect(f.time).to.be.closeTo(k * 0.01, 1e-12);
      expect(f.X.length).to.equal(300);
      expect(f.V!.every((a) => a === k)).to.equal(true);
    });
  });
});

describe('sofa-ts regression: a diverging scene', () => {
  it('fails with the divergence as its reason and keeps the gzip frames it wrote before', async () => {
    const dir = tempDir();
    try {
      sceneFile(dir, 'explode.scn', explodingScene);
      fs.writeFileSync(path.join(dir, 'list.regression-tests'), 'refs\nexplode.scn 100 1e-3 0 0\n');
      fs.mkdirSync(path.join(dir, 'refs'));
      io.writeStateFile(path.join(dir, 'refs', 'explode.scn.reference_0_dofs_mstate.txt.gz'), [
        { time: 0, X: [0, 0, 0, 1, 0, 0, 2, 0, 0], V: new Array(9).fill(0) },
      ]);
      const list = io.readRegressionList(path.join(dir, 'list.regression-tests'));
      const out = path.join(dir, 'out');
      const r = await runRegressionScene(list.entries[0], list.referenceRoot, { out, dataPath: [] }, []);
      const k = firstNonFiniteStep(await loadSceneFromString(explodingScene, { onDivergence: 'continue' }), 1000);
      expect(r.passed).to.equal(false);
      expect(r.reason).to.match(new RegExp(`MechanicalObject 'dofs' in /root/body: the simulation diverged: .* after step ${k} `));
      const frames = io.readStateFile(path.join(out, 'explode.scn.reference_0_dofs_mstate.txt.gz'));
      expect(frames).to.have.length(k); // T=0 and steps 1 … k−1 (SOFA writes at the beginning of steps)
      expectCompleteFrames(frames);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sofa-ts error reports', () => {
  const printed = (e: unknown, debug: boolean): string => {
    let text = '';
    reportError(e, { write: (s: string) => ((text += s), true) } as unknown as NodeJS.WriteStream, debug);
    return text.replace(/\x1b\[[0-9;]*m/g, ''); // picocolors colours when CI is set: compare the text
  };
  const scene = createScene();
  const ff = addObject(scene, scene.root, 'UniformMass');
  const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
  const internal = new ComponentError(
    'addForce threw TypeError',
    { component: "UniformMass 'm'" },
    { kind: 'step', step: 3, time: 0.02 },
    ff,
  );
  Object.defineProperty(internal, 'cause', { value: bug });

  it('an internal error (a component threw a non-SofaError): the message, then a pointer to --debug', () => {
    expect(printed(internal, false)).to.equal("error: UniformMass 'm': addForce threw TypeError\n(run with --debug for the stack)\n");
  });

  it('with --debug, the stack of what the component threw', () => {
    const text = printed(internal, true);
    expect(
      text.startsWith(
        "error: UniformMass 'm': addForce threw TypeError\nTypeError: Cannot read properties of undefined (reading 'x')\n    at ",
      ),
    ).to.equal(true);
  });

  it('a scene error (SofaError): the message only, debug or not', () => {
    const e = new SofaError('bad value', { loc: { file: 'a.scn', line: 2, column: 3 } });
    expect(printed(e, true)).to.equal('error: a.scn:2:3: bad value\n');
  });

  it('sofa-ts run --help documents --debug, --on-divergence and the exit codes', () => {
    const r = spawnSync(process.execPath, [bin, 'run', '--help'], { cwd: repoRoot, env, encoding: 'utf8' });
    expect(r.status).to.equal(0);
    expect(r.stdout).to.contain('--debug');
    expect(r.stdout).to.match(/--on-divergence <policy>/);
    expect(r.stdout).to.match(/3 +the simulation diverged/);
    expect(r.stdout).to.match(/130 +interrupted by SIGINT, 143 by SIGTERM/);
  });
});
