import {
  contextMechanicalState,
  BaseObject,
  Bool,
  Real,
  Str,
  UInt,
  contextMeshTopology,
  isTopology,
  inClosed,
  nonNegative,
  type BaseMechanicalState,
  type BaseMeshTopology,
  type CheckpointReader,
  type CheckpointRecord,
} from '@sofa-ts/core';
import { CubeTree } from './cube-tree.js';
import { IntSet } from './data-types.js';

/**
 * What the bounding boxes of a continuous detection sweep (SOFA's ContinuousIntersectionTypeFlag):
 * 'inertia' the motion x → x + dt·v, 'freemotion' the motion x → x_free (the free motion of a
 * FreeMotionAnimationLoop); 'none' is the discrete detection.
 */
export type ContinuousIntersectionType = 'none' | 'inertia' | 'freemotion';

/** The primitive a collision model is made of; intersection methods are chosen per pair of kinds. */
export type ElementKind =
  | 'cube'
  | 'sphere'
  | 'rigidsphere'
  | 'point'
  | 'line'
  | 'triangle'
  | 'tetrahedron'
  | 'capsule'
  | 'obb'
  | 'rigiddistancegrid'
  | 'ffddistancegrid';

/**
 * A collision model (SOFA core::CollisionModel): a set of elements (points, segments, triangles,
 * spheres) on the mechanical state of its node (mapped states included), with the Data every
 * collision model has and its bounding-volume hierarchy (CubeTree).
 *
 * contactDistance (old name: proximity) is the model's "skin": elements collide that far from their
 * geometric surface; it enlarges the boxes and the alarm and contact distances of every test.
 * Two models of the same node collide only when selfCollision is on; two models sharing a group
 * never collide.
 */
export abstract class CollisionModel extends BaseObject {
  readonly isCollisionModel = true;

