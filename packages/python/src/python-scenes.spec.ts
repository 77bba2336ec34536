import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KeypressedEvent, KeyreleasedEvent, loadSceneFromString, type BaseMechanicalState, type Data, type SofaScene } from 'sofa-ts';
import { loadPythonScene } from './load-python-scene.js';
import { pythonPackageDir } from './python-process.js';
import { pythonRunnersIn, runCli } from './python-test-support.js';

/**
 * Python scenes, written the way SoftRobots' examples are, give bit for bit the states of the
 * equivalent XML scene driven by the same controller written with the TypeScript API — through
 * `sofa-ts run scene.py` (the engine runs python3) and through `import Sofa` in a Python program
 * (python3 runs the engine). The oracle is the XML path, which SOFA's references check.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, '..');
const repoRoot = path.resolve(packageRoot, '..', '..');
const scenes = path.join(packageRoot, 'test-scenes');
const hasPython = spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)']).status === 0;

const fingerXml = (cable: string, extra = ''): string => `<Node name="root" dt="0.01" gravity="0 0 0">
    <FreeMotionAnimationLoop/>
    <BlockGaussSeidelConstraintSolver tolerance="1e-10" maxIterations="1000"/>
    <Node name="finger">
        <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
        <SparseLDLSolver/>
        <RegularGridTopology name="grid" nx="11" ny="3" nz="3" min="0 0 0" max="100 10 10"/>
        <MechanicalObject name="dofs"/>
        <UniformMass totalMass="0.01"/>
        <HexahedronFEMForceField youngModulus="18000" poissonRatio="0.3" method="large"/>
        <BoxROI name="clamp" box="-1 -1 -1 1 11 11"/>
        <FixedProjectiveConstraint indices="@clamp.indices"/>
        <LinearSolverConstraintCorrection/>
        <CableConstraint name="cable" indices="34 35 36 37 38 39 40 41 42 43" pullPoint="-10 0 5" valueType="displacement" value="${cable}" minForce="0"/>
        ${extra}
    </Node>
</Node>`;

function positions(s: SofaScene, p: string): Float64Array {
  return Float64Array.from(s.get<BaseMechanicalState>(p)!.x);
}

function bitwiseEqual(a: Float64Array, b: Float64Array): boolean {
  return (
    a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))
  );
}

/** The XML finger with the cable controller of finger_cable.py written with the TypeScript API. */
async function xmlFingerWithController(steps: number): Promise<Float64Array> {
  const s = await loadSceneFromString(fingerXml('0'));
  const value = s.get('/finger/cable')!.findData('value') as Data<Float64Array>;
  s.addController({ onAnimateBeginEvent: () => (value.value = Float64Array.of(Math.min(value.value[0] + 0.1, 2.0))) }, { node: '/finger' });
  s.step(steps);
  return positions(s, '/finger/dofs');
}

