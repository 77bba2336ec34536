import { expect } from 'chai';
import { el, initScene, objectNamed } from '../container/container-test-support.js';
import type { CubeTopology } from '../container/CubeTopology.js';
import type { CylinderGridTopology } from './CylinderGridTopology.js';
import type { SphereGridTopology } from './SphereGridTopology.js';

function make<T>(tag: string, attrs: Record<string, string>): T {
  return objectNamed(initScene(el('Node', {}, [el(tag, { name: 'g', ...attrs })])), 'g') as T;
}

/** Signed volume enclosed by oriented quads (each split into 2 triangles). */
function quadVolume(x: Float64Array, q: Uint32Array): number {
  let v = 0;
  const tri = (a: number, b: number, c: number): void => {
    const p = [a, b, c].map((i) => [x[3 * i], x[3 * i + 1], x[3 * i + 2]]) as [number[], number[], number[]];
    v +=
      (p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) -
        p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
        p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0])) /
      6;
  };
  for (let i = 0; i < q.length; i += 4) {
    tri(q[i], q[i + 1], q[i + 2]);
    tri(q[i], q[i + 2], q[i + 3]);
  }
  return v;
}

describe('topology: CylinderGridTopology, SphereGridTopology, CubeTopology', () => {
  it('CylinderGridTopology: the grid connectivity on a cylinder, its square border on the circle of the radius', () => {
    const g = make<CylinderGridTopology>('CylinderGridTopology', { n: '5 5 4', radius: '2', length: '6', axis: '0 1 0', center: '1 0 0' });
    const x = g.getPositions()!;
    expect(g.getNbPoints()).to.equal(100);
    expect(g.getHexahedra().length / 8).to.equal(4 * 4 * 3);
    // axis y: X = (1 0 0), Y = Z × X = (0 0 −1); slice k at y = k·6/3
    const at = (i: number, j: number, k: number): number[] =>
      Array.from(x.subarray(3 * (i + 5 * (j + 5 * k)), 3 * (i + 5 * (j + 5 * k)) + 3));
    expect(at(2, 2, 3)).to.deep.equal([1, 6, 0]);
    for (const [i, j] of [
      [0, 0],
      [4, 1],
      [2, 4],
      [0, 3],
    ] as const) {
      const p = at(i, j, 1);
      expect(Math.hypot(p[0] - 1, p[2])).to.be.closeTo(2, 1e-12);
      expect(p[1]).to.equal(2);
    }
    // an interior ring (max(|s|) = 1) lies on the circle of radius 1
    const q = at(1, 3, 0);
    expect(Math.hypot(q[0] - 1, q[2])).to.be.closeTo(1, 1e-12);
    expect(g.getGrid()).to.equal(undefined);
  });

  it('SphereGridTopology: the cube surface of the grid lands on the sphere, the centre point at the centre', () => {
    const g = make<SphereGridTopology>('SphereGridTopology', { n: '5 5 5', radius: '4', center: '1 2 3' });
    const x = g.getPositions()!;
    let onSphere = 0;
    for (let k = 0; k < 5; k++)
      for (let j = 0; j < 5; j++)
        for (let i = 0; i < 5; i++) {
          const o = 3 * (i + 5 * (j + 5 * k));
          const r = Math.hypot(x[o] - 1, x[o + 1] - 2, x[o + 2] - 3);
          const layer = Math.max(Math.abs(i - 2), Math.abs(j - 2), Math.abs(k - 2));
          expect(r).to.be.closeTo((layer * 4) / 2, 1e-12);
          if (layer === 2) onSphere++;
        }
    expect(onSphere).to.equal(125 - 27);
  });

  it('CubeTopology: boundary points only, outward quads enclosing the box, the boundary grid lines', () => {
    const c = make<CubeTopology>('CubeTopology', { nx: '3', ny: '4', nz: '5', min: '0 0 0', max: '2 3 4' });
    expect(c.getNbPoints()).to.equal(3 * 4 * 2 + 3 * (2 * 3 + 2 * 4 - 4));
    const q = c.getQuads();
    expect(q.length / 4).to.equal(2 * (2 * 3 + 2 * 4 + 3 * 4));
    expect(quadVolume(c.getPositions()!, q)).to.be.closeTo(24, 1e-12);
    // boundary lines: x-lines (nx−1)·(2ny + 2nz − 4), and so on
    expect(c.getEdges().length / 2).to.equal(2 * (2 * 4 + 2 * 5 - 4) + 3 * (2 * 3 + 2 * 5 - 4) + 4 * (2 * 3 + 2 * 4 - 4));
    // with internal points: the full grid, index x + nx·(y + ny·z)
    const full = make<CubeTopology>('CubeTopology', { nx: '3', ny: '4', nz: '5', min: '0 0 0', max: '2 3 4', internalPoints: '1' });
    expect(full.getNbPoints()).to.equal(60);
    expect(Array.from(full.getPositions()!.subarray(3 * 59))).to.deep.equal([2, 3, 4]);
    expect(quadVolume(full.getPositions()!, full.getQuads())).to.be.closeTo(24, 1e-12);
    // split normals: each face its own points
    const split = make<CubeTopology>('CubeTopology', { nx: '2', ny: '2', nz: '2', splitNormals: '1' });
    expect(split.getNbPoints()).to.equal(24);
    expect(quadVolume(split.getPositions()!, split.getQuads())).to.be.closeTo(1, 1e-12);
  });
});
