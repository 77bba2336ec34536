import {
  contextStateLink,
  AnimateEndEvent,
  BaseObject,
  Bool,
  Indices,
  Real,
  Vec3,
  sofaComponent,
  type BaseMechanicalState,
  type SofaEvent,
} from '@sofa-ts/core';
import { cableLength } from '../constraint/cable-geometry.js';

/**
 * A cable length sensor (SoftRobots' CableSensor, as a plain measuring component): the length L of
 * the polyline from `pullPoint` (when hasPullPoint) through the points `indices` of a Vec3 state
 * (cable-geometry.ts), measured at init and at the end of every step (AnimateEndEvent), and the
 * shortening L₀ − L. It adds no constraint row and no force. Data names are those of SoftRobots'
 * cable model (indices, pullPoint, hasPullPoint, cableInitialLength, cableLength, displacement).
 */
@sofaComponent({
  name: 'CableSensor',
  category: 'SoftRobots',
  module: 'SoftRobots',
  description: 'Measures the length of a cable (a polyline through points of a state) at the end of each step.',
  templates: ['Vec3d'],
})
export class CableSensor extends BaseObject {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points of the state the cable passes through, in order from the pull point (a point may repeat)',
  });
  readonly pullPoint = this.initData({
    name: 'pullPoint',
    type: Vec3,
    default: new Float64Array(3),
    help: 'fixed point the cable starts from',
  });
  readonly hasPullPoint = this.initData({
    name: 'hasPullPoint',
    type: Bool,
    default: true,
    help: 'true: the cable starts at pullPoint; false: it starts at the first of indices',
  });
  readonly cableInitialLength = this.initData({
    name: 'cableInitialLength',
    type: Real,
    default: 0,
    help: 'rest length L₀ of the cable (measured at init unless given)',
  });

  readonly cableLength = this.initData({
    name: 'cableLength',
    type: Real,
    default: 0,
    help: 'cable length L at the end of the last step',
    output: true,
  });
  readonly displacement = this.initData({
    name: 'displacement',
    type: Real,
    default: 0,
    help: 'cable shortening L₀ − L at the end of the last step',
    output: true,
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Vec3 state the cable runs through (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d)',
    ),
  );

  private state: BaseMechanicalState | undefined;
  private lengthGiven = false;
  /** The length measured at init (restored by reset). */
  private initialLength = 0;

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    const idx = this.indices.value;
    if (idx.length === 0) throw this.error('indices is empty: give the points the cable runs through');
    for (const i of idx) if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    if (!this.hasPullPoint.value && idx.length < 2) throw this.error('without a pull point the cable needs at least two indices');
    this.state = s;
    this.lengthGiven = this.cableInitialLength.isSet;
    this.measureInitial();
  }

  /** Measured again once the mappings are initialised (a mapped state). */
  override bwdInit(): void {
    if (this.state) this.measureInitial();
  }

  override reset(): void {
    this.cableLength.setValue(this.initialLength);
    this.displacement.setValue(this.cableInitialLength.value - this.initialLength);
  }

  private measureInitial(): void {
    const L = this.measure();
    this.initialLength = L;
    if (!this.lengthGiven) this.cableInitialLength.setValue(L);
    this.cableLength.setValue(L);
    this.displacement.setValue(this.cableInitialLength.value - L);
  }

  private measure(): number {
    return cableLength(this.state!.x, this.indices.value, this.hasPullPoint.value ? this.pullPoint.value : undefined);
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || !this.state) return;
    const L = this.measure();
    this.cableLength.setValue(L);
    this.displacement.setValue(this.cableInitialLength.value - L);
  }
}
