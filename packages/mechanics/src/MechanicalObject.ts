import {
  BaseMechanicalState,
  applyRemoval,
  contextMeshTopology,
  isTopology,
  type PointsAdded,
  type TopologyChange,
  type TopologyHandler,
  Bool,
  DataParseError,
  Int,
  Real,
  RealArray,
  Vec3,
  sofaComponent,
  stateTypeOf,
  tokens,
  UInt,
  countAtMost,
  MAX_POINTS,
  type BaseMeshTopology,
  type DataType,
  type StateType,
} from '@sofa-ts/core';
import { quatFromEulerAt, quatRotateAt } from '@sofa-ts/linalg';
import { quatMultiply } from './rotation.js';

/**
 * SOFA reads the old dx, dy, dz attributes with atof: the leading number of the text (old scenes
 * give a whole derivative vector there, "0 0 0 …", read as 0).
 */
const LeadingReal: DataType<number> = {
  name: 'double',
  parse: (t) => {
    const first = tokens(t)[0];
    return first === undefined ? 0 : Real.parse(first);
  },
  print: Real.print,
  clone: (v) => v,
};

const Coords: DataType<Float64Array> = RealArray(0, 'vector<Coord>');
const Derivs: DataType<Float64Array> = RealArray(0, 'vector<Deriv>');

/** A scale given as one number (uniform) or three (per axis). */
const Scale3: DataType<Float64Array> = {
  ...Vec3,
  parse(t: string) {
    const ts = tokens(t);
    if (ts.length === 1) {
      const s = Real.parse(ts[0]);
      return Float64Array.of(s, s, s);
    }
    if (ts.length !== 3) throw new DataParseError('1 or 3 numbers', `got ${ts.length}`);
    return Vec3.parse(t);
  },
};

/**
 * SOFA's MechanicalObject: the state vectors of a set of points or frames.
 *   position, rest_position:  (n × coordSize)   velocity, force, derivX:  (n × derivSize)
 * At init, as SOFA does: sizes are reconciled (a missing velocity is zero, the last given velocity
 * fills the remaining points, an empty position keeps `size` points at the origin), then scale,
 * rotation (Euler angles in degrees, about x then y then z) and translation are applied, the rest
 * position is taken from the position (times restScale) when not given, and rotation2 /
 * translation2 are applied to the position only.
 *
 * Topological changes (SOFA's handleStateChange): the state follows the points of its topology
 * (the `topology` link, else the node's topology as SOFA's context gives it) when that topology
 * removes or adds points with their degrees of freedom: a removed point's slot receives the last
 * point's values in every vector, an added point is interpolated from its ancestors (weights given,
 * else equal), or takes the neutral coordinate and zero derivatives. Changes of a topology whose
 * point count is not this state's size (a state mapped onto it barycentrically) are not followed.
 */
