import { expect } from 'chai';
import { TriangularBendingSprings } from './TriangularBendingSprings.js';
import { buildNode, rng, StubTopology } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';

/** Edges of triangles, each once, in order of first appearance (as a triangle container builds them). */
function edgesOf(tris: number[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  for (let t = 0; t < tris.length; t += 3) {
    for (const [i, j] of [
      [1, 2],
      [2, 0],
      [0, 1],
    ] as const) {
      const p = tris[t + i],
        q = tris[t + j];
      const k = `${Math.min(p, q)}-${Math.max(p, q)}`;
      if (!seen.has(k)) {
        seen.add(k);
        out.push(p, q);
      }
    }
  }
  return out;
}

function bending(stiffness?: number, damping?: number): TriangularBendingSprings {
  const b = new TriangularBendingSprings();
  if (stiffness !== undefined) b.stiffness.value = stiffness;
  if (damping !== undefined) b.damping.value = damping;
  return b;
}

/** A strip of n squares, each split in two triangles: points 2i (bottom) and 2i+1 (top). */
function strip(n: number): { pts: number[]; tris: number[] } {
  const pts: number[] = [];
  for (let i = 0; i <= n; i++) pts.push(i, 0, 0, i, 1, 0);
  const tris: number[] = [];
  for (let i = 0; i < n; i++) tris.push(2 * i, 2 * i + 2, 2 * i + 3, 2 * i, 2 * i + 3, 2 * i + 1);
  return { pts, tris };
}

describe('TriangularBendingSprings', () => {
  it('joins the vertices opposite each edge shared by exactly two triangles', () => {
    // two triangles (0, 1, 2) and (2, 1, 3) sharing edge 1-2: one spring 0-3; border edges none
    const pts = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0.5];
    const tris = [0, 1, 2, 2, 1, 3];
    const b = bending();
    buildNode(pts, new StubTopology(4, { triangles: tris, edges: edgesOf(tris) }), [b]);
    expect(b.springCount).to.equal(1);
    // a: vertex of the later triangle, b: of the earlier one; rest = their distance at rest
    expect(b.spring(0)).to.deep.equal({ a: 3, b: 0, restLength: Math.hypot(1, 1, 0.5) });
    // a strip of n squares: 2n triangles, 2n − 1 interior edges
    const s = strip(5);
    const bs = bending();
    buildNode(s.pts, new StubTopology(12, { triangles: s.tris, edges: edgesOf(s.tris) }), [bs]);
    expect(bs.springCount).to.equal(9);
    // an edge shared by three triangles (a fin) gets no spring
    const fin = [0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1];
    const ft = [0, 1, 2, 1, 0, 3, 0, 1, 4];
    const bf = bending();
    buildNode(fin, new StubTopology(5, { triangles: ft, edges: edgesOf(ft) }), [bf]);
    expect(bf.springCount).to.equal(0);
  });

  it('follows the spring law f = ks·(d − L) + kd·(û·Δv) along the spring', () => {
    const pts = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0];
    const tris = [0, 1, 2, 2, 1, 3];
    const b = bending(100, 2);
    buildNode(pts, new StubTopology(4, { triangles: tris, edges: edgesOf(tris) }), [b]);
    // fold: lift point 3 along z; spring 3→0 (a = 3, b = 0)
    const x = Float64Array.from(pts);
    x[11] = 1;
    const v = new Float64Array(12);
    v[2] = 0.5; // point 0 moves up
    const f = new Float64Array(12);
    b.addForce([f], [x], [v]);
    const u = [0 - 1, 0 - 1, 0 - 1];
    const d = Math.hypot(...u);
    const uh = u.map((c) => c / d);
    const fi = 100 * (d - Math.SQRT2) + 2 * (uh[2] * 0.5);
    for (let k = 0; k < 3; k++) {
      expect(f[9 + k]).to.be.closeTo(uh[k] * fi, 1e-13);
      expect(f[k]).to.be.closeTo(-uh[k] * fi, 1e-13);
    }
    expect(f[3] + f[4] + f[5] + f[6] + f[7] + f[8]).to.equal(0);
  });

  it('exerts no force at rest, and its K equals the finite differences of the force (symmetric)', () => {
    const r = rng(11);
    const s = strip(4);
    const pts = s.pts.map((c) => c + 0.1 * r());
    const b = bending(300, 1);
    buildNode(pts, new StubTopology(10, { triangles: s.tris, edges: edgesOf(s.tris) }), [b]);
    const x = Float64Array.from(pts);
    const v = new Float64Array(x.length);
    const f = new Float64Array(x.length);
    b.addForce([f], [x], [v]);
    for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-12);
    const xd = x.map((c) => c + 0.3 * r());
    const { K, FD } = stiffnessAndFiniteDifferences(b, xd, v);
    for (let i = 0; i < x.length; i++) {
      for (let j = 0; j < x.length; j++) {
        expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-5);
        expect(K[i][j]).to.be.closeTo(K[j][i], 1e-12);
      }
    }
  });

  it('needs a topology with triangles', () => {
    expect(() => buildNode([0, 0, 0, 1, 0, 0], new StubTopology(2, { edges: [0, 1] }), [bending()])).to.throw(/no triangles/);
  });
});
