import { expect } from 'chai';
import { BaseObject, RealArray, Vec3d, sofaComponent, type GridDescription } from '@sofa-ts/core';
import { BarycentricMapping } from './BarycentricMapping.js';
import { StubSetContainer, StubState, StubTopology, checkJacobian, checkTranspose, expectValidCsr, mount, rng } from './test-support.js';

/** Points of an nx×ny×nz grid over [min, max], index i + nx·(j + ny·k). */
function gridPoints(n: readonly number[], min: readonly number[], max: readonly number[]): Float64Array {
  const x = new Float64Array(3 * n[0] * n[1] * n[2]);
  let p = 0;
  for (let k = 0; k < n[2]; k++) {
    for (let j = 0; j < n[1]; j++) {
      for (let i = 0; i < n[0]; i++) {
        const ijk = [i, j, k];
        for (let a = 0; a < 3; a++) x[p++] = n[a] === 1 ? min[a] : min[a] + ((max[a] - min[a]) * ijk[a]) / (n[a] - 1);
      }
    }
  }
  return x;
}

/** Hexahedra of the grid in SOFA's order (0-1-2-3 bottom face counter-clockwise, 4-7 top). */
function gridHexahedra(n: readonly number[]): Uint32Array {
  const v = (i: number, j: number, k: number) => i + n[0] * (j + n[1] * k);
  const out: number[] = [];
  for (let k = 0; k < n[2] - 1; k++) {
    for (let j = 0; j < n[1] - 1; j++) {
      for (let i = 0; i < n[0] - 1; i++) {
        out.push(
          v(i, j, k),
          v(i + 1, j, k),
          v(i + 1, j + 1, k),
          v(i, j + 1, k),
          v(i, j, k + 1),
          v(i + 1, j, k + 1),
          v(i + 1, j + 1, k + 1),
          v(i, j + 1, k + 1),
        );
      }
    }
  }
  return Uint32Array.from(out);
}

/** Each hexahedron split into the 6 tetrahedra around its 0–6 diagonal (Kuhn). */
function kuhnTetrahedra(hexas: Uint32Array): Uint32Array {
  // hexahedron node of corner bits (x, y, z)
  const node = (x: number, y: number, z: number) =>
    [
      [0, 3],
      [1, 2],
    ][x][y] +
    4 * z;
  const perms = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  const out: number[] = [];
  for (let h = 0; h < hexas.length / 8; h++) {
    for (const p of perms) {
      const bits = [0, 0, 0];
      const tet = [node(0, 0, 0)];
      for (const a of p) {
        bits[a] = 1;
        tet.push(node(bits[0], bits[1], bits[2]));
      }
      for (const t of tet) out.push(hexas[8 * h + t]);
    }
  }
  return Uint32Array.from(out);
}

/** x ← A·x + b for every point (a random affine map close to the identity). */
function affine(x: Float64Array, seed: number): Float64Array {
  const r = rng(seed);
  const A = Array.from({ length: 9 }, (_, i) => (i % 4 === 0 ? 1 : 0) + 0.3 * (r() - 0.5));
  const b = [r(), r(), r()];
  const y = new Float64Array(x.length);
  for (let p = 0; p < x.length; p += 3)
    for (let i = 0; i < 3; i++) y[p + i] = A[3 * i] * x[p] + A[3 * i + 1] * x[p + 1] + A[3 * i + 2] * x[p + 2] + b[i];
  return y;
}

function jitter(x: Float64Array, amount: number, seed: number): Float64Array {
  const r = rng(seed);
  return x.map((v) => v + amount * (r() - 0.5));
}

/** Random points inside random elements of k nodes, with weights w(f) of local coordinates f. */
function pointsIn(
  x: Float64Array,
  elems: Uint32Array,
  k: number,
  count: number,
  seed: number,
  weights: (r: () => number) => number[],
): Float64Array {
  const r = rng(seed);
  const out = new Float64Array(3 * count);
  for (let i = 0; i < count; i++) {
    const e = Math.floor(r() * (elems.length / k));
    const w = weights(r);
    for (let j = 0; j < k; j++) for (let a = 0; a < 3; a++) out[3 * i + a] += w[j] * x[3 * elems[k * e + j] + a];
  }
  return out;
}

