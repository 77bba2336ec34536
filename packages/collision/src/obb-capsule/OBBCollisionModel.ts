import { positive, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { CollisionModel, type ElementKind } from '../model/CollisionModel.js';
import { BOX_SIZE, boxCorners, boxFromRigid } from './obb-geometry.js';

/**
 * SOFA's OBBCollisionModel (plugin CollisionOBBCapsule): one oriented box per frame of the node's
 * Rigid3d state, centred on the frame's origin, its axes the frame's axes, the points
 * c + Σ_k λ_k·a_k with |λ_k| ≤ e_k, e = extents[i] (defaultExtent on each axis for the frames the
 * list does not reach). A contact point on a box is fixed in its frame (SOFA's rigid contact
 * mapper): x = c + R·l. Box = bounds of the 8 corners ± contactDistance.
 */
@sofaComponent({
  name: 'OBBCollisionModel',
  aliases: ['OBB', 'OBBModel', 'TOBBModel'],
  category: 'CollisionModel',
  module: 'CollisionOBBCapsule',
  description: 'Collision model made of oriented bounding boxes on the frames of a rigid state.',
  templates: ['Rigid3d'],
  defaultTemplate: 'Rigid3d',
})
export class OBBCollisionModel extends CollisionModel {
  readonly extents = this.initData({
    name: 'extents',
    type: RealArray(3),
    default: new Float64Array(0),
    unit: 'm',
    help: 'Extents in x,y and z directions (half-sizes of each box along its axes)',
  });
  readonly defaultExtent = this.initData({
    name: 'defaultExtent',
    type: Real,
    default: 1,
    unit: 'm',
    range: positive,
    help: 'Default extent',
  });

  /** (size × 3) half-extents, from extents then defaultExtent; refreshed with the bounding tree. */
  ext = new Float64Array(0);
  private readonly scratchBox = new Float64Array(BOX_SIZE);
  private readonly corners = new Float64Array(24);

  get kind(): ElementKind {
    return 'obb';
  }

  get size(): number {
    return this.mstate?.size ?? 0;
  }

  override init(): void {
    super.init();
    const t = this.mstate!.stateType.name;
    if (t !== 'Rigid3d') throw this.error(`needs a Rigid3d mechanical state, got ${t}`);
    this.template = 'Rigid3d';
    const e = this.extents.value;
    for (let k = 0; k < e.length; k++)
      if (!(e[k] > 0))
        this.warnAbout(this.extents, `extent ${e[k]} of box ${Math.floor(k / 3)} is not positive: that box is flat or inverted`);
    this.refreshExtents();
  }

  /** ext = extents, completed with defaultExtent up to the number of frames. */
  private refreshExtents(): void {
    const n = this.size;
    if (this.ext.length !== 3 * n) this.ext = new Float64Array(3 * n);
    const e = this.extents.value,
      d = this.defaultExtent.value;
    for (let k = 0; k < 3 * n; k++) this.ext[k] = k < e.length ? e[k] : d;
  }

  /** Box i at the current positions into `box` (BOX_SIZE, see obb-geometry.ts). */
  getBox(box: Float64Array, i: number): void {
    boxFromRigid(box, this.x, 7 * i, this.ext, 3 * i);
  }

  /** The extents are read again at each detection (a scene or a controller may change them). */
  override computeBoundingTree(depth: number): void {
    this.refreshExtents();
    super.computeBoundingTree(depth);
  }

  protected computeElementBoxes(boxes: Float64Array): void {
    const d = this.getProximity();
    const b = this.scratchBox,
      v = this.corners;
    for (let i = 0, n = this.size; i < n; i++) {
      this.getBox(b, i);
      boxCorners(v, b);
      for (let c = 0; c < 3; c++) {
        let lo = Infinity,
          hi = -Infinity;
        for (let k = 0; k < 8; k++) ((lo = Math.min(lo, v[3 * k + c])), (hi = Math.max(hi, v[3 * k + c])));
        boxes[6 * i + c] = lo - d;
        boxes[6 * i + 3 + c] = hi + d;
      }
    }
  }
}
