import { expect } from 'chai';
import { addCavityVolumeGradient, cavityPoints, cavitySignedVolume, cavityVolume } from './surface-pressure-geometry.js';

/**
 * The cavity volume against closed forms (unit cube as quads and as triangles, a box, a regular
 * icosahedron, a trilinear hexahedron with non-planar faces by 2×2×2 Gauss quadrature of det J),
 * its independence of the origin, and ∂V/∂x against central finite differences on closed
 * surfaces with non-planar quads and triangles; the row of a parallelogram is A/4 per corner.
 */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
}

/** Corners of the box [0,a]×[0,b]×[0,c], corner (i,j,k) at index i + 2j + 4k. */
function box(a: number, b: number, c: number): Float64Array {
  const x = new Float64Array(24);
  for (let k = 0; k < 2; k++)
    for (let j = 0; j < 2; j++)
      for (let i = 0; i < 2; i++) {
        const p = i + 2 * j + 4 * k;
        x[3 * p] = i * a;
        x[3 * p + 1] = j * b;
        x[3 * p + 2] = k * c;
      }
  return x;
}

/** The six faces of the box of `box`, normals outwards. */
const BOX_QUADS = Uint32Array.of(
  0,
  2,
  3,
  1, // z = 0, normal −z
  4,
  5,
  7,
  6, // z = 1, +z
  0,
  1,
  5,
  4, // y = 0, −y
  2,
  6,
  7,
  3, // y = 1, +y
  0,
  4,
  6,
  2, // x = 0, −x
  1,
  3,
  7,
  5, // x = 1, +x
);

/** Each quad split along its first diagonal (two triangles). */
function split(quads: Uint32Array): Uint32Array {
  const t: number[] = [];
  for (let q = 0; q < quads.length; q += 4) t.push(quads[q], quads[q + 1], quads[q + 2], quads[q], quads[q + 2], quads[q + 3]);
  return Uint32Array.from(t);
}

function icosahedron(): { x: Float64Array; tris: Uint32Array; edge: number } {
  const g = (1 + Math.sqrt(5)) / 2;
  const v = [
    [-1, g, 0],
    [1, g, 0],
    [-1, -g, 0],
    [1, -g, 0],
    [0, -1, g],
    [0, 1, g],
    [0, -1, -g],
    [0, 1, -g],
    [g, 0, -1],
    [g, 0, 1],
    [-g, 0, -1],
    [-g, 0, 1],
  ];
  const f = [
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
  return { x: Float64Array.from(v.flat()), tris: Uint32Array.from(f.flat()), edge: 2 };
}

/** Volume of the trilinear hexahedron with corners x (index i + 2j + 4k) by 2×2×2 Gauss quadrature of det J (exact). */
function trilinearVolume(x: Float64Array): number {
  const gp = [0.5 - 0.5 / Math.sqrt(3), 0.5 + 0.5 / Math.sqrt(3)];
  let V = 0;
  for (const u of gp)
    for (const v of gp)
      for (const w of gp) {
        const J = [0, 0, 0, 0, 0, 0, 0, 0, 0]; // J[3r + c] = ∂x_r/∂ξ_c
        for (let k = 0; k < 2; k++)
          for (let j = 0; j < 2; j++)
            for (let i = 0; i < 2; i++) {
              const p = i + 2 * j + 4 * k;
              const fu = i ? u : 1 - u,
                fv = j ? v : 1 - v,
                fw = k ? w : 1 - w;
              const d = [(i ? 1 : -1) * fv * fw, fu * (j ? 1 : -1) * fw, fu * fv * (k ? 1 : -1)];
              for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) J[3 * r + c] += x[3 * p + r] * d[c];
            }
        const det = J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) + J[2] * (J[3] * J[7] - J[4] * J[6]);
        V += det / 8;
      }
  return V;
}

function fdGradient(x: Float64Array, tris: Uint32Array, quads: Uint32Array): Float64Array {
  const out = new Float64Array(x.length);
  const h = 1e-6;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i];
    x[i] = xi + h;
    const vp = cavitySignedVolume(x, tris, quads);
    x[i] = xi - h;
    const vm = cavitySignedVolume(x, tris, quads);
    x[i] = xi;
    out[i] = (vp - vm) / (2 * h);
  }
  return out;
}

/** The surface of an nx × ny × nz grid of unit cells, as quads with outward normals, and its points. */
function gridSurface(nx: number, ny: number, nz: number): { x: Float64Array; quads: Uint32Array } {
  const id = (i: number, j: number, k: number): number => i + (nx + 1) * (j + (ny + 1) * k);
  const x = new Float64Array(3 * (nx + 1) * (ny + 1) * (nz + 1));
  for (let k = 0; k <= nz; k++) for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) x.set([i, j, k], 3 * id(i, j, k));
  const q: number[] = [];
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      q.push(id(i, j, 0), id(i, j + 1, 0), id(i + 1, j + 1, 0), id(i + 1, j, 0));
      q.push(id(i, j, nz), id(i + 1, j, nz), id(i + 1, j + 1, nz), id(i, j + 1, nz));
    }
  for (let k = 0; k < nz; k++)
    for (let i = 0; i < nx; i++) {
      q.push(id(i, 0, k), id(i + 1, 0, k), id(i + 1, 0, k + 1), id(i, 0, k + 1));
      q.push(id(i, ny, k), id(i, ny, k + 1), id(i + 1, ny, k + 1), id(i + 1, ny, k));
    }
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++) {
      q.push(id(0, j, k), id(0, j, k + 1), id(0, j + 1, k + 1), id(0, j + 1, k));
      q.push(id(nx, j, k), id(nx, j + 1, k), id(nx, j + 1, k + 1), id(nx, j, k + 1));
    }
  return { x, quads: Uint32Array.from(q) };
}

