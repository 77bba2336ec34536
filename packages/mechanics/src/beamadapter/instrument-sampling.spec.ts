import { expect } from 'chai';
import { instrumentsAt, samplingAbscissae, slideUnsharedNodes } from './instrument-sampling.js';
import type { WireRestShape } from './WireRestShape.js';

/** A rest shape with the given key points and beams per section (what the sampling reads). */
function shape(keys: number[], beams: number[]): WireRestShape {
  return {
    sectionKeys: Float64Array.from(keys),
    sectionAt: (j: number) => ({ nbBeams: { value: beams[j] } }),
  } as unknown as WireRestShape;
}

describe('instrument sampling (the deployed abscissae of nested instruments)', () => {
  it('one instrument: nodes every section length / nbBeams back from the tip, the key points, merged below the threshold', () => {
    // sections [0, 90] (3 beams: 30) and [90, 100] (5 beams: 2); tip at 45 → begins at −55
    const c = samplingAbscissae([shape([0, 90, 100], [3, 5])], [-55], 0.01);
    // section 1 ends at 35: nodes 35 − 30k ≥ 0 → 5, 35; section 2 from 35 to 45 every 2
    expect(c.map((v) => +v.toFixed(9))).to.deep.equal([0, 5, 35, 37, 39, 41, 43, 45]);
  });

  it('nested instruments: the outer one samples, the inner one adds its nodes beyond the outer tip only; the table lists the instruments on each node', () => {
    const outer = shape([0, 100], [10]),
      inner = shape([0, 200], [10]);
    // outer tip 30 (begins −70), inner tip 50 (begins −150)
    const c = samplingAbscissae([outer, inner], [-70, -150], 0.01);
    expect(c.map((v) => +v.toFixed(9))).to.deep.equal([0, 10, 20, 30, 50]);
    const t = instrumentsAt(c, [-70, -150], [30, 50], 0.01);
    expect(t).to.deep.equal([[0, 1], [0, 1], [0, 1], [0, 1], [1]]);
  });

  it('pushing by Δ: the nodes carried by one instrument only were Δ behind (never behind the node before)', () => {
    const moved = slideUnsharedNodes([0, 10, 20, 30, 52], [0, 10, 20, 30, 50], [[0, 1], [0, 1], [0, 1], [0, 1], [1]], 0.01);
    expect(moved).to.deep.equal([0, 10, 20, 30, 50]);
    expect(slideUnsharedNodes([0, 1, 9], [0, 1, 4], [[0], [0], [0]], 0.01)).to.deep.equal([-5, -4, 4]);
  });
});
