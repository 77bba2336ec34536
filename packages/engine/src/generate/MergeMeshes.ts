import { DataEngine, IndexArray, IndexLists, sofaComponent, stateTypeOf, UInt, type Data, type DataType } from '@sofa-ts/core';
import { Coords, DataVector } from '../engine-support.js';

const KINDS = [
  ['edges', 2, IndexArray(2, 'vector<Edge>')],
  ['triangles', 3, IndexArray(3, 'vector<Triangle>')],
  ['quads', 4, IndexArray(4, 'vector<Quad>')],
  ['tetrahedra', 4, IndexArray(4, 'vector<Tetrahedron>')],
  ['hexahedra', 8, IndexArray(8, 'vector<Hexahedron>')],
] as const;

/**
 * SOFA's MergeMeshes: one mesh from nbMeshes meshes (position1 … positionN, edges1 …, triangles1 …,
 * quads1 …, tetrahedra1 …, hexahedra1 …). The points are concatenated in mesh order and the
 * elements of mesh k have their indices shifted by the number of points of meshes 1 … k−1:
 *   position = [position1; position2; …],  triangles = [triangles1; triangles2 + n1; …],  npoints = Σ n_k.
 */
@sofaComponent({
  name: 'MergeMeshes',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'Merge several meshes.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d', 'Rigid2d'],
  defaultTemplate: 'Vec3d',
})
export class MergeMeshes extends DataEngine {
  readonly nbMeshes = this.initData({ name: 'nbMeshes', type: UInt, default: 2, help: 'number of meshes to merge' });
  readonly npoints = this.initData({ name: 'npoints', type: UInt, default: 0, help: 'number of output points', output: true });
  readonly position = this.initData({
    name: 'position',
    type: Coords,
    default: new Float64Array(0),
    help: 'output vertices of the merged mesh',
    output: true,
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'output edges of the merged mesh',
    output: true,
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'output triangles of the merged mesh',
    output: true,
  });
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'output quads of the merged mesh',
    output: true,
  });
  readonly polygons = this.initData({
    name: 'polygons',
    type: IndexLists('vector<vector<unsigned int>>'),
    default: [],
    help: 'output polygons of the merged mesh (not merged, as in SOFA)',
    output: true,
  });
  readonly tetrahedra = this.initData({
    name: 'tetrahedra',
    type: IndexArray(4, 'vector<Tetrahedron>'),
    default: new Uint32Array(0),
    help: 'output tetrahedra of the merged mesh',
    output: true,
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'output hexahedra of the merged mesh',
    output: true,
  });

  private readonly inPositions = this.vector('position', Coords, 'input positions for mesh');
  private readonly inElements = KINDS.map(([name, , type]) => this.vector(name, type as DataType<Uint32Array>, `input ${name} for mesh`));

  private vector<T>(base: string, type: DataType<T>, help: string): DataVector<T> {
    return new DataVector<T>(
      base,
      (name, i) => {
        const d = this.initData({ name, type, default: type.parse(''), help: `${help} ${i + 1}` });
        this.addInput(d as Data<unknown>);
        return d;
      },
      2,
    );
  }

  constructor() {
    super();
    this.addInput(this.nbMeshes);
    this.addOutput(this.npoints, this.position, this.edges, this.triangles, this.quads, this.tetrahedra, this.hexahedra);
  }

  override findData(name: string): Data<unknown> | undefined {
    const own = super.findData(name);
    if (own) return own;
    for (const v of [this.inPositions, ...this.inElements]) {
      const d = v.find(name) as Data<unknown> | undefined;
      if (d) return d;
    }
    return undefined;
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const nb = this.nbMeshes.value;
    for (const v of [this.inPositions, ...this.inElements]) v.resize(nb);
    const cs = stateTypeOf(this.template || 'Vec3d')?.coordSize ?? 3;
    const sizes: number[] = [];
    const pos: number[] = [];
    for (let k = 0; k < nb; k++) {
      const p = this.inPositions.items[k].value;
      if (p.length % cs !== 0) throw this.error(`position${k + 1} has ${p.length} numbers, not a multiple of ${cs}`);
      sizes.push(p.length / cs);
      for (const v of p) pos.push(v);
    }
    this.position.value = Float64Array.from(pos);
    this.npoints.value = pos.length / cs;
    const outputs = [this.edges, this.triangles, this.quads, this.tetrahedra, this.hexahedra];
    KINDS.forEach(([name], t) => {
      const out: number[] = [];
      let offset = 0;
      for (let k = 0; k < nb; k++) {
        for (const v of this.inElements[t].items[k].value) {
          if (v >= sizes[k] && sizes[k] > 0)
            throw this.error(`${name}${k + 1} names point ${v}, but position${k + 1} has ${sizes[k]} points`);
          out.push(v + offset);
        }
        offset += sizes[k];
      }
      outputs[t].value = Uint32Array.from(out);
    });
  }
}
