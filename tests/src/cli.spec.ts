import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { io } from 'sofa-ts';
import { corpusList, hasCorpus, repoRoot } from './corpus-test-support.js';

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
function cli(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

describe('sofa-ts CLI', () => {
  it('runs the default scene and prints a summary', () => {
    const r = cli('run', 'scenes/default.scn', '-n', '20');
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/steps\s+20 × dt 0.01 s → t = 0.2 s/);
    expect(r.stdout).to.match(/ms\/step/);
    expect(r.stdout).to.match(/iterations\s+[\d.]+ per step/);
  });

  it('writes every state at T=0 and every K steps, readable back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-ws-'));
    const r = cli('run', 'scenes/default.scn', '-n', '10', '--write-state', dir, '--write-period', '5');
    expect(r.status, r.stderr).to.equal(0);
    expect(fs.readdirSync(dir)).to.deep.equal(['0_dofs.state.txt']);
    const frames = io.readStateFile(path.join(dir, '0_dofs.state.txt'));
    expect(frames.map((f) => f.time)).to.deep.equal([0, 0.05, 0.1]);
    expect(frames[0].X.length).to.equal(30);
    expect(frames[0].V!.length).to.equal(30);
  });

  it('prints a located error and no stack trace for a bad scene', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-bad-'));
    const f = path.join(dir, 'bad.scn');
    fs.writeFileSync(f, '<Node name="root">\n  <MechanicalObjet/>\n</Node>\n');
    const r = cli('run', f, '-n', '1');
    expect(r.status).to.equal(1);
    expect(r.stderr).to.equal(`error: ${f}:2:3: unknown component 'MechanicalObjet' (did you mean 'MechanicalObject'?)\n`);
  });

  it('rejects bad options with a usage message', () => {
    const r = cli('run', 'scenes/default.scn', '-n', 'ten');
    expect(r.status).to.not.equal(0);
    expect(r.stderr).to.contain('expected a non-negative integer');
  });

  it('judges a regression list and ends with "N passed, M failed"', function () {
    if (!hasCorpus) this.skip();
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-reg-'));
    const json = path.join(out, 'r.json');
    const r = cli('regression', corpusList, '--out', out, '--only', 'Pendulum', '--only', 'EulerExplicitSolver', '--json', json);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^PASS Benchmark\/Analysis\/Pendulum\.scn {2}ERRORBYDOF/);
    expect(lines[lines.length - 1]).to.match(/^\d+ passed, \d+ failed$/);
    const j = JSON.parse(fs.readFileSync(json, 'utf8')) as { passed: number; results: { scene: string; passed: boolean }[] };
    expect(j.results.find((x) => x.scene.endsWith('Pendulum.scn'))!.passed).to.equal(true);
    expect(r.status).to.equal(j.results.every((x) => x.passed) ? 0 : 1);
  });
});
