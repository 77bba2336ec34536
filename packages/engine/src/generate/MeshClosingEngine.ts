import { DataEngine, IndexArray, IndexLists, sofaComponent } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';

/**
 * SOFA's MeshClosingEngine: closes the holes of a triangle/quad surface.
 * The border is the set of oriented edges (a, b) whose opposite (b, a) no face has. Following the
 * border from its smallest start vertex gives the hole loops; each loop of at least 3 vertices gets
 * a point at its centroid and a fan of triangles (centroid, v_j, v_{j−1}), oriented as the faces
 * around the hole.
 * Outputs: position / triangles / quads = the input plus the centroids and fans; closingPosition /
 * closingTriangles = the caps alone (each loop's points, then its centroid); indices = per loop,
 * its vertices then its centroid's index in `position`.
 */
@sofaComponent({
  name: 'MeshClosingEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'Merge several meshes.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class MeshClosingEngine extends DataEngine {
  readonly inputPosition = this.initData({ name: 'inputPosition', type: Vec3s, default: new Float64Array(0), help: 'input vertices' });
  readonly inputTriangles = this.initData({
    name: 'inputTriangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'input triangles',
  });
  readonly inputQuads = this.initData({
    name: 'inputQuads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'input quads',
  });
  readonly position = this.initData({
    name: 'position',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'vertices of the closed mesh',
    output: true,
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the closed mesh',
    output: true,
  });
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads of the closed mesh',
    output: true,
  });
  readonly indices = this.initData({
    name: 'indices',
    type: IndexLists('vector<vector<unsigned int>>'),
    default: [],
    help: 'index lists of the closing parts',
    output: true,
  });
  readonly closingPosition = this.initData({
    name: 'closingPosition',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'vertices of the closing parts',
    output: true,
  });
  readonly closingTriangles = this.initData({
    name: 'closingTriangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the closing parts',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.inputPosition, this.inputTriangles, this.inputQuads);
    this.addOutput(this.position, this.triangles, this.quads, this.indices, this.closingPosition, this.closingTriangles);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const x = this.inputPosition.value,
      tri = this.inputTriangles.value,
      qd = this.inputQuads.value;
    const pos = Array.from(x),
      otri = Array.from(tri);
    const clpos: number[] = [],
      cltri: number[] = [];
    const indices: number[][] = [];
    // Border: oriented edges (p_{j−1}, p_j) of the faces whose reverse no face has.
    const edges = new Map<string, [number, number]>();
    const addFaces = (f: Uint32Array, nv: number): void => {
      for (let i = 0; i + nv <= f.length; i += nv) {
        for (let j = 0; j < nv; j++) {
          const p1 = f[i + (j === 0 ? nv - 1 : j - 1)],
            p2 = f[i + j];
          if (edges.has(`${p2},${p1}`)) edges.delete(`${p2},${p1}`);
          else edges.set(`${p1},${p2}`, [p1, p2]);
        }
      }
    };
    addFaces(tri, 3);
    addFaces(qd, 4);
    const publish = (): void => {
      this.position.value = Float64Array.from(pos);
      this.triangles.value = Uint32Array.from(otri);
      this.quads.value = Uint32Array.from(qd);
      this.indices.value = indices;
      this.closingPosition.value = Float64Array.from(clpos);
      this.closingTriangles.value = Uint32Array.from(cltri);
    };
    if (edges.size === 0) return publish();
    // Loops: next[a] = b for each border edge, walked from the smallest remaining start.
    const next = new Map<number, number>();
    for (const [a, b] of [...edges.values()].sort((p, q) => p[0] - q[0] || p[1] - q[1])) next.set(a, b);
    const loops: number[][] = [];
    while (next.size > 0) {
      const start = Math.min(...next.keys());
      const loop = [start];
      let v = start;
      while (next.has(v)) {
        const w = next.get(v)!;
        next.delete(v);
        loop.push(w);
        v = w;
        if (v === start) break;
      }
      loops.push(loop);
    }
    for (const loop of loops) {
      if (loop.length <= 2) continue;
      const m = loop.length - 1;
      const ind: number[] = [];
      const base = clpos.length / 3;
      const centroidCl = base + m;
      const centroidIdx = pos.length / 3;
      const c = [0, 0, 0];
      for (let j = 0; j < m; j++) {
        const p = loop[j];
        ind.push(p);
        clpos.push(x[3 * p], x[3 * p + 1], x[3 * p + 2]);
        for (let k = 0; k < 3; k++) c[k] += x[3 * p + k] / m;
        cltri.push(centroidCl, base + j, j > 0 ? base + j - 1 : centroidCl - 1);
        otri.push(centroidIdx, p, j > 0 ? loop[j - 1] : loop[m - 1]);
      }
      clpos.push(...c);
      pos.push(...c);
      ind.push(centroidIdx);
      indices.push(ind);
    }
    publish();
  }
}
