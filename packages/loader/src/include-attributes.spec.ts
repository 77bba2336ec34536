import { expect } from 'chai';
import type { SceneAttribute } from '@sofa-ts/core';
import { applyIncludeAttributes, modeForName } from './include-attributes.js';
import type { ElementDraft } from './scene-types.js';

const loc = { file: 'f', line: 1, column: 1 };
const a = (name: string, value: string, line = 1): SceneAttribute => ({ name, value, loc: { ...loc, line } });
const el = (tag: string, attributes: SceneAttribute[], children: ElementDraft[] = []): ElementDraft => ({
  tag,
  attributes,
  children,
  loc,
  file: 'f',
});
const pairs = (e: ElementDraft) => e.attributes.map((x) => `${x.name}=${x.value}`);

describe('applyIncludeAttributes', () => {
  it('renames the root and replaces existing attributes of components only', () => {
    const mo = el('MechanicalObject', [a('name', 'mo'), a('dx', '0')]);
    const other = el('OglModel', [a('name', 'v'), a('color', 'red')]);
    const root = el('Node', [a('dx', '0')], [mo, other]);
    const mode = applyIncludeAttributes(
      root,
      [a('href', 'x.xml'), a('dx', '3', 9), a('name', 'N'), a('v__color', 'blue'), a('mo__color', 'green')],
      'child',
    );
    expect(mode).to.equal('child');
    expect(pairs(root)).to.deep.equal(['name=N', 'dx=0']);
    expect(pairs(mo)).to.deep.equal(['name=mo', 'dx=3']);
    expect(mo.attributes[1].loc.line).to.equal(9);
    expect(pairs(other)).to.deep.equal(['name=v', 'color=blue']);
  });

  it('applies to a component root, never to name or type', () => {
    const root = el('BoxROI', [a('name', 'b'), a('type', 't'), a('box', '0')]);
    applyIncludeAttributes(root, [a('name', 'c'), a('c__box', '1'), a('type', 'u'), a('c__name', 'z')], 'child');
    expect(pairs(root)).to.deep.equal(['name=c', 'type=t', 'box=1']);
  });

  it('selects group and merge modes by name', () => {
    expect(applyIncludeAttributes(el('Node', []), [a('name', 'Group')], 'child')).to.equal('group');
    expect(applyIncludeAttributes(el('Node', []), [a('name', '_Merge_')], 'child')).to.equal('merge');
    expect(modeForName('_Group_')).to.equal('group');
    expect(modeForName('Groups')).to.equal(undefined);
  });
});
