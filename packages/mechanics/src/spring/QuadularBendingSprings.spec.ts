import { expect } from 'chai';
import { QuadularBendingSprings } from './QuadularBendingSprings.js';
import { buildNode, rng, StubTopology } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';

/** Edges of quads, each once, in order of first appearance (edge j joins vertices j+1, j+2). */
function edgesOf(quads: number[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  for (let q = 0; q < quads.length; q += 4) {
    for (let j = 0; j < 4; j++) {
      const p = quads[q + ((j + 1) % 4)],
        r = quads[q + ((j + 2) % 4)];
      const k = `${Math.min(p, r)}-${Math.max(p, r)}`;
      if (!seen.has(k)) {
        seen.add(k);
        out.push(Math.min(p, r), Math.max(p, r));
      }
    }
  }
  return out;
}

/** n × 1 squares: points (i, 0, 0) = 2i and (i, 1, 0) = 2i + 1; quad i = (2i, 2i+2, 2i+3, 2i+1). */
function strip(n: number): { pts: number[]; quads: number[] } {
  const pts: number[] = [];
  for (let i = 0; i <= n; i++) pts.push(i, 0, 0, i, 1, 0);
  const quads: number[] = [];
  for (let i = 0; i < n; i++) quads.push(2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1);
  return { pts, quads };
}

describe('QuadularBendingSprings', () => {
  it('puts two springs across each edge shared by two quads, between the vertices next to the same end of the edge', () => {
    const s = strip(2);
    const b = new QuadularBendingSprings();
    buildNode(s.pts, new StubTopology(6, { quads: s.quads, edges: edgesOf(s.quads) }), [b]);
    // quads (0 2 3 1) and (2 4 5 3) share edge 2-3; the springs join 0–4 and 1–5 (length 2 at rest)
    expect(b.springCount).to.equal(2);
    const ends = [b.spring(0), b.spring(1)].map((sp) => [sp.a, sp.b].sort().join('-')).sort();
    expect(ends).to.deep.equal(['0-4', '1-5']);
    expect(b.spring(0).restLength).to.equal(2);
    // a strip of n squares: n − 1 inner edges, 2 springs each
    const s5 = strip(5);
    const b5 = new QuadularBendingSprings();
    buildNode(s5.pts, new StubTopology(12, { quads: s5.quads, edges: edgesOf(s5.quads) }), [b5]);
    expect(b5.springCount).to.equal(8);
  });

  it('exerts no force at rest, and its K equals the finite differences of the force (symmetric)', () => {
    const r = rng(7);
    const s = strip(3);
    const pts = s.pts.map((c) => c + 0.1 * r());
    const b = new QuadularBendingSprings();
    b.stiffness.value = 300;
    buildNode(pts, new StubTopology(8, { quads: s.quads, edges: edgesOf(s.quads) }), [b]);
    const x = Float64Array.from(pts);
    const v = new Float64Array(x.length);
    const f = new Float64Array(x.length);
    b.addForce([f], [x], [v]);
    for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-12);
    // folded: the spring force along the spring, ks·(d − L)
    const xd = x.map((c) => c + 0.3 * r());
    const { K, FD } = stiffnessAndFiniteDifferences(b, xd, v);
    for (let i = 0; i < x.length; i++) {
      for (let j = 0; j < x.length; j++) {
        expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-5);
        expect(K[i][j]).to.be.closeTo(K[j][i], 1e-12);
      }
    }
  });
});
