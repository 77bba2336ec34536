import { DataEngine, Indices, MAX_POINTS, Real, sofaComponent } from '@sofa-ts/core';
import { Reals } from '../engine-support.js';

/**
 * SOFA's IndexValueMapper: outputValues = inputValues with `value` written at every index of
 * `indices`; the list grows to the largest index, the new entries taking `defaultValue`. Chained,
 * these engines build per-element values (e.g. a Young's modulus per tetrahedron).
 */
@sofaComponent({
  name: 'IndexValueMapper',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Input values to output values mapper. Includes indices rules, such as replacement, resize.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class IndexValueMapper extends DataEngine {
  readonly inputValues = this.initData({
    name: 'inputValues',
    type: Reals,
    default: new Float64Array(0),
    help: 'already existing values (can be empty)',
  });
  readonly indices = this.initData({ name: 'indices', type: Indices, default: new Uint32Array(0), help: 'indices to map the value on' });
  readonly value = this.initData({ name: 'value', type: Real, default: 0, help: 'value to map the indices on' });
  readonly outputValues = this.initData({
    name: 'outputValues',
    type: Reals,
    default: new Float64Array(0),
    help: 'new map between indices and values',
    output: true,
  });
  readonly defaultValue = this.initData({
    name: 'defaultValue',
    type: Real,
    default: 1,
    help: 'default value for the indices without any value',
  });

  constructor() {
    super();
    this.addInput(this.inputValues, this.indices, this.value, this.defaultValue);
    this.addOutput(this.outputValues);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const input = this.inputValues.value,
      ind = this.indices.value;
    let size = input.length;
    for (const i of ind) size = Math.max(size, i + 1);
    // The list grows to the largest index: bounded like any per-element list (10 per point at most).
    if (size > 10 * MAX_POINTS)
      throw this.dataError(this.indices, `index ${size - 1} would grow the list to ${size} values, above the limit of ${10 * MAX_POINTS}`);
    const out = new Float64Array(size).fill(this.defaultValue.value);
    out.set(input);
    for (const i of ind) out[i] = this.value.value;
    this.outputValues.value = out;
  }
}