/** Barycentric weights drawn uniformly in a simplex of n nodes. */
const simplex = (n: number) => (r: () => number) => {
  const g = Array.from({ length: n }, () => -Math.log(1 - r()));
  const s = g.reduce((a, b) => a + b, 0);
  return g.map((v) => v / s);
};
/** Trilinear (or bilinear) weights of uniform local coordinates, SOFA's node order. */
const trilinear = (r: () => number) => {
  const [a, b, c] = [r(), r(), r()];
  return [
    (1 - a) * (1 - b) * (1 - c),
    a * (1 - b) * (1 - c),
    a * b * (1 - c),
    (1 - a) * b * (1 - c),
    (1 - a) * (1 - b) * c,
    a * (1 - b) * c,
    a * b * c,
    (1 - a) * b * c,
  ];
};
const bilinear = (r: () => number) => {
  const [a, b] = [r(), r()];
  return [(1 - a) * (1 - b), a * (1 - b), a * b, (1 - a) * b];
};

/** Maps `pts` with a BarycentricMapping from a state at `xin` with topology `topo`. */
function mapPoints(xin: Float64Array, topo: StubTopology, pts: Float64Array) {
  const from = new StubState(Vec3d, xin, 'in');
  const to = new StubState(Vec3d, pts, 'out');
  const m = mount(new BarycentricMapping(), from, to, topo);
  m.apply();
  return { m, from, to };
}

/** Weights sum to 1, are ≥ 0 (the point lies in its element), and apply gives the points back. */
function expectLocatedInside(m: BarycentricMapping, to: StubState, pts: Float64Array): void {
  const { ptr, w } = m.barycentricMap;
  for (let i = 0; i < m.barycentricMap.nOut; i++) {
    let s = 0;
    for (let k = ptr[i]; k < ptr[i + 1]; k++) {
      s += w[k];
      expect(w[k], `weight of point ${i}`).to.be.at.least(-1e-10);
    }
    expect(s).to.be.closeTo(1, 1e-13);
  }
  pts.forEach((v, i) => expect(to.x[i]).to.be.closeTo(v, 1e-12));
}

function linearChecks(m: BarycentricMapping, from: StubState, to: StubState, seed: number): void {
  expectValidCsr(m.getJ(0), 3 * to.size, 3 * from.size);
  checkJacobian(m, from, to, seed);
  checkTranspose(m, 3 * from.size, 3 * to.size, seed + 1);
}

