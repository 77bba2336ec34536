import {
  BaseObject,
  AnimateBeginEvent,
  RealArray,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type SofaEvent,
} from '@sofa-ts/core';

/**
 * MultiThreading's MeanComputation: `result` is the mean of the positions of the mechanical
 * Vec3d states of its node (those not tagged MeanOutput), over the smallest of their sizes, recomputed
 * at each AnimateBeginEvent; a state of the node tagged MeanOutput follows `result`.
 *   result_i = (1/n)·Σ_k x_k,i
 * SOFA's compute() adds the inputs onto the previous result without clearing it first, so that
 * after its first evaluation its result is (r + Σ_k x_k)/n, not the mean; sofa-ts computes the
 * mean, and says so once.
 */
@sofaComponent({
  name: 'MeanComputation',
  category: 'Engine',
  module: 'MultiThreading',
  description: "The mean of the positions of its node's mechanical states; a state tagged MeanOutput follows it.",
  templates: ['Vec3d'],
})
export class MeanComputation extends BaseObject {
  readonly result = this.initData({
    name: 'result',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'the mean of the input positions',
    output: true,
  });

  private inputs: BaseMechanicalState[] = [];
  private output: BaseMechanicalState | undefined;

  override init(): void {
    super.init();
    const states = this.context.objects.filter(isMechanicalState).filter((s) => s.stateType.coordSize === 3);
    this.output = states.find((s) => s.tags.value.includes('MeanOutput'));
    this.inputs = states.filter((s) => s !== this.output);
    if (this.inputs.length === 0) this.warn('no mechanical state in its node to take the mean of: result stays empty');
    const sizes = new Set(this.inputs.map((s) => s.size));
    if (sizes.size > 1)
      this.warn(`its states have different sizes (${[...sizes].join(', ')}): the mean is over the first ${Math.min(...sizes)} points`);
    this.warn(
      "computes the mean at each step; SOFA's MeanComputation adds the inputs onto its previous result (r ← (r + Σx)/n), which is the mean at its first evaluation only",
    );
    this.compute();
  }

  override handleEvent(event: SofaEvent): void {
    if (event instanceof AnimateBeginEvent) this.compute();
  }

  private compute(): void {
    if (this.inputs.length === 0) return;
    const d = this.inputs[0].stateType.coordSize;
    const n = Math.min(...this.inputs.map((s) => s.size)) * d;
    const r = this.result.value.length === n ? this.result.value : new Float64Array(n);
    r.fill(0);
    for (const s of this.inputs) {
      const x = s.x;
      for (let i = 0; i < n; i++) r[i] += x[i];
    }
    const inv = 1 / this.inputs.length;
    for (let i = 0; i < n; i++) r[i] *= inv;
    this.result.value = r;
    if (this.output && this.output.size * d === n) {
      this.output.x.set(r);
      this.output.touch();
    }
  }
}
