import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SofaError } from '@sofa-ts/core';
import {
  hasReferenceMarker,
  listReferenceStates,
  parseReferenceStateFileName,
  referenceMarkerPath,
  referenceStatePath,
} from './reference-names.js';
import { readRegressionList } from './regression-list.js';
import { corpusRoot } from './corpus-test-support.js';

const CORPUS = corpusRoot();

describe('reference file names', () => {
  it('builds the marker and state file paths', () => {
    expect(referenceMarkerPath('/refs', 'Benchmark/Analysis/Pendulum.scn')).to.equal('/refs/Benchmark/Analysis/Pendulum.scn.reference');
    expect(referenceStatePath('/refs', 'Benchmark/Analysis/Pendulum.scn', 1, 'Particles')).to.equal(
      '/refs/Benchmark/Analysis/Pendulum.scn.reference_1_Particles_mstate.txt.gz',
    );
    expect(() => referenceStatePath('/refs', 'a.scn', -1, 'x')).to.throw(SofaError);
  });

  it('parses index and name, names with underscores and spaces included', () => {
    expect(parseReferenceStateFileName('a.scn.reference_0_dofs_mstate.txt.gz', 'a.scn')).to.deep.equal({ index: 0, name: 'dofs' });
    expect(parseReferenceStateFileName('a.scn.reference_12_my_state_mstate.txt.gz', 'a.scn')).to.deep.equal({
      index: 12,
      name: 'my_state',
    });
    expect(parseReferenceStateFileName('a.scn.reference_3_Rigid body 2_mstate.txt.gz', 'a.scn')).to.deep.equal({
      index: 3,
      name: 'Rigid body 2',
    });
    expect(parseReferenceStateFileName('a.scn.reference_4_12_mstate.txt.gz', 'a.scn')).to.deep.equal({ index: 4, name: '12' });
  });

  it('ignores files that are not state references of that scene', () => {
    for (const other of [
      'a.scn.reference',
      'b.scn.reference_0_dofs_mstate.txt.gz',
      'xa.scn.reference_0_dofs_mstate.txt.gz',
      'a.scn.reference_x_dofs_mstate.txt.gz',
      'a.scn.reference_0__mstate.txt.gz',
      'a.scn.reference_0_dofs_mstate.txt',
    ]) {
      expect(parseReferenceStateFileName(other, 'a.scn'), other).to.equal(undefined);
    }
  });

  describe('listReferenceStates', () => {
    let root: string;
    beforeEach(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-refs-'));
      fs.mkdirSync(path.join(root, 'Demos'));
    });
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    const touch = (name: string) => fs.writeFileSync(path.join(root, 'Demos', name), '');

    it('sorts by numeric index and skips other scenes and the marker', () => {
      for (const n of [
        's.scn.reference',
        's.scn.reference_10_ten_mstate.txt.gz',
        's.scn.reference_2_two_x_mstate.txt.gz',
        's.scn.reference_0_a b_mstate.txt.gz',
        't.scn.reference_1_other_mstate.txt.gz',
      ])
        touch(n);
      const found = listReferenceStates(root, 'Demos/s.scn');
      expect(found.map((f) => [f.index, f.name])).to.deep.equal([
        [0, 'a b'],
        [2, 'two_x'],
        [10, 'ten'],
      ]);
      expect(found[1].path).to.equal(path.join(root, 'Demos/s.scn.reference_2_two_x_mstate.txt.gz'));
      expect(hasReferenceMarker(root, 'Demos/s.scn')).to.equal(true);
      expect(hasReferenceMarker(root, 'Demos/t.scn')).to.equal(false);
    });

    it('returns nothing for a scene without references or folder', () => {
      expect(listReferenceStates(root, 'Demos/none.scn')).to.deep.equal([]);
      expect(listReferenceStates(root, 'Missing/none.scn')).to.deep.equal([]);
    });

    it('rejects two files for one index', () => {
      touch('s.scn.reference_1_a_mstate.txt.gz');
      touch('s.scn.reference_1_b_mstate.txt.gz');
      expect(() => listReferenceStates(root, 'Demos/s.scn')).to.throw(SofaError, /two references for state 1/);
    });
  });
});

describe('corpus references', () => {
  const manifestPath = path.join(CORPUS, 'manifest.json');
  before(function () {
    if (!fs.existsSync(manifestPath)) this.skip();
  });

  it('finds, for every listed scene, the states the manifest names, in order', () => {
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as {
      scenes: Array<{ scene: string; mstates: Array<{ index: number; name: string; reference: string }> }>;
    };
    const list = readRegressionList(path.join(CORPUS, 'sofa/examples/Corpus.regression-tests'));
    for (const entry of list.entries) {
      const scene = manifest.scenes.find((s) => path.join(CORPUS, s.scene) === entry.scene)!;
      expect(scene, entry.sceneRelative).to.not.equal(undefined);
      expect(hasReferenceMarker(list.referenceRoot, entry.sceneRelative), entry.sceneRelative).to.equal(true);
      const found = listReferenceStates(list.referenceRoot, entry.sceneRelative);
      expect(found.map((f) => [f.index, f.name, f.path])).to.deep.equal(
        scene.mstates.map((m) => [m.index, m.name, path.join(CORPUS, m.reference)]),
      );
      for (const m of scene.mstates) {
        expect(referenceStatePath(list.referenceRoot, entry.sceneRelative, m.index, m.name)).to.equal(path.join(CORPUS, m.reference));
      }
    }
  });
});
