import { Bool, sofaComponent } from '@sofa-ts/core';
import { CollisionModel, type ElementKind } from './CollisionModel.js';
import { verticesAroundVertex } from './mesh-adjacency.js';

/**
 * SOFA's PointCollisionModel: one element per point of the node's state (Vec3). Box of point i:
 * p_i ± contactDistance. With selfCollision, two points collide only when neither is a neighbour
 * (through an edge of the topology) of the other, and each pair is tested once.
 */
@sofaComponent({
  name: 'PointCollisionModel',
  aliases: ['PointModel', 'Point', 'PointMesh', 'PointSet'],
  category: 'CollisionModel',
  module: 'Sofa.Component.Collision.Geometry',
  description: 'Collision model made of the points of a mechanical state.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class PointCollisionModel extends CollisionModel {
  readonly bothSide = this.initData({
    name: 'bothSide',
    type: Bool,
    default: false,
    help: 'activate collision on both side of the point model (when surface normals are defined on these points)',
  });
  readonly computeNormals = this.initData({
    name: 'computeNormals',
    type: Bool,
    default: false,
    help: 'activate computation of normal vectors (required for some collision detection algorithms)',
  });
  readonly displayFreePosition = this.initData({
    name: 'displayFreePosition',
    type: Bool,
    default: false,
    help: 'display the collision model based on the free positions',
    group: 'Visualization',
  });

  private neighbours: number[][] | undefined;

  get kind(): ElementKind {
    return 'point';
  }

  get size(): number {
    return this.mstate?.size ?? 0;
  }

  override init(): void {
    super.init();
    if (this.mstate!.stateType.name !== 'Vec3d') throw this.error(`needs a Vec3d mechanical state, got ${this.mstate!.stateType.name}`);
    if (!this.template) this.template = 'Vec3d';
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    const x = this.x;
    const d = this.getProximity();
    for (let i = 0; i < this.size; i++) {
      for (let c = 0; c < 3; c++) {
        boxes[6 * i + c] = x[3 * i + c] - d;
        boxes[6 * i + 3 + c] = x[3 * i + c] + d;
      }
    }
  }

  /** Box of point i over the step: bounds of p_i and its end position, ± contactDistance. */
  protected override computeSweptElementBoxes(boxes: Float64Array, end: Float64Array): void {
    const x = this.x;
    const d = this.getProximity();
    for (let i = 0; i < this.size; i++) {
      for (let c = 0; c < 3; c++) {
        const a = x[3 * i + c],
          b = end[3 * i + c];
        boxes[6 * i + c] = (b < a ? b : a) - d;
        boxes[6 * i + 3 + c] = (b > a ? b : a) + d;
      }
    }
  }

  override canCollideWithElement(index: number, other: CollisionModel, index2: number): boolean {
    if (!this.selfCollision.value) return true;
    if (this.context !== other.context) return true;
    if (other === this) {
      // Each pair once (index > index2), and not between neighbours.
      if (index <= index2) return false;
      const topo = this.resolveTopology();
      if (!topo) return true;
      this.neighbours ??= verticesAroundVertex(topo.getEdges(), this.size);
      const n1 = this.neighbours[index] ?? [];
      const n2 = this.neighbours[index2] ?? [];
      for (const v1 of n1) for (const v2 of n2) if (v1 === v2 || v1 === index2 || index === v2) return false;
      return true;
    }
    // Ask the other model (once: two point models would ask each other forever).
    return other.kind === 'point' ? true : other.canCollideWithElement(index2, this, index);
  }
}