describe('BarycentricMapping', () => {
  const n = [4, 3, 3];
  const hexas = gridHexahedra(n);
  const tetras = kuhnTetrahedra(hexas);
  const xTet = jitter(gridPoints(n, [0, 0, 0], [3, 2, 2]), 0.3, 1);

  it('tetrahedra of a set container (hashed search): points inside are reproduced with weights ≥ 0 summing to 1', () => {
    const pts = pointsIn(xTet, tetras, 4, 200, 2, simplex(4));
    const { m, from, to } = mapPoints(xTet, new StubSetContainer({ tetrahedra: tetras }), pts);
    expect(m.mapperKind).to.equal('TetrahedronSet');
    expectLocatedInside(m, to, pts);
    linearChecks(m, from, to, 3);
  });

  it('tetrahedra of a MeshTopology (exhaustive search): same, and points outside go to the nearest element centre, extrapolated exactly', () => {
    const pts = pointsIn(xTet, tetras, 4, 100, 4, simplex(4));
    const { m, to } = mapPoints(xTet, new StubTopology({ tetrahedra: tetras }), pts);
    expect(m.mapperKind).to.equal('MeshTopology');
    expectLocatedInside(m, to, pts);

    const far = Float64Array.of(-2, 1, 1, 6, -1, 3, 1.5, 1, 5);
    const r = mapPoints(xTet, new StubTopology({ tetrahedra: tetras }), far);
    far.forEach((v, i) => expect(r.to.x[i]).to.be.closeTo(v, 1e-11));
    for (let i = 0; i < 3; i++) {
      // the nearest tetrahedron by centre
      let best = Infinity;
      let bestT = -1;
      for (let t = 0; t < tetras.length / 4; t++) {
        let d = 0;
        for (let a = 0; a < 3; a++) {
          let c = 0;
          for (let j = 0; j < 4; j++) c += xTet[3 * tetras[4 * t + j] + a];
          d += (far[3 * i + a] - c / 4) ** 2;
        }
        if (d < best) {
          best = d;
          bestT = t;
        }
      }
      const { ptr, idx } = r.m.barycentricMap;
      expect(Array.from(idx.subarray(ptr[i], ptr[i + 1]))).to.deep.equal(Array.from(tetras.subarray(4 * bestT, 4 * bestT + 4)));
    }
  });

  it('the hashed and exhaustive searches agree on points inside, also outside the mesh positions are reproduced', () => {
    const pts = Float64Array.from([...pointsIn(xTet, tetras, 4, 50, 5, simplex(4)), -0.5, 0.5, 0.5, 3.4, 2.3, 1]);
    const a = mapPoints(xTet, new StubSetContainer({ tetrahedra: tetras }), pts);
    const b = mapPoints(xTet, new StubTopology({ tetrahedra: tetras }), pts);
    pts.forEach((v, i) => {
      expect(a.to.x[i]).to.be.closeTo(v, 1e-11);
      expect(b.to.x[i]).to.be.closeTo(v, 1e-11);
    });
  });

  it('hexahedra (set container and MeshTopology) of a parallelepiped grid reproduce points inside exactly', () => {
    const x = affine(gridPoints(n, [0, 0, 0], [3, 2, 2]), 6);
    const pts = pointsIn(x, hexas, 8, 150, 7, trilinear);
    for (const topo of [new StubSetContainer({ hexahedra: hexas, tetrahedra: tetras }), new StubTopology({ hexahedra: hexas })]) {
      const { m, from, to } = mapPoints(x, topo, pts);
      expect(m.mapperKind).to.equal(topo instanceof StubSetContainer ? 'HexahedronSet' : 'MeshTopology');
      expectLocatedInside(m, to, pts);
      linearChecks(m, from, to, 8);
    }
  });

  it("hexahedron coordinates are SOFA's affine ones, f = E⁻¹·(p − p0) with E = (p1−p0, p3−p0, p4−p0), also for a distorted hexahedron", () => {
    const x = Float64Array.from(gridPoints([2, 2, 2], [0, 0, 0], [1, 1, 1]));
    x[3 * 6] += 0.3; // move node 6 off the parallelepiped
    x[3 * 6 + 2] -= 0.2;
    const hex = gridHexahedra([2, 2, 2]);
    const f = [0.3, 0.2, 0.1];
    const p = Float64Array.of(f[0], f[1], f[2]); // p0 = origin, unit edges
    for (const topo of [new StubTopology({ hexahedra: hex }), new StubSetContainer({ hexahedra: hex })]) {
      const { m } = mapPoints(x, topo, p);
      const { ptr, idx, w } = m.barycentricMap;
      const expected = [
        (1 - f[0]) * (1 - f[1]) * (1 - f[2]),
        f[0] * (1 - f[1]) * (1 - f[2]),
        f[0] * f[1] * (1 - f[2]),
        (1 - f[0]) * f[1] * (1 - f[2]),
        (1 - f[0]) * (1 - f[1]) * f[2],
        f[0] * (1 - f[1]) * f[2],
        f[0] * f[1] * f[2],
        (1 - f[0]) * f[1] * f[2],
      ];
      for (let k = ptr[0]; k < ptr[1]; k++) {
        const node = Array.from(hex).indexOf(idx[k]);
        expect(w[k]).to.be.closeTo(expected[node], 1e-15);
      }
    }
  });

  it('triangles: points on the surface are reproduced, points slightly off it are projected on the plane', () => {
    const xs = gridPoints([4, 4, 1], [0, 0, 0], [3, 3, 0]);
    const r = rng(9);
    for (let p = 2; p < xs.length; p += 3) xs[p] = 0.3 * r();
    const quads = gridHexahedra([4, 4, 2]).filter((_, i) => i % 8 < 4);
    const tris = Uint32Array.from(
      Array.from({ length: quads.length / 4 }, (_, q) => [
        quads[4 * q],
        quads[4 * q + 1],
        quads[4 * q + 2],
        quads[4 * q],
        quads[4 * q + 2],
        quads[4 * q + 3],
      ]).flat(),
    );
    const pts = pointsIn(xs, tris, 3, 100, 10, simplex(3));
    for (const topo of [new StubSetContainer({ triangles: tris }), new StubTopology({ triangles: tris })]) {
      const { m, from, to } = mapPoints(xs, topo, pts);
      expect(m.mapperKind).to.equal(topo instanceof StubSetContainer ? 'TriangleSet' : 'MeshTopology');
      expectLocatedInside(m, to, pts);
      linearChecks(m, from, to, 11);
    }
    // Off the plane of triangle 0 (within SOFA's 0.01 tolerance in normal coordinates): projected.
    const a = xs.subarray(3 * tris[0], 3 * tris[0] + 3),
      b = xs.subarray(3 * tris[1], 3 * tris[1] + 3),
      c = xs.subarray(3 * tris[2], 3 * tris[2] + 3);
    const u = [0, 1, 2].map((i) => b[i] - a[i]),
      v = [0, 1, 2].map((i) => c[i] - a[i]);
    const nrm = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    const inPlane = [0, 1, 2].map((i) => a[i] + 0.3 * u[i] + 0.2 * v[i]);
    const off = Float64Array.from(inPlane.map((p, i) => p + 0.002 * nrm[i]));
    const { to } = mapPoints(xs, new StubSetContainer({ triangles: tris }), off);
    inPlane.forEach((p, i) => expect(to.x[i]).to.be.closeTo(p, 1e-12));
  });

  it('quads of parallelograms: points inside are reproduced', () => {
    const x = affine(gridPoints([4, 3, 1], [0, 0, 0], [3, 2, 0]), 12);
    const quads = gridHexahedra([4, 3, 2]).filter((_, i) => i % 8 < 4);
    const pts = pointsIn(x, quads, 4, 80, 13, bilinear);
    for (const topo of [new StubSetContainer({ quads }), new StubTopology({ quads })]) {
      const { m, from, to } = mapPoints(x, topo, pts);
      expect(m.mapperKind).to.equal(topo instanceof StubSetContainer ? 'QuadSet' : 'MeshTopology');
      expectLocatedInside(m, to, pts);
      linearChecks(m, from, to, 14);
    }
  });

  it('edges: points on the segments are reproduced (EdgeSet: nearest segment; MeshTopology: first edge whose projection falls in it)', () => {
    const bent = Float64Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 2);
    const straight = Float64Array.of(0, 0, 0, 1, 0.5, 0, 2, 1, 0, 3, 1.5, 0);
    const edges = Uint32Array.of(0, 1, 1, 2, 2, 3);
    for (const [x, topo] of [
      [bent, new StubSetContainer({ edges })],
      [straight, new StubTopology({ edges })],
    ] as const) {
      const pts = pointsIn(x, edges, 2, 30, 15, simplex(2));
      const { m, from, to } = mapPoints(x, topo, pts);
      expect(m.mapperKind).to.equal(topo instanceof StubSetContainer ? 'EdgeSet' : 'MeshTopology');
      expectLocatedInside(m, to, pts);
      linearChecks(m, from, to, 16);
    }
    // SOFA's generic mapper takes the first edge whose projection coordinate is in [0, 1]: a point
    // of the second edge of the bent chain projects at 1 on the first edge, and lands on its end.
    const { to } = mapPoints(bent, new StubTopology({ edges }), Float64Array.of(1, 0.5, 0));
    expect(Array.from(to.x)).to.deep.equal([1, 0, 0]);
  });

  it('a regular grid: the cell containing the point, or the clamped nearest cell outside (extrapolated)', () => {
    const grid: GridDescription = { n: [4, 3, 3], min: [-1, 0, 1], max: [2, 1, 3] };
    const x = gridPoints(grid.n, grid.min, grid.max);
    const inside = pointsIn(x, hexas, 8, 100, 17, trilinear);
    const outside = Float64Array.of(-1.5, 0.5, 2, 2.5, 1.2, 3.3, 0.5, -0.4, 0.9);
    const pts = Float64Array.from([...inside, ...outside]);
    const a = mapPoints(x, new StubTopology({ hexahedra: hexas, grid }), inside);
    expect(a.m.mapperKind).to.equal('RegularGrid');
    expectLocatedInside(a.m, a.to, inside);
    const { m, from, to } = mapPoints(x, new StubTopology({ hexahedra: hexas, grid }), pts);
    pts.forEach((v, i) => expect(to.x[i]).to.be.closeTo(v, 1e-12));
    linearChecks(m, from, to, 18);
    // the first outside point (x below the grid; y, z on the last cell's faces) uses cell (0, 1, 1):
    // nodes i + 4·(j + 3k) summed in SOFA's order 0 1 3 2: 16 17 20 21
    const { ptr, idx } = m.barycentricMap;
    const i = 100;
    expect(Array.from(idx.subarray(ptr[i], ptr[i] + 4))).to.deep.equal([16, 17, 20, 21]);
  });

  it("a sparse grid: the cell's hexahedron when it is in the grid, else the nearest boundary hexahedron", () => {
    const gn = [3, 3, 2];
    const gx = gridPoints(gn, [0, 0, 0], [2, 2, 1]);
    const cells = gridHexahedra(gn); // 4 cells
    const keep = [0, 1, 3]; // cell 2 (i = 0, j = 1) is empty
    const used = Array.from(new Set(keep.flatMap((c) => Array.from(cells.subarray(8 * c, 8 * c + 8))))).sort((a, b) => a - b);
    const renum = new Map(used.map((p, i) => [p, i]));
    const positions = Float64Array.from(used.flatMap((p) => Array.from(gx.subarray(3 * p, 3 * p + 3))));
    const hexa = Uint32Array.from(keep.flatMap((c) => Array.from(cells.subarray(8 * c, 8 * c + 8), (p) => renum.get(p)!)));
    const cellToHexahedron = Int32Array.of(0, 1, -1, 2);
    const grid: GridDescription = {
      n: [3, 3, 2],
      min: [0, 0, 0],
      max: [2, 2, 1],
      cellToHexahedron,
      boundaryHexahedra: Uint8Array.of(1, 1, 1),
    };
    const inside = pointsIn(positions, hexa, 8, 60, 19, trilinear);
    const inEmptyCell = Float64Array.of(0.4, 1.9, 0.5);
    const pts = Float64Array.from([...inside, ...inEmptyCell]);
    const { m, from, to } = mapPoints(positions, new StubTopology({ hexahedra: hexa, positions, grid }), pts);
    expect(m.mapperKind).to.equal('SparseGrid');
    // regular cells: every point reproduced (the empty cell's point is extrapolated from an axis-aligned cube)
    pts.forEach((v, i) => expect(to.x[i]).to.be.closeTo(v, 1e-12));
    // the empty cell's point goes to the hexahedron whose centre is nearest: cell 3 (centre 1.5 1.5 .5)
    // is at distance² 1.21 + 0.16, cell 0 (0.5 0.5 0.5) at 0.01 + 1.96: hexahedron 2.
    const { ptr, idx } = m.barycentricMap;
    const i = 60;
    expect(new Set(idx.subarray(ptr[i], ptr[i + 1]))).to.deep.equal(new Set(hexa.subarray(16, 24)));
    linearChecks(m, from, to, 20);
  });

  it('chooses the mapper by the input topology as SOFA does', () => {
    const pts = Float64Array.of(1, 1, 1);
    expect(mapPoints(xTet, new StubSetContainer({ tetrahedra: tetras, triangles: Uint32Array.of(0, 1, 2) }), pts).m.mapperKind).to.equal(
      'TetrahedronSet',
    );
    expect(mapPoints(xTet, new StubSetContainer({ hexahedra: hexas, tetrahedra: tetras }), pts).m.mapperKind).to.equal('HexahedronSet');
    expect(mapPoints(xTet, new StubTopology({ tetrahedra: tetras, hexahedra: hexas }), pts).m.mapperKind).to.equal('MeshTopology');
  });

  it("finds the topology in the input state's node or above, and says so when there is none", () => {
    const from = new StubState(Vec3d, xTet, 'in');
    expect(() => mount(new BarycentricMapping(), from, new StubState(Vec3d, [0, 0, 0], 'out'))).to.throw(/no input topology/);
  });

  it('drives a visual model (a component with a position Data)', () => {
    @sofaComponent({ name: 'StubVisual', category: 'Visual', description: 'test visual model' })
    class StubVisual extends BaseObject {
      readonly position = this.initData({ name: 'position', type: RealArray(3), default: new Float64Array(0), help: 'points' });
    }
    const pts = pointsIn(xTet, tetras, 4, 10, 21, simplex(4));
    const visual = new StubVisual();
    visual.position.value = Float64Array.from(pts);
    const from = new StubState(Vec3d, xTet, 'in');
    const m = mount(new BarycentricMapping(), from, visual, new StubSetContainer({ tetrahedra: tetras }));
    expect(m.getTo()).to.equal(undefined);
    from.x.set(from.x.map((v) => v + 0.5));
    m.apply();
    visual.position.value.forEach((v, i) => expect(v).to.be.closeTo(pts[i] + 0.5, 1e-12));
  });
});
