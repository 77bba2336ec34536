import { sofaComponent } from '@sofa-ts/core';
import { CollisionModel, type ElementKind } from './CollisionModel.js';

/**
 * SOFA's CubeCollisionModel used as a model of its own: one axis-aligned box around every point of
 * the node's state (± contactDistance). Boxes only bound other primitives: two boxes that overlap
 * are a broad-phase pair, but no intersection method creates contacts between boxes (SOFA's
 * cube-cube test computes none).
 */
@sofaComponent({
  name: 'CubeCollisionModel',
  aliases: ['CubeModel', 'Cube'],
  category: 'CollisionModel',
  module: 'Sofa.Component.Collision.Geometry',
  description: 'Collision model made of the bounding box of a mechanical state.',
})
export class CubeCollisionModel extends CollisionModel {
  get kind(): ElementKind {
    return 'cube';
  }

  get size(): number {
    return (this.mstate?.size ?? 0) > 0 ? 1 : 0;
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    const x = this.x;
    const st = this.mstate!.stateType;
    const s = st.coordSize;
    const dim = Math.min(3, st.spatialDimensions);
    const d = this.getProximity();
    for (let c = 0; c < 3; c++) {
      boxes[c] = Infinity;
      boxes[3 + c] = -Infinity;
    }
    for (let i = 0; i < this.mstate!.size; i++) {
      for (let c = 0; c < 3; c++) {
        const v = c < dim ? x[s * i + c] : 0;
        if (v < boxes[c]) boxes[c] = v;
        if (v > boxes[3 + c]) boxes[3 + c] = v;
      }
    }
    for (let c = 0; c < 3; c++) {
      boxes[c] -= d;
      boxes[3 + c] += d;
    }
  }
}
