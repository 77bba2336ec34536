import { expect } from 'chai';
import * as path from 'node:path';
import { SofaError, type SceneElement } from '@sofa-ts/core';
import { loadSceneFile, loadSceneString } from './load-scene.js';
import { at, attrs, posOf, removeTempTree, thrown, writeTempTree } from './loader-test-support.js';

const MAIN = `<Node name="root">
  <include href="parts/torus.xml" name="T1" dx="2.5" MO__rx="90" Visual__color="blue" />
  <include href="group.xml" box="0 0 0 2 2 2" />
  <MechanicalObject name="after"/>
</Node>
`;
const TORUS = `<!-- a part -->
<Node name="Torus" dx="0">
  <MechanicalObject name="MO" dx="0" rx="0"/>
  <UniformMass totalMass="1"/>
  <Node name="Visu">
    <OglModel name="Visual" dx="0" rx="0" color="red"/>
  </Node>
</Node>
`;
const GROUP = `<Node name="Group" ignored="1">
  <BoxROI name="box" box="-1 -1 -1 1 1 1"/>
  <FixedProjectiveConstraint indices="@box.indices"/>
</Node>
`;
const OBJECT_SCENE = `<Node name="root">
  <Fixture name="fx" box="1 2 3" type="ignored">
    <Ignored/>
  </Fixture>
  <Known />
  <Unknown a="1"/>
</Node>
`;
const FIXTURE = `<Node name="FixtureNode">
  <BoxROI box="0 0 0"/>
  <Known/>
</Node>
`;

const child = (e: SceneElement, name: string): SceneElement => {
  const found = e.children.find((c) => c.attributes.some((a) => a.name === 'name' && a.value === name));
  if (!found) throw new Error(`no child named ${name}`);
  return found;
};
const attr = (e: SceneElement, name: string) => e.attributes.find((a) => a.name === name);

