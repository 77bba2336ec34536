import { expect } from 'chai';
import { IsoSurface, marchingCubes } from './marching-cubes.js';
import { rng } from '../mass/mesh-test-support.js';

function polygonise(f: Float64Array, nx: number, ny: number, nz: number, iso: number): IsoSurface {
  const s = new IsoSurface();
  marchingCubes(f, nx, ny, nz, iso, s, new Int32Array(3 * nx * ny * nz));
  return s;
}

/** Every directed edge of the triangles once and its reverse once: a closed, consistently oriented surface. */
function expectClosedAndOriented(s: IsoSurface, what: string): void {
  const directed = new Map<string, number>();
  for (let t = 0; t < s.triangleCount; t++)
    for (let e = 0; e < 3; e++) {
      const a = s.triangles[3 * t + e],
        b = s.triangles[3 * t + ((e + 1) % 3)];
      expect(a, `${what}: degenerate triangle`).to.not.equal(b);
      const key = `${a} ${b}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  for (const [key, count] of directed) {
    const [a, b] = key.split(' ');
    expect(count, `${what}: edge ${key} used twice in one direction`).to.equal(1);
    expect(directed.get(`${b} ${a}`), `${what}: edge ${key} without its twin`).to.equal(1);
  }
}

/** Volume enclosed by the triangles (divergence theorem; positive for outward normals). */
function volume(s: IsoSurface): number {
  let v = 0;
  const p = s.vertices;
  for (let t = 0; t < s.triangleCount; t++) {
    const [a, b, c] = [0, 1, 2].map((k) => 3 * s.triangles[3 * t + k]);
    v +=
      p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
      p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
      p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  return v / 6;
}

describe('marching cubes (the surface of SPHFluidSurfaceMapping)', () => {
  it('gives a closed, consistently oriented surface for random fields (every case, ambiguous faces included)', () => {
    const r = rng(21);
    const n = 7;
    for (let trial = 0; trial < 60; trial++) {
      const f = new Float64Array(n * n * n);
      for (let k = 0; k < n; k++)
        for (let j = 0; j < n; j++)
          for (let i = 0; i < n; i++) {
            const border = i === 0 || j === 0 || k === 0 || i === n - 1 || j === n - 1 || k === n - 1;
            f[i + n * (j + n * k)] = border ? -1 : r();
          }
      const s = polygonise(f, n, n, n, 0);
      expectClosedAndOriented(s, `trial ${trial}`);
      expect(volume(s), `trial ${trial}`).to.be.at.least(0);
    }
  });

  it('puts each edge vertex on a grid edge at the linear interpolation of the field, one vertex per edge', () => {
    const r = rng(4);
    const n = 5;
    const f = Float64Array.from({ length: n * n * n }, () => r());
    const s = polygonise(f, n, n, n, 0.1);
    const edges = new Set<number>();
    for (let v = 0; v < s.vertexCount; v++) {
      const e = s.vertexEdge[v];
      if (e < 0) continue; // a polygon's centroid
      const axis = e % 3,
        p = (e - axis) / 3;
      expect(edges.has(e)).to.equal(false);
      edges.add(e);
      const q = p + [1, n, n * n][axis];
      const t = (0.1 - f[p]) / (f[q] - f[p]);
      expect(t).to.be.within(0, 1);
      const lower = [p % n, Math.floor(p / n) % n, Math.floor(p / (n * n))];
      lower[axis] += t;
      for (let c = 0; c < 3; c++) expect(s.vertices[3 * v + c]).to.be.closeTo(lower[c], 1e-12);
    }
  });

  it('encloses the volume of a sphere |x| < ρ (f = ρ² − |x|²), normals outward', () => {
    const n = 41,
      c = 20,
      rho = 12.3;
    const f = new Float64Array(n * n * n);
    for (let k = 0; k < n; k++)
      for (let j = 0; j < n; j++)
        for (let i = 0; i < n; i++) f[i + n * (j + n * k)] = rho * rho - ((i - c) ** 2 + (j - c) ** 2 + (k - c) ** 2);
    const s = polygonise(f, n, n, n, 0);
    expectClosedAndOriented(s, 'sphere');
    // the vertices are inside by at most the interpolation error, the volume within a few per mille
    for (let v = 0; v < s.vertexCount; v++) {
      const d = Math.hypot(s.vertices[3 * v] - c, s.vertices[3 * v + 1] - c, s.vertices[3 * v + 2] - c);
      expect(d).to.be.within(rho - 0.05, rho + 1e-9);
    }
    expect(volume(s) / ((4 / 3) * Math.PI * rho ** 3)).to.be.closeTo(1, 0.01);
  });
});
