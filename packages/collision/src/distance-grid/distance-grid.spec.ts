import { expect } from 'chai';
import { DistanceGrid, rfloor } from './distance-grid.js';
import { distanceGridFromMesh, type SurfaceMesh } from './mesh-distance.js';

/** The box [−a, a]³ as 12 outward triangles. */
function boxMesh(a: number): SurfaceMesh {
  const v: number[] = [];
  for (let k = 0; k < 8; k++) v.push(k & 1 ? a : -a, k & 2 ? a : -a, k & 4 ? a : -a);
  // faces as quads (outward, counter-clockwise seen from outside), split into two triangles
  const quads = [
    [0, 2, 3, 1], // z = −a
    [4, 5, 7, 6], // z = +a
    [0, 1, 5, 4], // y = −a
    [2, 6, 7, 3], // y = +a
    [0, 4, 6, 2], // x = −a
    [1, 3, 7, 5], // x = +a
  ];
  return { vertices: Float64Array.from(v), facets: quads.map((q) => q) };
}

/** A unit sphere of radius r: an icosahedron subdivided `level` times, vertices pushed to the sphere. */
function sphereMesh(r: number, level: number): SurfaceMesh {
  const t = (1 + Math.sqrt(5)) / 2;
  let pts: number[][] = [
    [-1, t, 0],
    [1, t, 0],
    [-1, -t, 0],
    [1, -t, 0],
    [0, -1, t],
    [0, 1, t],
    [0, -1, -t],
    [0, 1, -t],
    [t, 0, -1],
    [t, 0, 1],
    [-t, 0, -1],
    [-t, 0, 1],
  ];
  let faces = [
    [0, 11, 5],
    [0, 5, 1],
    [0, 1, 7],
    [0, 7, 10],
    [0, 10, 11],
    [1, 5, 9],
    [5, 11, 4],
    [11, 10, 2],
    [10, 7, 6],
    [7, 1, 8],
    [3, 9, 4],
    [3, 4, 2],
    [3, 2, 6],
    [3, 6, 8],
    [3, 8, 9],
    [4, 9, 5],
    [2, 4, 11],
    [6, 2, 10],
    [8, 6, 7],
    [9, 8, 1],
  ];
  const unit = (p: number[]): number[] => {
    const n = Math.hypot(p[0], p[1], p[2]);
    return p.map((c) => c / n);
  };
  pts = pts.map(unit);
  for (let l = 0; l < level; l++) {
    const mid = new Map<string, number>();
    const m = (a: number, b: number): number => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let i = mid.get(key);
      if (i === undefined) {
        i = pts.length;
        pts.push(unit([0, 1, 2].map((c) => (pts[a][c] + pts[b][c]) / 2)));
        mid.set(key, i);
      }
      return i;
    };
    faces = faces.flatMap(([a, b, c]) => {
      const ab = m(a, b),
        bc = m(b, c),
        ca = m(c, a);
      return [
        [a, ab, ca],
        [b, bc, ab],
        [c, ca, bc],
        [ab, bc, ca],
      ];
    });
  }
  return { vertices: Float64Array.from(pts.flatMap((p) => p.map((c) => c * r))), facets: faces };
}

/** Signed distance to the box [−a, a]³. */
function boxDistance(p: ArrayLike<number>, a: number): number {
  const q = [0, 1, 2].map((c) => Math.abs(p[c]) - a);
  const out = Math.hypot(...q.map((x) => Math.max(x, 0)));
  return out + Math.min(Math.max(q[0], q[1], q[2]), 0);
}

const noWarn = (m: string): void => {
  throw new Error(`unexpected warning: ${m}`);
};

