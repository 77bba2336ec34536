import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BaseMechanicalState, SofaScene } from 'sofa-ts';
import { loadPythonScene } from './load-python-scene.js';
import { runCli } from './python-test-support.js';

/**
 * The interpreter in the engine's process (native/sofats_python.c) against python3 run apart
 * (SOFATS_PYTHON_INPROCESS=0), which the rest of the Python specs check against XML scenes: the
 * same frames cross by function calls instead of pipes, so the states must be the same bits.
 * What is its own: one interpreter per process (a second live scene runs python3 apart, and says
 * so), Python's working directory kept apart from the engine's, createScene's asynchronous
 * requests (an npm plugin's code loaded by RequiredPlugin) served from its builder thread.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, '..');
const repoRoot = path.resolve(packageRoot, '..', '..');
const scenes = path.join(packageRoot, 'test-scenes');
const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
const apart = { SOFATS_PYTHON_INPROCESS: '0' };
/** The in-process interpreter needs python3's headers and a C compiler (.ci/run installs python3-dev). */
const canEmbed =
  spawnSync('python3', [
    '-c',
    'import sysconfig, os, sys; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)',
  ]).status === 0 && spawnSync('cc', ['--version']).status === 0;

function positions(s: SofaScene, p: string): Float64Array {
  return Float64Array.from(s.get<BaseMechanicalState>(p)!.x);
}

function sameBits(a: Float64Array, b: Float64Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** The state files of `sofa-ts run SCENE -n STEPS --write-state DIR`, by name. */
function stateFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir).sort()) out[f] = fs.readFileSync(path.join(dir, f), 'utf8');
  return out;
}

