import { expect } from 'chai';
import { RGBAColor } from './rgba-color.js';

describe('RGBAColor', () => {
  it('reads 4 or 3 numbers (alpha 1), names and hex codes', () => {
    expect(Array.from(RGBAColor.parse('0.1 0.2 0.3 0.4'))).to.deep.equal([0.1, 0.2, 0.3, 0.4]);
    expect(Array.from(RGBAColor.parse('1 0 0'))).to.deep.equal([1, 0, 0, 1]);
    expect(Array.from(RGBAColor.parse('navy'))).to.deep.equal([0, 0, 0.5, 1]);
    expect(Array.from(RGBAColor.parse('#ff000080'))).to.deep.equal([1, 0, 0, 128 / 255]);
    expect(Array.from(RGBAColor.parse('#0f0'))).to.deep.equal([0, 1, 0, 1]);
  });

  it('refuses anything else with what it expects', () => {
    expect(() => RGBAColor.parse('1 2')).to.throw(/a color/);
    expect(() => RGBAColor.parse('HSV')).to.throw(/a color/);
    expect(() => RGBAColor.parse('1 x 0')).to.throw(/a color/);
  });
});
