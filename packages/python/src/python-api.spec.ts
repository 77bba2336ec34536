import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pythonPackageDir } from './python-process.js';
import { pythonRunnersIn } from './python-test-support.js';

/**
 * SofaPython3's semantics, pinned from Python (test-scenes/api_semantics.py asserts them: naming
 * after the class without a counter, attribute access order, keyword conversions, read-only
 * values, writeable(), setParent, addData, controllers' handlers and extra keyword arguments,
 * onEvent, prefabs, messages), with numpy and without it (plain lists); and how a Python scene
 * stops on SIGINT and SIGTERM: after the step in progress, every state file on a whole frame, no
 * python3 left behind.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const scenes = path.resolve(here, '..', 'test-scenes');
const bin = path.resolve(here, '..', '..', 'cli', 'bin', 'sofa-ts.js');
const hasPython = spawnSync('python3', ['-c', 'import numpy']).status === 0;
const env = { ...process.env, PYTHONPATH: pythonPackageDir(), PYTHONDONTWRITEBYTECODE: '1', NO_COLOR: '1' };

(hasPython ? describe : describe.skip)("SofaPython3's API over the engine, from a Python program", function () {
  this.timeout(120_000);

  it('holds with numpy: values are read-only numpy arrays', () => {
    const r = spawnSync('python3', [path.join(scenes, 'api_semantics.py')], { env, encoding: 'utf8', timeout: 110_000 });
    expect(r.stderr + r.stdout).to.match(/OK\s*$/);
    expect(r.status).to.equal(0);
    expect(r.stderr).to.match(/api_semantics\.py:\d+:1: Arm 'arm': a warning about the arm/);
  });

  it('holds without numpy: values are plain lists, said once', () => {
    const blocker =
      'import sys, runpy\nsys.modules["numpy"] = None\nsys.argv = [sys.argv[1], "--no-numpy"]\nrunpy.run_path(sys.argv[0], run_name="__main__")\n';
    const r = spawnSync('python3', ['-c', blocker, path.join(scenes, 'api_semantics.py')], { env, encoding: 'utf8', timeout: 110_000 });
    expect(r.stderr + r.stdout).to.match(/OK\s*$/);
    expect(r.status).to.equal(0);
    expect(r.stderr.match(/numpy is not importable/g) ?? []).to.have.length(1);
  });
});

/** Frames (lines starting with T=) of every state file of a folder. */
function framesOf(dir: string): number[] {
  return fs.readdirSync(dir).map(
    (f) =>
      fs
        .readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.trimStart().startsWith('T=')).length,
  );
}

/** Whether every state file ends on a whole frame (its last line a complete X=/V= line and a newline). */
function endsOnWholeFrames(dir: string): boolean {
  return fs.readdirSync(dir).every((f) => {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    const lines = text.trimEnd().split('\n');
    return text.endsWith('\n') && /^\s*V=/.test(lines[lines.length - 1]);
  });
}

(hasPython ? describe : describe.skip)('a Python scene stopped by a signal during its steps', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-py-signal-'));
    fs.writeFileSync(
      path.join(dir, 'slow.py'),
      [
        'import time',
        'import Sofa.Core',
        'class Slow(Sofa.Core.Controller):',
        '    def onAnimateBeginEvent(self, e):',
        '        time.sleep(0.02)',
        'def createScene(root):',
        '    root.dt = 0.01',
        '    b = root.addChild("b")',
        '    b.addObject("EulerExplicitSolver", symplectic=True)',
        '    b.addObject("MechanicalObject", name="mo", position=[0, 0, 0])',
        '    b.addObject("UniformMass", totalMass=1)',
        '    b.addObject(Slow())',
        '',
      ].join('\n'),
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [signal, code, group, apart] of [
    ['SIGTERM', 143, false, false],
    ['SIGINT', 130, true, false],
    ['SIGTERM', 143, false, true],
    ['SIGINT', 130, true, true],
  ] as const) {
    const where = apart ? ', python3 apart' : '';
    it(`${signal}${group ? ' to the process group (Ctrl-C)' : ''}${where}: the step in progress ends, state files on whole frames, exit ${code}, no orphan`, async () => {
      const out = path.join(dir, `states-${signal}${apart ? '-apart' : ''}`);
      const child = spawn(process.execPath, [bin, 'run', path.join(dir, 'slow.py'), '-n', '100000', '--write-state', out], {
        env: apart ? { ...env, SOFATS_PYTHON_INPROCESS: '0' } : env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: group,
      });
      let err = '';
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      // wait for a few frames
      for (let i = 0; i < 600 && !(fs.existsSync(out) && fs.readdirSync(out).length > 0 && framesOf(out)[0] >= 5); i++)
        await new Promise((r) => setTimeout(r, 100));
      if (group) process.kill(-child.pid!, signal);
      else child.kill(signal);
      const status = await exited;
      expect(status, err).to.equal(code);
      expect(err).to.match(new RegExp(`interrupted by ${signal} after step \\d+`));
      const frames = framesOf(out);
      expect(frames[0]).to.be.at.least(5);
      expect(new Set(frames).size).to.equal(1);
      expect(endsOnWholeFrames(out)).to.equal(true);
      await new Promise((r) => setTimeout(r, 300));
      expect(pythonRunnersIn(dir)).to.deep.equal([]);
    });
  }
});
