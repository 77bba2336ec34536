import { nonNegative, Real } from '@sofa-ts/core';
import { IntersectionMethod } from './intersection-method.js';

/**
 * SOFA's BaseProximityIntersection: intersection methods that detect primitives closer than an
 * alarm distance and keep them a contact distance apart (both enlarged by the models'
 * contactDistance).
 */
export abstract class BaseProximityIntersection extends IntersectionMethod {
  readonly alarmDistance = this.initData({
    name: 'alarmDistance',
    type: Real,
    default: 1,
    unit: 'm',
    range: nonNegative,
    help: 'distance above which the intersection computations ignore the proximity pair (also used by broad phases to reduce the search area)',
  });
  readonly contactDistance = this.initData({
    name: 'contactDistance',
    type: Real,
    default: 0.5,
    unit: 'm',
    range: nonNegative,
    help: 'distance below which a contact is created',
  });

  getAlarmDistance(): number {
    return this.alarmDistance.value;
  }

  getContactDistance(): number {
    return this.contactDistance.value;
  }
}