@sofaComponent({
  name: 'MechanicalObject',
  category: 'StateContainer',
  module: 'Sofa.Component.StateContainer',
  description: 'Mechanical state vectors (positions, velocities, forces) of points or rigid frames.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d', 'Rigid2d'],
  defaultTemplate: 'Vec3d',
})
export class MechanicalObject extends BaseMechanicalState implements TopologyHandler {
  readonly position = this.initData({
    name: 'position',
    type: Coords,
    default: new Float64Array(0),
    help: 'position coordinates of the degrees of freedom',
  });
  readonly velocity = this.initData({
    name: 'velocity',
    type: Derivs,
    default: new Float64Array(0),
    help: 'velocity coordinates of the degrees of freedom',
  });
  readonly force = this.initData({
    name: 'force',
    type: Derivs,
    default: new Float64Array(0),
    help: 'force vector of the degrees of freedom',
  });
  readonly externalForce = this.initData({
    name: 'externalForce',
    type: Derivs,
    default: new Float64Array(0),
    help: 'external forces on the degrees of freedom',
  });
  readonly derivX = this.initData({
    name: 'derivX',
    type: Derivs,
    default: new Float64Array(0),
    help: 'dx vector of the degrees of freedom',
  });
  readonly freePosition = this.initData({
    name: 'free_position',
    type: Coords,
    default: new Float64Array(0),
    help: 'free position coordinates of the degrees of freedom',
  });
  readonly freeVelocity = this.initData({
    name: 'free_velocity',
    type: Derivs,
    default: new Float64Array(0),
    help: 'free velocity coordinates of the degrees of freedom',
  });
  readonly restPosition = this.initData({
    name: 'rest_position',
    type: Coords,
    default: new Float64Array(0),
    help: 'rest position coordinates of the degrees of freedom',
  });
  readonly resetPosition = this.initData({
    name: 'reset_position',
    type: Coords,
    default: new Float64Array(0),
    help: 'reset position coordinates of the degrees of freedom',
  });
  readonly resetVelocity = this.initData({
    name: 'reset_velocity',
    type: Derivs,
    default: new Float64Array(0),
    help: 'reset velocity coordinates of the degrees of freedom',
  });
  readonly restScale = this.initData({
    name: 'restScale',
    type: Real,
    default: 1,
    help: 'optional scaling of rest position coordinates (to simulated pre-existing internal tension)',
  });
  readonly useTopology = this.initData({
    name: 'useTopology',
    type: Bool,
    default: true,
    help: 'shall this object rely on any active topology to initialize its size and positions',
  });
  readonly translation = this.initData({ name: 'translation', type: Vec3, default: new Float64Array(3), help: 'translation of the DOFs' });
  readonly rotation = this.initData({
    name: 'rotation',
    type: Vec3,
    default: new Float64Array(3),
    unit: 'deg',
    help: 'rotation of the DOFs (Euler angles in degrees, about x, then y, then z)',
  });
  readonly scale3d = this.initData({
    name: 'scale3d',
    type: Scale3,
    default: Float64Array.of(1, 1, 1),
    help: 'scale of the initial DOFs',
    aliases: ['scale'],
  });
  // Old SOFA attributes, still read by SOFA's MechanicalObject: each sets one component of translation, rotation or scale3d.
  readonly oldDx = this.initData({
    name: 'dx',
    type: LeadingReal,
    default: 0,
    help: 'translation along x (old attribute: sets translation[0])',
  });
  readonly oldDy = this.initData({
    name: 'dy',
    type: LeadingReal,
    default: 0,
    help: 'translation along y (old attribute: sets translation[1])',
  });
  readonly oldDz = this.initData({
    name: 'dz',
    type: LeadingReal,
    default: 0,
    help: 'translation along z (old attribute: sets translation[2])',
  });
  readonly oldRx = this.initData({
    name: 'rx',
    type: Real,
    default: 0,
    unit: 'deg',
    help: 'rotation about x (old attribute: sets rotation[0])',
  });
  readonly oldRy = this.initData({
    name: 'ry',
    type: Real,
    default: 0,
    unit: 'deg',
    help: 'rotation about y (old attribute: sets rotation[1])',
  });
  readonly oldRz = this.initData({
    name: 'rz',
    type: Real,
    default: 0,
    unit: 'deg',
    help: 'rotation about z (old attribute: sets rotation[2])',
  });
  readonly oldSx = this.initData({ name: 'sx', type: Real, default: 1, help: 'scale along x (old attribute: sets scale3d[0])' });
  readonly oldSy = this.initData({ name: 'sy', type: Real, default: 1, help: 'scale along y (old attribute: sets scale3d[1])' });
  readonly oldSz = this.initData({ name: 'sz', type: Real, default: 1, help: 'scale along z (old attribute: sets scale3d[2])' });
  readonly translation2 = this.initData({
    name: 'translation2',
    type: Vec3,
    default: new Float64Array(3),
    help: 'translation of the DOFs, applied after the rest position has been computed',
  });
  readonly rotation2 = this.initData({
    name: 'rotation2',
    type: Vec3,
    default: new Float64Array(3),
    unit: 'deg',
    help: 'rotation of the DOFs, applied after the rest position has been computed',
  });
  readonly sizeData = this.initData({ name: 'size', type: Int, default: 1, range: countAtMost(MAX_POINTS), help: 'size of the vectors' });
  readonly reserve = this.initData({
    name: 'reserve',
    type: Int,
    default: 0,
    range: countAtMost(MAX_POINTS),
    help: 'size to reserve when creating vectors (0 by default)',
  });
  readonly showObject = this.initData({ name: 'showObject', type: Bool, default: false, help: 'show objects', group: 'Visualization' });
  readonly showObjectScale = this.initData({
    name: 'showObjectScale',
    type: Real,
    default: 0.1,
    help: 'scale for object display',
    group: 'Visualization',
  });
  readonly showIndices = this.initData({ name: 'showIndices', type: Bool, default: false, help: 'show indices', group: 'Visualization' });
  readonly showIndicesScale = this.initData({
    name: 'showIndicesScale',
    type: Real,
    default: 0.02,
    help: 'scale for indices display',
    group: 'Visualization',
  });
  readonly showVectors = this.initData({ name: 'showVectors', type: Bool, default: false, help: 'show velocity', group: 'Visualization' });
  readonly showVectorsScale = this.initData({
    name: 'showVectorsScale',
    type: Real,
    default: 0.0001,
    help: 'scale for vectors display',
    group: 'Visualization',
  });
  readonly drawMode = this.initData({
    name: 'drawMode',
    type: UInt,
    default: 0,
    help: 'the way vectors will be drawn: 0 line, 1 cylinder, 2 arrow',
    group: 'Visualization',
  });
  readonly showColor = this.initData({
    name: 'showColor',
    type: RealArray(0, 'RGBAColor'),
    default: Float64Array.of(1, 1, 1, 1),
    help: 'color for object display (RGBA)',
    group: 'Visualization',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'the topology giving the initial positions when none is given (default: the one of this node, if useTopology)',
    accepts: isTopology,
    expected: 'a topology',
  });

