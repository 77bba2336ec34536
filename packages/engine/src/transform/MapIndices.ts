import { Bool, DataEngine, Indices, Str, sofaComponent } from '@sofa-ts/core';

/**
 * SOFA's MapIndices: renumbers indices. With `indices` = p (p[i] the input index of output index
 * i), every value v of `in` found among the p[i] becomes that i (old → new, the last i when p
 * repeats a value); with `transpose`, v becomes p[v] (new → old); a value with no image is kept.
 * The templates (int, unsigned int, fixed_array<unsigned int, 2|3|4|8>) only group the values into
 * tuples, which the mapping treats one index at a time, so `in` and `out` are flat index lists
 * here. `outStr` is `out` as text.
 */
@sofaComponent({
  name: 'MapIndices',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Apply a permutation to a set of indices.',
  templates: [
    'int',
    'unsigned int',
    'fixed_array<unsigned int,2>',
    'fixed_array<unsigned int,3>',
    'fixed_array<unsigned int,4>',
    'fixed_array<unsigned int,8>',
  ],
  defaultTemplate: 'int',
})
export class MapIndices extends DataEngine {
  readonly in = this.initData({ name: 'in', type: Indices, default: new Uint32Array(0), help: 'input indices' });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'array containing in ith cell the input index corresponding to the output index i (or reversively if transpose=true)',
  });
  readonly out = this.initData({ name: 'out', type: Indices, default: new Uint32Array(0), output: true, help: 'Output indices' });
  readonly outStr = this.initData({ name: 'outStr', type: Str, default: '', output: true, help: 'Output indices, converted as a string' });
  readonly transpose = this.initData({ name: 'transpose', type: Bool, default: false, help: 'Should the transposed mapping be used ?' });

  constructor() {
    super();
    this.addInput(this.in, this.indices, this.transpose);
    this.addOutput(this.out, this.outStr);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const input = this.in.value;
    const p = this.indices.value;
    const out = new Uint32Array(input.length);
    if (this.transpose.value) {
      for (let k = 0; k < input.length; k++) out[k] = input[k] < p.length ? p[input[k]] : input[k];
    } else {
      // old → new: a value's image is the last i with p[i] = value
      const image = new Map<number, number>();
      for (let i = 0; i < p.length; i++) image.set(p[i], i);
      for (let k = 0; k < input.length; k++) out[k] = image.get(input[k]) ?? input[k];
    }
    this.out.value = out;
    this.outStr.value = Array.from(out).join(' ');
  }
}
