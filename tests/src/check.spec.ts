import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './corpus-test-support.js';

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
function cli(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

const body =
  '<DefaultAnimationLoop/><Node name="b"><EulerImplicitSolver/><CGLinearSolver iterations="10" tolerance="1e-9" threshold="1e-12"/><MechanicalObject position="0 0 0 1 0 0"/><UniformMass totalMass="1"/></Node>';

describe('sofa-ts run --strict / --skip-unknown', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-policy-'));
  const warn = path.join(dir, 'warn.scn');
  fs.writeFileSync(
    warn,
    `<Node name="root">\n  ${body}\n  <Node name="c"><MechanicalObject position="0 0 0" colour="red"/></Node>\n</Node>\n`,
  );
  const unknown = path.join(dir, 'unknown.scn');
  fs.writeFileSync(unknown, `<Node name="root">\n  ${body}\n  <OglFrobnicator/>\n  <MechanicalObjet name="x"/>\n</Node>\n`);

  it('warns about an unused attribute with its location and runs; --strict makes it an error', () => {
    const ok = cli('run', warn, '-n', '2');
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.stderr).to.contain(
      `warning: ${warn}:3:53: MechanicalObject '': unused attribute 'colour' (MechanicalObject has no Data of that name)`,
    );
    const strict = cli('run', warn, '-n', '2', '--strict');
    expect(strict.status).to.equal(1);
    expect(strict.stderr).to.contain(`error: ${warn}:3:53: MechanicalObject '': unused attribute 'colour'`);
  });

  it('reports every unknown component at once; --skip-unknown loads the scene without them, with warnings', () => {
    const r = cli('run', unknown, '-n', '2');
    expect(r.status).to.equal(1);
    expect(r.stderr.trim().split('\n')).to.deep.equal([
      `error: ${unknown}:3:3: unknown component 'OglFrobnicator'`,
      `error: ${unknown}:4:3: unknown component 'MechanicalObjet' (did you mean 'MechanicalObject'?)`,
    ]);
    const s = cli('run', unknown, '-n', '2', '--skip-unknown');
    expect(s.status, s.stderr).to.equal(0);
    expect(s.stderr).to.contain(`warning: ${unknown}:4:3: unknown component 'MechanicalObjet': left out of the scene (--skip-unknown)`);
  });
});

