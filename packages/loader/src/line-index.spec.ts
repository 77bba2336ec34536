import { expect } from 'chai';
import { LineIndex } from './line-index.js';

describe('LineIndex', () => {
  it('gives 1-based line and column for \\n, \\r\\n and lone \\r line breaks', () => {
    const text = 'ab\ncd\r\nef\rgh';
    const index = new LineIndex(text);
    expect(index.position(0)).to.deep.equal({ line: 1, column: 1 });
    expect(index.position(1)).to.deep.equal({ line: 1, column: 2 });
    expect(index.position(text.indexOf('c'))).to.deep.equal({ line: 2, column: 1 });
    expect(index.position(text.indexOf('f'))).to.deep.equal({ line: 3, column: 2 });
    expect(index.position(text.indexOf('g'))).to.deep.equal({ line: 4, column: 1 });
    expect(index.location('a.scn', text.indexOf('h'))).to.deep.equal({ file: 'a.scn', line: 4, column: 2 });
  });
});