const NONE = new Uint32Array(0);

describe('softrobots: surface pressure geometry', () => {
  it('the unit cube has volume 1 as quads and as triangles, a box a·b·c, and an inward cube −1', () => {
    const x = box(1, 1, 1);
    expect(cavitySignedVolume(x, NONE, BOX_QUADS)).to.be.closeTo(1, 1e-15);
    expect(cavitySignedVolume(x, split(BOX_QUADS), NONE)).to.be.closeTo(1, 1e-15);
    expect(cavitySignedVolume(box(2, 3, 0.5), NONE, BOX_QUADS)).to.be.closeTo(3, 1e-14);
    const inward = BOX_QUADS.slice();
    for (let q = 0; q < inward.length; q += 4) [inward[q + 1], inward[q + 3]] = [inward[q + 3], inward[q + 1]];
    expect(cavitySignedVolume(x, NONE, inward)).to.be.closeTo(-1, 1e-15);
    expect(cavityVolume(x, NONE, inward)).to.be.closeTo(1, 1e-15);
  });

  it('a regular icosahedron has volume (5/12)(3 + √5)a³', () => {
    const { x, tris, edge } = icosahedron();
    expect(cavitySignedVolume(x, tris, NONE)).to.be.closeTo((5 / 12) * (3 + Math.sqrt(5)) * edge ** 3, 1e-12);
  });

  it('a hexahedron with non-planar (bilinear) faces: the volume of its trilinear map, whatever the origin', () => {
    const r = rng(3);
    const x = box(1, 1, 1);
    for (let i = 0; i < x.length; i++) x[i] += 0.25 * (r() - 0.5);
    const V = trilinearVolume(x);
    expect(cavitySignedVolume(x, NONE, BOX_QUADS)).to.be.closeTo(V, 1e-14);
    for (let p = 0; p < 8; p++) {
      x[3 * p] += 5;
      x[3 * p + 1] -= 7;
      x[3 * p + 2] += 11;
    }
    expect(cavitySignedVolume(x, NONE, BOX_QUADS)).to.be.closeTo(V, 1e-12);
  });

  it("a parallelogram quad gives A/4 to each corner (SoftRobots' row), a triangle A/3", () => {
    const x = Float64Array.of(0, 0, 0, 2, 0, 0, 3, 1, 0, 1, 1, 0);
    const g = new Float64Array(12);
    addCavityVolumeGradient(g, x, NONE, Uint32Array.of(0, 1, 2, 3));
    for (let p = 0; p < 4; p++) expect([...g.subarray(3 * p, 3 * p + 3)]).to.deep.equal([0, 0, 2 / 4]);
    const t = new Float64Array(12);
    addCavityVolumeGradient(t, x, Uint32Array.of(0, 1, 2), NONE, 2);
    for (let p = 0; p < 3; p++) expect(t[3 * p + 2]).to.be.closeTo((2 * 1) / 3, 1e-15);
  });

  for (const [label, useTriangles] of [
    ['quads', false],
    ['quads and triangles', true],
  ] as const) {
    it(`∂V/∂x by central differences on a perturbed closed grid surface (${label})`, () => {
      const { x, quads } = gridSurface(3, 2, 2);
      let q = quads,
        t = NONE;
      if (useTriangles) {
        // every other quad split into two triangles
        const keep: number[] = [];
        const tri: number[] = [];
        for (let f = 0; f < quads.length / 4; f++) {
          const a = quads.subarray(4 * f, 4 * f + 4);
          if (f % 2 === 0) keep.push(...a);
          else tri.push(a[0], a[1], a[2], a[0], a[2], a[3]);
        }
        q = Uint32Array.from(keep);
        t = Uint32Array.from(tri);
      }
      const r = rng(11 + t.length);
      for (let i = 0; i < x.length; i++) x[i] += 0.3 * (r() - 0.5);
      const g = new Float64Array(x.length);
      addCavityVolumeGradient(g, x, t, q);
      const fd = fdGradient(x, t, q);
      for (let i = 0; i < g.length; i++) expect(g[i]).to.be.closeTo(fd[i], 1e-8);
      // a scale multiplies the row
      const g2 = new Float64Array(x.length);
      addCavityVolumeGradient(g2, x, t, q, -2);
      for (let i = 0; i < g.length; i++) expect(g2[i]).to.be.closeTo(-2 * g[i], 1e-14);
    });
  }

  it('the cavity points are the distinct face points in order', () => {
    expect([...cavityPoints(Uint32Array.of(5, 2, 9), Uint32Array.of(9, 1, 2, 7))]).to.deep.equal([1, 2, 5, 7, 9]);
  });
});
