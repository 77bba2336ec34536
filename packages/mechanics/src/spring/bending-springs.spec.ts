import { expect } from 'chai';
import { FastTriangularBendingSprings } from './FastTriangularBendingSprings.js';
import { QuadBendingSprings } from './QuadBendingSprings.js';
import { QuadularBendingSprings } from './QuadularBendingSprings.js';
import { TriangleBendingSprings } from './TriangleBendingSprings.js';
import { buildNode, rng, StubTopology } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';

/** A grid of nx × ny points in the z = 0 plane (index i + nx·j), its quads and its triangles. */
function grid(nx: number, ny: number): { x: number[]; quads: number[]; tris: number[]; edges: number[] } {
  const x: number[] = [];
  for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) x.push(i, j, 0);
  const quads: number[] = [],
    tris: number[] = [];
  for (let j = 0; j + 1 < ny; j++) {
    for (let i = 0; i + 1 < nx; i++) {
      const a = i + nx * j,
        b = a + 1,
        c = a + 1 + nx,
        d = a + nx;
      quads.push(a, b, c, d);
      tris.push(a, b, c, a, c, d);
    }
  }
  const seen = new Set<string>(),
    edges: number[] = [];
  for (let t = 0; t < tris.length; t += 3) {
    for (const [p, q] of [
      [tris[t], tris[t + 1]],
      [tris[t + 1], tris[t + 2]],
      [tris[t + 2], tris[t]],
    ] as const) {
      const k = `${Math.min(p, q)}-${Math.max(p, q)}`;
      if (!seen.has(k)) {
        seen.add(k);
        edges.push(p, q);
      }
    }
  }
  return { x, quads, tris, edges };
}

function force(ff: { addForce(f: Float64Array[], x: Float64Array[], v: Float64Array[]): void }, x: Float64Array): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [new Float64Array(x.length)]);
  return f;
}

describe('QuadBendingSprings', () => {
  it('joins, across each edge shared by two quads, the opposite edge ends (one spring per pair)', () => {
    const g = grid(3, 2); // two quads sharing edge (1, 4)
    const qb = new QuadBendingSprings();
    qb.stiffness.value = Float64Array.of(20);
    qb.damping.value = Float64Array.of(0);
    buildNode(g.x, new StubTopology(6, { quads: g.quads }), [qb]);
    expect(qb.springCount).to.equal(2);
    // quads (0 1 4 3) and (1 2 5 4): springs 0–2 and 3–5, length 2 at rest
    const f = force(qb, Float64Array.from(g.x));
    expect(Array.from(f).every((v) => v === 0)).to.equal(true);
    const x = Float64Array.from(g.x);
    x[2 * 3 + 2] = 0.5; // lift point 2: the spring 0–2 is stretched
    const fl = force(qb, x);
    const d = Math.hypot(2, 0, 0.5);
    expect(fl[2]).to.be.closeTo((20 * (d - 2) * 0.5) / d, 1e-12); // on point 0, along +z
    expect(fl[8]).to.be.closeTo((-20 * (d - 2) * 0.5) / d, 1e-12);
  });

  it('a 4 × 4 grid gets (nx − 2)·ny + nx·(ny − 2) springs; localRange leaves out springs outside it', () => {
    const g = grid(4, 4);
    const qb = new QuadBendingSprings();
    buildNode(g.x, new StubTopology(16, { quads: g.quads }), [qb]);
    expect(qb.springCount).to.equal(16);
    const part = new QuadBendingSprings();
    part.localRange.value = Float64Array.of(0, 3);
    buildNode(g.x, new StubTopology(16, { quads: g.quads }), [part]);
    expect(part.springCount).to.be.below(16);
  });
});