describe('sofa-ts check', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-check-'));
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'a-runs.scn'), `<Node name="root">${body}</Node>`);
  fs.writeFileSync(
    path.join(dir, 'b-missing.scn'),
    `<Node name="root">${body}<Frobnicator/><Node name="n"><Frobnicator/><Wobbler/></Node></Node>`,
  );
  fs.writeFileSync(
    path.join(dir, 'sub', 'c-error.scn'),
    `<Node name="root">${body}<Node name="n"><MechanicalObject position="0 0 0"/><UniformMass totalMass="-1"/></Node></Node>`,
  );
  fs.writeFileSync(path.join(dir, 'sub', 'd-bad.scn'), `<Node name="root">\n  <MechanicalObject position="0 0 0"\n</Node>`);
  fs.writeFileSync(path.join(dir, 'sub', 'notes.txt'), 'not a scene');

  it('checks every .scn under the folders, one line per scene in order, then the counts and the most needed components', () => {
    const json = path.join(dir, 'out', 'check.json');
    const r = cli('check', dir, '-n', '3', '-j', '2', '--json', json);
    expect(r.status).to.equal(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).to.match(new RegExp(`^RUNS +${escape(path.join(dir, 'a-runs.scn'))}  3 steps, [\\d.]+ ms/step$`));
    expect(lines[1]).to.equal(`MISSING ${path.join(dir, 'b-missing.scn')}  — Frobnicator, Wobbler`);
    expect(lines[2]).to.match(
      new RegExp(
        `^ERROR +${escape(path.join(dir, 'sub', 'c-error.scn'))}  — ${escape(path.join(dir, 'sub', 'c-error.scn'))}:1:\\d+: UniformMass`,
      ),
    );
    expect(lines[3]).to.match(new RegExp(`^ERROR +${escape(path.join(dir, 'sub', 'd-bad.scn'))}  — .*d-bad\\.scn:3:1: malformed XML`));
    expect(lines.slice(4)).to.deep.equal([
      'most needed missing components (scenes that need each):',
      '     1  Frobnicator',
      '     1  Wobbler',
      '4 scenes: 1 run, 1 missing components, 2 errors',
    ]);
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect([report.scenes, report.runs, report.missing, report.errors]).to.deep.equal([4, 1, 1, 2]);
    expect(report.results[1].details).to.have.length(3); // each unknown element, located
  });

  it('stops a scene that takes longer than --timeout and goes on with the others', () => {
    const r = cli('check', path.join(dir, 'a-runs.scn'), path.join(dir, 'a-runs.scn'), '-n', '1000000', '--timeout', '1', '-j', '1');
    expect(r.status).to.equal(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^ERROR .* — stopped after 1 s \(hang or too slow\)$/);
    expect(lines[1]).to.match(/^ERROR .* — stopped after 1 s/);
    expect(lines.at(-1)).to.equal('2 scenes: 0 run, 0 missing components, 2 errors');
  });

  it('says so when a path does not exist', () => {
    const r = cli('check', path.join(dir, 'nope'));
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain(`no such file or folder: ${path.join(dir, 'nope')}`);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('sofa-ts check: files written by the scenes', () => {
  it('go to a temporary folder, never beside the checked scene', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-check-w-'));
    const scene = path.join(dir, 'writes.scn');
    fs.writeFileSync(
      scene,
      `<Node name="root">${body.replace('<UniformMass totalMass="1"/>', '<UniformMass totalMass="1"/><WriteState filename="out.txt"/>')}</Node>`,
    );
    const r = cli('check', scene, '-n', '3');
    expect(r.status, r.stdout + r.stderr).to.equal(0);
    expect(fs.readdirSync(dir)).to.deep.equal(['writes.scn']);
    // The same scene run normally writes beside itself, as SOFA does.
    const run = cli('run', scene, '-n', '3');
    expect(run.status, run.stderr).to.equal(0);
    expect(fs.readdirSync(dir).sort()).to.deep.equal(['out.txt', 'writes.scn']);
  });

  it('the temporary folders are removed, also those of scenes stopped at --timeout while writing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-check-w-'));
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-check-tmp-'));
    const scene = path.join(dir, 'writes.scn');
    fs.writeFileSync(
      scene,
      `<Node name="root">${body.replace('<UniformMass totalMass="1"/>', '<UniformMass totalMass="1"/><WriteState filename="out.txt"/>')}</Node>`,
    );
    const r = spawnSync(process.execPath, [bin, 'check', scene, scene, '-n', '1000000', '--timeout', '1', '-j', '1'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', TMPDIR: tmp },
    });
    expect(r.stdout.trim().split('\n').at(-1), r.stderr).to.equal('2 scenes: 0 run, 0 missing components, 2 errors');
    expect(fs.readdirSync(tmp)).to.deep.equal([]);
  });
});

describe('sofa-ts run: warnings raised during the steps', () => {
  it('are printed, located, once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-stepwarn-'));
    const scene = path.join(dir, 'uzawa.scn');
    fs.writeFileSync(
      scene,
      `<Node name="root" dt="0.01" gravity="0 -10 0">
  <FreeMotionAnimationLoop/>
  <BipotentialUzawaConstraintSolver method="local" tolerance="1e-12" localTolerance="1e-30" maxLocalIterations="2"/>
  <Node name="ground"><MechanicalObject name="dofs" position="0 0 0"/></Node>
  <Node name="p">
    <EulerImplicitSolver/><CGLinearSolver iterations="50" tolerance="1e-16" threshold="1e-30"/>
    <MechanicalObject name="dofs" position="0 0 0" velocity="0.5 0 0"/><UniformMass totalMass="2"/><UncoupledConstraintCorrection compliance="0.5"/>
  </Node>
  <UnilateralLagrangianConstraint object1="@ground/dofs" object2="@p/dofs" first_point="0" second_point="0" normals="0 1 0" mu="0.3"/>
</Node>
`,
    );
    const r = cli('run', scene, '-n', '5');
    expect(r.status, r.stderr).to.equal(0);
    const lines = r.stderr.split('\n').filter((l) => l.includes('maxLocalIterations'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(
      new RegExp(
        `^warning: ${escape(scene)}:3:\\d+: BipotentialUzawaConstraintSolver .*the local Uzawa inner loop reached maxLocalIterations=2`,
      ),
    );
  });
});
