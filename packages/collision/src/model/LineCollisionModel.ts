import { Bool, sofaComponent } from '@sofa-ts/core';
import { CollisionModel, isCollisionModel, type ElementKind } from './CollisionModel.js';
import { edgesAroundVertex } from './mesh-adjacency.js';

/**
 * SOFA's LineCollisionModel: one element per edge of the topology (segment [p_a, p_b] of the
 * node's Vec3 state), box = bounds of the two end points ± contactDistance. With selfCollision,
 * segments sharing a point or a neighbouring segment do not collide, nor a segment and a point of
 * it or of a neighbouring segment.
 */
@sofaComponent({
  name: 'LineCollisionModel',
  aliases: ['LineModel', 'Line', 'LineMesh', 'LineSet'],
  category: 'CollisionModel',
  module: 'Sofa.Component.Collision.Geometry',
  description: 'Collision model made of the edges of a topology.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class LineCollisionModel extends CollisionModel {
  readonly bothSide = this.initData({
    name: 'bothSide',
    type: Bool,
    default: false,
    help: 'activate collision on both side of the line model (when surface normals are defined on these lines)',
  });
  readonly displayFreePosition = this.initData({
    name: 'displayFreePosition',
    type: Bool,
    default: false,
    help: 'display the collision model based on the free positions',
    group: 'Visualization',
  });

  /** (nLines × 2) end points of the segments. */
  edges = new Uint32Array(0);
  private revision = -1;
  private around: number[][] | undefined;

  get kind(): ElementKind {
    return 'line';
  }

  get size(): number {
    return this.edges.length / 2;
  }

  override init(): void {
    super.init();
    if (this.mstate!.stateType.name !== 'Vec3d') throw this.error(`needs a Vec3d mechanical state, got ${this.mstate!.stateType.name}`);
    if (!this.template) this.template = 'Vec3d';
    if (!this.resolveTopology())
      throw this.error(
        'no topology found in this node or above',
        'LineCollisionModel takes its segments from the edges of a topology (MeshTopology, EdgeSetTopologyContainer, ...)',
      );
    this.updateFromTopology();
  }

  /** Segments from the topology's edges (again when the topology changed). */
  updateFromTopology(): void {
    const topo = this.resolveTopology()!;
    if (topo.revision === this.revision) return;
    this.revision = topo.revision;
    const e = topo.getEdges();
    const n = this.mstate!.size;
    const kept: number[] = [];
    for (let i = 0; i < e.length / 2; i++) {
      if (e[2 * i] >= n || e[2 * i + 1] >= n)
        throw this.error(`edge ${i} (${e[2 * i]}, ${e[2 * i + 1]}) is out of range: the state has ${n} points`);
      kept.push(e[2 * i], e[2 * i + 1]);
    }
    this.edges = Uint32Array.from(kept);
    this.around = undefined;
  }

  override computeBoundingTree(depth: number): void {
    this.updateFromTopology();
    super.computeBoundingTree(depth);
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    const x = this.x;
    const d = this.getProximity();
    const e = this.edges;
    for (let i = 0; i < this.size; i++) {
      const a = 3 * e[2 * i],
        b = 3 * e[2 * i + 1];
      for (let c = 0; c < 3; c++) {
        const p = x[a + c],
          q = x[b + c];
        boxes[6 * i + c] = (q < p ? q : p) - d;
        boxes[6 * i + 3 + c] = (q > p ? q : p) + d;
      }
    }
  }

  /** Box of segment i over the step: bounds of its two points at both ends, ± contactDistance. */
  protected override computeSweptElementBoxes(boxes: Float64Array, end: Float64Array): void {
    const x = this.x;
    const d = this.getProximity();
    const e = this.edges;
    for (let i = 0; i < this.size; i++) {
      const a = 3 * e[2 * i],
        b = 3 * e[2 * i + 1];
      for (let c = 0; c < 3; c++) {
        const lo = Math.min(x[a + c], x[b + c], end[a + c], end[b + c]);
        const hi = Math.max(x[a + c], x[b + c], end[a + c], end[b + c]);
        boxes[6 * i + c] = lo - d;
        boxes[6 * i + 3 + c] = hi + d;
      }
    }
  }

  override canCollideWithElement(index: number, other: CollisionModel, index2: number): boolean {
    if (!this.selfCollision.value) return true;
    if (this.context !== other.context) return true;
    this.around ??= edgesAroundVertex(this.edges, this.mstate!.size);
    const e = this.edges;
    const p11 = e[2 * index],
      p12 = e[2 * index + 1];
    const around11 = this.around[p11] ?? [];
    const around12 = this.around[p12] ?? [];
    if (other === this) {
      const p21 = e[2 * index2],
        p22 = e[2 * index2 + 1];
      if (p11 === p21 || p11 === p22 || p12 === p21 || p12 === p22) return false;
      const around21 = this.around[p21] ?? [];
      const around22 = this.around[p22] ?? [];
      for (const e1 of [...around11, ...around12]) if (around21.includes(e1) || around22.includes(e1)) return false;
      return true;
    }
    if (
      isCollisionModel(other) &&
      other.kind === 'point' &&
      other === this.context.objects.find((o) => isCollisionModel(o) && o.kind === 'point')
    ) {
      if (index2 === p11 || index2 === p12) return false;
      for (const en of [...around11, ...around12]) if (index2 === e[2 * en] || index2 === e[2 * en + 1]) return false;
      return true;
    }
    return other.kind === 'line' ? true : other.canCollideWithElement(index2, this, index);
  }
}