  private _type: StateType | undefined;
  private _n = 0;
  private _x: Float64Array = new Float64Array(0);
  private _v: Float64Array = new Float64Array(0);
  private _f: Float64Array = new Float64Array(0);
  private _dx: Float64Array = new Float64Array(0);
  private _x0: Float64Array = new Float64Array(0);
  /** restPosition.counter when it last showed _x0 (−1 before init). */
  private x0Counter = -1;

  get stateType(): StateType {
    if (!this._type) {
      const t = stateTypeOf(this.template || 'Vec3d');
      if (!t) throw this.error(`template '${this.template}' is not a state template`);
      this._type = t;
    }
    return this._type;
  }

  get size(): number {
    return this._n;
  }
  get x(): Float64Array {
    return this._x;
  }
  get v(): Float64Array {
    return this._v;
  }
  get f(): Float64Array {
    return this._f;
  }
  get dx(): Float64Array {
    return this._dx;
  }
  /** Rest positions; a rest_position set through the API (or a linked Data that changed) is taken first. */
  get x0(): Float64Array {
    if (this.x0Counter >= 0 && this.restPosition.counter !== this.x0Counter) this.pullRestPosition();
    return this._x0;
  }

  /**
   * rest_position was set since init: its values are copied into the rest positions (read by rest
   * shape springs and mappings at every step), and the Data shows the state's array again.
   */
  private pullRestPosition(): void {
    const v = this.restPosition.value;
    if (v !== this._x0) {
      const cs = this.stateType.coordSize;
      if (v.length !== this._x0.length)
        throw this.error(`rest_position was set to ${v.length} numbers; the state has ${this._n} points of ${cs} coordinates`);
      this._x0.set(v);
      this.restPosition.value = this._x0;
    }
    this.x0Counter = this.restPosition.counter;
  }

  readonly topologyHandlerPriority = 'state' as const;

  override init(): void {
    this.initState();
    const followed = this.topology.get() ?? contextMeshTopology(this.context);
    followed?.addTopologyHandler(this);
  }

