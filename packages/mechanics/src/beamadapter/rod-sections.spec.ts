import { expect } from 'chai';
import { RodSpireSection, RodStraightSection } from './rod-sections.js';
import { quatToMatrix } from './beam-frames.js';

/** The frame's x axis (its first column). */
function xAxis(f: Float64Array): number[] {
  const R = new Float64Array(9);
  quatToMatrix(R, 0, f, 3);
  return [R[0], R[3], R[6]];
}

describe('rod sections (RodStraightSection, RodSpireSection): rest frames along the abscissa', () => {
  it('straight: (x, 0, 0), identity', () => {
    const f = new Float64Array(7);
    new RodStraightSection().restFrame(f, 0, 3.5, 1);
    expect(Array.from(f)).to.deep.equal([3.5, 0, 0, 0, 0, 0, 1]);
  });

  it('flat spire: the circle of radius D/2 in the x–z plane, arc length s, x axis along the tangent (cos θ, 0, −sin θ)', () => {
    const sp = new RodSpireSection();
    sp.spireDiameter.value = 8;
    sp.spireHeight.value = 0;
    const f = new Float64Array(7),
      R = 4,
      x0 = 10;
    for (const s of [0, 1, 2.5, 7, 12.566370614359172, 20]) {
      sp.restFrame(f, 0, x0 + s, x0);
      const th = s / R;
      expect(f[0]).to.be.closeTo(x0 + R * Math.sin(th), 1e-12);
      expect(f[1]).to.be.closeTo(0, 1e-12);
      expect(f[2]).to.be.closeTo(R * (Math.cos(th) - 1), 1e-12);
      const t = xAxis(f);
      expect(t[0]).to.be.closeTo(Math.cos(th), 1e-12);
      expect(t[1]).to.be.closeTo(0, 1e-12);
      expect(t[2]).to.be.closeTo(-Math.sin(th), 1e-12);
    }
  });

  it('helical spire: one turn every √(h² + (πD)²) of wire rises by h; the x axis is the unit tangent of the helix', () => {
    const sp = new RodSpireSection();
    sp.spireDiameter.value = 7;
    sp.spireHeight.value = 5;
    const turn = Math.hypot(5, 7 * Math.PI),
      f = new Float64Array(7),
      g = new Float64Array(7);
    sp.restFrame(f, 0, turn, 0);
    expect(f[0]).to.be.closeTo(0, 1e-12);
    expect(f[1]).to.be.closeTo(5, 1e-12);
    expect(f[2]).to.be.closeTo(0, 1e-12);
    // tangent by central differences of the centre line, against the frame's x axis
    const s = 3.3,
      h = 1e-6;
    sp.restFrame(f, 0, s + h, 0);
    sp.restFrame(g, 0, s - h, 0);
    const d = [0, 1, 2].map((c) => (f[c] - g[c]) / (2 * h));
    expect(Math.hypot(d[0], d[1], d[2])).to.be.closeTo(1, 1e-8);
    sp.restFrame(f, 0, s, 0);
    const t = xAxis(f);
    for (let c = 0; c < 3; c++) expect(t[c]).to.be.closeTo(d[c], 1e-8);
  });
});
