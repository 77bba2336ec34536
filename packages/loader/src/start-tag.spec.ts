import { expect } from 'chai';
import { scanStartTag } from './start-tag.js';

describe('scanStartTag', () => {
  it('lists attributes in order with the offsets of their names', () => {
    const text = `x<Mesh a="1"\n  b = 'two "q"'\tc="" />`;
    const found = scanStartTag(text, 1);
    expect(found.map((a) => [a.name, a.rawValue])).to.deep.equal([
      ['a', '1'],
      ['b', 'two "q"'],
      ['c', ''],
    ]);
    expect(found.map((a) => text.slice(a.offset, a.offset + 1))).to.deep.equal(['a', 'b', 'c']);
  });
  it('stops at the end of the tag', () => {
    expect(scanStartTag('<Node><A x="1"/></Node>', 0)).to.deep.equal([]);
  });
});
