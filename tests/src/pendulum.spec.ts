import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runRegressionScene } from '@sofa-ts/cli';
import { readRegressionList } from '@sofa-ts/io';
import { comparedStates, loadScene } from 'sofa-ts';
import { corpusList, corpusRoot, hasCorpus } from './corpus-test-support.js';

describe('SOFA reference: Benchmark/Analysis/Pendulum.scn', function () {
  before(function () {
    if (!hasCorpus) this.skip();
  });

  it("matches SOFA's reference states by SOFA's rule (ERRORBYDOF <= 1e-4)", async () => {
    const list = readRegressionList(corpusList);
    const entry = list.entries.find((e) => e.sceneRelative === 'Benchmark/Analysis/Pendulum.scn')!;
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-pendulum-'));
    const r = await runRegressionScene(entry, list.referenceRoot, { out, dataPath: [] }, []);
    expect(r.reason, r.reason).to.equal(undefined);
    expect(r.passed).to.equal(true);
    expect(r.errorByDof!).to.be.at.most(1e-4);
    // The written states are the files SOFA would write.
    const written = fs.readdirSync(path.join(out, 'Benchmark', 'Analysis')).sort();
    expect(written).to.deep.equal(['Pendulum.scn.reference_0_Particles_mstate.txt.gz', 'Pendulum.scn.reference_1_Particles_mstate.txt.gz']);
  });

  it("compares the two Particles states, in visit order, and lets the root gravity win over the nodes' own", async () => {
    const scene = await loadScene(path.join(corpusRoot, 'sofa/examples/Benchmark/Analysis/Pendulum.scn'));
    const states = comparedStates(scene.root, false);
    expect(states.map((s) => `${s.node.path}/${s.state.getName()}`)).to.deep.equal([
      '/root/ClassicEulerImplicit/Particles',
      '/root/TrapezoidalRule/Particles',
    ]);
    // Both nodes say gravity="0 -9.81 0"; SOFA's context makes them use the root's 0 0 -9.81.
    scene.step(10);
    const x = states[0].state.x;
    expect(x[4]).to.equal(0); // no motion along y
    expect(x[5]).to.be.below(0); // falls along z
  });
});