  private initState(): void {
    this.applyOldAttributes();
    const t = this.stateType;
    const cs = t.coordSize;
    const ds = t.derivSize;
    this.readWholeValues();
    const pos = this.position.value;
    const vel = this.velocity.value;
    const rest = this.restPosition.value;
    // SOFA: with at most one position and one velocity given, a topology of the node gives the points.
    const topo = this.topology.get() ?? (this.useTopology.value ? this.context.getObject(isTopology) : undefined);
    const topoPos = topo?.getPositions();
    if (topo && topoPos && topoPos.length > 0 && pos.length <= cs && vel.length <= ds) {
      const np = topoPos.length / 3;
      const x = new Float64Array(np * cs);
      for (let i = 0; i < np; i++) {
        t.setDefaultCoord(x, i);
        for (let k = 0; k < Math.min(3, t.spatialDimensions); k++) x[i * cs + k] = topoPos[3 * i + k];
      }
      return this.initFrom(x, vel.length > 0 ? vel : new Float64Array(0), rest);
    }
    if (topo && pos.length <= cs && vel.length <= ds && topo.getNbPoints() > Math.max(1, pos.length / cs)) {
      // SOFA's hasPos() is false: the state keeps its own points (e.g. a topological mapping cleared the positions of its output container)
      this.warn(
        `${topo.describe()} has ${topo.getNbPoints()} points but no positions, so this state keeps its ${Math.max(1, pos.length / cs)} point(s), as SOFA does; components using the topology's elements will reach points this state does not have`,
        'give the positions (e.g. position="@<grid or loader>.position" on this MechanicalObject)',
      );
    }
    this.initFrom(this.linkedPositionAsCoords(pos), vel, rest);
  }

  /**
   * A position linked to a list of points of another size (a rigid state's position="@grid.position"):
   * SOFA copies element by element, each point giving the centre of a frame of neutral orientation.
   */
  private linkedPositionAsCoords(pos: Float64Array): Float64Array {
    const t = this.stateType;
    const parent = this.position.parent;
    const m = /^vector<Vec([123])[df]>$/.exec(parent?.spec.type.name ?? '');
    const es = m ? Number(m[1]) : 0;
    if (es === 0 || es === t.coordSize) return pos;
    pos = parent!.value as Float64Array;
    const np = pos.length / es;
    const x = new Float64Array(np * t.coordSize);
    for (let i = 0; i < np; i++) {
      t.setDefaultCoord(x, i);
      for (let k = 0; k < Math.min(es, t.spatialDimensions); k++) x[i * t.coordSize + k] = pos[es * i + k];
    }
    return x;
  }

  private initFrom(pos: Float64Array, vel: Float64Array, rest: Float64Array): void {
    const t = this.stateType;
    const cs = t.coordSize;
    const ds = t.derivSize;
    let n = pos.length / cs;
    if (n === 0 && rest.length > 0) n = rest.length / cs;
    if (n === 0 && vel.length === 0 && !this.position.isSet) {
      if (this.sizeData.value < 0) throw this.error(`size is ${this.sizeData.value}, expected a number of points >= 0`);
      n = this.sizeData.value;
    }
    n = Math.max(n, vel.length / ds);
    this.resize(n);
    // Positions: given, else the rest position, else the neutral coordinate.
    const src = pos.length > 0 ? pos : rest;
    for (let i = 0; i < n; i++) {
      if (i * cs < src.length) for (let k = 0; k < cs; k++) this._x[i * cs + k] = src[i * cs + k];
      else t.setDefaultCoord(this._x, i);
    }
    // Velocities: given ones, the last given one repeated for the remaining points.
    const nv = vel.length / ds;
    for (let i = 0; i < n; i++) {
      const j = Math.min(i, nv - 1);
      for (let k = 0; k < ds; k++) this._v[i * ds + k] = j >= 0 ? vel[j * ds + k] : 0;
    }
    this.applyScale(this.scale3d.value);
    this.applyRotation(this.rotation.value);
    this.applyTranslation(this.translation.value);
    if (rest.length === this._x.length && this.restPosition.isSet) this._x0.set(rest);
    else {
      const rs = this.restScale.value;
      for (let i = 0; i < this._x.length; i++) this._x0[i] = this._x[i];
      if (rs !== 1) for (let i = 0; i < n; i++) for (let k = 0; k < t.spatialDimensions; k++) this._x0[i * cs + k] *= rs;
    }
    this.applyRotation(this.rotation2.value);
    this.applyTranslation(this.translation2.value);
    this.restPosition.value = this._x0;
    this.x0Counter = this.restPosition.counter;
    this.resetPosition.value = Float64Array.from(this._x);
    this.resetVelocity.value = Float64Array.from(this._v);
    this.sizeData.value = n;
  }

