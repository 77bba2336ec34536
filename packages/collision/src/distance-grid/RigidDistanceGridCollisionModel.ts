import { Bool, Int, Real, RealArray, sofaComponent, Str } from '@sofa-ts/core';
import { CollisionModel, type ElementKind } from '../model/CollisionModel.js';
import type { DistanceGrid } from './distance-grid.js';
import { loadDistanceGrid } from './load-distance-grid.js';

/**
 * SOFA's RigidDistanceGridCollisionModel (plugin SofaDistanceGrid): one element, the distance grid
 * of an OBJ mesh (see distance-grid.ts) carried by frame 0 of the node's Rigid3d state: a point p
 * of the world is at l = Rᵀ·(p − c) in the grid (c, R the frame's centre and rotation). Its box is
 * the box of the 8 transformed corners of the object's box (of the grid's box when flipNormals),
 * not enlarged by contactDistance, as in SOFA. A contact point is fixed in the frame at the grid
 * coordinates the detection gives (SOFA's rigid contact mapper).
 */
@sofaComponent({
  name: 'RigidDistanceGridCollisionModel',
  aliases: ['RigidDistanceGrid'],
  category: 'CollisionModel',
  module: 'SofaDistanceGrid',
  description: 'Grid-based distance field on a rigid frame.',
  templates: ['Rigid3d'],
  defaultTemplate: 'Rigid3d',
})
export class RigidDistanceGridCollisionModel extends CollisionModel {
  readonly filename = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    aliases: ['fileRigidDistanceGrid'],
    help: 'OBJ mesh the distance grid is built from',
  });
  readonly scale = this.initData({ name: 'scale', type: Real, default: 1, help: 'scaling factor for input file' });
  readonly translation = this.initData({
    name: 'translation',
    type: RealArray(3),
    default: new Float64Array(3),
    help: 'translation to apply to input file (sofa-ts: only 0)',
  });
  readonly rotation = this.initData({
    name: 'rotation',
    type: RealArray(3),
    default: new Float64Array(3),
    help: 'rotation to apply to input file (sofa-ts: only 0)',
  });
  readonly sampling = this.initData({
    name: 'sampling',
    type: Real,
    default: 0,
    help: 'if not zero: sample the surface with points approximately separated by the given sampling distance (sofa-ts: only 0, the mesh vertices)',
  });
  readonly box = this.initData({
    name: 'box',
    type: RealArray(6),
    default: new Float64Array(6),
    help: "Field bounding box defined by xmin,ymin,zmin, xmax,ymax,zmax (as in SOFA, used only when xmin > xmax, to enlarge the mesh's box)",
  });
  readonly nx = this.initData({ name: 'nx', type: Int, default: 64, help: 'number of values on X axis' });
  readonly ny = this.initData({ name: 'ny', type: Int, default: 64, help: 'number of values on Y axis' });
  readonly nz = this.initData({ name: 'nz', type: Int, default: 64, help: 'number of values on Z axis' });
  readonly usePoints = this.initData({
    name: 'usePoints',
    type: Bool,
    default: true,
    help: 'use mesh vertices for collision detection (against another distance grid)',
  });
  readonly flipNormals = this.initData({
    name: 'flipNormals',
    type: Bool,
    default: false,
    help: 'reverse surface direction, i.e. points are considered in collision if they move outside of the object instead of inside',
  });
  readonly showMeshPoints = this.initData({
    name: 'showMeshPoints',
    type: Bool,
    default: true,
    help: 'Enable rendering of mesh points (not drawn by sofa-ts)',
    group: 'Visualization',
  });
  readonly showGridPoints = this.initData({
    name: 'showGridPoints',
    type: Bool,
    default: false,
    help: 'Enable rendering of grid points (not drawn by sofa-ts)',
    group: 'Visualization',
  });

  grid: DistanceGrid | undefined;
  private readonly corner = new Float64Array(3);

  get kind(): ElementKind {
    return 'rigiddistancegrid';
  }

  get size(): number {
    return this.grid ? 1 : 0;
  }

  override init(): void {
    super.init();
    const t = this.mstate!.stateType.name;
    if (t !== 'Rigid3d') throw this.error(`needs a Rigid3d mechanical state, got ${t}`);
    this.template = 'Rigid3d';
    if (this.translation.value.some((v) => v !== 0) || this.rotation.value.some((v) => v !== 0))
      throw this.error(
        'translation and rotation of the grid in its frame are not supported by sofa-ts',
        'move the mesh or the frame instead',
      );
    if (this.sampling.value !== 0)
      throw this.error('surface sampling is not supported by sofa-ts', 'leave sampling at 0: the mesh vertices are the collision points');
    const name = this.filename.value.trim();
    if (name === '') throw this.error('an input filename is required', "give the OBJ mesh of the object in 'filename'");
    const b = this.box.value;
    this.grid = loadDistanceGrid(
      this,
      name,
      this.scale.value,
      [this.nx.value, this.ny.value, this.nz.value],
      [b.subarray(0, 3), b.subarray(3, 6)],
    );
    if (this.mstate!.size < 1) throw this.error('the Rigid3d state has no frame');
  }

  /** Grid coordinates l = Rᵀ·(p − c) of world point p (offset po) into out, by frame 0. */
  toGrid(p: ArrayLike<number>, po: number, out: Float64Array): void {
    const x = this.x;
    rotate(out, x[3], x[4], x[5], x[6], p[po] - x[0], p[po + 1] - x[1], p[po + 2] - x[2], true);
  }

  /** World direction R·g of grid direction g, in place. */
  toWorldDirection(g: Float64Array): void {
    const x = this.x;
    rotate(g, x[3], x[4], x[5], x[6], g[0], g[1], g[2], false);
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    const g = this.grid!;
    const x = this.x;
    const v = this.corner;
    const flipped = this.flipNormals.value;
    for (let j = 0; j < 8; j++) {
      if (flipped) for (let c = 0; c < 3; c++) v[c] = j & (1 << c) ? g.pmax[c] : g.pmin[c];
      else g.bboxCorner(j, v);
      rotate(v, x[3], x[4], x[5], x[6], v[0], v[1], v[2], false);
      for (let c = 0; c < 3; c++) {
        const w = x[c] + v[c];
        if (j === 0) boxes[c] = boxes[3 + c] = w;
        else if (w < boxes[c]) boxes[c] = w;
        else if (w > boxes[3 + c]) boxes[3 + c] = w;
      }
    }
  }
}

/** out = R(q)·v (or R(q)ᵀ·v when `inverse`), q = (qx, qy, qz, qw) a unit quaternion. */
function rotate(
  out: Float64Array,
  qx: number,
  qy: number,
  qz: number,
  qw: number,
  vx: number,
  vy: number,
  vz: number,
  inverse: boolean,
): void {
  if (inverse) ((qx = -qx), (qy = -qy), (qz = -qz));
  // v' = v + 2w(q×v) + 2q×(q×v)
  const tx = 2 * (qy * vz - qz * vy),
    ty = 2 * (qz * vx - qx * vz),
    tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + (qy * tz - qz * ty);
  out[1] = vy + qw * ty + (qz * tx - qx * tz);
  out[2] = vz + qw * tz + (qx * ty - qy * tx);
}
