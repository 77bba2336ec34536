import { DataEngine, RealArray, sofaComponent, UInt, type Data } from '@sofa-ts/core';
import { DataVector } from '../engine-support.js';

const Values = RealArray(0, 'vector<T>');

/**
 * SOFA's MergeVectors: output = [input1; input2; …; inputN] (N = nbInputs), the concatenation of
 * vectors of numbers (Data<double>, Data<int>, Data<Vec3d>, …: values of any size).
 */
@sofaComponent({
  name: 'MergeVectors',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Generate',
  description: 'Apply a merge operation to combine several inputs.',
  templates: [
    'Data<double>',
    'Data<int>',
    'Data<bool>',
    'Data<Vec2d>',
    'Data<Vec3d>',
    'Data<Vec4d>',
    'Data<Rigid2d>',
    'Data<Rigid3d>',
    'Data<unsigned int>',
  ],
  defaultTemplate: 'Data<double>',
})
export class MergeVectors extends DataEngine {
  readonly nbInputs = this.initData({ name: 'nbInputs', type: UInt, default: 2, help: 'number of input vectors' });
  readonly output = this.initData({ name: 'output', type: Values, default: new Float64Array(0), help: 'output vector', output: true });

  private readonly inputs = new DataVector<Float64Array>(
    'input',
    (name) => {
      const d = this.initData({ name, type: Values, default: new Float64Array(0), help: 'input vector' });
      this.addInput(d as Data<unknown>);
      return d;
    },
    2,
  );

  constructor() {
    super();
    this.addInput(this.nbInputs);
    this.addOutput(this.output);
  }

  override findData(name: string): Data<unknown> | undefined {
    return super.findData(name) ?? (this.inputs.find(name) as Data<unknown> | undefined);
  }

  override init(): void {
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const nb = this.nbInputs.value;
    this.inputs.resize(nb);
    const parts = this.inputs.items.slice(0, nb).map((d) => d.value);
    const out = new Float64Array(parts.reduce((s, p) => s + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    this.output.value = out;
  }
}
