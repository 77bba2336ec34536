import { Bool, sofaComponent } from '@sofa-ts/core';
import { CollisionModel, isCollisionModel, type ContinuousIntersectionType, type ElementKind } from './CollisionModel.js';
import { triangleFlags } from './mesh-adjacency.js';

/**
 * SOFA's TriangleCollisionModel: one element per triangle of the topology, then two per quad (quad
 * (a, b, c, d) gives (b, c, a) and (d, a, c), as SOFA splits them). Box = bounds of the three
 * points ± contactDistance; the unit normal n = (p2 − p1) × (p3 − p1)/|…| is refreshed with the
 * boxes when computeNormals is on. Each point and edge of the mesh is owned by one triangle
 * (flags, see mesh-adjacency.ts) so that proximity tests report it once; triangles from quads own
 * nothing.
 */
@sofaComponent({
  name: 'TriangleCollisionModel',
  aliases: ['TriangleModel', 'Triangle', 'TriangleMesh', 'TriangleSet', 'TriangleMeshModel', 'TriangleSetModel'],
  category: 'CollisionModel',
  module: 'Sofa.Component.Collision.Geometry',
  description: 'Collision model made of the triangles (and split quads) of a topology.',
  templates: ['Vec3d'],
  defaultTemplate: 'Vec3d',
})
export class TriangleCollisionModel extends CollisionModel {
  readonly bothSide = this.initData({
    name: 'bothSide',
    type: Bool,
    default: false,
    help: 'activate collision on both side of the triangle model',
  });
  readonly computeNormals = this.initData({
    name: 'computeNormals',
    type: Bool,
    default: true,
    help: 'set to false to disable computation of triangles normal',
  });
  readonly useCurvature = this.initData({
    name: 'useCurvature',
    type: Bool,
    default: false,
    help: 'use the curvature of the mesh to avoid some self-intersection test',
  });

  /** (nElements × 3) points of each triangle. */
  triangles = new Uint32Array(0);
  /** (nElements) feature flags (0 for triangles from quads). */
  flags = new Int32Array(0);
  /** (nElements × 3) unit normals. */
  normals = new Float64Array(0);
  /** Number of the topology's own triangles (elements after them come from quads). */
  nTopologyTriangles = 0;
  /** (nQuads × 4) the topology's quads, for contact points on split quads. */
  quads = new Uint32Array(0);
  private revision = -1;

  get kind(): ElementKind {
    return 'triangle';
  }

  get size(): number {
    return this.triangles.length / 3;
  }

  override init(): void {
    super.init();
    if (this.mstate!.stateType.name !== 'Vec3d') throw this.error(`needs a Vec3d mechanical state, got ${this.mstate!.stateType.name}`);
    if (!this.template) this.template = 'Vec3d';
    if (!this.resolveTopology())
      throw this.error(
        'no topology found in this node or above',
        'TriangleCollisionModel takes its triangles from a topology (MeshTopology, TriangleSetTopologyContainer, ...)',
      );
    this.updateFromTopology();
    this.updateNormals();
  }

  /** Triangles, split quads and flags from the topology (again when it changed). */
  updateFromTopology(): void {
    const topo = this.resolveTopology()!;
    if (topo.revision === this.revision) return;
    this.revision = topo.revision;
    const tris = topo.getTriangles();
    const quads = topo.getQuads();
    const n = this.mstate!.size;
    const nT = tris.length / 3;
    const nQ = quads.length / 4;
    const t = new Uint32Array(3 * (nT + 2 * nQ));
    t.set(tris);
    for (let q = 0; q < nQ; q++) {
      const a = quads[4 * q],
        b = quads[4 * q + 1],
        c = quads[4 * q + 2],
        d = quads[4 * q + 3];
      t.set([b, c, a, d, a, c], 3 * nT + 6 * q);
    }
    for (let i = 0; i < t.length; i++) {
      if (t[i] >= n) throw this.error(`triangle ${Math.floor(i / 3)} uses point ${t[i]}, out of range: the state has ${n} points`);
    }
    this.triangles = t;
    this.quads = Uint32Array.from(quads);
    this.nTopologyTriangles = nT;
    this.flags = new Int32Array(this.size);
    this.flags.set(triangleFlags(tris, topo.getEdges(), n));
    this.normals = new Float64Array(3 * this.size);
  }

