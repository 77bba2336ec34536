/**
 * `sofa-ts regression` compares what SOFA's CompareState compares: every reference frame the run
 * reaches, also for a last_step_only scene whose reference holds every step (DistanceMultiMapping),
 * while the states it dumps stay SOFA's (T = 0 and the last step).
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { io } from 'sofa-ts';
import { corpusList, corpusRoot, hasCorpus, repoRoot, stateList } from './corpus-test-support.js';

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');

describe('sofa-ts regression: the reference frames compared are those SOFA compares', function () {
  this.timeout(300000);
  before(function () {
    if (!hasCorpus) this.skip();
  });

  it('DistanceMultiMapping (last_step_only, a reference of every step): every frame compared, two dumped', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-reg-frames-'));
    const json = path.join(out, 'r.json');
    const r = spawnSync(process.execPath, [bin, 'regression', stateList, '--out', out, '--only', 'DistanceMultiMapping', '--json', json], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.stdout).to.match(/^PASS Component\/Mapping\/NonLinear\/DistanceMultiMapping\.scn/);
    const res = (JSON.parse(fs.readFileSync(json, 'utf8')) as { results: { comparedFrames: number; steps: number }[] }).results[0];
    const refs = io.listReferenceStates(
      path.join(corpusRoot, 'regression', 'references', 'examples'),
      'Component/Mapping/NonLinear/DistanceMultiMapping.scn',
    );
    const frames = refs.map((x) => io.readStateFile(x.path).length);
    expect(frames.every((n) => n > 2)).to.equal(true);
    // every frame up to T = (steps − 1)·dt: all of them (the run reaches its last frame)
    expect(res.comparedFrames).to.equal(frames.reduce((a, b) => a + b, 0));
    const dumped = fs.readdirSync(path.join(out, 'Component/Mapping/NonLinear')).filter((f) => f.endsWith('_mstate.txt.gz'));
    expect(dumped).to.have.length(refs.length);
    for (const f of dumped) expect(io.readStateFile(path.join(out, 'Component/Mapping/NonLinear', f))).to.have.length(2);
  });

  it('Pendulum (a reference of two frames): both compared', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-reg-frames-'));
    const json = path.join(out, 'r.json');
    spawnSync(process.execPath, [bin, 'regression', corpusList, '--out', out, '--only', 'Pendulum', '--json', json], { encoding: 'utf8' });
    const res = (JSON.parse(fs.readFileSync(json, 'utf8')) as { results: { comparedFrames: number; passed: boolean }[] }).results[0];
    expect(res.passed).to.equal(true);
    expect(res.comparedFrames).to.be.greaterThan(0);
    const refs = io.listReferenceStates(path.join(corpusRoot, 'regression', 'references', 'examples'), 'Benchmark/Analysis/Pendulum.scn');
    expect(res.comparedFrames).to.equal(refs.map((x) => io.readStateFile(x.path).length).reduce((a, b) => a + b, 0));
  });
});