  /**
   * The vectors as SOFA reads them: whole coordinates (derivatives) only, a trailing incomplete one
   * is dropped (SOFA's stream stops there). Rigid3d orientations of non-unit norm are kept as
   * written, as SOFA's release build (the one its references come from) keeps them: every rotation
   * then uses SOFA's formula M(q) = (1 − |q|²)·I + |q|²·R(q/|q|), and the frame integration
   * (exponential map) keeps |q|. Reported beyond the rounding of 6 written digits
   * (| |q|² − 1 | > 1e-6). A zero quaternion, which would freeze the frame's orientation, becomes
   * the identity (reported).
   */
  private readWholeValues(): void {
    const t = this.stateType;
    const cs = t.coordSize;
    const ds = t.derivSize;
    const coords = [this.position, this.restPosition, this.resetPosition, this.freePosition];
    for (const [d, k] of [
      ...coords.map((c) => [c, cs] as const),
      ...[this.velocity, this.force, this.externalForce, this.freeVelocity].map((c) => [c, ds] as const),
    ]) {
      const len = d.value.length;
      if (len % k === 0) continue;
      const kept = len - (len % k);
      this.warn(
        `'${d.name}' has ${len} numbers, not a multiple of ${k} (template ${t.name}): the last ${len - kept} are ignored, as SOFA reads whole ${t.isRigid ? 'frames' : 'points'} only`,
      );
      d.value = d.value.slice(0, kept);
    }
    if (t.name !== 'Rigid3d') return;
    for (const d of coords) {
      const x = d.value;
      let kept = 0,
        zero = 0,
        worst = 1;
      for (let i = 0; i + 7 <= x.length; i += 7) {
        const n2 = x[i + 3] ** 2 + x[i + 4] ** 2 + x[i + 5] ** 2 + x[i + 6] ** 2;
        if (n2 === 0) {
          x[i + 6] = 1;
          zero++;
        } else if (Math.abs(n2 - 1) > 1e-6) {
          // beyond the rounding of a quaternion written with 6 digits
          kept++;
          if (Math.abs(n2 - 1) > Math.abs(worst - 1)) worst = n2;
        }
      }
      const s = (k: number): string => (k > 1 ? 's' : '');
      if (kept > 0)
        this.warn(
          `'${d.name}': ${kept} orientation quaternion${s(kept)} of non-unit norm (|q|² = ${worst.toPrecision(6)}${kept > 1 ? ' at worst' : ''}) kept as written, as SOFA's release build keeps them: rotations made from them are scaled by |q|² off the rotation (SOFA's formula); write unit quaternions for exact rotations`,
        );
      if (zero > 0)
        this.warn(
          `'${d.name}': ${zero} zero orientation quaternion${s(zero)} made the identity (a zero quaternion would keep the frame from turning)`,
        );
    }
  }

