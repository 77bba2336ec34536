import { expect } from 'chai';
import { MeshSpringForceField } from './MeshSpringForceField.js';
import { buildNode, gridHexahedra, gridPoints, rng, StubTopology } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';

type Attrs = Partial<
  Record<
    | 'linesStiffness'
    | 'trianglesStiffness'
    | 'quadsStiffness'
    | 'tetrahedraStiffness'
    | 'cubesStiffness'
    | 'linesDamping'
    | 'tetrahedraDamping',
    number
  >
> & {
  noCompression?: boolean;
  localRange?: [number, number];
};

function msff(attrs: Attrs): MeshSpringForceField {
  const m = new MeshSpringForceField();
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'noCompression') m.noCompression.value = v as boolean;
    else if (k === 'localRange') m.localRange.value = Uint32Array.from(v as number[]);
    else (m.findData(k)!.value as unknown) = v;
  }
  return m;
}

/** The springs as sorted "min-max:ks" strings. */
function springs(m: MeshSpringForceField, x: ArrayLike<number>): Map<string, { ks: number; rest: number }> {
  const out = new Map<string, { ks: number; rest: number }>();
  const internals = m as unknown as { a: Uint32Array; b: Uint32Array; ks: Float64Array; rest: Float64Array };
  for (let i = 0; i < m.springCount; i++) {
    const a = internals.a[i],
      b = internals.b[i];
    const key = `${Math.min(a, b)}-${Math.max(a, b)}`;
    expect(out.has(key), `duplicate spring ${key}`).to.equal(false);
    const d = Math.hypot(x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]);
    expect(internals.rest[i]).to.be.closeTo(d, 1e-15);
    out.set(key, { ks: internals.ks[i], rest: internals.rest[i] });
  }
  return out;
}

const tetPoints = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1];

