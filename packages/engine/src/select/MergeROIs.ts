import { DataEngine, Indices, IndexLists, UInt, sofaComponent, type Data } from '@sofa-ts/core';
import { DataVector } from '../engine-support.js';

/**
 * SOFA's MergeROIs: the index lists indices1 … indicesN (nbROIs of them) gathered into one
 * vector of ROIs, roiIndices = [indices1] [indices2] … (what MeshToImageEngine's roiIndices takes).
 */
@sofaComponent({
  name: 'MergeROIs',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Merge a list of ROIs (vector<Indices>) into a single Data (vector<svector<Indices>>).',
})
export class MergeROIs extends DataEngine {
  readonly nbROIs = this.initData({ name: 'nbROIs', type: UInt, default: 0, help: 'size of indices/value vector' });
  readonly roiIndices = this.initData({
    name: 'roiIndices',
    type: IndexLists('vector<SVector<unsigned int>>'),
    default: [],
    help: 'Vector of ROIs',
    output: true,
  });
  private readonly indices = new DataVector<Uint32Array>('indices', (name, i) => {
    const d = this.initData({ name, type: Indices, default: new Uint32Array(0), help: `ROI ${i + 1}` });
    this.addInput(d as Data<unknown>);
    return d;
  });

  constructor() {
    super();
    this.addInput(this.nbROIs);
    this.addOutput(this.roiIndices);
  }

  override findData(name: string): Data<unknown> | undefined {
    return super.findData(name) ?? (this.indices.find(name) as Data<unknown> | undefined);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const nb = this.nbROIs.value;
    this.indices.resize(nb);
    this.roiIndices.value = this.indices.items.slice(0, nb).map((d) => Array.from(d.value));
  }
}
