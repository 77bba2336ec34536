import { Bool, DataEngine, RealArray, sofaComponent, stateTypeOf, Vec3, type StateType } from '@sofa-ts/core';
import { Coords } from '../engine-support.js';
import { quatFromEulerDeg, quatInverse, quatMul, quatRotate, type Quat } from '../rigid-math.js';

/** One operation of the transform, applied in place to coordinate i of x. */
type Op = (x: Float64Array, o: number) => void;

/**
 * SOFA's TransformEngine: output_position = T ∘ Rq ∘ Re ∘ S (input_position), each operation
 * present only when it is not the identity:
 *   S: scale each axis by `scale`;  Re: rotation of Euler angles `rotation` (degrees, about x, then
 *   y, then z);  Rq: rotation of the unit quaternion `quaternion` (x y z w);  T: + `translation`.
 * With `inverse` the inverse transform is applied: S⁻¹ ∘ Re⁻¹ ∘ Rq⁻¹ ∘ T⁻¹.
 * Rigid3 frames have their centre transformed and their orientation q turned to r⊗q by each
 * rotation r (the scale acts on the centre only). Rigid2 frames turn their angle by the z Euler
 * angle (a quaternion is refused there). Vec1 / Vec2 points are padded with zeros to rotate and keep
 * their first coordinates.
 */
@sofaComponent({
  name: 'TransformEngine',
  category: 'Engine',
  module: 'Sofa.Component.Engine.Transform',
  description: 'Transform position of 3d points.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Rigid3d', 'Rigid2d'],
  defaultTemplate: 'Vec3d',
})
export class TransformEngine extends DataEngine {
  readonly inputPosition = this.initData({
    name: 'input_position',
    type: Coords,
    default: new Float64Array(0),
    help: 'input array of points',
  });
  readonly outputPosition = this.initData({
    name: 'output_position',
    type: Coords,
    default: new Float64Array(0),
    help: 'output array of points',
    output: true,
  });
  readonly translation = this.initData({ name: 'translation', type: Vec3, default: new Float64Array(3), help: 'translation vector' });
  readonly rotation = this.initData({
    name: 'rotation',
    type: Vec3,
    default: new Float64Array(3),
    unit: 'deg',
    help: 'rotation vector (Euler angles in degrees, about x, then y, then z)',
  });
  readonly quaternion = this.initData({
    name: 'quaternion',
    type: RealArray(4, 'Quat'),
    default: Float64Array.of(0, 0, 0, 1),
    help: 'rotation quaternion (x y z w)',
  });
  readonly scale = this.initData({ name: 'scale', type: Vec3, default: Float64Array.of(1, 1, 1), help: 'scale factors' });
  readonly inverse = this.initData({ name: 'inverse', type: Bool, default: false, help: 'true to apply the inverse transformation' });

  private stateType: StateType | undefined;

  constructor() {
    super();
    this.addInput(this.inputPosition, this.translation, this.rotation, this.quaternion, this.scale, this.inverse);
    this.addOutput(this.outputPosition);
  }

  override init(): void {
    this.stateType = stateTypeOf(this.template || 'Vec3d');
    if (!this.stateType) throw this.error(`template '${this.template}' is not a state template`);
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const t = this.stateType!;
    const cs = t.coordSize;
    const input = this.inputPosition.value;
    if (input.length % cs !== 0)
      throw this.error(`'input_position' has ${input.length} numbers, not a multiple of ${cs} (template ${t.name})`);
    const ops = this.operations(t);
    const out = Float64Array.from(input);
    for (let o = 0; o < out.length; o += cs) for (const op of ops) op(out, o);
    this.outputPosition.value = out;
  }

  /** The operations in the order they apply. */
  private operations(t: StateType): Op[] {
    const inv = this.inverse.value;
    const s = this.scale.value,
      r = this.rotation.value,
      q = this.quaternion.value,
      tr = this.translation.value;
    const dims = Math.min(3, t.spatialDimensions);
    const ops: Op[] = [];
    const add = (op: Op): void => {
      if (inv) ops.unshift(op);
      else ops.push(op);
    };
    if (s[0] !== 1 || s[1] !== 1 || s[2] !== 1) {
      const f = inv ? [1 / s[0], 1 / s[1], 1 / s[2]] : [s[0], s[1], s[2]];
      add((x, o) => {
        for (let k = 0; k < dims; k++) x[o + k] *= f[k];
      });
    }
    if (r[0] !== 0 || r[1] !== 0 || r[2] !== 0) {
      let qe = quatFromEulerDeg(r);
      if (inv) qe = quatInverse(qe);
      const angle = ((inv ? -1 : 1) * r[2] * Math.PI) / 180;
      add(this.rotationOp(t, qe, angle));
    }
    if (q[0] !== 0 || q[1] !== 0 || q[2] !== 0 || q[3] !== 1) {
      if (t.name === 'Rigid2d')
        throw this.error("a 'quaternion' rotation is not defined for Rigid2d frames: give 'rotation' (its z angle turns the frames)");
      const qq: Quat = [q[0], q[1], q[2], q[3]];
      add(this.rotationOp(t, inv ? quatInverse(qq) : qq, 0));
    }
    if (tr[0] !== 0 || tr[1] !== 0 || tr[2] !== 0) {
      const d = inv ? [-tr[0], -tr[1], -tr[2]] : [tr[0], tr[1], tr[2]];
      add((x, o) => {
        for (let k = 0; k < dims; k++) x[o + k] += d[k];
      });
    }
    return ops;
  }

  /** Rotation of a point, or of a frame's centre and orientation (Rigid2d: its angle by `angle`). */
  private rotationOp(t: StateType, q: Quat, angle: number): Op {
    const dims = Math.min(3, t.spatialDimensions);
    const p = [0, 0, 0];
    return (x, o) => {
      quatRotate(q, x[o], dims > 1 ? x[o + 1] : 0, dims > 2 ? x[o + 2] : 0, p);
      for (let k = 0; k < dims; k++) x[o + k] = p[k];
      if (t.name === 'Rigid3d') x.set(quatMul(q, x.subarray(o + 3, o + 7)), o + 3);
      else if (t.name === 'Rigid2d') x[o + 2] += angle;
    };
  }
}