describe('loadSceneFile', () => {
  let dir: string;
  const file = (rel: string) => path.join(dir, rel);

  before(() => {
    dir = writeTempTree({
      'scene/main.scn': MAIN,
      'scene/parts/torus.xml': TORUS,
      'data/group.xml': GROUP,
      'scene/merge.scn': `<Node name="root">\n  <Node name="A"><MechanicalObject name="mo" size="1"/></Node>\n  <include href="merge.xml"/>\n  <Node name="C"/>\n</Node>\n`,
      'scene/merge.xml': `<Node name="_Merge_" gravity="0 0 0">\n  <Node name="A"><UniformMass totalMass="3"/><MechanicalObject name="mo" size="2"/></Node>\n  <Node name="B"/>\n</Node>\n`,
      'scene/as-group.scn': `<Node name="root">\n  <include href="parts/torus.xml" name="Group"/>\n</Node>\n`,
      'objects/scene.scn': OBJECT_SCENE,
      'objects/Objects/Fixture.xml': FIXTURE,
      'objects/Objects/Known.xml': `<Node name="ShouldNotAppear"/>`,
      'objects/loop.scn': `<Node>\n  <Loop/>\n</Node>\n`,
      'objects/Objects/Loop.xml': `<Node name="L">\n  <Loop/>\n</Node>\n`,
      'errors/missing.scn': `<Node name="root">\n  <Node name="n">\n    <include href="nope.xml"/>\n  </Node>\n</Node>\n`,
      'errors/no-href.scn': `<Node>\n <include name="x"/>\n</Node>\n`,
      'errors/cycle.scn': `<Node name="root">\n  <include href="b.xml"/>\n</Node>\n`,
      'errors/b.xml': `<Node name="B">\n  <include href="c.xml"/>\n</Node>\n`,
      'errors/c.xml': `<Node name="C">\n    <include href="b.xml"/>\n</Node>\n`,
      'errors/broken-include.scn': `<Node name="root">\n  <include href="broken.xml"/>\n</Node>\n`,
      'errors/broken.xml': `<Node name="X">\n  <A>\n</Node>\n`,
      'errors/not-node.scn': `<MechanicalObject name="x"/>\n`,
      'errors/root-include.scn': `<include href="../scene/parts/torus.xml" name="R"/>\n`,
    });
  });
  after(() => removeTempTree(dir));

  describe('<include>', () => {
    let root: SceneElement;
    before(() => {
      root = loadSceneFile(file('scene/main.scn'), { dataPaths: [file('data')], isKnownTag: () => true });
    });

    it('inserts the included content in place, in order', () => {
      expect(root.children.map((c) => c.tag)).to.deep.equal(['Node', 'BoxROI', 'FixedProjectiveConstraint', 'MechanicalObject']);
      expect(root.file).to.equal(file('scene/main.scn'));
    });

    it('renames the included root with the include name', () => {
      const t1 = root.children[0];
      expect(attrs(t1)).to.deep.equal(['name=T1', 'dx=0']); // a <Node> keeps its other attributes
      expect(attr(t1, 'name')!.loc).to.deep.equal({ file: file('scene/main.scn'), ...split(posOf(MAIN, 'name="T1"')) });
    });

    it('replaces attributes the included components already have, with the include position', () => {
      const t1 = root.children[0];
      const mo = child(t1, 'MO');
      expect(attrs(mo)).to.deep.equal(['name=MO', 'dx=2.5', 'rx=90']);
      expect(at(attr(mo, 'dx')!.loc)).to.equal(posOf(MAIN, 'dx="2.5"'));
      expect(attr(mo, 'dx')!.loc.file).to.equal(file('scene/main.scn'));
      expect(at(attr(mo, 'rx')!.loc)).to.equal(posOf(MAIN, 'MO__rx'));
      expect(attrs(t1.children[1])).to.deep.equal(['totalMass=1']); // nothing added
      const visual = child(child(t1, 'Visu'), 'Visual');
      expect(attrs(visual)).to.deep.equal(['name=Visual', 'dx=2.5', 'rx=0', 'color=blue']);
    });

    it('keeps the file and positions of included elements', () => {
      const t1 = root.children[0];
      const torus = file('scene/parts/torus.xml');
      expect(t1.file).to.equal(torus);
      expect(t1.loc).to.deep.equal({ file: torus, line: 2, column: 1 });
      const mo = child(t1, 'MO');
      expect(mo.loc).to.deep.equal({ file: torus, ...split(posOf(TORUS, '<MechanicalObject')) });
      expect(attr(mo, 'name')!.loc).to.deep.equal({ file: torus, ...split(posOf(TORUS, 'name="MO"')) });
      const visual = child(child(t1, 'Visu'), 'Visual');
      expect(at(visual.loc)).to.equal('6:5');
    });

    it('splices a root named Group into the parent (found in the data paths)', () => {
      const [, box, fixed] = root.children;
      const group = file('data/group.xml');
      expect(attrs(box!)).to.deep.equal(['name=box', 'box=0 0 0 2 2 2']);
      expect(box!.file).to.equal(group);
      expect(at(box!.loc)).to.equal('2:3');
      expect(at(attr(box!, 'box')!.loc)).to.equal(posOf(MAIN, 'box='));
      expect(fixed!.file).to.equal(group);
      expect(attrs(root.children[3])).to.deep.equal(['name=after']);
    });

    it('turns an include named Group into a group', () => {
      const scene = loadSceneFile(file('scene/as-group.scn'));
      expect(scene.children.map((c) => c.tag)).to.deep.equal(['MechanicalObject', 'UniformMass', 'Node']);
    });

    it('merges a root named _Merge_ into the parent', () => {
      const scene = loadSceneFile(file('scene/merge.scn'));
      expect(attrs(scene)).to.deep.equal(['name=root', 'gravity=0 0 0']);
      expect(scene.children.map((c) => attr(c, 'name')!.value)).to.deep.equal(['A', 'B', 'C']);
      const a = scene.children[0];
      expect(a.children.map((c) => `${c.tag}:${attrs(c).join(',')}`)).to.deep.equal([
        'MechanicalObject:name=mo,size=2',
        'UniformMass:totalMass=3',
      ]);
      expect(a.file).to.equal(file('scene/merge.scn'));
      expect(a.children[1].file).to.equal(file('scene/merge.xml'));
    });

    it('accepts a root include that yields a <Node>', () => {
      const scene = loadSceneFile(file('errors/root-include.scn'));
      expect(attrs(scene)).to.deep.equal(['name=R', 'dx=0']);
      expect(scene.file).to.equal(file('scene/parts/torus.xml'));
    });
  });

  describe('Objects/<Tag>.xml', () => {
    it('expands an unknown tag like an include with its attributes', () => {
      const known = new Set(['BoxROI', 'Known']);
      const scene = loadSceneFile(file('objects/scene.scn'), { isKnownTag: (t) => known.has(t) });
      expect(scene.children.map((c) => c.tag)).to.deep.equal(['Node', 'Known', 'Unknown']);
      const fx = scene.children[0];
      expect(attrs(fx)).to.deep.equal(['name=fx']);
      expect(fx.file).to.equal(file('objects/Objects/Fixture.xml'));
      expect(fx.children.map((c) => c.tag)).to.deep.equal(['BoxROI', 'Known']);
      expect(attrs(fx.children[0])).to.deep.equal(['box=1 2 3']);
      expect(at(fx.children[0].attributes[0].loc)).to.equal(posOf(OBJECT_SCENE, 'box='));
      expect(at(fx.children[0].loc)).to.equal('2:3');
      expect(attrs(scene.children[2])).to.deep.equal(['a=1']); // no file: left for the core to report
      expect(scene.children[1].file).to.equal(file('objects/scene.scn'));
    });

    it('leaves known tags alone', () => {
      const scene = loadSceneFile(file('objects/scene.scn'), { isKnownTag: () => true });
      expect(scene.children.map((c) => c.tag)).to.deep.equal(['Fixture', 'Known', 'Unknown']);
      expect(scene.children[0].children.map((c) => c.tag)).to.deep.equal(['Ignored']);
    });

    it('looks Objects/<Tag>.xml up from the folder of the file naming the tag, then the data paths', () => {
      // From Objects/Loop.xml, `<Loop/>` would be Objects/Objects/Loop.xml: absent, so left as is.
      const scene = loadSceneFile(file('objects/loop.scn'));
      expect(scene.children[0].children.map((c) => c.tag)).to.deep.equal(['Loop']);
    });

    it('reports an expansion that includes itself', () => {
      const err = thrown(() => loadSceneFile(file('objects/loop.scn'), { dataPaths: [file('objects')] })) as SofaError;
      expect(err).to.be.instanceOf(SofaError);
      expect(err.loc).to.deep.equal({ file: file('objects/Objects/Loop.xml'), line: 2, column: 3 });
      expect(err.detail).to.equal('include cycle: Loop.xml -> Loop.xml');
    });
  });

  describe('errors', () => {
    it('names the location of an include whose file is missing', () => {
      const err = thrown(() => loadSceneFile(file('errors/missing.scn'), { dataPaths: [file('data')] })) as SofaError;
      expect(err).to.be.instanceOf(SofaError);
      expect(err.loc).to.deep.equal({ file: file('errors/missing.scn'), line: 3, column: 5 });
      expect(err.message).to.contain(`${file('errors/missing.scn')}:3:5: included file 'nope.xml' not found`);
      expect(err.message).to.contain(file('data/nope.xml'));
    });

    it('requires href on <include>', () => {
      const err = thrown(() => loadSceneFile(file('errors/no-href.scn'))) as SofaError;
      expect(at(err.loc!)).to.equal('2:2');
      expect(err.detail).to.contain("'href'");
    });

    it('detects include cycles', () => {
      const err = thrown(() => loadSceneFile(file('errors/cycle.scn'))) as SofaError;
      expect(err).to.be.instanceOf(SofaError);
      expect(err.detail).to.equal('include cycle: b.xml -> c.xml -> b.xml');
      expect(err.loc).to.deep.equal({ file: file('errors/c.xml'), line: 2, column: 5 });
      expect(err.message).to.contain(`included from ${file('errors/b.xml')}:2:3`);
      expect(err.message).to.contain(`included from ${file('errors/cycle.scn')}:2:3`);
    });

    it('reports malformed XML in an included file at its position, naming the include', () => {
      const err = thrown(() => loadSceneFile(file('errors/broken-include.scn'))) as SofaError;
      expect(err.loc).to.deep.equal({ file: file('errors/broken.xml'), line: 3, column: 1 });
      expect(err.message).to.match(/malformed XML/);
      expect(err.hint).to.equal(`included from ${file('errors/broken-include.scn')}:2:3`);
    });

    it('requires a <Node> root', () => {
      const err = thrown(() => loadSceneFile(file('errors/not-node.scn'))) as SofaError;
      expect(err.loc).to.deep.equal({ file: file('errors/not-node.scn'), line: 1, column: 1 });
      expect(err.detail).to.contain('<Node>');
    });

    it('reports a missing scene file', () => {
      const err = thrown(() => loadSceneFile(file('errors/absent.scn')));
      expect(err).to.be.instanceOf(SofaError);
      expect(err.message).to.contain('absent.scn');
    });
  });
});

