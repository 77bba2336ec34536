import { BaseObject, Int, Vec3, inClosed, nonNegative, sofaComponent } from '@sofa-ts/core';
import { isArticulation, type Articulation } from './Articulation.js';

/**
 * SOFA's ArticulationCenter (ArticulatedSystemPlugin): a joint between the rigid bodies parentIndex
 * and childIndex of the ArticulatedSystemMapping's output. The joint point is
 * A = c_parent + R_parent·posOnParent = c_child + R_child·posOnChild (the last in the child's frame
 * once the articulations moved it); its articulations are the Articulation components of the nodes
 * below this one's node. articulationProcess says how they compose:
 * - 0: one after the other, each axis taken in the child's orientation so far (Euler angles);
 * - 1: by increments since the previous apply, axes in the parent's frame, translations moving A;
 * - 2: by increments, axes in the child's previous orientation, translations applied after.
 * globalPosition is an output: A at the last apply.
 */
@sofaComponent({
  name: 'ArticulationCenter',
  category: 'Mapping',
  module: 'ArticulatedSystemPlugin',
  description: 'This class defines an articulation center. This contains a set of articulations.',
})
export class ArticulationCenter extends BaseObject {
  readonly parentIndex = this.initData({
    name: 'parentIndex',
    type: Int,
    default: 0,
    range: nonNegative,
    help: 'Parent of the center articulation',
  });
  readonly childIndex = this.initData({
    name: 'childIndex',
    type: Int,
    default: 0,
    range: nonNegative,
    help: 'Child of the center articulation',
  });
  readonly globalPosition = this.initData({
    name: 'globalPosition',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    help: 'Global position of the articulation center',
  });
  readonly posOnParent = this.initData({
    name: 'posOnParent',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    help: 'Parent position of the articulation center',
  });
  readonly posOnChild = this.initData({
    name: 'posOnChild',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    help: 'Child position of the articulation center',
  });
  readonly articulationProcess = this.initData({
    name: 'articulationProcess',
    type: Int,
    default: 0,
    range: inClosed(0, 2),
    help: ' 0 - (default) hierarchy between articulations (euler angles)\n 1- ( on Parent) no hierarchy - axis are attached to the parent\n 2- (attached on Child) no hierarchy - axis are attached to the child',
  });

  /** Its articulations when a BVH file created them (ArticulatedHierarchyContainer), else undefined. */
  articulations: Articulation[] | undefined;

  /**
   * The articulations of this center: those a BVH file gave it, else those of the nodes below its
   * node, in visit order (SOFA's getTreeObjects on each child).
   */
  getArticulations(): Articulation[] {
    if (this.articulations) return this.articulations;
    const out: Articulation[] = [];
    for (const child of this.context.children) out.push(...child.getObjects(isArticulation, 'down'));
    return out;
  }
}

export function isArticulationCenter(o: unknown): o is ArticulationCenter {
  return o instanceof ArticulationCenter;
}
