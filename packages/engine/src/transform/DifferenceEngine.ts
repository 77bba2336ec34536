import { DataEngine, sofaComponent } from '@sofa-ts/core';
import { Coords } from '../engine-support.js';

/**
 * SOFA's DifferenceEngine: output[i] = input[i] − substractor[i] for vectors of Vec3 (or Vec1)
 * values. Vectors of different sizes leave the output as it was, with a warning (as SOFA).
 */
@sofaComponent({
  name: 'DifferenceEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Computing the difference between two vector of dofs.',
  templates: ['Vec3d', 'Vec1d'],
  defaultTemplate: 'Vec3d',
})
export class DifferenceEngine extends DataEngine {
  readonly input = this.initData({ name: 'input', type: Coords, default: new Float64Array(0), help: 'input vector' });
  readonly substractor = this.initData({
    name: 'substractor',
    type: Coords,
    default: new Float64Array(0),
    help: 'vector to subtract from the input',
  });
  readonly output = this.initData({
    name: 'output',
    type: Coords,
    default: new Float64Array(0),
    help: 'output vector = input − substractor',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.input, this.substractor);
    this.addOutput(this.output);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const a = this.input.value,
      b = this.substractor.value;
    if (a.length !== b.length) {
      this.warn(`'input' has ${a.length} numbers and 'substractor' ${b.length}: they must have the same size (output unchanged)`);
      return;
    }
    this.output.value = a.map((v, i) => v - b[i]);
  }
}
