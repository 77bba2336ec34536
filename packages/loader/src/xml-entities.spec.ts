import { expect } from 'chai';
import { decodeXmlText } from './xml-entities.js';

describe('decodeXmlText', () => {
  it('decodes predefined entities and character references once', () => {
    expect(decodeXmlText('&lt;a&gt; &amp; &quot;&apos; &#65;&#x42;')).to.equal('<a> & "\' AB');
    expect(decodeXmlText('&amp;#65;')).to.equal('&#65;');
  });
  it('leaves unknown entities and plain text alone, normalizes line breaks', () => {
    expect(decodeXmlText('&nbsp; 1 2')).to.equal('&nbsp; 1 2');
    expect(decodeXmlText('1\r\n2\r3')).to.equal('1\n2\n3');
  });
});
