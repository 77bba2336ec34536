import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listDataPaths, runRegressionScene } from '@sofa-ts/cli';
import { readRegressionList } from '@sofa-ts/io';
import { corpusList, hasCorpus, repoRoot } from './corpus.js';

/** Scenes that passed once, from tests/conformance-passing.txt: each must keep passing. */
function passingScenes(): string[] {
  const text = fs.readFileSync(path.join(repoRoot, 'tests', 'conformance-passing.txt'), 'utf8');
  return text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0 && !l.startsWith('#'));
}

describe('conformance: the SOFA corpus scenes that pass keep passing', function () {
  if (!hasCorpus) {
    it('needs the SOFA regression corpus (../shared/sofa-regression)', function () {
      this.skip();
    });
    return;
  }
  const list = readRegressionList(corpusList);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-conformance-'));
  const dataPaths = listDataPaths(corpusList);

  for (const scene of passingScenes()) {
    it(`${scene} passes by SOFA's rule`, async function () {
      const entry = list.entries.find((e) => e.sceneRelative === scene);
      expect(entry, `${scene} is not in ${corpusList}`).to.not.equal(undefined);
      const r = await runRegressionScene(entry!, list.referenceRoot, { out, dataPath: [] }, dataPaths);
      expect(r.reason, r.reason).to.equal(undefined);
      expect(r.passed, `ERRORBYDOF ${r.errorByDof} > ${entry!.epsilon}`).to.equal(true);
    });
  }

  it('lists every scene of the list that exists in the corpus', () => {
    const known = new Set(list.entries.map((e) => e.sceneRelative));
    for (const s of passingScenes()) expect(known.has(s), s).to.equal(true);
  });
});
