import { Bool, nonNegative, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { CollisionModel, type ElementKind } from './CollisionModel.js';

/**
 * SOFA's SphereCollisionModel: one sphere per point of the node's state, centred on the point
 * (Vec3d) or on the frame's origin (Rigid3d), of radius listRadius[i] (radius when the list is
 * shorter). Box = centre ± (r + contactDistance).
 */
@sofaComponent({
  name: 'SphereCollisionModel',
  aliases: ['SphereModel', 'Sphere', 'SphereCollision'],
  category: 'CollisionModel',
  module: 'Sofa.Component.Collision.Geometry',
  description: 'Collision model made of spheres centred on the points of a mechanical state.',
  templates: ['Vec3d', 'Rigid3d'],
})
export class SphereCollisionModel extends CollisionModel {
  readonly listRadius = this.initData({
    name: 'listRadius',
    type: RealArray(0),
    default: new Float64Array(0),
    unit: 'm',
    range: nonNegative,
    help: 'radius of each sphere',
  });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 1, unit: 'm', range: nonNegative, help: 'default radius' });
  readonly showImpostors = this.initData({
    name: 'showImpostors',
    type: Bool,
    default: true,
    help: 'draw spheres as impostors instead of "real" spheres',
    group: 'Visualization',
  });

  /** Scalars per point of the state (3 for Vec3d, 7 for Rigid3d): centre i is at x[stride·i]. */
  stride = 3;

  get kind(): ElementKind {
    return this.stride === 7 ? 'rigidsphere' : 'sphere';
  }

  get size(): number {
    return this.mstate?.size ?? 0;
  }

  override init(): void {
    super.init();
    const t = this.mstate!.stateType.name;
    if (t !== 'Vec3d' && t !== 'Rigid3d') throw this.error(`needs a Vec3d or Rigid3d mechanical state, got ${t}`);
    if (this.template && this.template !== t) throw this.error(`template ${this.template} does not match the state of the node (${t})`);
    this.template = t;
    this.stride = this.mstate!.stateType.coordSize;
  }

  /** Radius of sphere i. */
  getRadius(i: number): number {
    const l = this.listRadius.value;
    return i < l.length ? l[i] : this.radius.value;
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    const x = this.x;
    const d = this.getProximity();
    const s = this.stride;
    // the Data are read once: a linked listRadius is checked against its source at each read
    const list = this.listRadius.value,
      radius = this.radius.value;
    for (let i = 0, n = this.size; i < n; i++) {
      const r = (i < list.length ? list[i] : radius) + d;
      for (let c = 0; c < 3; c++) {
        boxes[6 * i + c] = x[s * i + c] - r;
        boxes[6 * i + 3 + c] = x[s * i + c] + r;
      }
    }
  }
}