describe('MeshSpringForceField', () => {
  it('puts one spring on each pair of vertices of the elements, shared edges once', () => {
    // two tetrahedra sharing the face (1, 2, 3): 6 + 6 − 3 = 9 edges
    const m = msff({ tetrahedraStiffness: 10 });
    buildNode(tetPoints, new StubTopology(5, { tetrahedra: [0, 1, 2, 3, 4, 3, 2, 1] }), [m]);
    expect(m.springCount).to.equal(9);
    expect([...springs(m, tetPoints).keys()].sort()).to.deep.equal(['0-1', '0-2', '0-3', '1-2', '1-3', '1-4', '2-3', '2-4', '3-4']);
    // a hexahedron: all 28 pairs (12 edges, 12 face diagonals, 4 body diagonals)
    const pts = gridPoints(2, 2, 2, 1, 1, 1);
    const h = msff({ cubesStiffness: 1 });
    buildNode(pts, new StubTopology(8, { hexahedra: gridHexahedra(2, 2, 2) }), [h]);
    expect(h.springCount).to.equal(28);
    const rests = [...springs(h, pts).values()].map((s) => s.rest);
    expect(rests.filter((r) => Math.abs(r - 1) < 1e-12)).to.have.length(12);
    expect(rests.filter((r) => Math.abs(r - Math.SQRT2) < 1e-12)).to.have.length(12);
    expect(rests.filter((r) => Math.abs(r - Math.sqrt(3)) < 1e-12)).to.have.length(4);
  });

  it('divides the stiffness by the rest length, and the first element type reaching a pair sets it (no sum)', () => {
    // a unit square as two triangles (edges + diagonal 0-2), as one quad (both diagonals), and a line 0-1
    const sq = [0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0];
    const m = msff({ linesStiffness: 10, trianglesStiffness: 20, quadsStiffness: 30 });
    buildNode(sq, new StubTopology(4, { edges: [0, 1], triangles: [0, 1, 2, 0, 2, 3], quads: [0, 1, 2, 3] }), [m]);
    const s = springs(m, sq);
    expect(s.size).to.equal(6);
    expect(s.get('0-1')!.ks).to.equal(10 / 2); // line first
    expect(s.get('1-2')!.ks).to.equal(20 / 2); // triangle edges
    expect(s.get('0-2')!.ks).to.equal(20 / Math.sqrt(8));
    expect(s.get('2-3')!.ks).to.equal(20 / 2);
    expect(s.get('1-3')!.ks).to.equal(30 / Math.sqrt(8)); // only the quad reaches the other diagonal
    // types with zero stiffness and damping add nothing; damping alone does
    const none = msff({});
    buildNode(sq, new StubTopology(4, { edges: [0, 1], triangles: [0, 1, 2] }), [none]);
    expect(none.springCount).to.equal(0);
    const damped = msff({ linesDamping: 4 });
    buildNode(sq, new StubTopology(4, { edges: [0, 1] }), [damped]);
    expect(damped.springCount).to.equal(1);
    expect((damped as unknown as { kd: Float64Array }).kd[0]).to.equal(2);
  });

  it('applies `stiffness` to every element type unless a per-type attribute is written after it', () => {
    const topo = (): StubTopology => new StubTopology(5, { tetrahedra: [0, 1, 2, 3], edges: [0, 4] });
    const loc = (column: number) => ({ file: 't.scn', line: 3, column });
    // <MeshSpringForceField tetrahedraStiffness="7" stiffness="3"/>: every type gets 3
    const a = msff({ tetrahedraStiffness: 7 });
    a.tetrahedraStiffness.loc = loc(10);
    a.stiffness.value = Float64Array.of(3);
    a.stiffness.loc = loc(40);
    buildNode(tetPoints, topo(), [a]);
    const sa = springs(a, tetPoints);
    expect(sa.size).to.equal(7);
    expect(sa.get('0-4')!.ks).to.equal(3 / Math.sqrt(3));
    expect(sa.get('1-2')!.ks).to.equal(3 / Math.SQRT2);
    // <MeshSpringForceField stiffness="3" tetrahedraStiffness="7"/>: tetrahedra 7, lines 3
    const b = msff({ tetrahedraStiffness: 7 });
    b.tetrahedraStiffness.loc = loc(40);
    b.stiffness.value = Float64Array.of(3);
    b.stiffness.loc = loc(10);
    buildNode(tetPoints, topo(), [b]);
    const sb = springs(b, tetPoints);
    expect(sb.get('0-4')!.ks).to.equal(3 / Math.sqrt(3));
    expect(sb.get('1-2')!.ks).to.equal(7 / Math.SQRT2);
  });

  it('leaves out springs outside localRange and, with noCompression, compressed springs', () => {
    const m = msff({ tetrahedraStiffness: 1, localRange: [1, 2] });
    buildNode(tetPoints, new StubTopology(5, { tetrahedra: [0, 1, 2, 3, 4, 3, 2, 1] }), [m]);
    // a point before 1 drops the spring; both points after 2 drop it
    expect([...springs(m, tetPoints).keys()].sort()).to.deep.equal(['1-2', '1-3', '1-4', '2-3', '2-4']);
    const line = [0, 0, 0, 1, 0, 0];
    const nc = msff({ linesStiffness: 5, noCompression: true });
    buildNode(line, new StubTopology(2, { edges: [0, 1] }), [nc]);
    const f = new Float64Array(6);
    const zero = new Float64Array(6);
    nc.addForce([f], [Float64Array.of(0, 0, 0, 0.5, 0, 0)], [zero]);
    expect(Array.from(f)).to.deep.equal([0, 0, 0, 0, 0, 0]);
    nc.addForce([f], [Float64Array.of(0, 0, 0, 1.5, 0, 0)], [zero]);
    // f = ks/L·(d − L) on point 0 towards point 1
    expect(f[0]).to.be.closeTo(5 * 0.5, 1e-15);
    expect(f[3]).to.be.closeTo(-5 * 0.5, 1e-15);
  });

  it('exerts no force at rest, and its K equals the finite differences of the force (symmetric)', () => {
    const r = rng(7);
    const pts = gridPoints(3, 2, 2, 2, 1, 1).map((c) => c + 0.1 * r());
    const m = msff({ cubesStiffness: 300, tetrahedraStiffness: 50, linesDamping: 3 });
    m.findData('linesStiffness')!.value = 40 as never;
    buildNode(pts, new StubTopology(12, { hexahedra: gridHexahedra(3, 2, 2), edges: [0, 11] }), [m]);
    const x = Float64Array.from(pts);
    const v = new Float64Array(x.length);
    const f = new Float64Array(x.length);
    m.addForce([f], [x], [v]);
    for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-12);
    const xd = x.map((c) => c + 0.2 * r());
    const { K, FD } = stiffnessAndFiniteDifferences(m, xd, v);
    let scale = 0;
    for (const row of K) for (const k of row) scale = Math.max(scale, Math.abs(k));
    for (let i = 0; i < x.length; i++) {
      for (let j = 0; j < x.length; j++) {
        expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-6 * scale);
        expect(K[i][j]).to.be.closeTo(K[j][i], 1e-12 * scale);
      }
    }
  });

  it('needs a topology', () => {
    expect(() => buildNode(tetPoints, undefined, [msff({ linesStiffness: 1 })])).to.throw(/no topology/);
  });
});
