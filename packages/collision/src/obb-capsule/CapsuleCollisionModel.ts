import { nonNegative, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { CollisionModel, type ElementKind } from '../model/CollisionModel.js';

/**
 * SOFA's CapsuleCollisionModel (plugin CollisionOBBCapsule), Vec3 template: one capsule per edge
 * (p_a, p_b) of the topology, the points at distance ≤ r_i of the segment [p_a p_b], with
 * r_i = listCapsuleRadii[i] (defaultRadius for the capsules the list does not reach). Contacts are
 * computed on the axis and keep the radius as part of their rest distance; a contact point is the
 * point P = (1 − s)·p_a + s·p_b of the axis (the barycentric contact mapper on the edge).
 * Box = bounds of both ends ± (r + contactDistance).
 */
@sofaComponent({
  name: 'CapsuleCollisionModel',
  aliases: ['Capsule', 'CapsuleModel', 'TCapsuleModel'],
  category: 'CollisionModel',
  module: 'CollisionOBBCapsule',
  description: 'Collision model made of capsules (a segment swept by a sphere) on the edges of a topology.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class CapsuleCollisionModel extends CollisionModel {
  readonly listCapsuleRadii = this.initData({
    name: 'listCapsuleRadii',
    type: RealArray(0),
    default: new Float64Array(0),
    unit: 'm',
    range: nonNegative,
    help: 'Radius of each capsule',
  });
  readonly defaultRadius = this.initData({
    name: 'defaultRadius',
    type: Real,
    default: 0.5,
    unit: 'm',
    range: nonNegative,
    help: 'The default radius',
  });

  /** (nCapsules × 2) end points of the axes. */
  edges = new Uint32Array(0);
  private revision = -1;

  get kind(): ElementKind {
    return 'capsule';
  }

  get size(): number {
    return this.edges.length / 2;
  }

  override init(): void {
    super.init();
    const t = this.mstate!.stateType.name;
    if (t !== 'Vec3d')
      throw this.error(
        `needs a Vec3d mechanical state, got ${t}`,
        'capsules on a rigid frame (RigidCapsuleCollisionModel) are not implemented in sofa-ts',
      );
    this.template = 'Vec3d';
    if (!this.resolveTopology())
      throw this.error('no topology found in this node or above', 'CapsuleCollisionModel takes its capsules from the edges of a topology');
    this.updateFromTopology();
  }

  /** Capsules from the topology's edges (again when the topology changed). */
  updateFromTopology(): void {
    const topo = this.resolveTopology()!;
    if (topo.revision === this.revision) return;
    this.revision = topo.revision;
    const e = topo.getEdges();
    const n = this.mstate!.size;
    for (let i = 0; i < e.length; i++)
      if (e[i] >= n) throw this.error(`edge ${i >> 1} (${e[i & ~1]}, ${e[i | 1]}) is out of range: the state has ${n} points`);
    this.edges = Uint32Array.from(e);
  }

  /** Radius of capsule i. */
  getRadius(i: number): number {
    const l = this.listCapsuleRadii.value;
    return i < l.length ? l[i] : this.defaultRadius.value;
  }

  override computeBoundingTree(depth: number): void {
    this.updateFromTopology();
    super.computeBoundingTree(depth);
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    const x = this.x,
      e = this.edges;
    const d = this.getProximity();
    const list = this.listCapsuleRadii.value,
      radius = this.defaultRadius.value;
    for (let i = 0, n = this.size; i < n; i++) {
      const r = (i < list.length ? list[i] : radius) + d;
      const a = 3 * e[2 * i],
        b = 3 * e[2 * i + 1];
      for (let c = 0; c < 3; c++) {
        boxes[6 * i + c] = Math.min(x[a + c], x[b + c]) - r;
        boxes[6 * i + 3 + c] = Math.max(x[a + c], x[b + c]) + r;
      }
    }
  }
}