  /** dx dy dz rx ry rz sx sy sz, when given, override components of translation, rotation, scale3d. */
  private applyOldAttributes(): void {
    const set = (target: Float64Array, k: number, d: { isSet: boolean; value: number }): void => {
      if (d.isSet) target[k] = d.value;
    };
    const tr = Float64Array.from(this.translation.value);
    const rot = Float64Array.from(this.rotation.value);
    const sc = Float64Array.from(this.scale3d.value);
    [this.oldDx, this.oldDy, this.oldDz].forEach((d, k) => set(tr, k, d));
    [this.oldRx, this.oldRy, this.oldRz].forEach((d, k) => set(rot, k, d));
    [this.oldSx, this.oldSy, this.oldSz].forEach((d, k) => set(sc, k, d));
    if ([this.oldDx, this.oldDy, this.oldDz].some((d) => d.isSet)) this.translation.value = tr;
    if ([this.oldRx, this.oldRy, this.oldRz].some((d) => d.isSet)) this.rotation.value = rot;
    if ([this.oldSx, this.oldSy, this.oldSz].some((d) => d.isSet)) this.scale3d.value = sc;
  }

  handleTopologyChange(change: TopologyChange, topology: BaseMeshTopology): void {
    if (change.type === 'pointsRemoved') {
      // the event comes before the topology loses the points: its count is still this state's size
      if (change.dofs && topology.getNbPoints() === this._n) this.removePoints(change.indices);
    } else if (change.type === 'pointsAdded') {
      if (change.dofs && topology.getNbPoints() === this._n + change.indices.length) this.addPoints(change);
    }
  }

  /** SOFA's POINTSREMOVED state change: each removed slot (descending) receives the last point. */
  private removePoints(removed: Uint32Array): void {
    const t = this.stateType;
    const cs = t.coordSize;
    const ds = t.derivSize;
    const n = this._n;
    const remove = (a: Float64Array, k: number): void => {
      if (a.length === n * k) applyRemoval(a, k, n, removed);
    };
    for (const a of [this._x, this._x0, this.resetPosition.value, this.xFree]) remove(a, cs);
    for (const a of [this._v, this._f, this._dx, this.resetVelocity.value, this.vFree, this.externalStepForce, this.externalForce.value])
      remove(a, ds);
    const m = n - removed.length;
    this.resize(m);
    const shrink = (a: Float64Array, k: number): Float64Array => (a.length === n * k ? a.slice(0, m * k) : a);
    this.resetPosition.value = shrink(this.resetPosition.value, cs);
    this.resetVelocity.value = shrink(this.resetVelocity.value, ds);
    this.xFree = shrink(this.xFree, cs);
    this.vFree = shrink(this.vFree, ds);
    this.externalStepForce = shrink(this.externalStepForce, ds);
    if (this.externalForce.value.length === n * ds) this.externalForce.value = shrink(this.externalForce.value, ds);
    this.sizeData.value = m;
  }

  /** SOFA's POINTSADDED state change: new points interpolated from their ancestors. */
  private addPoints(change: PointsAdded): void {
    const t = this.stateType;
    const cs = t.coordSize;
    const ds = t.derivSize;
    const n0 = this._n;
    const k = change.indices.length;
    const grow = (a: Float64Array, size: number): Float64Array => {
      if (a.length !== n0 * size) return a;
      const b = new Float64Array((n0 + k) * size);
      b.set(a);
      return b;
    };
    this.resize(n0 + k);
    const resetX = grow(this.resetPosition.value, cs);
    const resetV = grow(this.resetVelocity.value, ds);
    for (let i = 0; i < k; i++) {
      const p = n0 + i;
      const anc = change.ancestors?.[i] ?? [];
      const given = change.coefs?.[i] ?? [];
      if (anc.length === 0) {
        for (const a of [this._x, this._x0, resetX]) if (a.length === (n0 + k) * cs) t.setDefaultCoord(a, p);
        continue;
      }
      // x_p = Σ w_j·x_{a_j} (equal weights when none are given), the same for every vector
      const w = anc.map((_, j) => (given.length === anc.length ? given[j] : 1 / anc.length));
      const blend = (a: Float64Array, size: number): void => {
        if (a.length !== (n0 + k) * size) return;
        for (let c = 0; c < size; c++) {
          let acc = 0;
          for (let j = 0; j < anc.length; j++) acc += w[j] * a[anc[j] * size + c];
          a[p * size + c] = acc;
        }
      };
      for (const a of [this._x, this._x0, resetX]) blend(a, cs);
      for (const a of [this._v, resetV]) blend(a, ds);
      if (t.isRigid) this.normalizeOrientation(p);
    }
    this.resetPosition.value = resetX;
    this.resetVelocity.value = resetV;
    this.sizeData.value = n0 + k;
  }

