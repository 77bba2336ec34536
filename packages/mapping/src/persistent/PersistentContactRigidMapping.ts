import {
  NAME_OF_INPUT_MAP,
  AnimateEndEvent,
  rotateByQuaternion,
  sofaComponent,
  type Node,
  type PersistentContactMapping,
  type SofaEvent,
} from '@sofa-ts/core';
import { RigidMapping } from '../RigidMapping.js';
import { ensureFree } from './PersistentContactBarycentricMapping.js';
import { persistentOutputChanged } from './persistent-output.js';

/**
 * SOFA's PersistentContactRigidMapping (plugin PersistentContact; Rigid3d → Vec3d): a RigidMapping
 * whose output holds the contact points of a PersistentFrictionContact, each fixed in a frame of
 * the input (the frame `index` of the RigidMapping named `nameOfInputMap`, found in the input's
 * node or below at bwdInit) by its local coordinates l:
 *   x_out = c + R·l,   J = [ I  −[R·l]× ]   (RigidMapping's)
 * A new contact point p gets l = Rᵀ·(p − c) at the frame's current position; a kept point takes
 * its l of the last step again, so it stays at the same material point of the body while its
 * contact sticks. The points are kept aside at the first beginAddContactPoint of a step.
 * Until the first contact the output's own points are mapped (SOFA's base init).
 * SOFA places the points of a step at φ(x_free) + J·dx of the last step's free motion and
 * correction (its linearised position); here at φ(x), the same to first order in dx.
 */
@sofaComponent({
  name: 'PersistentContactRigidMapping',
  category: 'Mapping',
  module: 'PersistentContact',
  description: 'Set the positions and velocities of points attached to a rigid parent',
  templates: ['Rigid3d,Vec3d'],
})
export class PersistentContactRigidMapping extends RigidMapping implements PersistentContactMapping {
  readonly isPersistentContactMapping = true as const;
  readonly nameOfInputMap = this.initData(NAME_OF_INPUT_MAP);

  /** The RigidMapping of the collision model (nameOfInputMap). */
  private inputMapping: RigidMapping | undefined;
  /** This step's points (local coordinates, 3 each) and the last step's. */
  private points = new Float64Array(24);
  private count = 0;
  private previous = new Float64Array(0);
  private begun = false;
  /** Whether the mapped points are this step's contact points (else the output's initial points). */
  private built = false;
  readonly checkpointFields: readonly string[] = ['points', 'count', 'previous', 'begun'];

  override init(): void {
    super.init();
    if (this.template !== 'Rigid3d,Vec3d')
      throw this.error(`sofa-ts's persistent contacts are three-dimensional: Rigid3d,Vec3d only (got ${this.template})`);
  }

  override bwdInit(): void {
    const wanted = this.nameOfInputMap.value;
    let found: RigidMapping | undefined;
    this.from.context.visit((n: Node) => {
      if (found) return false;
      for (const o of n.objects) {
        if (o instanceof RigidMapping && !(o instanceof PersistentContactRigidMapping) && o.getName() === wanted) {
          found = o;
          return false;
        }
      }
      return true;
    });
    this.inputMapping = found;
    if (!found)
      this.warnAbout(
        this.nameOfInputMap,
        `no RigidMapping named '${wanted}' in ${this.from.context.path} or below: new contact points go on frame ${this.index.value} (SOFA cannot find the input mapping either)`,
      );
  }

  /** The frame new points go on: the input mapping's (its index, counted from the end with indexFromEnd). */
  private contactFrame(): number {
    const m = this.inputMapping ?? this;
    return m.indexFromEnd.value ? this.from.size - 1 - m.index.value : m.index.value;
  }

  beginAddContactPoint(): void {
    if (this.begun) return;
    this.begun = true;
    this.previous = Float64Array.from(this.points.subarray(0, 3 * this.count));
    this.count = 0;
  }

  addContactPointFromInputMapping(px: number, py: number, pz: number): number {
    const x = this.from.x;
    const o = 7 * this.contactFrame();
    const i = this.grow();
    // l = Rᵀ·(p − c): rotation by the conjugate quaternion
    rotateByQuaternion(this.points, 3 * i, -x[o + 3], -x[o + 4], -x[o + 5], x[o + 6], px - x[o], py - x[o + 1], pz - x[o + 2]);
    return i;
  }

  keepContactPointFromInputMapping(index: number): number {
    if (index < 0 || 3 * index >= this.previous.length) {
      this.warn(
        `a kept contact point refers to point ${index}, which the last step did not have (SOFA reports a critical error and uses point 0)`,
      );
      return 0;
    }
    const i = this.grow();
    for (let k = 0; k < 3; k++) this.points[3 * i + k] = this.previous[3 * index + k];
    return i;
  }

  private grow(): number {
    const i = this.count++;
    if (this.points.length < 3 * this.count) {
      const p = new Float64Array(6 * this.count);
      p.set(this.points);
      this.points = p;
    }
    return i;
  }

  /** This step's points in their frame's coordinates (for tests and tools). */
  get contactPoints(): { count: number; frame: number; local: Float64Array } {
    return { count: this.count, frame: this.contactFrame(), local: this.points.subarray(0, 3 * this.count) };
  }

  applyPositionAndFreePosition(): void {
    const n = this.count;
    const to = this.getTo()!;
    const pts = this.points.subarray(0, 3 * n);
    const frame = this.contactFrame();
    const frames = this.pointFrames;
    const sameFrames = this.built && frames.length === n && frames.every((f) => f === frame);
    if (!sameFrames) {
      this.setPoints(Float64Array.from(pts), new Uint32Array(n).fill(frame));
      this.built = true;
      persistentOutputChanged(this, to, n);
    } else this.localPoints.set(pts);
    ensureFree(to, this.from);
    // x_free = φ(x_free of the frames), then x = φ(x) (J at x), v = J·v, v_free = J·v_free
    this.mapPositions(to.xFree, this.from.xFree, undefined);
    this.apply();
    this.applyJ(to.v, [this.from.v]);
    this.applyJ(to.vFree, [this.from.vFree]);
    to.touch();
  }

  override handleEvent(event: SofaEvent): void {
    if (event instanceof AnimateEndEvent) this.begun = false;
  }

  override reset(): void {
    this.count = 0;
    this.previous = new Float64Array(0);
    this.begun = false;
  }
}
