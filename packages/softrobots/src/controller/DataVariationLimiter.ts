import { AnimateBeginEvent, BaseObject, Bool, RealArray, Real, UInt, sofaComponent, type SofaEvent } from '@sofa-ts/core';

const TUPLE: Record<string, number> = { Vec1d: 1, Vec2d: 2, Vec3d: 3 };

/**
 * SoftRobots' DataVariationLimiter: `output` follows `input` (a list of Vec1/2/3), entry by entry,
 * but an entry whose jump |out − in| exceeds `maxJump` is moved there over several steps instead of
 * at once. At the beginning of each step (AnimateBeginEvent), for each entry i with its own step
 * counter s_i (from 0):
 *
 *   |out_i − in_i| > maxJump:  out_i ← out_i + (in_i − out_i)·s_i/nbStep,  s_i ← s_i + 1 (back to 0 at nbStep)
 *   otherwise:                 out_i ← in_i
 *
 * so the distance left after k limited steps is d₀·Π_{j<k}(1 − s_j/nbStep) (the first limited step
 * does not move, the counter starts at 0), until it falls under maxJump and the output jumps onto
 * the input. This is SoftRobots' rule as it runs (its counter is not reset when an entry catches
 * up: a later jump continues from where the counter stood). maxJump < 0 is taken as 0, nbStep < 1
 * as 1 (each with a warning). As in SOFA, events reach it only with `listening` set.
 */
@sofaComponent({
  name: 'DataVariationLimiter',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Interpolates between two consecutive inputs when a jump is detected.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d'],
  defaultTemplate: 'Vec3d',
})
export class DataVariationLimiter extends BaseObject {
  readonly input = this.initData({
    name: 'input',
    type: RealArray(0, 'vector<Vec>'),
    default: new Float64Array(0),
    help: "the values to follow (a list of the template's vectors)",
  });
  readonly output = this.initData({
    name: 'output',
    type: RealArray(0, 'vector<Vec>'),
    default: new Float64Array(0),
    help: 'the limited values (given in the scene, the start value when initOutput is false)',
  });
  readonly size = this.initData({
    name: 'size',
    type: UInt,
    default: 0,
    help: 'number of entries (set at init from input, or from output with initOutput false)',
    output: true,
  });
  readonly maxJump = this.initData({
    name: 'maxJump',
    type: Real,
    default: 0.1,
    help: "largest jump |output − input| of an entry followed at once (a distance in the input's unit)",
  });
  readonly nbStep = this.initData({
    name: 'nbStep',
    type: UInt,
    default: 50,
    help: 'number of interpolation steps (the step counter of an entry goes back to 0 at nbStep)',
  });
  readonly initOutput = this.initData({
    name: 'initOutput',
    type: Bool,
    default: true,
    help: 'if true, the output starts at the input; else it starts at the output given',
  });

  private n = 3;
  private step = new Uint32Array(0);
  private initialOutput = new Float64Array(0);
  readonly checkpointFields = ['step'] as const;

  override init(): void {
    this.template ||= 'Vec3d';
    const n = TUPLE[this.template];
    if (n === undefined)
      throw this.error(
        `template ${this.template} is not supported`,
        'use Vec1d, Vec2d or Vec3d (the integer templates of SoftRobots are not provided)',
      );
    this.n = n;
    if (!this.listening.value)
      this.warn(
        'listening is false: as in SOFA, the limiter receives no step events and its output does not follow the input',
        'set listening="true"',
      );
    this.setUp();
    this.initialOutput = Float64Array.from(this.output.value);
  }

  override reset(): void {
    this.setUp();
    this.output.value = Float64Array.from(this.initialOutput);
  }

  private setUp(): void {
    const n = this.n;
    if (!this.input.isSet) {
      this.warn('input not set: the output stays as it is');
    } else {
      const input = this.input.value;
      if (input.length % n !== 0)
        throw this.dataError(this.input, `${input.length} numbers are not a list of ${this.template} (groups of ${n})`);
      if (this.initOutput.value) this.output.value = Float64Array.from(input);
      else if (this.output.value.length % n !== 0)
        throw this.dataError(this.output, `${this.output.value.length} numbers are not a list of ${this.template}`);
    }
    this.size.value = this.output.value.length / n;
    this.step = new Uint32Array(this.size.value);
    if (this.maxJump.value < 0) {
      this.warnAbout(this.maxJump, `maxJump ${this.maxJump.value} < 0: 0 is used`);
      this.maxJump.value = 0;
    }
    if (this.nbStep.value < 1) {
      this.warnAbout(this.nbStep, 'nbStep 0 < 1: 1 is used');
      this.nbStep.value = 1;
    }
    if (this.nbStep.value === 1)
      this.warnAbout(
        this.nbStep,
        "nbStep 1: the step counter stays at 0, so an entry whose jump exceeds maxJump never moves (SoftRobots' rule)",
        'use nbStep ≥ 2',
      );
  }

  override handleEvent(event: SofaEvent): void {
    if (!this.listening.value || !(event instanceof AnimateBeginEvent) || !this.input.isSet) return;
    const input = this.input.value,
      out = this.output.value,
      n = this.n,
      size = this.size.value;
    if (input.length < size * n) {
      this.warnAbout(this.input, `input has ${input.length / n} entries, fewer than size ${size}: the output is not updated`);
      return;
    }
    const N = this.nbStep.value,
      maxJump = this.maxJump.value;
    for (let i = 0; i < size; i++) {
      let d2 = 0;
      for (let a = 0; a < n; a++) d2 += (out[i * n + a] - input[i * n + a]) ** 2;
      if (Math.sqrt(d2) > maxJump) {
        const f = this.step[i] / N;
        for (let a = 0; a < n; a++) out[i * n + a] += (input[i * n + a] - out[i * n + a]) * f;
        if (++this.step[i] >= N) this.step[i] = 0;
      } else {
        for (let a = 0; a < n; a++) out[i * n + a] = input[i * n + a];
      }
    }
    this.output.touch();
  }
}