  /** A rigid frame blended from others: its quaternion made unit again. */
  private normalizeOrientation(p: number): void {
    const t = this.stateType;
    if (t.name !== 'Rigid3d') return;
    for (const a of [this._x, this._x0]) {
      const o = p * t.coordSize + 3;
      const norm = Math.hypot(a[o], a[o + 1], a[o + 2], a[o + 3]);
      if (norm > 0) for (let c = 0; c < 4; c++) a[o + c] /= norm;
      else a[o + 3] = 1;
    }
  }

  /** Resizes every vector to n points (contents kept up to the new size). */
  resize(n: number): void {
    const t = this.stateType;
    const grow = (a: Float64Array, len: number): Float64Array => {
      const b = new Float64Array(len);
      b.set(a.subarray(0, Math.min(a.length, len)));
      return b;
    };
    this._n = n;
    this._x = grow(this._x, n * t.coordSize);
    this._x0 = grow(this._x0, n * t.coordSize);
    this._v = grow(this._v, n * t.derivSize);
    this._f = grow(this._f, n * t.derivSize);
    this._dx = grow(this._dx, n * t.derivSize);
    this.publish();
    if (this.x0Counter >= 0) {
      this.restPosition.value = this._x0;
      this.x0Counter = this.restPosition.counter;
    }
  }

  bindStorage(storage: { x: Float64Array; v: Float64Array; f: Float64Array; dx: Float64Array }): void {
    storage.x.set(this._x);
    storage.v.set(this._v);
    storage.f.set(this._f);
    storage.dx.set(this._dx);
    this._x = storage.x;
    this._v = storage.v;
    this._f = storage.f;
    this._dx = storage.dx;
    this.publish();
  }

  /** The Data fields show the live arrays. */
  private publish(): void {
    this.position.value = this._x;
    this.velocity.value = this._v;
    this.force.value = this._f;
    this.derivX.value = this._dx;
  }

  touch(): void {
    this.position.touch();
    this.velocity.touch();
  }

  override reset(): void {
    this._x.set(this.resetPosition.value);
    this._v.set(this.resetVelocity.value);
    this._f.fill(0);
    this._dx.fill(0);
    this.touch();
  }

  private applyScale(s: Float64Array): void {
    if (s[0] === 1 && s[1] === 1 && s[2] === 1) return;
    const t = this.stateType;
    const d = t.spatialDimensions;
    for (let i = 0; i < this._n; i++) for (let k = 0; k < d; k++) this._x[i * t.coordSize + k] *= s[k];
  }

  private applyTranslation(tr: Float64Array): void {
    if (tr[0] === 0 && tr[1] === 0 && tr[2] === 0) return;
    const t = this.stateType;
    const d = t.spatialDimensions;
    for (let i = 0; i < this._n; i++) for (let k = 0; k < d; k++) this._x[i * t.coordSize + k] += tr[k];
  }

  /** Rotates positions (and orientations of rigid frames) by Euler angles in degrees. */
  private applyRotation(r: Float64Array): void {
    if (r[0] === 0 && r[1] === 0 && r[2] === 0) return;
    const t = this.stateType;
    const q = new Float64Array(4);
    quatFromEulerAt(q, 0, (r[0] * Math.PI) / 180, (r[1] * Math.PI) / 180, (r[2] * Math.PI) / 180);
    const cs = t.coordSize;
    if (t.spatialDimensions < 3) throw this.error(`rotation is only supported for 3D templates (got ${t.name})`);
    for (let i = 0; i < this._n; i++) {
      quatRotateAt(this._x, i * cs, q, 0, this._x, i * cs);
      if (t.name === 'Rigid3d') quatMultiply(this._x, i * cs + 3, q, this._x, i * cs + 3);
    }
  }
}
