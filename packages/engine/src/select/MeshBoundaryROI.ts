import { DataEngine, IndexArray, Indices, sofaComponent } from '@sofa-ts/core';

/**
 * SOFA's MeshBoundaryROI: the vertices on the boundary of a triangle/quad surface. An edge is on
 * the boundary when exactly one face uses it; the output is the sorted set of the end points of
 * those edges. With `inputROI`, only the faces whose points are all in it count.
 * As in SOFA, the triangles and quads are only those the scene gives (no context lookup).
 */
@sofaComponent({
  name: 'MeshBoundaryROI',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Outputs indices of boundary vertices of a triangle/quad mesh.',
})
export class MeshBoundaryROI extends DataEngine {
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'input triangles',
  });
  readonly quads = this.initData({ name: 'quads', type: IndexArray(4, 'vector<Quad>'), default: new Uint32Array(0), help: 'input quads' });
  readonly inputROI = this.initData({
    name: 'inputROI',
    type: Indices,
    default: new Uint32Array(0),
    help: 'optional subset of the input mesh',
  });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the boundary vertices',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.triangles, this.quads, this.inputROI);
    this.addOutput(this.indices);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const roi = this.inputROI.value;
    const inRoi = roi.length === 0 ? undefined : new Set(roi);
    // count[min·2^32 + max]: faces using the edge (min, max).
    const count = new Map<number, number>();
    const addFaces = (faces: Uint32Array, nv: number): void => {
      for (let f = 0; f + nv <= faces.length; f += nv) {
        if (inRoi) {
          let all = true;
          for (let j = 0; j < nv; j++) all &&= inRoi.has(faces[f + j]);
          if (!all) continue;
        }
        for (let j = 0; j < nv; j++) {
          const a = faces[f + j],
            b = faces[f + ((j + 1) % nv)];
          const key = Math.min(a, b) * 4294967296 + Math.max(a, b);
          count.set(key, (count.get(key) ?? 0) + 1);
        }
      }
    };
    addFaces(this.triangles.value, 3);
    addFaces(this.quads.value, 4);
    const points = new Set<number>();
    for (const [key, c] of count) {
      if (c !== 1) continue;
      points.add(Math.floor(key / 4294967296));
      points.add(key % 4294967296);
    }
    this.indices.value = Uint32Array.from([...points].sort((a, b) => a - b));
  }
}
