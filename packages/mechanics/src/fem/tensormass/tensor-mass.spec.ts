import { expect } from 'chai';
import { buildNode, gridPoints, gridTetrahedra, StubTopology } from '../../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../../load/fd-check-test-support.js';
import { TetrahedralTensorMassForceField } from './TetrahedralTensorMassForceField.js';
import { TriangularTensorMassForceField } from './TriangularTensorMassForceField.js';
import type { EdgeTensorForceField } from './edge-tensor-force-field.js';

const E = 1000,
  NU = 0.3;

function forceAt(ff: EdgeTensorForceField, x: Float64Array): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [new Float64Array(x.length)]);
  return f;
}

/** Edges of the elements (each pair once, smaller index first). */
function edgesOf(elems: number[], n: number): number[] {
  const pairs =
    n === 4
      ? [
          [0, 1],
          [0, 2],
          [0, 3],
          [1, 2],
          [1, 3],
          [2, 3],
        ]
      : [
          [0, 1],
          [1, 2],
          [2, 0],
        ];
  const seen = new Set<string>(),
    out: number[] = [];
  for (let e = 0; e < elems.length / n; e++)
    for (const [a, b] of pairs) {
      const p = elems[n * e + a],
        q = elems[n * e + b];
      const key = `${Math.min(p, q)} ${Math.max(p, q)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // keep some edges reversed, as topologies do
      out.push(...(e % 2 ? [q, p] : [p, q]));
    }
  return out;
}

function check(ff: EdgeTensorForceField, x: Float64Array): void {
  const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(x.length), 1e-6);
  let err = 0,
    scale = 0;
  for (let i = 0; i < K.length; i++)
    for (let j = 0; j < K.length; j++) {
      err = Math.max(err, Math.abs(K[i][j] - FD[i][j]), Math.abs(K[i][j] - K[j][i]));
      scale = Math.max(scale, Math.abs(K[i][j]));
    }
  expect(err / scale).to.be.below(1e-7);
}

describe('TetrahedralTensorMassForceField', () => {
  const pts = gridPoints(2, 2, 3, 1, 1, 2),
    tets = gridTetrahedra(2, 2, 3);
  const make = (): TetrahedralTensorMassForceField => {
    const ff = new TetrahedralTensorMassForceField();
    ff.youngModulus.value = E;
    ff.poissonRatio.value = NU;
    buildNode(pts, new StubTopology(pts.length / 3, { tetrahedra: tets, edges: edgesOf(tets, 4) }), [ff]);
    return ff;
  };

  it('uniaxial traction of a bar: end force E·ε·A with free contraction, no force inside, energy ½·E·ε²·V', () => {
    const ff = make();
    const eps = 1e-3,
      n = pts.length / 3;
    const x = Float64Array.from(pts, (c, i) => c * (i % 3 === 2 ? 1 + eps : 1 - NU * eps));
    const f = forceAt(ff, x);
    let fz = 0;
    for (let i = 0; i < n; i++) {
      if (pts[3 * i + 2] === 2) fz += f[3 * i + 2];
      if (pts[3 * i + 2] === 1) for (let c = 0; c < 3; c++) expect(Math.abs(f[3 * i + c])).to.be.below(1e-9 * E * eps);
    }
    expect(-fz).to.be.closeTo(E * eps, 1e-9 * E * eps);
    expect(ff.getPotentialEnergy([x])).to.be.closeTo(0.5 * E * eps * eps * 2, 1e-9 * E * eps * eps);
  });

  it('K equals the finite differences of the force and is symmetric (edges in either orientation)', () => {
    const ff = make();
    check(
      ff,
      Float64Array.from(pts, (c, i) => c + 0.01 * Math.sin(i)),
    );
  });
});

describe('TriangularTensorMassForceField', () => {
  // a 2 × 1 plate in the plane z = 0 cut in 3 × 2 cells of 2 triangles (uneven diagonals)
  const pts: number[] = [],
    tris: number[] = [];
  for (let j = 0; j <= 2; j++) for (let i = 0; i <= 3; i++) pts.push((2 * i) / 3, j / 2, 0);
  for (let j = 0; j < 2; j++)
    for (let i = 0; i < 3; i++) {
      const a = i + 4 * j,
        b = a + 1,
        c = a + 5,
        d = a + 4;
      if ((i + j) % 2) tris.push(a, b, c, a, c, d);
      else tris.push(a, b, d, b, c, d);
    }
  const make = (): TriangularTensorMassForceField => {
    const ff = new TriangularTensorMassForceField();
    ff.youngModulus.value = E;
    ff.poissonRatio.value = NU;
    buildNode(pts, new StubTopology(pts.length / 3, { triangles: tris, edges: edgesOf(tris, 3) }), [ff]);
    return ff;
  };

  it('in-plane patch test: a uniform strain gives no force inside and the plane-stress traction on the edges', () => {
    const ff = make();
    const s = 1e-3,
      G = [0.7 * s, 0.3 * s, -0.2 * s, -0.4 * s];
    const x = Float64Array.from(pts);
    for (let i = 0; i < pts.length / 3; i++) {
      x[3 * i] += G[0] * pts[3 * i] + G[1] * pts[3 * i + 1];
      x[3 * i + 1] += G[2] * pts[3 * i] + G[3] * pts[3 * i + 1];
    }
    const f = forceAt(ff, x);
    const Eh = E / (1 - NU * NU);
    const sxx = Eh * (G[0] + NU * G[3]),
      sxy = (E / (2 * (1 + NU))) * (G[1] + G[2]);
    for (const inner of [5, 6]) for (let c = 0; c < 3; c++) expect(Math.abs(f[3 * inner + c])).to.be.below(1e-9 * E * s);
    let fx = 0,
      fy = 0;
    for (const node of [3, 7, 11]) {
      fx += f[3 * node];
      fy += f[3 * node + 1];
    }
    expect(-fx).to.be.closeTo(sxx * 1, 1e-9 * E * s);
    expect(-fy).to.be.closeTo(sxy * 1, 1e-9 * E * s);
  });

  it('K equals the finite differences of the force and is symmetric; a uniform normal translation costs nothing', () => {
    const ff = make();
    check(
      ff,
      Float64Array.from(pts, (c, i) => c + 0.01 * Math.cos(i)),
    );
    const f = forceAt(
      ff,
      Float64Array.from(pts, (c, i) => (i % 3 === 2 ? c + 0.3 : c)),
    );
    for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-12 * E);
  });
});
