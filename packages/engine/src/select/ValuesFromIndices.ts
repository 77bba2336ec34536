import { DataEngine, Indices, RealArray, sofaComponent, Str } from '@sofa-ts/core';

/** Numbers per value of each template SOFA registers (strings are read as numbers here). */
const VALUE_SIZES: Record<string, number> = {
  int: 1,
  'unsigned int': 1,
  double: 1,
  float: 1,
  SReal: 1,
  Vec1d: 1,
  Vec2d: 2,
  Vec3d: 3,
  Vec4: 4,
  Vec4d: 4,
  Vec4f: 4,
  Vec6d: 6,
  Rigid2d: 3,
  Rigid3d: 7,
  'fixed_array<unsigned int,2>': 2,
  'fixed_array<unsigned int,3>': 3,
  'fixed_array<unsigned int,4>': 4,
  'fixed_array<unsigned int,8>': 8,
  Edge: 2,
  Triangle: 3,
  Quad: 4,
  Tetrahedron: 4,
  Hexahedron: 8,
};

const Values = RealArray(0, 'vector<T>');

/**
 * SOFA's ValuesFromIndices: out[i] = in[indices[i]] for values of the template's type (Vec3: 3
 * numbers per value, Rigid3: 7, int or double: 1, ...); `outStr` prints `out`. An index past the
 * input is an error. Without a template the values are single numbers (SOFA's first registered
 * template is std::string, whose values are the whitespace-separated tokens).
 */
@sofaComponent({
  name: 'ValuesFromIndices',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Select',
  description: 'Find the values given a list of indices.',
  templates: Object.keys(VALUE_SIZES),
})
export class ValuesFromIndices extends DataEngine {
  readonly in = this.initData({ name: 'in', type: Values, default: new Float64Array(0), help: 'input values', aliases: ['input'] });
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'indices of the values' });
  readonly out = this.initData({
    name: 'out',
    type: Values,
    default: new Float64Array(0),
    help: 'output values corresponding to the indices',
    output: true,
    aliases: ['output'],
  });
  readonly outStr = this.initData({
    name: 'outStr',
    type: Str,
    default: '',
    help: 'output values corresponding to the indices, as a string',
    output: true,
  });

  private size = 1;

  constructor() {
    super();
    this.addInput(this.in, this.indices);
    this.addOutput(this.out, this.outStr);
  }

  override init(): void {
    this.size = VALUE_SIZES[this.template] ?? 1;
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const s = this.size;
    const v = this.in.value;
    if (v.length % s !== 0)
      throw this.error(`'in' has ${v.length} numbers, not a multiple of ${s} (template ${this.template || 'scalar'})`);
    const n = v.length / s;
    const ind = this.indices.value;
    const out = new Float64Array(ind.length * s);
    ind.forEach((i, k) => {
      if (i >= n) throw this.error(`index ${i} (entry ${k} of 'indices') is past the ${n} input values`);
      out.set(v.subarray(i * s, i * s + s), k * s);
    });
    this.out.value = out;
    this.outStr.value = this.out.print();
  }
}
