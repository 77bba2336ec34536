import { expect } from 'chai';
import { SofaError } from '@sofa-ts/core';
import { parseXmlDocument } from './parse-xml.js';
import { at, attrs, thrown } from './loader-test-support.js';

const SCENE = [
  '<?xml version="1.0"?>',
  '<!-- a comment <Fake attr="x"/> -->',
  '<Node name="root" dt="0.01">',
  '    text to ignore',
  '    <?pi ignored?>',
  '    <MechanicalObject',
  '        name="dofs"',
  '          position="0 0 0  1 1 1"/>',
  '    <!-- <Ignored/> -->',
  '\t<UniformMass totalMass="2"/><Node name="child"><B/></Node>',
  '</Node>',
  '',
].join('\n');

describe('parseXmlDocument', () => {
  for (const [label, eol] of [
    ['\\n', '\n'],
    ['\\r\\n', '\r\n'],
  ] as const) {
    it(`keeps element and attribute order and positions (${label} line breaks)`, () => {
      const root = parseXmlDocument(SCENE.replace(/\n/g, eol), 'scene.scn');
      expect(root.tag).to.equal('Node');
      expect(root.file).to.equal('scene.scn');
      expect(root.loc).to.deep.equal({ file: 'scene.scn', line: 3, column: 1 });
      expect(attrs(root)).to.deep.equal(['name=root', 'dt=0.01']);
      expect(root.attributes.map((a) => at(a.loc))).to.deep.equal(['3:7', '3:19']);

      expect(root.children.map((c) => c.tag)).to.deep.equal(['MechanicalObject', 'UniformMass', 'Node']);
      const [mo, mass, child] = root.children;
      expect(at(mo!.loc)).to.equal('6:5');
      expect(attrs(mo!)).to.deep.equal(['name=dofs', 'position=0 0 0  1 1 1']);
      expect(mo!.attributes.map((a) => at(a.loc))).to.deep.equal(['7:9', '8:11']);
      expect(at(mass!.loc)).to.equal('10:2');
      expect(at(mass!.attributes[0].loc)).to.equal('10:15');
      expect(at(child!.loc)).to.equal('10:30');
      expect(at(child!.attributes[0].loc)).to.equal('10:36');
      expect(child!.children.map((c) => [c.tag, at(c.loc)])).to.deep.equal([['B', '10:49']]);
    });
  }

  it('decodes entities, keeps single-quoted values and a BOM does not shift columns', () => {
    const root = parseXmlDocument(`\uFEFF<Node a='say "hi"' b="&lt;&amp;&#x41;&gt;"/>`, 'x.scn');
    expect(attrs(root)).to.deep.equal(['a=say "hi"', 'b=<&A>']);
    expect(root.attributes.map((a) => at(a.loc))).to.deep.equal(['1:7', '1:20']);
  });

  it('reports a mismatched closing tag at its line and column', () => {
    const err = thrown(() => parseXmlDocument('<Node>\n  <A>\n</Node>\n', 'bad.scn'));
    expect(err).to.be.instanceOf(SofaError);
    expect((err as SofaError).loc).to.deep.equal({ file: 'bad.scn', line: 3, column: 1 });
    expect(err.message).to.match(/^bad\.scn:3:1: malformed XML: .*closing tag/);
  });

  it('reports a bad attribute at its line and column', () => {
    const err = thrown(() => parseXmlDocument('<Node>\n  <A b="1" c/>\n</Node>', 'bad.scn')) as SofaError;
    expect(at(err.loc!)).to.equal('2:12');
    const dup = thrown(() => parseXmlDocument('<Node>\n\n    <A b="1" b="2"/></Node>', 'dup.scn')) as SofaError;
    expect(dup.message).to.match(/^dup\.scn:3:\d+: malformed XML: Attribute 'b' is repeated/);
  });

  it('reports an unclosed element and an empty document', () => {
    expect((thrown(() => parseXmlDocument('<Node>\n  <A/>', 'u.scn')) as SofaError).message).to.match(/^u\.scn:1:1: malformed XML/);
    expect((thrown(() => parseXmlDocument('<!-- only -->', 'e.scn')) as SofaError).message).to.match(/^e\.scn:1:1: /);
  });

  it("keeps the first of two root elements, as SOFA's reader (tinyxml2's RootElement), with a located warning", () => {
    const warnings: SofaError[] = [];
    const root = parseXmlDocument('<Node name="a"><B/></Node>\n  <Node name="b"><C/></Node>\n<D/>', 'two.scn', warnings);
    expect(root.attributes.map((a) => a.value)).to.deep.equal(['a']);
    expect(root.children.map((c) => c.tag)).to.deep.equal(['B']);
    expect(warnings).to.have.length(1);
    expect(at(warnings[0].loc!)).to.equal('2:3');
    expect(warnings[0].message).to.contain('keeps the first root element only');
  });

  it('refuses a comment before the XML declaration, as tinyxml2 does (declarations come first)', () => {
    const err = thrown(() => parseXmlDocument('<!-- c -->\n<?xml version="1.0"?>\n<Node/>', 'decl.scn')) as SofaError;
    expect(err.message).to.match(/^decl\.scn:2:\d+: malformed XML: XML declaration allowed only at the start/);
  });

  it("accepts an attribute glued to the previous value's quote, as SOFA's reader does, with a located warning", () => {
    const warnings: SofaError[] = [];
    const text = '<Node>\n  <A b="1"c="2" d=\'3\'e="4"/>\n  <B f="5"/>\n</Node>';
    const root = parseXmlDocument(text, 'glued.scn', warnings);
    const a = root.children[0];
    expect(attrs(a)).to.deep.equal(['b=1', 'c=2', 'd=3', 'e=4']);
    // Positions are those of the original text, not of the repaired one.
    expect(a.attributes.map((x) => at(x.loc))).to.deep.equal(['2:6', '2:11', '2:17', '2:22']);
    expect(at(root.children[1].attributes[0].loc)).to.equal('3:6');
    expect(warnings.map((w) => `${at(w.loc!)} ${w.code}`)).to.deep.equal(['2:11 xml-leniency', '2:22 xml-leniency']);
    // Still malformed otherwise, located in the original text.
    const err = thrown(() => parseXmlDocument('<Node>\n  <A b="1"c="2" d/>\n</Node>', 'bad.scn', [])) as SofaError;
    expect(at(err.loc!)).to.equal('2:17'); // the 'd' without a value
  });
});