  /** n_i = (p2 − p1) × (p3 − p1), normalised. */
  updateNormals(): void {
    const x = this.x;
    const t = this.triangles;
    const nn = this.normals;
    for (let i = 0; i < this.size; i++) {
      const a = 3 * t[3 * i],
        b = 3 * t[3 * i + 1],
        c = 3 * t[3 * i + 2];
      const ux = x[b] - x[a],
        uy = x[b + 1] - x[a + 1],
        uz = x[b + 2] - x[a + 2];
      const vx = x[c] - x[a],
        vy = x[c + 1] - x[a + 1],
        vz = x[c + 2] - x[a + 2];
      let nx = uy * vz - uz * vy,
        ny = uz * vx - ux * vz,
        nz = ux * vy - uy * vx;
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (l > 1e-16) {
        nx /= l;
        ny /= l;
        nz /= l;
      }
      nn[3 * i] = nx;
      nn[3 * i + 1] = ny;
      nn[3 * i + 2] = nz;
    }
  }

  override computeBoundingTree(depth: number): void {
    this.updateFromTopology();
    super.computeBoundingTree(depth);
  }

  override computeContinuousBoundingTree(depth: number, type: ContinuousIntersectionType, dt: number): void {
    this.updateFromTopology();
    super.computeContinuousBoundingTree(depth, type, dt);
  }

  /**
   * Box of triangle i over the step: bounds of its three points at both ends, ± contactDistance;
   * the normals are refreshed (at the start positions) whatever computeNormals, as SOFA does here.
   */
  protected override computeSweptElementBoxes(boxes: Float64Array, end: Float64Array): void {
    const x = this.x;
    const d = this.getProximity();
    const t = this.triangles;
    for (let i = 0; i < this.size; i++) {
      const a = 3 * t[3 * i],
        b = 3 * t[3 * i + 1],
        c = 3 * t[3 * i + 2];
      for (let k = 0; k < 3; k++) {
        const lo = Math.min(x[a + k], x[b + k], x[c + k], end[a + k], end[b + k], end[c + k]);
        const hi = Math.max(x[a + k], x[b + k], x[c + k], end[a + k], end[b + k], end[c + k]);
        boxes[6 * i + k] = lo - d;
        boxes[6 * i + 3 + k] = hi + d;
      }
    }
    this.updateNormals();
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    const x = this.x;
    const d = this.getProximity();
    const t = this.triangles;
    for (let i = 0; i < this.size; i++) {
      const a = 3 * t[3 * i],
        b = 3 * t[3 * i + 1],
        c = 3 * t[3 * i + 2];
      for (let k = 0; k < 3; k++) {
        let lo = x[a + k],
          hi = lo;
        const p2 = x[b + k],
          p3 = x[c + k];
        if (p2 > hi) hi = p2;
        else if (p2 < lo) lo = p2;
        if (p3 > hi) hi = p3;
        else if (p3 < lo) lo = p3;
        boxes[6 * i + k] = lo - d;
        boxes[6 * i + 3 + k] = hi + d;
      }
    }
    if (this.computeNormals.value) this.updateNormals();
  }

  /** Self collision: a triangle and a point of it (through the node's point model) do not collide. */
  override canCollideWithElement(index: number, other: CollisionModel, index2: number): boolean {
    if (!this.selfCollision.value) return true;
    if (this.context !== other.context) return true;
    const points = this.context.objects.find((o) => isCollisionModel(o) && o.kind === 'point');
    if (other === points) {
      const t = this.triangles;
      if (index2 === t[3 * index] || index2 === t[3 * index + 1] || index2 === t[3 * index + 2]) return false;
    }
    return true;
  }
}
