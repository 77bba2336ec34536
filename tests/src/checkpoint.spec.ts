import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  addObject,
  decodeCheckpoint,
  encodeCheckpoint,
  loadScene,
  loadSceneFromString,
  mechanics,
  readCheckpointFile,
  verifyCheckpoint,
  writeCheckpointFile,
  type SofaScene,
} from 'sofa-ts';
import { corpusRoot, hasCorpus, repoRoot } from './corpus-test-support.js';
import { stableScene } from './safety-test-support.js';

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
const env = { ...process.env, NO_COLOR: '1' };
const examples = path.join(corpusRoot, 'sofa', 'examples');
const dataPaths = [path.join(corpusRoot, 'sofa', 'share'), examples];
const dataArgs = dataPaths.flatMap((d) => ['--data-path', d]);

function cli(args: string[], cwd = repoRoot): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function ok(args: string[], cwd = repoRoot): string {
  const r = cli(args, cwd);
  expect(r.code, `sofa-ts ${args.join(' ')}\n${r.stderr}`).to.equal(0);
  return r.stderr;
}

/** Every file of `a` has a byte-identical twin in `b`, and b has no other file. */
function expectSameFiles(a: string, b: string): void {
  const names = fs.readdirSync(a).sort();
  expect(fs.readdirSync(b).sort()).to.deep.equal(names);
  expect(names.length).to.be.greaterThan(0);
  for (const n of names)
    expect(Buffer.compare(fs.readFileSync(path.join(a, n)), fs.readFileSync(path.join(b, n))), `${n} differs`).to.equal(0);
}

function frames(file: string): string[] {
  return fs.readFileSync(file, 'latin1').split(/(?=^T= )/m);
}

/**
 * The check the task asks for, through the command users run: N steps in one run; a run that
 * takes checkpoints every `every` steps and stops at `stopAt` (past the checkpoint resumed
 * from); then `--resume` from the checkpoint of step K up to N into the same state folder. Its
 * state files must be those of the uninterrupted run, byte for byte (frames after K cut back).
 */
function resumeMatches(scene: string, n: number, k: number, every: number, stopAt: number, dir: string, extra: string[] = []): void {
  const full = path.join(dir, 'full'),
    part = path.join(dir, 'part'),
    ck = path.join(dir, 'ck');
  ok(['run', scene, '-n', String(n), '--write-state', full, ...extra]);
  ok(['run', scene, '-n', String(stopAt), '--write-state', part, '--checkpoint-every', String(every), '--checkpoint-dir', ck, ...extra]);
  const ckpt = path.join(ck, `step-${String(k).padStart(8, '0')}.ckpt`);
  expect(fs.existsSync(ckpt), ckpt).to.equal(true);
  const err = ok(['run', scene, '-n', String(n), '--write-state', part, '--resume', ckpt, ...extra]);
  expect(err).to.contain(`resumed from ${ckpt}: step ${k}`);
  expectSameFiles(full, part);
}

