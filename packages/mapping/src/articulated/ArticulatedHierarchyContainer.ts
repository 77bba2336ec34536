import { BaseObject, Str, sofaComponent } from '@sofa-ts/core';
import { isArticulationCenter, type ArticulationCenter } from './ArticulationCenter.js';

/**
 * SOFA's ArticulatedHierarchyContainer (ArticulatedSystemPlugin): the articulated rigid object's
 * list of ArticulationCenters, those of its node and of every node below, in visit order (the
 * order in which the ArticulatedSystemMapping places the bodies: a center's parent body must be
 * placed by an earlier center, or be the root). Loading the hierarchy from a BVH file (`filename`)
 * is not supported: a located error.
 */
@sofaComponent({
  name: 'ArticulatedHierarchyContainer',
  category: 'Mapping',
  module: 'ArticulatedSystemPlugin',
  description: 'This class allow to store and retrieve all the articulation centers from an articulated rigid object.',
})
export class ArticulatedHierarchyContainer extends BaseObject {
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'BVH File to load the articulation' });

  override init(): void {
    if (this.filename.value !== '')
      throw this.error(
        `loading the articulations from the BVH file '${this.filename.value}' is not supported`,
        'describe the hierarchy with ArticulationCenter and Articulation components below this node',
      );
  }

  /** The articulation centers of this node and the nodes below (SOFA's getTreeObjects). */
  getArticulationCenters(): ArticulationCenter[] {
    return this.context.getObjects(isArticulationCenter, 'down');
  }
}

export function isArticulatedHierarchyContainer(o: unknown): o is ArticulatedHierarchyContainer {
  return o instanceof ArticulatedHierarchyContainer;
}
