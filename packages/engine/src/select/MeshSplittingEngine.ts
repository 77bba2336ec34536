import { DataEngine, IndexArray, Indices, sofaComponent, UInt, type Data } from '@sofa-ts/core';
import { DataVector, Vec3s } from '../engine-support.js';

/**
 * SOFA's MeshSplittingEngine: splits the vertices of a mesh into nbInputs + 1 sub-meshes.
 * Sub-mesh k (k = 1 … nbInputs) takes the vertices listed in indicesk and the vertices of the
 * elements listed in edgeIndicesk, triangleIndicesk, quadIndicesk, tetrahedronIndicesk and
 * hexahedronIndicesk; a vertex claimed by several takes the first; the remaining vertices form
 * sub-mesh nbInputs + 1. Outputs: positionk (k = 1 … nbInputs + 1), the vertices of each sub-mesh in
 * index order, and indexPairs: for each input vertex (sub-mesh − 1, index in it), as a
 * SubsetMultiMapping over the sub-meshes expects.
 */
@sofaComponent({
  name: 'MeshSplittingEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Split a mesh in subsets.',
  templates: ['Vec3d'],
})
export class MeshSplittingEngine extends DataEngine {
  readonly inputPosition = this.initData({ name: 'position', type: Vec3s, default: new Float64Array(0), help: 'input vertices' });
  readonly inputEdges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'input edges',
  });
  readonly inputTriangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'input triangles',
  });
  readonly inputQuads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'input quads',
  });
  readonly inputTets = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'input tetrahedra',
  });
  readonly inputHexa = this.initData({
    name: 'hexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'input hexahedra',
  });
  readonly nbInputs = this.initData({
    name: 'nbInputs',
    type: UInt,
    default: 0,
    help: 'number of input index lists (sub-meshes besides the remainder)',
  });
  readonly indexPairs = this.initData({
    name: 'indexPairs',
    type: Indices,
    default: new Uint32Array(0),
    help: 'couples for the input vertices: sub-mesh index + index in the sub-mesh',
    output: true,
  });

  private readonly lists = (
    ['indices', 'edgeIndices', 'triangleIndices', 'quadIndices', 'tetrahedronIndices', 'hexahedronIndices'] as const
  ).map(
    (base) =>
      new DataVector<Uint32Array>(base, (name) => {
        const d = this.initData({
          name,
          type: Indices,
          default: new Uint32Array(0),
          help: `input ${base.replace('Indices', '').replace('indices', 'vertex')} indices of a sub-mesh`,
        });
        this.addInput(d as Data<unknown>);
        return d;
      }),
  );
  private readonly positions = new DataVector<Float64Array>(
    'position',
    (name) => {
      const d = this.initData({ name, type: Vec3s, default: new Float64Array(0), help: 'output vertices of a sub-mesh', output: true });
      this.addOutput(d as Data<unknown>);
      return d;
    },
    1,
  );

  constructor() {
    super();
    this.addInput(this.inputPosition, this.inputEdges, this.inputTriangles, this.inputQuads, this.inputTets, this.inputHexa, this.nbInputs);
    this.addOutput(this.indexPairs);
  }

  override findData(name: string): Data<unknown> | undefined {
    const own = super.findData(name);
    if (own) return own;
    for (const l of [...this.lists, this.positions]) {
      const d = l.find(name);
      if (d) return d as Data<unknown>;
    }
    return undefined;
  }

  override init(): void {
    const nb = this.nbInputs.value;
    for (const l of this.lists) l.resize(nb);
    this.positions.resize(nb + 1);
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const x = this.inputPosition.value;
    const n = x.length / 3;
    const nb = this.nbInputs.value;
    for (const l of this.lists) l.resize(nb);
    this.positions.resize(nb + 1);
    // owner[i]: sub-mesh of vertex i; the last lists are applied first so that the first win.
    const owner = new Uint32Array(n).fill(nb);
    const cells = [
      undefined,
      this.inputEdges.value,
      this.inputTriangles.value,
      this.inputQuads.value,
      this.inputTets.value,
      this.inputHexa.value,
    ];
    const sizes = [1, 2, 3, 4, 4, 8];
    for (let k = nb - 1; k >= 0; k--) {
      this.lists.forEach((l, t) => {
        const ids = l.items[k].value;
        const c = cells[t];
        const nv = sizes[t];
        for (const id of ids) {
          if (!c) {
            if (id < n) owner[id] = k;
            continue;
          }
          if ((id + 1) * nv > c.length) throw this.error(`${l.items[k].name} names element ${id}, but there are ${c.length / nv}`);
          for (let j = 0; j < nv; j++) if (c[id * nv + j] < n) owner[c[id * nv + j]] = k;
        }
      });
    }
    const out: number[][] = Array.from({ length: nb + 1 }, () => []);
    const pairs = new Uint32Array(2 * n);
    for (let i = 0; i < n; i++) {
      const k = owner[i];
      pairs[2 * i] = k;
      pairs[2 * i + 1] = out[k].length / 3;
      out[k].push(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
    }
    this.indexPairs.value = pairs;
    out.forEach((p, k) => (this.positions.items[k].value = Float64Array.from(p)));
  }
}
