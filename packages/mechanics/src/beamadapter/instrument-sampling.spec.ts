import { expect } from 'chai';
import { NodeTable, instrumentsAt, samplingAbscissae, slideUnsharedNodes } from './instrument-sampling.js';
import type { WireRestShape } from './WireRestShape.js';

/** A rest shape with the given key points and beams per section (what the sampling reads). */
function shape(keys: number[], beams: number[]): WireRestShape {
  return {
    sectionKeys: Float64Array.from(keys),
    sectionCount: beams.length,
    totalBeams: beams.reduce((a, b) => a + b, 0),
    sectionAt: (j: number) => ({ nbBeams: { value: beams[j] } }),
  } as unknown as WireRestShape;
}

function table(abs: number[], counts: number[] = []): NodeTable {
  const t = new NodeTable();
  t.reserve(abs.length);
  t.abs.set(abs);
  t.count.set(counts);
  t.n = abs.length;
  return t;
}

describe('instrument sampling (the deployed abscissae of nested instruments)', () => {
  it('one instrument: nodes every section length / nbBeams back from the tip, the key points, merged below the threshold', () => {
    // sections [0, 90] (3 beams: 30) and [90, 100] (5 beams: 2); tip at 45 → begins at −55
    const t = new NodeTable();
    samplingAbscissae([shape([0, 90, 100], [3, 5])], [-55], 0.01, t);
    // section 1 ends at 35: nodes 35 − 30k ≥ 0 → 5, 35; section 2 from 35 to 45 every 2
    expect(Array.from(t.abscissae, (v) => +v.toFixed(9))).to.deep.equal([0, 5, 35, 37, 39, 41, 43, 45]);
  });

  it('nested instruments: the outer one samples, the inner one adds its nodes beyond the outer tip only; the first instrument on each node and their number', () => {
    const outer = shape([0, 100], [10]),
      inner = shape([0, 200], [10]);
    // outer tip 30 (begins −70), inner tip 50 (begins −150)
    const t = new NodeTable();
    samplingAbscissae([outer, inner], [-70, -150], 0.01, t);
    expect(Array.from(t.abscissae, (v) => +v.toFixed(9))).to.deep.equal([0, 10, 20, 30, 50]);
    instrumentsAt(t, [-70, -150], [30, 50], 0.01);
    expect(Array.from(t.first.subarray(0, t.n))).to.deep.equal([0, 0, 0, 0, 1]);
    expect(Array.from(t.count.subarray(0, t.n))).to.deep.equal([2, 2, 2, 2, 1]);
  });

  it('pushing by Δ: the nodes carried by one instrument only were Δ behind (never behind the node before)', () => {
    const out = new Float64Array(5);
    slideUnsharedNodes(table([0, 10, 20, 30, 52], [2, 2, 2, 2, 1]), table([0, 10, 20, 30, 50]), 0.01, out);
    expect(Array.from(out)).to.deep.equal([0, 10, 20, 30, 50]);
    const out3 = new Float64Array(3);
    slideUnsharedNodes(table([0, 1, 9], [1, 1, 1]), table([0, 1, 4]), 0.01, out3);
    expect(Array.from(out3)).to.deep.equal([-5, -4, 4]);
  });
});
