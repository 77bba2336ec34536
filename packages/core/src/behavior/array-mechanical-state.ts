import type { StateType } from '../state-types.js';
import { BaseMechanicalState } from './mechanical-state.js';

/**
 * A mechanical state over plain arrays, for code that builds states without a scene (tests,
 * scripts, small tools): positions x (x0 = a copy at construction), velocities v (zero unless
 * given), forces f and increments dx. It becomes a view of a MechanicalSystem's global vectors
 * like MechanicalObject (bindStorage copies its values there and adopts them), and may carry free
 * vectors (xFree = x, vFree = 0) for the constraint machinery.
 */
export class ArrayMechanicalState extends BaseMechanicalState {
  private _x: Float64Array;
  private _x0: Float64Array;
  private _v: Float64Array;
  private _f: Float64Array;
  private _dx: Float64Array;

  constructor(
    readonly type: StateType,
    x: ArrayLike<number>,
    options: { name?: string; v?: ArrayLike<number>; freeVectors?: boolean } = {},
  ) {
    super();
    if (options.name !== undefined) this.name.value = options.name;
    const n = x.length / type.coordSize;
    this._x = Float64Array.from(x);
    this._x0 = Float64Array.from(x);
    this._v = new Float64Array(n * type.derivSize);
    if (options.v) this._v.set(options.v);
    this._f = new Float64Array(n * type.derivSize);
    this._dx = new Float64Array(n * type.derivSize);
    if (options.freeVectors) {
      this.xFree = Float64Array.from(x);
      this.vFree = new Float64Array(n * type.derivSize);
    }
  }

  get stateType(): StateType {
    return this.type;
  }
  get size(): number {
    return this._x.length / this.type.coordSize;
  }
  get x(): Float64Array {
    return this._x;
  }
  get x0(): Float64Array {
    return this._x0;
  }
  get v(): Float64Array {
    return this._v;
  }
  get f(): Float64Array {
    return this._f;
  }
  get dx(): Float64Array {
    return this._dx;
  }

  bindStorage(s: { x: Float64Array; v: Float64Array; f: Float64Array; dx: Float64Array }): void {
    s.x.set(this._x);
    s.v.set(this._v);
    s.f.set(this._f);
    s.dx.set(this._dx);
    this._x = s.x;
    this._v = s.v;
    this._f = s.f;
    this._dx = s.dx;
  }

  touch(): void {}

  /** n points, keeping the values of the first ones (new ones are zero). */
  resize(n: number): void {
    const grow = (a: Float64Array, k: number): Float64Array => {
      const b = new Float64Array(n * k);
      b.set(a.subarray(0, Math.min(a.length, b.length)));
      return b;
    };
    const c = this.type.coordSize,
      d = this.type.derivSize;
    this._x = grow(this._x, c);
    this._x0 = grow(this._x0, c);
    this._v = grow(this._v, d);
    this._f = grow(this._f, d);
    this._dx = grow(this._dx, d);
  }
}
