import { expect } from 'chai';
import type { SceneAttribute } from '@sofa-ts/core';
import { mergeInto } from './merge.js';
import type { ElementDraft } from './scene-types.js';

const loc = { file: 'f', line: 1, column: 1 };
const a = (name: string, value: string): SceneAttribute => ({ name, value, loc });
const el = (tag: string, attributes: SceneAttribute[], children: ElementDraft[] = []): ElementDraft => ({
  tag,
  attributes,
  children,
  loc,
  file: 'f',
});

describe('mergeInto', () => {
  it('matches named children by tag and name, appends the others', () => {
    const dest = el('Node', [a('name', 'root')], [el('Node', [a('name', 'A')]), el('MechanicalObject', [a('name', 'A')])]);
    const src = el(
      'Node',
      [a('name', '_Merge_'), a('dt', '0.1')],
      [el('Node', [a('name', 'A'), a('gravity', '0 0 0')]), el('UniformMass', []), el('Node', [a('name', 'B')])],
    );
    mergeInto(dest, src);
    expect(dest.attributes.map((x) => `${x.name}=${x.value}`)).to.deep.equal(['name=root', 'dt=0.1']);
    expect(dest.children.map((c) => `${c.tag}:${c.attributes.map((x) => x.value).join(',')}`)).to.deep.equal([
      'Node:A,0 0 0',
      'MechanicalObject:A',
      'UniformMass:',
      'Node:B',
    ]);
  });
});