describe('DistanceGrid of a mesh', () => {
  it("spans the mesh's bounding box enlarged by 10% on each side, with (n − 1) cells per axis", () => {
    const g = distanceGridFromMesh(boxMesh(1), 1, [11, 21, 6], undefined, noWarn);
    expect(Array.from(g.pmin)).to.deep.equal([-1.2, -1.2, -1.2]);
    expect(Array.from(g.pmax)).to.deep.equal([1.2, 1.2, 1.2]);
    expect(g.cellWidth[0]).to.be.closeTo(0.24, 1e-15);
    expect(g.cellWidth[1]).to.be.closeTo(0.12, 1e-15);
    expect(g.cellWidth[2]).to.be.closeTo(0.48, 1e-15);
    expect(Array.from(g.bbmin)).to.deep.equal([-1, -1, -1]);
    expect(g.meshPts.length).to.equal(24);
  });

  it('holds the exact signed distance of a box wherever the closest point is inside a face (inside: everywhere)', () => {
    const a = 1;
    const g = distanceGridFromMesh(boxMesh(a), 1, [23, 23, 23], undefined, noWarn);
    let checked = 0;
    for (let z = 0; z < g.nz; z++)
      for (let y = 0; y < g.ny; y++)
        for (let x = 0; x < g.nx; x++) {
          const p = [g.coord(0, x), g.coord(1, y), g.coord(2, z)];
          const outsideAxes = p.filter((c) => Math.abs(c) > a).length;
          if (outsideAxes > 1) continue; // near an edge or a corner, outside: the marching's path is longer
          expect(g.dists[g.index(x, y, z)], `at ${p.join(' ')}`).to.be.closeTo(boxDistance(p, a), 1e-12);
          checked++;
        }
    expect(checked).to.be.greaterThan(g.size / 2);
  });

  it('gives a sphere the right sign everywhere one cell away from the surface, within the bounds of the marching', () => {
    const r = 1;
    const g = distanceGridFromMesh(sphereMesh(r, 3), 1, [25, 25, 25], undefined, noWarn);
    const w = g.cellWidth[0];
    for (let z = 0; z < g.nz; z++)
      for (let y = 0; y < g.ny; y++)
        for (let x = 0; x < g.nx; x++) {
          const p = [g.coord(0, x), g.coord(1, y), g.coord(2, z)];
          const exact = Math.hypot(p[0], p[1], p[2]) - r;
          const d = g.dists[g.index(x, y, z)];
          // the faceted sphere lies within 1.5% of r inside the true one
          if (Math.abs(exact) > w) expect(Math.sign(d), `sign at ${p.join(' ')}`).to.equal(Math.sign(exact));
          // paths along the grid axes: at least the distance to the faceted surface, at most √3 times it plus a cell
          expect(Math.abs(d)).to.be.at.least(Math.abs(exact) - 0.02 * r - 1e-12);
          expect(Math.abs(d)).to.be.at.most(Math.sqrt(3) * (Math.abs(exact) + 0.02 * r) + w);
        }
  });

  it('scales the mesh by scale (|scale| for the box and the points)', () => {
    const g = distanceGridFromMesh(boxMesh(1), 2, [21, 21, 21], undefined, noWarn);
    expect(g.pmax[0]).to.be.closeTo(2.4, 1e-15);
    const c = g.index(10, 10, 10);
    expect(g.dists[c]).to.be.closeTo(-2, 1e-12);
  });
});

describe('DistanceGrid queries', () => {
  /** A grid holding the linear field φ(p) = n·p − c. */
  function linearGrid(): DistanceGrid {
    const g = new DistanceGrid(6, 5, 7, [-1, -0.5, 0], [1.5, 1.5, 3]);
    for (let z = 0; z < g.nz; z++)
      for (let y = 0; y < g.ny; y++)
        for (let x = 0; x < g.nx; x++) g.dists[g.index(x, y, z)] = 0.3 * g.coord(0, x) - 0.5 * g.coord(1, y) + 0.8 * g.coord(2, z) - 0.1;
    return g;
  }
  const phi = (p: number[]): number => 0.3 * p[0] - 0.5 * p[1] + 0.8 * p[2] - 0.1;

  it('interpolates a linear field exactly, and extrapolates it from the border cells outside the grid', () => {
    const g = linearGrid();
    for (const p of [
      [0.1, 0.2, 0.3],
      [1.4, -0.4, 2.9],
      [-2, 3, 4], // outside
    ])
      expect(g.interp(p)).to.be.closeTo(phi(p), 1e-13);
  });

  it('gives the gradient per cell: ∂φ/∂p_c · w_c', () => {
    const g = linearGrid();
    const out = new Float64Array(3);
    g.grad([0.2, 0.7, 1.1], 0, out);
    expect(out[0]).to.be.closeTo(0.3 * g.cellWidth[0], 1e-13);
    expect(out[1]).to.be.closeTo(-0.5 * g.cellWidth[1], 1e-13);
    expect(out[2]).to.be.closeTo(0.8 * g.cellWidth[2], 1e-13);
  });

  it('has the gradient of its trilinear interpolation (central finite differences in a cell)', () => {
    const g = distanceGridFromMesh(sphereMesh(1, 2), 1, [13, 13, 13], undefined, noWarn);
    const out = new Float64Array(3);
    let seed = 7;
    const rand = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    for (let k = 0; k < 50; k++) {
      const p = [rand(), rand(), rand()];
      // stay inside the cell: the finite-difference steps must not cross a grid plane
      const t = p.map((v, c) => (v - g.pmin[c]) / g.cellWidth[c]);
      if (t.some((s) => Math.abs(s - Math.round(s)) < 1e-3)) continue;
      g.grad(p, 0, out);
      for (let c = 0; c < 3; c++) {
        const h = 1e-5 * g.cellWidth[c];
        const pp = [...p],
          pm = [...p];
        pp[c] += h;
        pm[c] -= h;
        const fd = ((g.interp(pp) - g.interp(pm)) / (2 * h)) * g.cellWidth[c];
        expect(out[c]).to.be.closeTo(fd, 1e-7);
      }
    }
  });

  it('evaluates outside the grid as √(|p − clamp(p)|² + φ(clamp(p))²)', () => {
    const g = linearGrid();
    const p = [3, 0.5, 1];
    const q = [1.5, 0.5, 1];
    expect(g.eval(p)).to.be.closeTo(Math.sqrt(1.5 * 1.5 + phi(q) ** 2), 1e-13);
    expect(g.inGrid(p)).to.equal(false);
    expect(g.inGrid([0, 0, 1])).to.equal(true);
  });

  it("floors as SOFA's rfloor: to the nearest 2^-16 first", () => {
    expect(rfloor(2.7)).to.equal(2);
    expect(rfloor(-0.5)).to.equal(-1);
    expect(rfloor(3)).to.equal(3);
    expect(rfloor(1 - 2 ** -20)).to.equal(1);
    expect(rfloor(1 - 2 ** -15)).to.equal(0);
  });
});