describe('loadSceneString', () => {
  let dir: string;
  before(() => {
    dir = writeTempTree({ 'parts/p.xml': `<Node name="P"><MechanicalObject dx="0"/></Node>` });
  });
  after(() => removeTempTree(dir));

  it('names <string> by default', () => {
    const root = loadSceneString('<Node name="r">\n  <MechanicalObject/>\n</Node>');
    expect(root.file).to.equal('<string>');
    expect(root.children[0].loc).to.deep.equal({ file: '<string>', line: 2, column: 3 });
    expect(loadSceneString('<Node/>', { fileName: '<inline>' }).file).to.equal('<inline>');
  });

  it('resolves includes from the folder of fileName', () => {
    const fileName = path.join(dir, 'virtual.scn');
    const root = loadSceneString('<Node>\n  <include href="parts/p.xml" dx="1"/>\n</Node>', { fileName });
    expect(root.file).to.equal(fileName);
    const p = root.children[0];
    expect(p.file).to.equal(path.join(dir, 'parts/p.xml'));
    expect(attrs(p.children[0])).to.deep.equal(['dx=1']);
    expect(p.children[0].attributes[0].loc).to.deep.equal({ file: fileName, line: 2, column: 31 });
  });

  it('resolves includes of a <string> scene through the data paths', () => {
    const root = loadSceneString('<Node><include href="parts/p.xml"/></Node>', { dataPaths: [dir] });
    expect(attrs(root.children[0])).to.deep.equal(['name=P']);
  });
});

function split(lineColumn: string): { line: number; column: number } {
  const [line, column] = lineColumn.split(':').map(Number);
  return { line: line!, column: column! };
}