describe('checkpoint and resume: bitwise identical runs', function () {
  this.timeout(120000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-ckpt-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('FEM with a CG solver (Demos/liver.scn, corotational tetrahedra): 20 steps = 12 + checkpoint + 8, state files byte for byte', function () {
    if (!hasCorpus) this.skip();
    resumeMatches(path.join(examples, 'Demos/liver.scn'), 20, 12, 6, 16, dir, dataArgs);
  });

  it('friction contact (FrictionContact.scn: LCP solver, contacts created, kept and removed by the collision response): 40 = 25 + 15', function () {
    if (!hasCorpus) this.skip();
    resumeMatches(path.join(examples, 'Component/Collision/Response/FrictionContact.scn'), 40, 25, 25, 27, dir, dataArgs);
  });

  it('Compliant (scenes/compliant/particle-string.scn: KKT warm start λ): 30 = 10 + 20', () => {
    resumeMatches(path.join(repoRoot, 'scenes/compliant/particle-string.scn'), 30, 10, 5, 13, dir);
  });

  it('inverse soft robot (scenes/softrobots/finger-inverse.scn: QP warm start, actuator windows): 12 = 5 + 7', () => {
    resumeMatches(path.join(repoRoot, 'scenes/softrobots/finger-inverse.scn'), 12, 5, 5, 8, dir);
  });

  it("a resumed run into a new state folder writes the tail of the uninterrupted run's files, from the checkpoint's frame", () => {
    const scene = path.join(repoRoot, 'scenes/compliant/particle-string.scn');
    const full = path.join(dir, 'full'),
      fresh = path.join(dir, 'fresh'),
      ck = path.join(dir, 'ck');
    ok(['run', scene, '-n', '20', '--write-state', full, '--write-period', '2']);
    ok(['run', scene, '-n', '8', '--checkpoint-dir', ck, '--write-period', '2']);
    ok(['run', scene, '-n', '20', '--write-state', fresh, '--write-period', '2', '--resume', ck]);
    for (const n of fs.readdirSync(full)) {
      const all = frames(path.join(full, n));
      expect(all.length).to.equal(11);
      expect(frames(path.join(fresh, n))).to.deep.equal(all.slice(4));
    }
  });

  it("files the scene's components write are continued too: WriteState, Monitor, VTKExporter (numbering and .pvd series)", () => {
    const xml = `<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerImplicitSolver/><CGLinearSolver iterations="20" tolerance="1e-9" threshold="1e-12"/>
    <MeshTopology name="mesh" position="0 0 0  1 0 0  2 0 0" edges="0 1  1 2"/>
    <MechanicalObject name="dofs" template="Vec3"/>
    <UniformMass totalMass="0.003"/>
    <FixedProjectiveConstraint indices="0"/>
    <StiffSpringForceField spring="0 1 100 0 1  1 2 100 0 1"/>
    <WriteState filename="ws.txt" writeX="1" writeV="1"/>
    <Monitor name="mon" indices="1 2" ExportPositions="1" ExportVelocities="1"/>
    <VTKExporter name="vtk" filename="vtk" exportEveryNumberOfSteps="3" edges="1"/>
  </Node>
</Node>`;
    const full = path.join(dir, 'full'),
      part = path.join(dir, 'part');
    for (const d of [full, part]) {
      fs.mkdirSync(d);
      fs.writeFileSync(path.join(d, 'scene.scn'), xml);
    }
    ok(['run', 'scene.scn', '-n', '20'], full);
    ok(['run', 'scene.scn', '-n', '14', '--checkpoint-every', '8', '--checkpoint-dir', path.join(dir, 'ck')], part);
    ok(['run', 'scene.scn', '-n', '20', '--resume', path.join(dir, 'ck', 'step-00000008.ckpt')], part);
    expect(fs.readdirSync(full)).to.include.members(['ws.txt', 'mon_x.txt', 'mon_v.txt', 'vtk.pvd', 'vtk_5.vtu']);
    expectSameFiles(full, part);
  });

  it('SIGINT with --checkpoint-dir writes a checkpoint of the last step; resuming from it gives the uninterrupted run', async () => {
    const scene = path.join(dir, 'stable.scn');
    fs.writeFileSync(scene, stableScene);
    const part = path.join(dir, 'part'),
      ck = path.join(dir, 'ck'),
      full = path.join(dir, 'full');
    const child = spawn(process.execPath, [bin, 'run', scene, '-n', '100000000', '--write-state', part, '--checkpoint-dir', ck], {
      cwd: repoRoot,
      env,
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const t0 = Date.now();
    while (!fs.existsSync(path.join(part, '0_dofs.state.txt')) || frames(path.join(part, '0_dofs.state.txt')).length < 5) {
      if (Date.now() - t0 > 30000) throw new Error('no frames');
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGINT');
    expect(await exit).to.equal(130);
    const written = fs.readdirSync(ck);
    expect(written).to.have.length(1);
    const step = Number(/step-(\d+)\.ckpt/.exec(written[0])![1]);
    expect(stderr).to.contain(`checkpoint: step ${step} in ${path.join(ck, written[0])}`);
    expect(frames(path.join(part, '0_dofs.state.txt')).length).to.equal(step + 1);
    ok(['run', scene, '-n', String(step + 10), '--write-state', full]);
    ok(['run', scene, '-n', String(step + 10), '--write-state', part, '--resume', ck]);
    expectSameFiles(full, part);
  });
});

describe('checkpoint and resume: refusals', function () {
  this.timeout(60000);
  let dir: string;
  const source = path.join(repoRoot, 'scenes/compliant/particle-string.scn');
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-ckpt-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function checkpointOf(scene: string, extra: string[] = []): string {
    ok(['run', scene, '-n', '6', '--checkpoint-dir', path.join(dir, 'ck'), ...extra]);
    return path.join(dir, 'ck', 'step-00000006.ckpt');
  }

  it('a modified scene is refused, naming the component and the Data that differ', () => {
    const scene = path.join(dir, 'string.scn');
    const xml = fs.readFileSync(source, 'utf8');
    fs.writeFileSync(scene, xml);
    const ckpt = checkpointOf(scene);
    expect(xml).to.match(/totalMass="[^"]+"/);
    fs.writeFileSync(
      scene,
      xml.replace(/totalMass="([^"]+)"/, (_m, v: string) => `totalMass="${Number(v) * 2}"`),
    );
    const r = cli(['run', scene, '-n', '10', '--resume', ckpt]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${ckpt} was taken from another scene (or another version of it); refusing to restore it:`);
    expect(r.stderr).to.match(/\/string\/UniformMass1 \(UniformMass\): Data .*'totalMass'.* differ from the checkpoint's scene/);
    // A component more (a comment-only change is no difference: restored, with a warning).
    fs.writeFileSync(
      scene,
      xml.replace(
        '<DefaultAnimationLoop/>',
        '<DefaultAnimationLoop/>\n    <Node name="extra"><MechanicalObject name="more" position="0 0 0"/></Node>',
      ),
    );
    const r2 = cli(['run', scene, '-n', '10', '--resume', ckpt]);
    expect(r2.code).to.equal(1);
    expect(r2.stderr).to.contain("/extra/more (MechanicalObject) is in this scene, not in the checkpoint's");
    fs.writeFileSync(scene, `${xml}\n<!-- a comment -->\n`);
    const r3 = cli(['run', scene, '-n', '10', '--resume', ckpt]);
    expect(r3.code, r3.stderr).to.equal(0);
    expect(r3.stderr).to.contain('changed since the checkpoint (its SHA-256 differs), but not its components nor their values: restored');
  });

  it("a --dt other than the checkpointed run's, a damaged checkpoint, a missing one: refused with what is wrong, no stack", () => {
    const ckpt = checkpointOf(source);
    let r = cli(['run', source, '-n', '10', '--dt', '0.001', '--resume', ckpt]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain("node /: Data 'dt' differs from the checkpoint's scene");
    const bad = path.join(dir, 'bad.ckpt');
    const flipped = Buffer.from(fs.readFileSync(ckpt));
    flipped[flipped.length >> 1] ^= 1;
    fs.writeFileSync(bad, flipped);
    r = cli(['run', source, '-n', '10', '--resume', bad]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${bad}: damaged: the SHA-256 checksum does not match its contents`);
    r = cli(['run', source, '-n', '10', '--resume', path.join(dir, 'nothing-here')]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('does not exist');
    expect(r.stderr).not.to.match(/at .*\.js:\d+/);
  });

  it("state files that are not the checkpointed run's are never overwritten: another period, an edited file, files of a run without states", () => {
    const states = path.join(dir, 'states');
    const ckpt = checkpointOf(source, ['--write-state', states]);
    let r = cli(['run', source, '-n', '10', '--write-state', states, '--write-period', '2', '--resume', ckpt]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('the checkpointed run wrote its states every 1 step(s); continue its files with --write-period 1');
    const f = path.join(states, fs.readdirSync(states)[0]);
    const text = fs.readFileSync(f, 'latin1');
    fs.writeFileSync(f, text.replace('T= 0\n', 'T= 0.0\n'));
    r = cli(['run', source, '-n', '10', '--write-state', states, '--resume', ckpt]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('differs from what the checkpointed run had written: its frames are not continued');
    expect(fs.readFileSync(f, 'latin1')).to.equal(text.replace('T= 0\n', 'T= 0.0\n'));
    const other = path.join(dir, 'ck2');
    ok(['run', source, '-n', '6', '--checkpoint-dir', other]);
    r = cli(['run', source, '-n', '10', '--write-state', states, '--resume', other]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain('was taken by a run that wrote none; they are not overwritten');
  });

  it('--checkpoint-every needs --checkpoint-dir; --checkpoint-at of check must fall inside the run', () => {
    const r = cli(['run', source, '-n', '2', '--checkpoint-every', '1']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.contain('--checkpoint-every needs --checkpoint-dir');
    const c = cli(['check', source, '-n', '5', '--checkpoint-at', '5']);
    expect(c.code).to.equal(2);
    expect(c.stderr).to.contain('--checkpoint-at must be between 1 and 4');
  });

  it('sofa-ts check --checkpoint-at says which scenes resume exactly', () => {
    const r = cli(['check', path.join(repoRoot, 'scenes/compliant/pendulum.scn'), '-n', '8', '--checkpoint-at', '3', '-j', '1']);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.match(/RUNS +\S+pendulum\.scn .*checkpoint exact/);
    expect(r.stdout).to.contain('1 scenes: 1 run, 0 missing components, 0 errors; 1 resume exactly from a checkpoint of step 3, 0 do not');
  });
});

describe('checkpoint and resume from TypeScript', function () {
  this.timeout(120000);

  const repoScene = (p: string) => (): Promise<SofaScene> => loadScene(path.join(repoRoot, p), { dataPaths });

  for (const [scene, n, k] of [
    ['scenes/softrobots/finger-inverse-contact.scn', 12, 6],
    ['scenes/compliant/unilateral-contact.scn', 20, 9],
    ['scenes/compliant/rigid-chain.scn', 20, 9],
  ] as const) {
    it(`${scene}: ${n} steps = ${k} + checkpoint (through the file's bytes) + ${n - k}, every position and velocity bit for bit`, async () => {
      const v = await verifyCheckpoint(repoScene(scene), n, k);
      expect(v.mismatch).to.equal(undefined);
      expect(v.warnings).to.deep.equal([]);
    });
  }

  const xml = `<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver/><CGLinearSolver iterations="30" tolerance="1e-12" threshold="1e-14" warmStart="true"/>
  <MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/>
  <UniformMass totalMass="3"/>
  <FixedProjectiveConstraint indices="0"/>
  <StiffSpringForceField spring="0 1 500 1 1  1 2 500 1 1"/>
</Node>`;

  it('warm-started CG: resumed bitwise; without the saved solution (a checkpoint stripped of it) the resumed run differs', async () => {
    const load = (): Promise<SofaScene> => loadSceneFromString(xml);
    expect((await verifyCheckpoint(load, 12, 5)).mismatch).to.equal(undefined);
    const a = await load();
    a.step(12);
    const b = await load();
    b.step(5);
    const { checkpoint } = b.checkpoint();
    const solver = checkpoint.components.find((c) => c.key === '/EulerImplicitSolver1')!;
    (solver.state!['sol'] as Float64Array).fill(0);
    const c = await load();
    c.restore(decodeCheckpoint(encodeCheckpoint(checkpoint)));
    c.step(7);
    expect([...c.get<mechanics.MechanicalObject>('/dofs')!.x]).not.to.deep.equal([...a.get<mechanics.MechanicalObject>('/dofs')!.x]);
  });

  it('restores only into a scene that has not stepped; controllers are part of the scene', async () => {
    const a = await loadSceneFromString(xml);
    a.addController({}, { name: 'ctl' });
    a.step(3);
    const { checkpoint } = a.checkpoint();
    const stepped = await loadSceneFromString(xml);
    stepped.step();
    expect(() => stepped.restore(checkpoint)).to.throw(/the simulation already ran 1 step\(s\); restore into a freshly loaded scene/);
    const without = await loadSceneFromString(xml);
    expect(() => without.restore(checkpoint)).to.throw(/refusing to restore it/);
    const withCtl = await loadSceneFromString(xml);
    withCtl.addController({}, { name: 'ctl' });
    withCtl.restore(checkpoint);
    expect(withCtl.simulation.stepCount).to.equal(3);
    expect(withCtl.time).to.equal(a.time);
  });

  it('checkpoint files are written atomically: no temporary file after a success or a failure', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-ckpt-'));
    try {
      const a = await loadSceneFromString(xml);
      a.step(4);
      const { checkpoint } = a.checkpoint();
      const file = path.join(dir, 'step-00000004.ckpt');
      writeCheckpointFile(file, checkpoint);
      expect(fs.readdirSync(dir)).to.deep.equal(['step-00000004.ckpt']);
      expect(readCheckpointFile(file).step).to.equal(4);
      // The target is a folder: the rename fails, the temporary file is removed.
      const blocked = path.join(dir, 'blocked.ckpt');
      fs.mkdirSync(path.join(blocked, 'inside'), { recursive: true });
      expect(() => writeCheckpointFile(blocked, checkpoint)).to.throw(/cannot write checkpoint .*blocked\.ckpt/);
      expect(fs.readdirSync(dir).sort()).to.deep.equal(['blocked.ckpt', 'step-00000004.ckpt']);
      expect(() => readCheckpointFile(path.join(dir, 'none.ckpt'))).to.throw(/cannot read checkpoint .*none\.ckpt/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names what it cannot save: a component added during the run (warning), a state that changed size (error)', async () => {
    const a = await loadSceneFromString(xml);
    a.step(2);
    addObject(a, a.root, 'MechanicalObject', { name: 'late', position: '0 0 0' }).init();
    const { warnings } = a.checkpoint();
    expect(warnings.map((w) => w.message).join('\n')).to.match(
      /MechanicalObject 'late': created during the run \(in \/root\) and declared by no component: its state is not in the checkpoint/,
    );
    const b = await loadSceneFromString(xml);
    b.step(2);
    b.get<mechanics.MechanicalObject>('/dofs')!.resize(4);
    expect(() => b.checkpoint()).to.throw(
      /\/dofs \(MechanicalObject\) has 4 points, 3 before the first step: topological changes are not checkpointed/,
    );
  });
});