  readonly active = this.initData({
    name: 'active',
    type: Bool,
    default: true,
    help: 'flag indicating if this collision model is active and should be included in default collision detections',
  });
  readonly moving = this.initData({
    name: 'moving',
    type: Bool,
    default: true,
    help: 'flag indicating if this object is changing position between iterations (a model that does not move keeps its first bounding boxes)',
  });
  readonly simulated = this.initData({
    name: 'simulated',
    type: Bool,
    default: true,
    help: 'flag indicating if this object is controlled by a simulation (two models that are not both skip their tests; a contact with a model that is not simulated acts on the other one only)',
  });
  readonly selfCollision = this.initData({
    name: 'selfCollision',
    type: Bool,
    default: false,
    help: 'flag indication if the object can self collide (also needed for two models of the same node to collide)',
  });
  readonly contactDistance = this.initData({
    name: 'contactDistance',
    type: Real,
    default: 0,
    unit: 'm',
    aliases: ['proximity'],
    help: 'distance added along the normal of the collision elements ("skinning"): contacts arise at this distance of the elements',
  });
  readonly contactStiffness = this.initData({
    name: 'contactStiffness',
    type: Real,
    default: 10,
    help: "contact stiffness (a penalty contact uses the product of both models' stiffnesses divided by the contact distance)",
  });
  readonly contactFriction = this.initData({
    name: 'contactFriction',
    type: Real,
    default: 0,
    range: nonNegative,
    help: "contact friction coefficient (not used by sofa-ts's contact responses: FrictionContactConstraint takes mu from responseParams; a warning says so when set)",
  });
  readonly contactRestitution = this.initData({
    name: 'contactRestitution',
    type: Real,
    default: 0,
    range: inClosed(0, 1),
    help: "contact coefficient of restitution (not used by sofa-ts's contact responses; a warning says so when set)",
  });
  readonly contactResponse = this.initData({
    name: 'contactResponse',
    type: Str,
    default: '',
    help: 'if set, the class of contact response the contact manager should use for this model (indicative)',
  });
  readonly color = this.initData({
    name: 'color',
    type: Str,
    default: '1 0 0 1',
    help: 'color used to display the collision model if requested',
    group: 'Visualization',
  });
  readonly group = this.initData({
    name: 'group',
    type: IntSet,
    default: new Int32Array(0),
    help: 'IDs of the groups containing this model; no collision can occur between collision models included in a common group',
  });
  readonly numberOfContacts = this.initData({
    name: 'numberOfContacts',
    type: UInt,
    default: 0,
    output: true,
    help: 'number of collision models this collision model is currently attached to',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the topology of the context)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  /** The bounding hierarchy, refreshed by computeBoundingTree. */
  readonly tree = new CubeTree();
  /** (size × 6) element boxes at the last computeBoundingTree, by element. */
  protected boxes = new Float64Array(0);
  protected mstate: BaseMechanicalState | undefined;

  abstract get kind(): ElementKind;

  /** Number of elements. */
  abstract get size(): number;

  /** Checkpoint: the element boxes and the bounding hierarchy (its order is the first build's). */
  checkpointState(): CheckpointRecord {
    return { boxes: this.boxes, tree: this.tree.checkpointState() };
  }

  restoreState(saved: CheckpointReader): void {
    this.boxes = saved.restoreArray('boxes', this.boxes);
    this.tree.restoreState(saved.sub('tree'));
  }

  /** Writes the box of every element at the current positions, enlarged by contactDistance. */
  protected abstract computeElementBoxes(boxes: Float64Array): void;

  /**
   * Writes the box of every element over its motion during the step (the box of its points at both
   * ends, enlarged by contactDistance), the ends given by `end` (see endPositions). Models without
   * swept boxes keep their discrete boxes, as SOFA's default computeContinuousBoundingTree does.
   */
  protected computeSweptElementBoxes(boxes: Float64Array, _end: Float64Array): void {
    this.computeElementBoxes(boxes);
  }

  override init(): void {
    // SOFA's penalty and Compliant contacts read these; sofa-ts's responses do not.
    if (this.contactFriction.value !== 0)
      this.warnAbout(
        this.contactFriction,
        `contactFriction=${this.contactFriction.value} is not used: the contact responses of sofa-ts take no friction from the models (FrictionContactConstraint reads mu from the CollisionResponse's responseParams)`,
      );
    if (this.contactRestitution.value !== 0)
      this.warnAbout(
        this.contactRestitution,
        `contactRestitution=${this.contactRestitution.value} is not used: the contact responses of sofa-ts have no restitution`,
      );
    // SOFA's CollisionModel init: the state of the context (this node, else the nearest ancestor with one)
    const s = contextMechanicalState(this.context);
    if (!s)
      throw this.error(
        'no mechanical state in this node or its ancestors',
        'collision models act on the MechanicalObject of their node (or of the nearest ancestor that has one)',
      );
    this.mstate = s;
  }

  /** The topology the elements come from: the `topology` link, else the context's topology. */
  protected resolveTopology(): BaseMeshTopology | undefined {
    return this.topology.get() ?? contextMeshTopology(this.context);
  }

  getMechanicalState(): BaseMechanicalState {
    if (!this.mstate) throw this.error('used before init');
    return this.mstate;
  }

  /** Positions of the state (coordSize scalars per point). */
  get x(): Float64Array {
    return this.mstate!.x;
  }

  /**
   * Positions at the end of the step: the free positions when the state has them (SOFA's pFree(),
   * filled by a FreeMotionAnimationLoop), else the positions themselves.
   */
  get xFree(): Float64Array {
    const s = this.mstate!;
    return s.xFree.length === s.x.length ? s.xFree : s.x;
  }

  private sweptEnd = new Float64Array(0);

  /** The end of the motion the swept boxes cover: x_free, or x + dt·v for 'inertia' (Vec3 states). */
  protected endPositions(type: ContinuousIntersectionType, dt: number): Float64Array {
    if (type !== 'inertia') return this.xFree;
    const x = this.x,
      v = this.mstate!.v;
    if (v.length !== x.length) return x;
    if (this.sweptEnd.length !== x.length) this.sweptEnd = new Float64Array(x.length);
    const e = this.sweptEnd;
    for (let i = 0; i < x.length; i++) e[i] = x[i] + dt * v[i];
    return e;
  }

  getProximity(): number {
    return this.contactDistance.value;
  }

  get isActive(): boolean {
    return this.active.value && this.componentState !== 'invalid';
  }

  get isSimulated(): boolean {
    return this.simulated.value;
  }

  /**
   * SOFA's computeBoundingTree: element boxes, then the hierarchy of `depth` levels below the root
   * (built at the first call, refitted afterwards). A model that does not move keeps its boxes.
   */
  computeBoundingTree(depth: number): void {
    this.buildBoundingTree(depth, undefined);
  }

  /**
   * SOFA's computeContinuousBoundingTree: as computeBoundingTree, with each element's box covering
   * its motion over the step (see ContinuousIntersectionType).
   */
  computeContinuousBoundingTree(depth: number, type: ContinuousIntersectionType, dt: number): void {
    if (type === 'none') this.computeBoundingTree(depth);
    else this.buildBoundingTree(depth, this.endPositions(type, dt));
  }

  /** Element boxes (swept to `end` when given), then the hierarchy. */
  private buildBoundingTree(depth: number, end: Float64Array | undefined): void {
    const n = this.size;
    if (this.tree.nLeaves !== n || this.boxes.length !== 6 * n) {
      this.tree.reset(n);
      this.boxes = new Float64Array(6 * n);
    } else if (!this.moving.value && this.tree.built) {
      return;
    }
    if (n === 0) return;
    if (end) this.computeSweptElementBoxes(this.boxes, end);
    else this.computeElementBoxes(this.boxes);
    this.checkFiniteBoxes();
    this.tree.setElementBoxes(this.boxes);
    this.tree.compute(depth);
  }

  /**
   * Refuses non-finite geometry: with a NaN or infinite position every distance test is NaN, which
   * no alarm distance rejects, and every pair of elements would become a contact.
   */
  private checkFiniteBoxes(): void {
    const b = this.boxes;
    for (let k = 0; k < b.length; k++) {
      if (Number.isFinite(b[k])) continue;
      const s = this.getMechanicalState();
      throw this.error(
        `element ${Math.floor(k / 6)} has a non-finite position (${b[k]}) at time ${this.context.getTime()}: collision detection needs finite positions of ${s.describe()}`,
        'the simulation diverged, or a position, a mapping or a transform of the scene is not finite',
      );
    }
  }

  /** Whether its bounding tree was built, for the current number of elements. */
  get hasBoundingTree(): boolean {
    return this.tree.built && this.tree.nLeaves === this.size;
  }

  /** Box of the whole model (the root cube) after computeBoundingTree: (min xyz, max xyz). */
  rootBox(): Float64Array {
    return this.tree.levels[0].box;
  }

  /**
   * SOFA's CollisionModel::canCollideWith: models of the same node collide only with selfCollision;
   * models without groups always collide; models sharing a group never do.
   */
  canCollideWith(other: CollisionModel): boolean {
    if (other.context === this.context) return this.selfCollision.value;
    const a = this.group.value;
    const b = other.group.value;
    if (a.length === 0 || b.length === 0) return true;
    let i = 0,
      j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] < b[j]) i++;
      else if (a[i] > b[j]) j++;
      else return false;
    }
    return true;
  }

  /** Element-level filter for models of the same node (self collision): true unless a model says otherwise. */
  canCollideWithElement(_index: number, _other: CollisionModel, _index2: number): boolean {
    return true;
  }

  override reset(): void {
    this.numberOfContacts.value = 0;
  }
}

export function isCollisionModel(o: unknown): o is CollisionModel {
  return typeof o === 'object' && o !== null && (o as { isCollisionModel?: unknown }).isCollisionModel === true;
}
