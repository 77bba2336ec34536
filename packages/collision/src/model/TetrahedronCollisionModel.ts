import { sofaComponent } from '@sofa-ts/core';
import { CollisionModel, type ElementKind } from './CollisionModel.js';

/**
 * SOFA's TetrahedronCollisionModel: one element per tetrahedron of the topology, box = bounds of
 * its four points ± contactDistance; the elements follow the topology's changes (they are read
 * again when it changed). As in SOFA, the proximity methods (MinProximity, NewProximity,
 * LocalMinDistance) register no test for tetrahedra: with them such a model takes part in the
 * broad phase only, and makes no contact. `barycentric` gives the coordinates of a point in an
 * element (what SOFA's discrete tetrahedron–point test measures).
 */
@sofaComponent({
  name: 'TetrahedronCollisionModel',
  aliases: ['TetrahedronModel', 'Tetrahedron'],
  category: 'CollisionModel',
  module: 'Sofa.Component.Collision.Geometry',
  description: 'Collision model made of the tetrahedra of a topology.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class TetrahedronCollisionModel extends CollisionModel {
  /** (nElements × 4) points of each tetrahedron. */
  tetrahedra = new Uint32Array(0);
  private revision = -1;

  get kind(): ElementKind {
    return 'tetrahedron';
  }

  get size(): number {
    return this.tetrahedra.length / 4;
  }

  override init(): void {
    super.init();
    if (this.mstate!.stateType.name !== 'Vec3d') throw this.error(`needs a Vec3d mechanical state, got ${this.mstate!.stateType.name}`);
    if (!this.template) this.template = 'Vec3d';
    if (!this.resolveTopology())
      throw this.error(
        'no topology found in this node or above',
        'TetrahedronCollisionModel takes its elements from the tetrahedra of a topology',
      );
    this.updateFromTopology();
  }

  /** Elements from the topology's tetrahedra (again when the topology changed). */
  updateFromTopology(): void {
    const topo = this.resolveTopology()!;
    if (topo.revision === this.revision) return;
    this.revision = topo.revision;
    const t = topo.getTetrahedra();
    const n = this.mstate!.size;
    for (let i = 0; i < t.length; i++)
      if (t[i] >= n) throw this.error(`tetrahedron ${Math.floor(i / 4)} uses point ${t[i]}, out of range: the state has ${n} points`);
    this.tetrahedra = Uint32Array.from(t);
  }

  override computeBoundingTree(depth: number): void {
    this.updateFromTopology();
    super.computeBoundingTree(depth);
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    const x = this.x;
    const d = this.getProximity();
    const t = this.tetrahedra;
    for (let i = 0; i < this.size; i++) {
      for (let c = 0; c < 3; c++) {
        let lo = Infinity,
          hi = -Infinity;
        for (let j = 0; j < 4; j++) {
          const v = x[3 * t[4 * i + j] + c];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        boxes[6 * i + c] = lo - d;
        boxes[6 * i + 3 + c] = hi + d;
      }
    }
  }

  /**
   * Barycentric coordinates (b1, b2, b3) of point p in element i at the current positions:
   * p = p0 + b1·(p1 − p0) + b2·(p2 − p0) + b3·(p3 − p0). Inside when every b ≥ 0 and b1+b2+b3 ≤ 1.
   */
  barycentric(out: Float64Array, i: number, p: ArrayLike<number>): Float64Array {
    const x = this.x;
    const t = this.tetrahedra;
    const o = 3 * t[4 * i];
    const e = [1, 2, 3].map((j) => [0, 1, 2].map((c) => x[3 * t[4 * i + j] + c] - x[o + c])) as [number[], number[], number[]];
    const r = [0, 1, 2].map((c) => p[c] - x[o + c]);
    // solve [e1 e2 e3]·b = r by Cramer's rule
    const det = (a: number[], b: number[], c: number[]): number =>
      a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    const D = det(e[0], e[1], e[2]);
    out[0] = det(r, e[1], e[2]) / D;
    out[1] = det(e[0], r, e[2]) / D;
    out[2] = det(e[0], e[1], r) / D;
    return out;
  }
}