describe('FastTriangularBendingSprings', () => {
  it('a flat rest shape exerts nothing; one element per interior edge', () => {
    const g = grid(4, 3);
    const b = new FastTriangularBendingSprings();
    b.bendingStiffness.value = 7;
    buildNode(g.x, new StubTopology(12, { triangles: g.tris, edges: g.edges }), [b]);
    // one element per interior edge: all edges but the boundary ones
    const boundary = 2 * (4 - 1) + 2 * (3 - 1);
    expect(b.elementCount).to.equal(g.edges.length / 2 - boundary);
    const f = force(b, Float64Array.from(g.x));
    for (const v of f) expect(v).to.be.closeTo(0, 1e-13);
    // a rigid motion of the flat sheet exerts nothing either (R = Σα·x, Σα = 0)
    const moved = Float64Array.from(g.x, (v, k) => v + [0.3, -1, 2][k % 3]);
    for (const v of force(b, moved)) expect(v).to.be.closeTo(0, 1e-12);
  });

  it('the hinge of two right triangles: α and λ in closed form, f = −λ·α·R, E = ½λ|R|²', () => {
    // triangles (0 1 2) and (1 3 2) on the unit square, hinge (1, 2): A = 0, B = 3
    const x = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0];
    const tris = [0, 1, 2, 1, 3, 2];
    const b = new FastTriangularBendingSprings();
    b.bendingStiffness.value = 3;
    buildNode(x, new StubTopology(4, { triangles: tris, edges: [0, 1, 1, 2, 2, 0, 1, 3, 3, 2] }), [b]);
    expect(b.elementCount).to.equal(1);
    const e = b.element(0);
    expect(e.vid).to.deep.equal([0, 3, 1, 2]);
    for (const [k, a] of [0.5, 0.5, -0.5, -0.5].entries()) expect(e.alpha[k]).to.be.closeTo(a, 1e-15);
    // h_A = h_B = √2/2, |CD| = √2: λ = (2/3)·(√2)/(1/4)·√2·3 = 16
    expect(e.lambda).to.be.closeTo(16, 1e-12);
    // fold: lift A by 0.4 along z; R = 0.5·(0, 0, 0.4)
    const xf = Float64Array.from(x);
    xf[2] = 0.4;
    const f = force(b, xf);
    const R = 0.2;
    for (const [k, a] of [0.5, 0.5, -0.5, -0.5].entries()) expect(f[3 * e.vid[k] + 2]).to.be.closeTo(-16 * a * R, 1e-12);
    expect(b.getPotentialEnergy([xf])).to.be.closeTo(0.5 * 16 * R * R, 1e-14);
  });

  it('K = ∂f/∂x (finite differences) on a randomly bent sheet', () => {
    const g = grid(3, 3);
    const b = new FastTriangularBendingSprings();
    b.bendingStiffness.value = 2;
    buildNode(g.x, new StubTopology(9, { triangles: g.tris, edges: g.edges }), [b]);
    const r = rng(4);
    const x = Float64Array.from(g.x, (v) => v + 0.3 * r());
    const { K, FD } = stiffnessAndFiniteDifferences(b, x, new Float64Array(x.length));
    for (let i = 0; i < x.length; i++) for (let j = 0; j < x.length; j++) expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-6);
  });
});

describe('TriangleBendingSprings', () => {
  it('joins the vertices opposite each shared edge (quads split in two triangles); at rest no force', () => {
    const g = grid(3, 2);
    const tb = new TriangleBendingSprings();
    tb.stiffness.value = Float64Array.of(10);
    buildNode(g.x, new StubTopology(6, { triangles: g.tris }), [tb]);
    // triangles (0 1 4) (0 4 3) (1 2 5) (1 5 4): edges 0–4, 1–4, 1–5 are shared
    expect(tb.springCount).to.equal(3);
    for (const v of force(tb, Float64Array.from(g.x))) expect(v).to.equal(0);
    const fromQuads = new TriangleBendingSprings();
    buildNode(g.x, new StubTopology(6, { quads: g.quads }), [fromQuads]);
    expect(fromQuads.springCount).to.equal(3);
    // an edge of three triangles (a fin) gets two springs, as in SOFA
    const fin = new TriangleBendingSprings();
    buildNode([0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1], new StubTopology(5, { triangles: [0, 1, 2, 1, 0, 3, 0, 1, 4] }), [fin]);
    expect(fin.springCount).to.equal(2);
  });
});

describe('QuadularBendingSprings', () => {
  it("two springs per edge shared by two quads, between each quad's vertices as SOFA pairs them; K = ∂f/∂x", () => {
    const g = grid(3, 2); // quads (0 1 4 3) and (1 2 5 4) share edge (1, 4)
    const qb = new QuadularBendingSprings();
    qb.stiffness.value = 50;
    buildNode(g.x, new StubTopology(6, { quads: g.quads, edges: g.edges }), [qb]);
    expect(qb.springCount).to.equal(2);
    // SOFA's EdgesInQuad: edge j of a quad joins its vertices j+1 and j+2 (Quad/MeshTopology's
    // createEdgesInQuadArray). t2 = quad 0 (the edge at position 0), t1 = quad 1 (at position 2):
    // t1[2]–t2[3] = 5–3 and t1[1]–t2[0] = 2–0, the vertices next to the same end on each side
    expect([qb.spring(0).a, qb.spring(0).b]).to.deep.equal([5, 3]);
    expect([qb.spring(1).a, qb.spring(1).b]).to.deep.equal([2, 0]);
    expect(qb.spring(0).restLength).to.be.closeTo(2, 1e-15);
    for (const v of force(qb, Float64Array.from(g.x))) expect(v).to.equal(0);
    const r = rng(9);
    const x = Float64Array.from(g.x, (v) => v + 0.2 * r());
    const { K, FD } = stiffnessAndFiniteDifferences(qb, x, new Float64Array(x.length));
    for (let i = 0; i < x.length; i++) for (let j = 0; j < x.length; j++) expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-4);
  });
});
