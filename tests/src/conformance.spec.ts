import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listDataPaths, runRegressionScene } from '@sofa-ts/cli';
import { readRegressionList } from '@sofa-ts/io';
import { corpusList, hasCorpus, repoRoot, stateList } from './corpus-test-support.js';

/** Scenes that passed once, from tests/conformance-passing.txt: each must keep passing. */
function passingScenes(): string[] {
  const text = fs.readFileSync(path.join(repoRoot, 'tests', 'conformance-passing.txt'), 'utf8');
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith('#'));
}

describe('conformance: the SOFA corpus scenes that pass keep passing', function () {
  if (!hasCorpus) {
    it('needs the SOFA regression corpus (../shared/sofa-regression)', function () {
      this.skip();
    });
    return;
  }
  // a scene is looked up in the corpus list first, then in SOFA's whole state list
  const lists = [corpusList, stateList]
    .filter((f) => fs.existsSync(f))
    .map((file) => ({ list: readRegressionList(file), dataPaths: listDataPaths(file) }));
  const find = (scene: string) => {
    for (const l of lists) {
      const entry = l.list.entries.find((e) => e.sceneRelative === scene);
      if (entry) return { entry, referenceRoot: l.list.referenceRoot, dataPaths: l.dataPaths };
    }
    return undefined;
  };
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-conformance-'));

  for (const scene of passingScenes()) {
    it(`${scene} passes by SOFA's rule`, async function () {
      const found = find(scene);
      expect(found, `${scene} is not in ${corpusList} nor in ${stateList}`).to.not.equal(undefined);
      const { entry, referenceRoot, dataPaths } = found!;
      const r = await runRegressionScene(entry, referenceRoot, { out, dataPath: [] }, dataPaths);
      expect(r.reason, r.reason).to.equal(undefined);
      expect(r.passed, `ERRORBYDOF ${r.errorByDof} > ${entry.epsilon}`).to.equal(true);
    });
  }

  it('lists every scene of the list that exists in the corpus', () => {
    const known = new Set(lists.flatMap((l) => l.list.entries.map((e) => e.sceneRelative)));
    for (const s of passingScenes()) expect(known.has(s), s).to.equal(true);
  });
});
