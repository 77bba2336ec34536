import { Bool, sofaComponent, type CheckpointReader, type CheckpointRecord } from '@sofa-ts/core';
import type { ContinuousIntersectionType } from './CollisionModel.js';
import { TriangleCollisionModel } from './TriangleCollisionModel.js';
import { TriangleOctree } from './triangle-octree.js';

/**
 * SOFA's TriangleOctreeCollisionModel: a TriangleCollisionModel whose triangles are also stored in
 * an octree (triangle-octree.ts) for the ray queries of RayTraceNarrowPhase, with a unit normal at
 * each point (SOFA's pNorms) and the model's box. At each computeBoundingTree, as SOFA's does:
 *   n_p = normalise(Σ n_t over the triangles t ∋ p, t ≥ 1),   box = bounds of point 0 and of the
 *   points of triangles t ≥ 1,
 * the n_t being the triangles' normals before they are refreshed at this step (those of the
 * previous step; SOFA's loop starts at triangle 1 and reads each normal before recomputing it).
 * The octree is built again (lazily, at the first ray of the step) from the current positions.
 * A model that does not move keeps its point normals, box and octree, as it keeps its bounding
 * tree. Other narrow phases see it as a TriangleCollisionModel.
 */
@sofaComponent({
  name: 'TriangleOctreeCollisionModel',
  aliases: ['TriangleOctreeModel', 'TriangleOctree'],
  category: 'CollisionModel',
  module: 'Sofa.Component.Collision.Geometry',
  description: 'Collision model using a triangular mesh mapped to an Octree.',
})
export class TriangleOctreeCollisionModel extends TriangleCollisionModel {
  readonly isTriangleOctreeModel = true;
  readonly drawOctree = this.initData({
    name: 'drawOctree',
    type: Bool,
    default: false,
    help: 'draw the octree structure (a display option: sofa-ts does not draw the octree)',
    group: 'Visualization',
  });

  /** (nPoints × 3) unit normal at each point (SOFA's pNorms; zero at a point of no triangle t ≥ 1). */
  pointNormals = new Float64Array(0);
  /** The model's box (min xyz, max xyz), not enlarged by contactDistance (SOFA's cube). */
  cubeBox = new Float64Array(6);
  private readonly octree = new TriangleOctree();
  private octreeBuilt = false;
  /** Whether point normals and box were computed (a model that does not move keeps them). */
  private prepared = false;

  override computeBoundingTree(depth: number): void {
    const refreshed = this.prepareRayTrace();
    super.computeBoundingTree(depth);
    // SOFA's loop refreshes the triangles' normals whatever computeNormals
    if (refreshed && !this.computeNormals.value) this.updateNormals();
  }

  /** SOFA's TriangleOctreeCollisionModel sweeps nothing: its continuous tree is the discrete one. */
  override computeContinuousBoundingTree(depth: number, _type: ContinuousIntersectionType, _dt: number): void {
    this.computeBoundingTree(depth);
  }

  /** Point normals and box from the triangles' normals of the last step (see the class comment); false when kept. */
  private prepareRayTrace(): boolean {
    const before = this.triangles;
    this.updateFromTopology();
    if (this.triangles !== before) {
      // new triangles: their normals now, and the normals and box again whatever `moving`
      this.updateNormals();
      this.prepared = false;
    }
    if (this.prepared && !this.moving.value) return false;
    this.octreeBuilt = false;
    const x = this.x;
    const nP = this.getMechanicalState().size;
    if (this.pointNormals.length !== 3 * nP) this.pointNormals = new Float64Array(3 * nP);
    const pn = this.pointNormals;
    pn.fill(0);
    const box = this.cubeBox;
    if (nP === 0) {
      box.fill(0);
      this.prepared = true;
      return true;
    }
    for (let c = 0; c < 3; c++) box[c] = box[3 + c] = x[c];
    const t = this.triangles,
      n = this.normals;
    for (let i = 1; i < this.size; i++) {
      for (let k = 0; k < 3; k++) {
        const p = 3 * t[3 * i + k];
        pn[p] += n[3 * i];
        pn[p + 1] += n[3 * i + 1];
        pn[p + 2] += n[3 * i + 2];
        for (let c = 0; c < 3; c++) {
          const v = x[p + c];
          if (v > box[3 + c]) box[3 + c] = v;
          if (v < box[c]) box[c] = v;
        }
      }
    }
    for (let p = 0; p < 3 * nP; p += 3) {
      const l = Math.sqrt(pn[p] * pn[p] + pn[p + 1] * pn[p + 1] + pn[p + 2] * pn[p + 2]);
      if (l > Number.EPSILON) {
        pn[p] /= l;
        pn[p + 1] /= l;
        pn[p + 2] /= l;
      }
    }
    this.prepared = true;
    return true;
  }

  /** The octree of the triangles at the current positions (built at the first call of the step). */
  getOctree(): TriangleOctree {
    if (!this.octreeBuilt || this.octree.positions !== this.x) {
      this.octree.build(this.x, this.triangles, this.size);
      this.octreeBuilt = true;
    }
    return this.octree;
  }

  /** Checkpoint: the triangles' normals too (the point normals of the next step are made of them). */
  override checkpointState(): CheckpointRecord {
    return { ...super.checkpointState(), normals: this.normals, pointNormals: this.pointNormals, cubeBox: this.cubeBox };
  }

  override restoreState(saved: CheckpointReader): void {
    super.restoreState(saved);
    this.normals = saved.restoreArray('normals', this.normals);
    this.pointNormals = saved.restoreArray('pointNormals', this.pointNormals);
    this.cubeBox = saved.restoreArray('cubeBox', this.cubeBox);
    this.prepared = this.pointNormals.length > 0;
    this.octreeBuilt = false;
  }
}

export function isTriangleOctreeModel(o: unknown): o is TriangleOctreeCollisionModel {
  return typeof o === 'object' && o !== null && (o as { isTriangleOctreeModel?: unknown }).isTriangleOctreeModel === true;
}