(canEmbed ? describe : describe.skip)("Python scenes in the engine's process", function () {
  this.timeout(120_000);
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-inprocess-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /**
   * Writes `script` as tmp/inside/NAME and tmp/outside/NAME and runs `sofa-ts run` on each, in the
   * engine's process and with python3 apart (`args` of the folder); both must exit 0. The folders.
   */
  function runInBothModes(script: string, name: string, args: (dir: string) => string[]): { inside: string; outside: string } {
    const dirs = { inside: path.join(tmp, 'inside'), outside: path.join(tmp, 'outside') };
    for (const [mode, env] of [
      ['inside', {}],
      ['outside', apart],
    ] as const) {
      const dir = dirs[mode];
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, name), script);
      const r = runCli(['run', path.join(dir, name), ...args(dir)], env);
      expect(r.status, r.err).to.equal(0);
      expect(r.out).to.match(mode === 'inside' ? /in the engine's process/ : /a separate python3 process/);
    }
    return dirs;
  }

  for (const [scene, steps] of [
    ['finger_cable.py', 30],
    ['cavity_pressure.py', 12],
    ['finger_inverse_goal.py', 20],
  ] as const) {
    it(`${scene}: sofa-ts run writes the state files of python3 run apart, byte for byte, and says where Python ran`, () => {
      const file = path.join(scenes, scene);
      const inside = runCli(['run', file, '-n', String(steps), '--write-state', path.join(tmp, 'inside')]);
      const outside = runCli(['run', file, '-n', String(steps), '--write-state', path.join(tmp, 'outside')], apart);
      expect(inside.status, inside.err).to.equal(0);
      expect(outside.status, outside.err).to.equal(0);
      expect(inside.out).to.match(/^python +Python 3\.\d+\.\d+, in the engine's process$/m);
      expect(outside.out).to.match(/^python +Python 3\.\d+\.\d+, a separate python3 process$/m);
      const a = stateFiles(path.join(tmp, 'inside'));
      expect(Object.keys(a)).to.not.be.empty;
      expect(a).to.deep.equal(stateFiles(path.join(tmp, 'outside')));
    });
  }

  it("a handler's reads and writes of every kind of value give what python3 apart gives (Data.value's paths in C)", () => {
    const script = [
      'import json, numpy, Sofa.Core',
      'class Values(Sofa.Core.Controller):',
      '    def __init__(self, *a, **k):',
      '        Sofa.Core.Controller.__init__(self, *a, **k)',
      '        self.root = k["root"]',
      '        self.seen = []',
      '    def onAnimateBeginEvent(self, e):',
      '        r, dofs, mass = self.root, self.root.dofs, self.root.mass',
      '        step = len(self.seen)',
      '        writes = [',
      '            (r, "gravity", [0.5, -9.81, 0.25 * step]),',
      '            (r, "gravity", numpy.array([1.0, 2.0, 3.0 + step])),',
      '            (r, "gravity", numpy.arange(6.0)[::2]),',
      '            (r, "gravity", numpy.array([1, 2, 3], dtype=numpy.float32)),',
      '            (r, "gravity", [1, 2, step]),',
      '            (r, "dt", 0.01 + 0.001 * step),',
      '            (r, "dt", numpy.float64(0.02)),',
      '            (mass, "totalMass", 2),',
      '            (dofs, "position", [[0.0, 0.0, 0.1 * step], [1.0, 0.0, 0.0]]),',
      '            (dofs, "position", numpy.zeros((2, 3)) + step),',
      '            (self, "listening", True),',
      '        ]',
      '        out = []',
      '        for owner, name, v in writes:',
      '            setattr(owner, name, v)',
      '            x = getattr(owner, name).value',
      '            out.append([name, type(x).__name__, x.tolist() if hasattr(x, "tolist") else x])',
      '        # reads answered from the values sent with the event (no write before them)',
      '        out.append(["reads", [type(d.value).__name__ for d in (r.dt, r.gravity, mass.totalMass, dofs.position, self.listening)]])',
      '        self.seen.append(out)',
      '    def onAnimateEndEvent(self, e):',
      '        with open("values.json", "w") as f:',
      '            json.dump(self.seen, f)',
      'def createScene(root):',
      '    root.addObject("DefaultAnimationLoop")',
      '    root.addObject("MechanicalObject", name="dofs", position=[[0, 0, 0], [1, 0, 0]])',
      '    root.addObject("UniformMass", name="mass", totalMass=1)',
      '    root.addObject(Values(root=root))',
      '',
    ].join('\n');
    const seen: Record<string, string> = {};
    const states: Record<string, Record<string, string>> = {};
    for (const [mode, dir] of Object.entries(
      runInBothModes(script, 'values.py', (dir) => ['-n', '3', '--write-state', path.join(dir, 'states')]),
    )) {
      seen[mode] = fs.readFileSync(path.join(dir, 'values.json'), 'utf8');
      states[mode] = stateFiles(path.join(dir, 'states'));
    }
    expect(seen['inside']).to.equal(seen['outside']);
    expect(Object.keys(states['inside']!)).to.not.be.empty;
    expect(states['inside']).to.deep.equal(states['outside']);
    const last = JSON.parse(seen['inside']!) as unknown[][][];
    expect(last).to.have.length(3);
    expect(last[2][0]).to.deep.equal(['gravity', 'ndarray', [0.5, -9.81, 0.5]]);
    expect(last[2][5]).to.deep.equal(['dt', 'float', 0.012]);
    expect(last[2][7]).to.deep.equal(['totalMass', 'float', 2]);
    expect(last[2][10]).to.deep.equal(['listening', 'bool', true]);
  });

  it('without a C compiler or a cache folder to build the addon in, python3 runs apart and a warning says why', () => {
    const file = path.join(scenes, 'finger_cable.py');
    const noCompiler = runCli(['run', file, '-n', '2'], { CC: path.join(tmp, 'no-cc-here'), SOFATS_CACHE_DIR: path.join(tmp, 'cache') });
    expect(noCompiler.status, noCompiler.err).to.equal(0);
    expect(noCompiler.err).to.match(
      /finger_cable\.py:1:1: python3 runs as a separate process, not in the engine's \(no C compiler \(.*no-cc-here\) to build it\)/,
    );
    expect(noCompiler.out).to.match(/a separate python3 process/);
    const file2 = path.join(tmp, 'a-file');
    fs.writeFileSync(file2, '');
    const noCache = runCli(['run', file, '-n', '2'], { SOFATS_CACHE_DIR: file2 });
    expect(noCache.status, noCache.err).to.equal(0);
    expect(noCache.err).to.match(/python3 runs as a separate process, not in the engine's \(building it into .*a-file.* failed: ENOTDIR/);
  });

  it('one scene after another reuses the interpreter; a second live scene runs python3 apart, says why, and gives the same bits', async () => {
    const file = path.join(scenes, 'finger_cable.py');
    const first = await loadPythonScene(file);
    let x1: Float64Array;
    try {
      expect(first.python?.inProcess).to.equal(true);
      const second = await loadPythonScene(file);
      try {
        expect(second.python?.inProcess).to.equal(false);
        expect(second.warnings.map((w) => w.message).join('\n')).to.match(
          /python3 runs as a separate process, not in the engine's \(another Python scene of this process holds the in-process interpreter\)/,
        );
        expect(first.warnings.map((w) => w.message).join('\n')).not.to.match(/separate process/);
        first.step(15);
        second.step(15);
        x1 = positions(first, '/finger/dofs');
        expect(sameBits(x1, positions(second, '/finger/dofs'))).to.equal(true);
      } finally {
        second.dispose();
      }
    } finally {
      first.dispose();
    }
    // the interpreter is free again: the next scene has it, from a fresh start of the package's state
    const third = await loadPythonScene(file);
    try {
      expect(third.python?.inProcess).to.equal(true);
      third.step(15);
      expect(sameBits(positions(third, '/finger/dofs'), x1)).to.equal(true);
    } finally {
      third.dispose();
    }
  });

  it("one scene after another: each imports its own helper modules (two scenes' helper.py are two modules)", async () => {
    const xs: number[] = [];
    for (const value of [1.5, 2.5]) {
      const dir = path.join(tmp, `scene-${value}`);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'helper.py'), `VALUE = ${value}\n`);
      fs.writeFileSync(
        path.join(dir, 'uses_helper.py'),
        [
          'import helper',
          'def createScene(root):',
          '    root.addObject("DefaultAnimationLoop")',
          '    root.addObject("MechanicalObject", name="dofs", position=[helper.VALUE, 0, 0])',
          '',
        ].join('\n'),
      );
      const s = await loadPythonScene(path.join(dir, 'uses_helper.py'));
      try {
        expect(s.python?.inProcess).to.equal(true);
        xs.push(s.get<BaseMechanicalState>('/dofs')!.x[0]);
      } finally {
        s.dispose();
      }
    }
    expect(xs).to.deep.equal([1.5, 2.5]);
  });

  it('a second python3 (another SOFATS_PYTHON) in a process that embeds one runs apart and says why', async function () {
    const other = ['/usr/bin/python3', '/usr/local/bin/python3'].find(
      (p) =>
        fs.existsSync(p) &&
        fs.realpathSync(p) !==
          fs.realpathSync(spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim()),
    );
    if (!other) this.skip();
    const file = path.join(scenes, 'finger_cable.py');
    const first = await loadPythonScene(file);
    first.dispose();
    const before = process.env['SOFATS_PYTHON'];
    process.env['SOFATS_PYTHON'] = other;
    try {
      const second = await loadPythonScene(file);
      try {
        expect(first.python?.inProcess).to.equal(true);
        expect(second.python?.inProcess).to.equal(false);
        expect(second.warnings.map((w) => w.message).join('\n')).to.match(/this process embeds .* already, not /);
      } finally {
        second.dispose();
      }
    } finally {
      if (before === undefined) delete process.env['SOFATS_PYTHON'];
      else process.env['SOFATS_PYTHON'] = before;
    }
  });

  it("keeps Python's working directory apart from the engine's: the scene's folder and its os.chdir for Python, the user's folder for the engine", () => {
    const sceneDir = path.join(tmp, 'scene');
    const user = path.join(tmp, 'user');
    fs.mkdirSync(path.join(sceneDir, 'results'), { recursive: true });
    fs.mkdirSync(user);
    fs.writeFileSync(
      path.join(sceneDir, 'cwd.py'),
      [
        'import os, Sofa.Core',
        'class Log(Sofa.Core.Controller):',
        '    def onAnimateEndEvent(self, e):',
        '        with open("log.txt", "a") as f:',
        '            f.write(os.getcwd() + "\\n")',
        'def createScene(root):',
        '    with open("created-in.txt", "w") as f:',
        '        f.write(os.getcwd())',
        '    os.chdir("results")',
        '    root.addObject("DefaultAnimationLoop")',
        '    root.addObject("MechanicalObject", name="dofs", position=[0, 0, 0])',
        '    root.addObject(Log())',
        '',
      ].join('\n'),
    );
    const r = runCli(['run', path.join(sceneDir, 'cwd.py'), '-n', '3', '--write-state', 'states'], {}, user);
    expect(r.status, r.err).to.equal(0);
    expect(r.out).to.match(/in the engine's process/);
    // Python: the scene's folder, then where its os.chdir took it, for every handler
    expect(fs.readFileSync(path.join(sceneDir, 'created-in.txt'), 'utf8')).to.equal(fs.realpathSync(sceneDir));
    const log = fs
      .readFileSync(path.join(sceneDir, 'results', 'log.txt'), 'utf8')
      .trim()
      .split('\n');
    expect(log).to.deep.equal(Array(3).fill(fs.realpathSync(path.join(sceneDir, 'results'))));
    // the engine: the state files where the user asked, relative to the user's folder
    expect(fs.readdirSync(path.join(user, 'states'))).to.not.be.empty;
    expect(fs.existsSync(path.join(sceneDir, 'states'))).to.equal(false);
    expect(fs.existsSync(path.join(sceneDir, 'results', 'states'))).to.equal(false);
  });

  it("leaves the engine's process.cwd() as it was, and a process.chdir of the engine's does not move Python", async () => {
    const before = process.cwd();
    const sceneDir = path.join(tmp, 'scene');
    fs.mkdirSync(sceneDir);
    fs.writeFileSync(
      path.join(sceneDir, 'where.py'),
      [
        'import os, Sofa.Core',
        'class Where(Sofa.Core.Controller):',
        '    def onAnimateBeginEvent(self, e):',
        '        self.getContext().getObject("dofs").position = [[len(os.getcwd()), 0, 0]]',
        'def createScene(root):',
        '    root.addObject("DefaultAnimationLoop")',
        '    root.addObject("MechanicalObject", name="dofs", position=[0, 0, 0])',
        '    root.addObject(Where())',
        '',
      ].join('\n'),
    );
    const s = await loadPythonScene(path.join(sceneDir, 'where.py'));
    try {
      expect(s.python?.inProcess).to.equal(true);
      // the kernel's folder of the process (Node's process.cwd() is a cached copy)
      const kernelCwd = (): string => fs.realpathSync.native('.');
      expect(kernelCwd()).to.equal(fs.realpathSync(before));
      process.chdir(tmp);
      try {
        s.step();
        expect(kernelCwd()).to.equal(fs.realpathSync(tmp));
      } finally {
        process.chdir(before);
      }
      expect(s.get<BaseMechanicalState>('/dofs')!.x[0]).to.equal(fs.realpathSync(sceneDir).length);
    } finally {
      s.dispose();
    }
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    it(`${signal} stops a handler stuck in a loop (KeyboardInterrupt in it) and ends the run as interrupted, exit ${code}`, async () => {
      fs.writeFileSync(
        path.join(tmp, 'stuck.py'),
        [
          'import Sofa.Core',
          'class Stuck(Sofa.Core.Controller):',
          '    def onAnimateBeginEvent(self, e):',
          '        if self.getContext().time.value > 0.015:',
          '            while True:',
          '                pass',
          'def createScene(root):',
          '    root.addObject("DefaultAnimationLoop")',
          '    root.addObject("MechanicalObject", name="dofs", position=[0, 0, 0])',
          '    root.addObject(Stuck())',
          '',
        ].join('\n'),
      );
      const out = path.join(tmp, 'states');
      const child = spawn(process.execPath, [bin, 'run', path.join(tmp, 'stuck.py'), '-n', '100', '--write-state', out], {
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      // the third step's handler loops: wait until two frames are written, and a little more
      for (let i = 0; i < 600 && !(fs.existsSync(out) && fs.readdirSync(out).length > 0); i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 500));
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const status = await exited;
      clearTimeout(timer);
      expect(status, err).to.equal(code);
      expect(err).to.match(new RegExp(`interrupted by ${signal} after step 2`));
      const text = fs.readFileSync(path.join(out, fs.readdirSync(out)[0]), 'utf8');
      expect(text.split('\n').filter((l) => l.trim().startsWith('X=')).length).to.equal(3); // t = 0, 0.01, 0.02
    });

  it("flushes the scripts' open files and runs their atexit functions, as python3 apart does when it exits", () => {
    const script = [
      'import atexit, Sofa.Core',
      'log = open("module-log.txt", "w")',
      'atexit.register(lambda: open("atexit.txt", "w").write("ran"))',
      'class C(Sofa.Core.Controller):',
      '    def __init__(self, *a, **k):',
      '        Sofa.Core.Controller.__init__(self, *a, **k)',
      '        self.f = open("controller-log.txt", "w")',
      '        self.me = self  # a reference cycle: the collector would close the descriptor first',
      '    def onAnimateEndEvent(self, e):',
      '        self.f.write("step\\n")',
      '        log.write("step\\n")',
      'def createScene(root):',
      '    root.addObject("DefaultAnimationLoop")',
      '    root.addObject("MechanicalObject", position=[0, 0, 0])',
      '    root.addObject(C())',
      '',
    ].join('\n');
    const written: Record<string, Record<string, string>> = {};
    for (const [mode, dir] of Object.entries(runInBothModes(script, 'files.py', () => ['-n', '4']))) {
      written[mode] = {};
      for (const f of ['module-log.txt', 'controller-log.txt', 'atexit.txt']) written[mode][f] = fs.readFileSync(path.join(dir, f), 'utf8');
    }
    expect(written['inside']).to.deep.equal({
      'module-log.txt': 'step\n'.repeat(4),
      'controller-log.txt': 'step\n'.repeat(4),
      'atexit.txt': 'ran',
    });
    expect(written['inside']).to.deep.equal(written['outside']);
  });

  it("serves createScene from its builder thread: RequiredPlugin loading an npm plugin (asynchronous) works, with the XML scene's bits", () => {
    fs.writeFileSync(
      path.join(tmp, 'drag.py'),
      [
        'def createScene(root):',
        '    root.dt = 0.01',
        '    root.gravity = [0, 0, -9.81]',
        '    root.addObject("RequiredPlugin", pluginName="sofa-ts-plugin-example")',
        '    root.addObject("DefaultAnimationLoop")',
        '    p = root.addChild("Particle")',
        '    p.addObject("EulerImplicitSolver")',
        '    p.addObject("SparseLDLSolver", template="CompressedRowSparseMatrixd")',
        '    p.addObject("MechanicalObject", name="dofs", template="Vec3", position=[0, 0, 10])',
        '    p.addObject("UniformMass", totalMass=2)',
        '    p.addObject("LinearDragForceField", name="drag", dragCoefficient=4, windVelocity=[1, 0, 0])',
        '',
      ].join('\n'),
    );
    // the plugin is found from the working directory, as `sofa-ts run` resolves plugin names
    const py = runCli(['run', path.join(tmp, 'drag.py'), '-n', '50', '--write-state', path.join(tmp, 'py')], {}, repoRoot);
    const xml = runCli(
      ['run', path.join(repoRoot, 'examples/plugin-example/scenes/drag.scn'), '-n', '50', '--write-state', path.join(tmp, 'xml')],
      {},
      repoRoot,
    );
    expect(py.status, py.err).to.equal(0);
    expect(xml.status, xml.err).to.equal(0);
    expect(py.out).to.match(/in the engine's process/);
    const read = (dir: string): string => fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0]), 'utf8');
    const lastX = (text: string): string =>
      text
        .split('\n')
        .filter((l) => l.trim().startsWith('X='))
        .pop()!;
    expect(lastX(read(path.join(tmp, 'py')))).to.equal(lastX(read(path.join(tmp, 'xml'))));
  });
});
