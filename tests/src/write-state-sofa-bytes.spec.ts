import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { loadSceneFromString } from 'sofa-ts';
import { corpusRoot, hasCorpus } from './corpus-test-support.js';

/**
 * WriteState's file, byte for byte, against a file SOFA's WriteState wrote: the reference states of
 * Benchmark/Analysis/Pendulum.scn (a particle falling on a spring from a fixed one, two nodes, one
 * per time scheme) are SOFA's WriteState output at t = 0 and t = 2.99 (positions only). The same
 * scene, with a WriteState per node of the same period, must write the same bytes.
 */

const SCENE = path.join(corpusRoot, 'sofa', 'examples', 'Benchmark', 'Analysis', 'Pendulum.scn');
const REFERENCES = path.join(corpusRoot, 'regression', 'references', 'examples', 'Benchmark', 'Analysis');

describe("WriteState writes SOFA's bytes (Pendulum.scn's reference files, written by SOFA's WriteState)", function () {
  this.timeout(60000);
  let dir: string;
  before(function () {
    if (!hasCorpus) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-writestate-'));
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the positions of both particles at t = 0 and 2.99, as in SOFA’s .txt.gz references, to the byte', async () => {
    let k = 0;
    // one WriteState after each node's MechanicalObject, numbered in scene order as SOFA's regression numbers its states
    const xml = fs
      .readFileSync(SCENE, 'utf8')
      .replace(
        /(<MechanicalObject [^>]*name="Particles"[^>]*\/>)/g,
        (mo) => `${mo}<WriteState filename="${path.join(dir, `${k++}.txt`)}" period="2.99"/>`,
      );
    expect(k).to.equal(2);
    const scene = await loadSceneFromString(xml, { fileName: SCENE });
    scene.step(300); // SOFA writes at the beginning of a step: t = 2.99 at the 300th
    scene.dispose();
    for (let i = 0; i < 2; i++) {
      const sofa = zlib.gunzipSync(fs.readFileSync(path.join(REFERENCES, `Pendulum.scn.reference_${i}_Particles_mstate.txt.gz`)));
      const ours = fs.readFileSync(path.join(dir, `${i}.txt`));
      expect(ours.toString(), `state ${i}`).to.equal(sofa.toString());
      expect(Buffer.compare(ours, sofa), `state ${i}: bytes`).to.equal(0);
    }
  });
});