(hasPython ? describe : describe.skip)('Python scenes (SofaPython3 API over the engine)', function () {
  this.timeout(120_000);

  it('a cable finger with a Python controller gives bit for bit the XML finger with the same controller', async () => {
    const steps = 30;
    const py = await loadPythonScene(path.join(scenes, 'finger_cable.py'));
    try {
      py.step(steps);
      const xml = await xmlFingerWithController(steps);
      const x = positions(py, '/finger/dofs');
      expect(bitwiseEqual(x, xml)).to.equal(true);
      // and it moved: the cable shortened to 2 mm bends the finger down
      expect(x[3 * 54 + 1] - 0).to.be.below(-1);
    } finally {
      py.dispose();
    }
  });

  it('a Python program drives the engine with import Sofa: Sofa.Simulation.init and animate loops give the same bits', async () => {
    const steps = 30;
    const driver = [
      'import sys',
      `sys.path.insert(0, ${JSON.stringify(scenes)})`,
      'import Sofa.Core, Sofa.Simulation',
      'import finger_cable',
      'root = Sofa.Core.Node("root")',
      'finger_cable.createScene(root)',
      'Sofa.Simulation.init(root)',
      `for i in range(${steps}):`,
      '    Sofa.Simulation.animate(root, root.dt.value)',
      'sys.stdout.buffer.write(root.finger.dofs.position.value.tobytes())',
    ].join('\n');
    const out = execFileSync('python3', ['-c', driver], {
      env: { ...process.env, PYTHONPATH: pythonPackageDir(), PYTHONDONTWRITEBYTECODE: '1' },
      maxBuffer: 1 << 20,
    });
    const x = new Float64Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
    const xml = await xmlFingerWithController(steps);
    expect(bitwiseEqual(x, xml)).to.equal(true);
  });

  it('a pneumatic cavity inflated by a pressure controller gives the XML cavity with the same controller', async () => {
    const steps = 12;
    const py = await loadPythonScene(path.join(scenes, 'cavity_pressure.py'));
    try {
      py.step(steps);
      const xmlText = fs
        .readFileSync(path.join(repoRoot, 'scenes/softrobots/cavity-direct-pressure.scn'), 'utf8')
        .replace('value="3"', 'value="0"');
      const xml = await loadSceneFromString(xmlText, { fileName: path.join(repoRoot, 'scenes/softrobots/cavity-direct-pressure.scn') });
      const p = xml.get('/actuator/cavity')!.findData('value') as Data<Float64Array>;
      xml.addController({ onAnimateBeginEvent: () => (p.value = Float64Array.of(Math.min(p.value[0] + 0.5, 3.0))) }, { node: '/actuator' });
      xml.step(steps);
      const x = positions(py, '/actuator/dofs');
      expect(bitwiseEqual(x, positions(xml, '/actuator/dofs'))).to.equal(true);
      expect(Math.max(...x.filter((_, i) => i % 3 === 2))).to.be.above(10.5); // the top rose
    } finally {
      py.dispose();
    }
  });

  it('an inverse finger whose goal a Python controller moves gives the XML inverse finger with the same controller', async () => {
    const steps = 20;
    const py = await loadPythonScene(path.join(scenes, 'finger_inverse_goal.py'));
    try {
      py.step(steps);
      const xmlText = fs.readFileSync(path.join(repoRoot, 'scenes/softrobots/finger-inverse.scn'), 'utf8');
      const xml = await loadSceneFromString(xmlText);
      const goal = xml.get('/finger/effector')!.findData('effectorGoal') as Data<Float64Array>;
      xml.addController({ onAnimateBeginEvent: (s) => (goal.value = Float64Array.of(100, 10 + 3 * Math.sin(0.2 * s.time), 5)) });
      xml.step(steps);
      expect(bitwiseEqual(positions(py, '/finger/dofs'), positions(xml, '/finger/dofs'))).to.equal(true);
    } finally {
      py.dispose();
    }
  });

  /** The XML finger with the cable pulled by +1 / -1 before the given steps (the keyboard rule). */
  async function xmlFingerWithKeys(steps: number, pressed: Record<number, number>): Promise<Float64Array> {
    const xml = await loadSceneFromString(fingerXml('0'));
    const value = xml.get('/finger/cable')!.findData('value') as Data<Float64Array>;
    for (let i = 1; i <= steps; i++) {
      if (pressed[i]) value.value = Float64Array.of(Math.max(value.value[0] + pressed[i], 0));
      xml.step();
    }
    return positions(xml, '/finger/dofs');
  }

  it('a keyboard-driven Python scene given key events between steps gives the XML scene with the same pulls', async () => {
    const py = await loadPythonScene(path.join(scenes, 'finger_keyboard.py'));
    try {
      const keys: Record<number, string> = { 2: '+', 3: '+', 6: '-' };
      for (let i = 1; i <= 8; i++) {
        if (keys[i]) {
          py.root.propagateEvent(new KeypressedEvent(keys[i]));
          py.root.propagateEvent(new KeyreleasedEvent(keys[i]));
        }
        py.step();
      }
      const xml = await xmlFingerWithKeys(8, { 2: 1, 3: 1, 6: -1 });
      expect(bitwiseEqual(positions(py, '/finger/dofs'), xml)).to.equal(true);
    } finally {
      py.dispose();
    }
  });

  it('sofa-ts run --key STEP:KEY sends the same key events to the Python controller', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-py-keys-'));
    try {
      const r = runCli([
        'run',
        path.join(scenes, 'finger_keyboard.py'),
        '-n',
        '8',
        '--key',
        '2:+',
        '--key',
        '3:plus',
        '--key',
        '6:-',
        '--write-state',
        dir,
      ]);
      expect(r.status, r.err).to.equal(0);
      const text = fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0]), 'utf8');
      const last = text
        .split('\n')
        .filter((l) => l.trim().startsWith('X='))
        .pop()!;
      const fromFile = last.trim().slice(2).trim().split(/\s+/).map(Number);
      const xml = await xmlFingerWithKeys(8, { 2: 1, 3: 1, 6: -1 });
      // the state file holds SOFA's printed digits (6 significant), the library test above the bits
      const worst = Math.max(...Array.from(xml, (v, i) => Math.abs(v - fromFile[i]) / Math.max(1, Math.abs(v))));
      expect(worst).to.be.below(1e-5);
      expect(Math.abs(xml[3 * 54 + 1])).to.be.above(0.5);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

(hasPython ? describe : describe.skip)('Python scenes: bad input is a located error, exit code 1, no orphan', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-py-bad-'));
    const write = (name: string, text: string): void => fs.writeFileSync(path.join(dir, name), text);
    write('syntax.py', 'import Sofa\ndef createScene(root)\n    pass\n');
    write('create.py', 'def createScene(root):\n    root.addObject("DefaultAnimationLoop")\n    x = 1 / 0\n');
    write('module.py', 'import no_such_module_of_sofa_ts\ndef createScene(root):\n    pass\n');
    write('component.py', 'def createScene(root):\n    root.addObject("NoSuchComponentAnywhere")\n');
    write(
      'handler.py',
      [
        'import Sofa.Core',
        'class C(Sofa.Core.Controller):',
        '    def __init__(self, *a, **k):',
        '        Sofa.Core.Controller.__init__(self, *a, **k)',
        '        self.k = 0',
        '    def onAnimateBeginEvent(self, e):',
        '        self.k += 1',
        '        if self.k == 3:',
        '            raise RuntimeError("boom at the third step")',
        'def createScene(root):',
        '    root.addObject("MechanicalObject", position=[0, 0, 0])',
        '    root.addObject(C())',
        '',
      ].join('\n'),
    );
    write(
      'badwrite.py',
      [
        'import Sofa.Core',
        'class C(Sofa.Core.Controller):',
        '    def __init__(self, *a, **k):',
        '        Sofa.Core.Controller.__init__(self, *a, **k)',
        '        self.root = k["root"]',
        '    def onAnimateBeginEvent(self, e):',
        '        self.root.gravity = [0.0, 0.0, 0.0, 1.0]',
        'def createScene(root):',
        '    root.addObject("MechanicalObject", position=[0, 0, 0])',
        '    root.addObject(C(root=root))',
        '',
      ].join('\n'),
    );
    write(
      'exits.py',
      [
        'import sys, Sofa.Core',
        'class C(Sofa.Core.Controller):',
        '    def onAnimateBeginEvent(self, e):',
        '        if self.getContext().time.value > 0:',
        '            sys.exit(4)',
        'def createScene(root):',
        '    root.addObject("MechanicalObject", position=[0, 0, 0])',
        '    root.addObject(C())',
        '',
      ].join('\n'),
    );
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const cases: Array<[string, RegExp]> = [
    ['syntax.py', /syntax\.py:2:1: Python SyntaxError/],
    ['create.py', /create\.py:3:1: Python ZeroDivisionError: division by zero/],
    ['module.py', /module\.py:1:1: Python ModuleNotFoundError: No module named 'no_such_module_of_sofa_ts'/],
    ['component.py', /component\.py:2:1: .*unknown component 'NoSuchComponentAnywhere'/],
    ['handler.py', /handler\.py:9:1: C 'C' \(Python controller\).*RuntimeError: boom at the third step[\s\S]*step 3/],
    ['exits.py', /exits\.py:5:1: .*SystemExit: 4[\s\S]*step 2/],
    ['badwrite.py', /badwrite\.py:7:1: .*the value written to 'gravity' at .*badwrite\.py:7 was refused: .*expected 3 numbers, got 4/],
  ];
  // the interpreter in the engine's process (the default) and python3 apart say the same
  const modes: Array<[string, NodeJS.ProcessEnv]> = [
    ["in the engine's process", {}],
    ['in a separate python3', { SOFATS_PYTHON_INPROCESS: '0' }],
  ];
  for (const [mode, env] of modes)
    for (const [file, expected] of cases) {
      it(`${file}, ${mode}: the message names the script's file and line, exit code 1`, () => {
        const r = runCli(['run', path.join(dir, file), '-n', '5'], env);
        expect(r.status).to.equal(1);
        expect(r.err).to.match(expected);
        expect(r.err).not.to.match(/at .*\.js:\d+/); // no JavaScript stack
        expect(pythonRunnersIn(dir)).to.deep.equal([]);
      });
    }

  it('a missing python3 is said, exit code 1', () => {
    const r = runCli(['run', path.join(dir, 'create.py'), '-n', '5'], { SOFATS_PYTHON: path.join(dir, 'no-python3-here') });
    expect(r.status).to.equal(1);
    expect(r.err).to.match(/no .*no-python3-here found \(install python3/);
  });
});
