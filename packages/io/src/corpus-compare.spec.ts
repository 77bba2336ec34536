import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareStates, type StateSeries } from './compare.js';
import { readStateFile } from './read-state.js';
import { readRegressionList } from './regression-list.js';
import { listReferenceStates } from './reference-names.js';
import { stateLayoutOf } from './state-layout.js';
import { corpusRoot } from './corpus-test-support.js';

const CORPUS = corpusRoot();

interface ManifestScene {
  scene: string;
  dt: string;
  mstates: Array<{ template: string }>;
}

describe('comparison on the corpus references', () => {
  before(function () {
    if (!fs.existsSync(path.join(CORPUS, 'manifest.json'))) this.skip();
  });

  function referencesOf(sceneRelative: string): { series: StateSeries[]; dt: number; epsilon: number } {
    const list = readRegressionList(path.join(CORPUS, 'sofa/examples/Corpus.regression-tests'));
    const entry = list.entries.find((e) => e.sceneRelative === sceneRelative)!;
    const manifest = JSON.parse(fs.readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { scenes: ManifestScene[] };
    const scene = manifest.scenes.find((s) => path.join(CORPUS, s.scene) === entry.scene)!;
    const series = listReferenceStates(list.referenceRoot, sceneRelative).map((ref, i) => {
      const layout = stateLayoutOf(scene.mstates[i].template);
      return { name: ref.name, scalarsPerPoint: layout.coord, derivScalarsPerPoint: layout.deriv, frames: readStateFile(ref.path) };
    });
    return { series, dt: Number(scene.dt), epsilon: entry.epsilon };
  }

  it('passes every scene compared with its own references', () => {
    const list = readRegressionList(path.join(CORPUS, 'sofa/examples/Corpus.regression-tests'));
    for (const entry of list.entries) {
      const { series, dt, epsilon } = referencesOf(entry.sceneRelative);
      const r = compareStates(series, series, epsilon, dt);
      expect(r.failures, entry.sceneRelative).to.deep.equal([]);
      expect(r.errorByDof, entry.sceneRelative).to.equal(0);
      expect(r.passed).to.equal(true);
    }
  });

  it('judges a perturbed Pendulum run by the hand-computed ERRORBYDOF', () => {
    const { series, dt, epsilon } = referencesOf('Benchmark/Analysis/Pendulum.scn');
    expect(series.map((s) => s.frames.length)).to.deep.equal([2, 2]);
    const current = series.map((s) => ({ ...s, frames: s.frames.map((f) => ({ ...f, X: Float64Array.from(f.X) })) }));
    // Simulated times accumulate 299 steps of 0.01, which lands near but not exactly on 2.99.
    let t = 0;
    for (let k = 0; k < 299; k++) t += 0.01;
    current.forEach((s) => (s.frames[1].time = t));
    current[0].frames[1].X[3] = 0.1541; // reference 0.1531
    const r = compareStates(series, current, epsilon, dt);
    // One scalar off by 0.001 among 6, over 2 points, in 1 state out of 2.
    expect(r.errorByDof).to.be.closeTo(0.001 / 6 / 2 / 2, 1e-15);
    expect(r.passed).to.equal(true);
    current[1].frames[1].X[5] = -1.04163 - 0.002;
    const worse = compareStates(series, current, epsilon, dt);
    expect(worse.errorByDof).to.be.closeTo((0.001 / 6 / 2 + 0.002 / 6 / 2) / 2, 1e-15);
    expect(worse.passed).to.equal(false);
    expect(worse.maxErrorAt).to.include({ state: 1, vector: 'X', scalar: 5, point: 1, component: 2 });
  });
});
