import { expect } from 'chai';
import { setVariationWindow } from './variation-window.js';

describe('softrobots: actuator variation window (unit)', () => {
  const w = (min: number, max: number, last: number, v: number): number[] => {
    const lo = new Float64Array(1),
      hi = new Float64Array(1);
    setVariationWindow(lo, hi, 0, min, max, last, v);
    return [lo[0], hi[0]];
  };
  it('the range alone without a variation, met with last ± v otherwise', () => {
    expect(w(-1, 2, 0, Infinity)).to.deep.equal([-1, 2]);
    expect(w(-1, 2, 0, 0.5)).to.deep.equal([-0.5, 0.5]);
    expect(w(-1, 2, 1.8, -0.5)).to.deep.equal([1.3, 2]);
    expect(w(-Infinity, Infinity, 3, 1)).to.deep.equal([2, 4]);
  });
  it('last beyond the range by more than v: the largest step towards it', () => {
    expect(w(0.3, 1, 0, 0.1)).to.deep.equal([0.1, 0.1]);
    expect(w(-1, -0.5, 0, 0.2)).to.deep.equal([-0.2, -0.2]);
  });
});
