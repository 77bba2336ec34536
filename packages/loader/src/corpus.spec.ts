import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { SceneElement } from '@sofa-ts/core';
import { loadSceneFile } from './load-scene.js';
import { corpusRoot } from './loader-test-support.js';

// SOFA's regression corpus: examples/Corpus.regression-tests lists the scenes; share/ and
// examples/ are SOFA's data paths there.
const SOFA = path.join(corpusRoot(), 'sofa');
const EXAMPLES = path.join(SOFA, 'examples');
const SHARE = path.join(SOFA, 'share');
const LIST = path.join(EXAMPLES, 'Corpus.regression-tests');

/** Scene paths of a `.regression-tests` file: first field of lines that name a `.scn`. */
function listedScenes(): string[] {
  return readFileSync(LIST, 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((first) => first.endsWith('.scn'));
}

function* walk(e: SceneElement): Generator<SceneElement> {
  yield e;
  for (const c of e.children) yield* walk(c);
}

describe('regression corpus scenes', function () {
  // Like a real registry: the prefabs of examples/Objects (BoxConstraint, TorusFEM, ...) are not
  // components, every other tag is.
  let prefabs = new Set<string>();
  before(function () {
    if (!existsSync(LIST)) this.skip();
    prefabs = new Set(readdirSync(path.join(EXAMPLES, 'Objects')).map((f) => path.basename(f, '.xml')));
  });

  const load = (scene: string) =>
    loadSceneFile(path.join(EXAMPLES, scene), { dataPaths: [SHARE, EXAMPLES], isKnownTag: (t) => !prefabs.has(t) });

  it('parses every listed scene into a <Node> tree without includes or prefab tags left', () => {
    const scenes = listedScenes();
    expect(scenes.length).to.be.greaterThan(20);
    for (const scene of scenes) {
      const root = load(scene);
      expect(root.tag, scene).to.equal('Node');
      for (const e of walk(root)) {
        expect(e.tag, `${scene}: ${e.file}:${e.loc.line}`).to.not.equal('include');
        expect(prefabs.has(e.tag), `${scene}: ${e.tag}`).to.equal(false);
        expect(path.isAbsolute(e.file)).to.equal(true);
      }
    }
  });

  it('expands the torus includes of Demos/chainHybrid.scn with their name and dx/rx', () => {
    const chain = load('Demos/chainHybrid.scn').children.find((c) => c.attributes.some((a) => a.value === 'Chain'))!;
    const summary = chain.children.map((n) => {
      const name = n.attributes.find((a) => a.name === 'name')!.value;
      const mo = n.children.find((c) => c.tag === 'MechanicalObject')!;
      const get = (k: string) => mo.attributes.find((a) => a.name === k)?.value;
      return `${name} ${path.basename(n.file)} dx=${get('dx')} rx=${get('rx')}`;
    });
    expect(summary).to.deep.equal([
      'Fixed chainHybrid.scn dx=undefined rx=90',
      'FEM TorusFEM.xml dx=2.5 rx=0',
      'Spring TorusSpring.xml dx=5 rx=90',
      'FFD TorusFFD.xml dx=7.5 rx=0',
      'TorusRigid TorusRigid.xml dx=10 rx=90',
    ]);
  });

  it('expands <BoxConstraint box=...> from Objects/BoxConstraint.xml into the parent node', () => {
    const root = load('Component/Topology/Container/Grid/SparseGridTopology.scn');
    const boxes = [...walk(root)].filter((e) => e.tag === 'BoxROI');
    expect(boxes.map((b) => b.attributes.find((a) => a.name === 'box')!.value)).to.deep.equal([
      '10 -10 -6 12 10 6',
      '10 -10 10 12 10 22',
      '10 -10 26 12 10 38',
    ]);
    for (const box of boxes) expect(path.basename(box.file)).to.equal('BoxConstraint.xml');
  });

  it('splices the FEMBAR-common.xml group into the FEMBAR scenes', () => {
    const root = load('Component/LinearSolver/Direct/FEMBAR_SparseLDLSolver.scn');
    const tags = root.children.map((c) => c.tag);
    expect(tags.slice(0, 3)).to.deep.equal(['Node', 'VisualStyle', 'DefaultAnimationLoop']);
    expect(tags).to.include('FixedProjectiveConstraint');
    expect(path.basename(root.children[0].file)).to.equal('FEMBAR-common.xml');
    expect(path.basename(root.file)).to.equal('FEMBAR_SparseLDLSolver.scn');
  });
});
