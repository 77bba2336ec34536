import { BaseObject, Vec3, sofaComponent } from '@sofa-ts/core';

/**
 * SOFA's Gravity context object: sets the gravity of the context of its node, g ← gravity, so that
 * the masses of the node and of every node below it (which copy their parent's context at init)
 * weigh m·g. Applied at init, after the node took its parent's context and before its child nodes
 * take it. Note the default, 0 0 0: a Gravity without a value removes gravity from its subtree.
 */
@sofaComponent({
  name: 'Gravity',
  category: 'ContextObject',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Gravity in world coordinates, for the node that holds it and the nodes below.',
})
export class Gravity extends BaseObject {
  readonly gravity = this.initData({
    name: 'gravity',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    unit: 'm/s²',
    help: 'gravity in world coordinates given to the context of this node and of the nodes below',
  });

  override init(): void {
    this.context.gravity.setValue(Float64Array.from(this.gravity.value));
  }
}
