import { DataEngine, IndexArray, Indices, sofaComponent, type Data } from '@sofa-ts/core';
import { Vec3s } from '../engine-support.js';

/**
 * SOFA's MeshSubsetEngine: the part of a mesh spanned by selected vertices, renumbered.
 *   position[i] = inputPosition[indices[i]];
 *   an element is kept when all its vertices are selected, its indices mapped old → new (a vertex
 *   selected twice takes its last position in `indices`).
 */
@sofaComponent({
  name: 'MeshSubsetEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Extract a mesh subset based on selected vertices.',
  templates: ['Vec3d'],
})
export class MeshSubsetEngine extends DataEngine {
  readonly inputPosition = this.initData({ name: 'inputPosition', type: Vec3s, default: new Float64Array(0), help: 'input vertices' });
  readonly inputEdges = this.initData({
    name: 'inputEdges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'input edges',
  });
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
  readonly inputTetrahedra = this.initData({
    name: 'inputTetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'input tetrahedra',
  });
  readonly inputHexahedra = this.initData({
    name: 'inputHexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'input hexahedra',
  });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'index list of the selected vertices',
  });
  readonly position = this.initData({
    name: 'position',
    type: Vec3s,
    default: new Float64Array(0),
    help: 'vertices of the mesh subset',
    output: true,
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges of the mesh subset',
    output: true,
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the mesh subset',
    output: true,
  });
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads of the mesh subset',
    output: true,
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'tetrahedra of the mesh subset',
    output: true,
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'hexahedra of the mesh subset',
    output: true,
  });

  constructor() {
    super();
    this.addInput(
      this.inputPosition,
      this.inputEdges,
      this.inputTriangles,
      this.inputQuads,
      this.inputTetrahedra,
      this.inputHexahedra,
      this.indices,
    );
    this.addOutput(this.position, this.edges, this.triangles, this.quads, this.tetrahedra, this.hexahedra);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const x = this.inputPosition.value;
    const n = x.length / 3;
    const ind = this.indices.value;
    const pos = new Float64Array(3 * ind.length);
    // newIndex[old] = new index + 1 (0: not selected).
    const newIndex = new Uint32Array(n);
    ind.forEach((i, k) => {
      if (i >= n) throw this.error(`index ${i} (entry ${k} of 'indices') is past the ${n} input vertices`);
      pos.set(x.subarray(3 * i, 3 * i + 3), 3 * k);
      newIndex[i] = k + 1;
    });
    this.position.value = pos;
    const extract = (input: Data<Uint32Array>, nv: number, output: Data<Uint32Array>): void => {
      const src = input.value,
        out: number[] = [];
      for (let e = 0; e + nv <= src.length; e += nv) {
        let all = true;
        for (let j = 0; j < nv && all; j++) all = src[e + j] < n && newIndex[src[e + j]] > 0;
        if (all) for (let j = 0; j < nv; j++) out.push(newIndex[src[e + j]] - 1);
      }
      output.value = Uint32Array.from(out);
    };
    extract(this.inputEdges, 2, this.edges);
    extract(this.inputTriangles, 3, this.triangles);
    extract(this.inputQuads, 4, this.quads);
    extract(this.inputTetrahedra, 4, this.tetrahedra);
    extract(this.inputHexahedra, 8, this.hexahedra);
  }
}
