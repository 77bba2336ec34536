import { BaseObject, Bool, Int, Vec3, nonNegative, sofaComponent } from '@sofa-ts/core';

/**
 * SOFA's Articulation (ArticulatedSystemPlugin): one degree of freedom of an ArticulationCenter, a
 * rotation about `axis` or a translation along it (both: the rotation, then the translation),
 * driven by value `articulationIndex` of the ArticulatedSystemMapping's Vec1d input (an angle in
 * rad, or a length). The axis is read in the frame its center's articulationProcess says (the
 * child's orientation so far, the parent's, or the child's previous one) and normalised, as SOFA
 * normalises it. An articulation belongs to the ArticulationCenter of the node above its own.
 */
@sofaComponent({
  name: 'Articulation',
  category: 'Mapping',
  module: 'ArticulatedSystemPlugin',
  description: 'This class defines an articulation by an axis, an orientation and an index.',
})
export class Articulation extends BaseObject {
  readonly axis = this.initData({
    name: 'axis',
    type: Vec3,
    default: Float64Array.of(1, 0, 0),
    help: 'Set the rotation axis for the articulation',
    aliases: ['rotationAxis'],
  });
  readonly rotation = this.initData({ name: 'rotation', type: Bool, default: false, help: 'Rotation' });
  readonly translation = this.initData({ name: 'translation', type: Bool, default: false, help: 'Translation' });
  readonly articulationIndex = this.initData({
    name: 'articulationIndex',
    type: Int,
    default: 0,
    range: nonNegative,
    help: 'Articulation index',
  });
  /** Its value at each frame of a BVH file (SOFA's `motion`: a length, or an angle in degrees), when one created it. */
  motion = new Float64Array(0);
}

export function isArticulation(o: unknown): o is Articulation {
  return o instanceof Articulation;
}
