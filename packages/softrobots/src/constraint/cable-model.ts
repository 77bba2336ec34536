import {
  contextMeshTopology,
  contextStateLink,
  isTopology,
  AnimateEndEvent,
  BaseLagrangianConstraint,
  Bool,
  Enum,
  Indices,
  Real,
  RealArray,
  Vec3,
  type BaseMeshTopology,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type SofaEvent,
} from '@sofa-ts/core';
import { cableArea, closestSurfacePoint, surfaceNeighbours, type CableArea } from './cable-action-area.js';
import { cableGradient, cableLength } from './cable-geometry.js';

/**
 * What every cable component of SoftRobots shares (its CableModel): a cable from `pullPoint`
 * through the points `indices` of a Vec3 state, one constraint row whose violation is the cable's
 * shortening δ = L₀ − L at the free positions and whose row is J = ∂δ/∂x there (see
 * cable-geometry.ts), and the measured length at the end of each step. The direct CableConstraint,
 * the inverse CableActuator, CableEquality and CableEffector add what they impose on that row.
 * With `method` sphere or geodesic each attachment pulls an area of a surface instead of its point
 * (cable-action-area.ts); attachments may then be given as `centers`, each taken at the surface
 * point closest to it, as SoftRobots does.
 */
export abstract class CableModel extends BaseLagrangianConstraint {
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'points of the state the cable passes through, in order from the pull point (a point may repeat)',
  });
  readonly pullPoint = this.initData({
    name: 'pullPoint',
    type: Vec3,
    default: new Float64Array(3),
    help: 'fixed point from which the cable is pulled',
  });
  readonly hasPullPoint = this.initData({
    name: 'hasPullPoint',
    type: Bool,
    default: true,
    help: 'true: the cable starts at pullPoint; false: it starts at the first of indices',
  });
  readonly cableInitialLength = this.initData({
    name: 'cableInitialLength',
    type: Real,
    default: 0,
    help: 'rest length L₀ of the cable (computed from the positions at init unless given)',
  });
  readonly cableLength = this.initData({
    name: 'cableLength',
    type: Real,
    default: 0,
    help: 'cable length L at the end of the last step',
    output: true,
  });

  readonly method = this.initData({
    name: 'method',
    type: Enum(['point', 'sphere', 'geodesic'] as const),
    default: 'point',
    help: "point: the cable pulls its points; sphere / geodesic: each attachment pulls the points of `surfaceTopology` closer to it than its radius (straight or along the surface's edges), weighted by radius − distance",
  });
  readonly centers = this.initData({
    name: 'centers',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    help: 'attachments given as positions (sphere and geodesic methods): each is the surface point closest to it; replaces indices',
  });
  readonly radii = this.initData({
    name: 'radii',
    type: RealArray(1, 'vector<double>'),
    default: new Float64Array(0),
    help: 'radius of each attachment’s pulled area (sphere and geodesic methods; one value: for all)',
  });
  readonly surfaceTopology = this.initLink<BaseMeshTopology>({
    name: 'surfaceTopology',
    help: 'the triangulated surface the pulled areas lie on (sphere and geodesic methods; default: the topology of the node)',
    accepts: isTopology,
    expected: 'a topology with triangles',
  });
  readonly drawPoints = this.initData({
    name: 'drawPoints',
    type: Bool,
    default: false,
    help: 'draw the cable points (drawing only: inert in a batch run)',
    group: 'Visualization',
  });
  readonly drawPulledAreas = this.initData({
    name: 'drawPulledAreas',
    type: Bool,
    default: false,
    help: 'draw the pulled areas (drawing only: inert in a batch run)',
    group: 'Visualization',
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Vec3 state the cable runs through (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d)',
    ),
  );

  protected states: BaseMechanicalState[] = [];
  /** First (only) row of the cable in the last problem. */
  protected row = 0;
  private grad = new Float64Array(0);
  private readonly entry = new Float64Array(3);
  /** Per attachment, its pulled area (sphere and geodesic methods; empty: the point method). */
  protected areas: CableArea[] = [];

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    this.states = [s];
    this.areas = [];
    const method = this.method.value;
    const surface = method === 'point' && this.centers.value.length === 0 ? undefined : this.surface();
    if (this.centers.value.length > 0) {
      if (this.indices.value.length > 0)
        this.warnAbout(this.centers, 'both centers and indices are given: centers are used, as in SoftRobots');
      const c = this.centers.value;
      const idx = new Uint32Array(c.length / 3);
      for (let k = 0; k < idx.length; k++) idx[k] = closestSurfacePoint(surface!.positions, c.subarray(3 * k, 3 * k + 3));
      this.indices.setValue(idx);
    }
    const idx = this.indices.value;
    if (idx.length === 0) throw this.error('indices is empty: give the points the cable runs through');
    for (const i of idx) if (i >= s.size) throw this.error(`index ${i} is out of range (${s.describe()} has ${s.size} points)`);
    if (!this.hasPullPoint.value && idx.length < 2) throw this.error('without a pull point the cable needs at least two indices');
    this.grad = new Float64Array(3 * idx.length);
    if (method === 'sphere' || method === 'geodesic') this.areas = this.pulledAreas(surface!, method, s);
    const L = cableLength(s.x, idx, this.pull());
    if (!this.cableInitialLength.isSet) this.cableInitialLength.setValue(L);
    this.cableLength.setValue(L);
  }

  /** The surface of the pulled areas (or of the centers): its points must be the state's. */
  private surface(): { positions: Float64Array; triangles: Uint32Array } {
    const topo = this.surfaceTopology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no surface topology: link one with surfaceTopology="@path" (sphere and geodesic methods, centers)');
    const positions = topo.getPositions();
    const triangles = topo.getTriangles();
    if (!positions || positions.length === 0) throw this.error(`the surface topology ${topo.describe()} has no points`);
    if (this.method.value !== 'point' && triangles.length === 0)
      throw this.error(`the surface topology ${topo.describe()} has no triangles`);
    const s = this.states[0];
    if (positions.length !== 3 * s.size)
      throw this.error(
        `the surface topology ${topo.describe()} has ${positions.length / 3} points, the cable's state ${s.describe()} ${s.size}: the areas are indices of the state`,
      );
    return { positions, triangles };
  }

  private pulledAreas(
    surface: { positions: Float64Array; triangles: Uint32Array },
    method: 'sphere' | 'geodesic',
    s: BaseMechanicalState,
  ): CableArea[] {
    const idx = this.indices.value;
    let radii = this.radii.value;
    if (radii.length === 0) {
      this.warnAbout(this.radii, 'no radius given: 1 is used for every attachment (SoftRobots’ default)');
      radii = Float64Array.of(1);
    } else if (radii.length !== idx.length && radii.length !== 1)
      this.warnAbout(this.radii, `${radii.length} radii for ${idx.length} attachments: the first radius is used for all, as in SoftRobots`);
    const uniform = radii.length !== idx.length;
    const c = this.centers.value;
    const neighbours = surfaceNeighbours(surface);
    const areas: CableArea[] = [];
    for (let k = 0; k < idx.length; k++) {
      const r = uniform ? radii[0] : radii[k];
      const at = s.x.subarray(3 * idx[k], 3 * idx[k] + 3);
      const area = cableArea(surface, method, idx[k], at, r, c.length > 0 ? c.subarray(3 * k, 3 * k + 3) : undefined, neighbours);
      if (area.points.length === 0) throw this.warnAbout(this.radii, `attachment ${k}: no surface point lies within its radius ${r}`);
      areas.push(area);
    }
    return areas;
  }

  protected pull(): Float64Array | undefined {
    return this.hasPullPoint.value ? this.pullPoint.value : undefined;
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  /** Sign of the row: +1 for the shortening δ = L₀ − L, −1 for the length L (CableEffector). */
  protected get rowSign(): number {
    return 1;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0];
    const idx = this.indices.value;
    if (this.grad.length !== 3 * idx.length) this.grad = new Float64Array(3 * idx.length);
    this.row = firstRow;
    // at the free positions, where SOFA's FreeMotionAnimationLoop builds the constraint rows
    cableGradient(this.grad, s.xFree, idx, this.pull());
    const g = this.grad,
      e = this.entry,
      sign = this.rowSign;
    const areas = this.areas;
    for (let k = 0; k < idx.length; k++) {
      if (areas.length === 0) {
        e[0] = sign * g[3 * k];
        e[1] = sign * g[3 * k + 1];
        e[2] = sign * g[3 * k + 2];
        J.add(s, firstRow, idx[k], e);
        continue;
      }
      // the attachment's row shared over its pulled area
      const a = areas[k];
      for (let j = 0; j < a.points.length; j++) {
        const w = sign * a.weights[j];
        e[0] = w * g[3 * k];
        e[1] = w * g[3 * k + 1];
        e[2] = w * g[3 * k + 2];
        J.add(s, firstRow, a.points[j], e);
      }
    }
    return 1;
  }

  /** The cable's shortening L₀ − L at the free positions. */
  protected freeShortening(order: ConstraintOrder): number {
    if (order === 'vel')
      throw this.error('velocity constraints (solveVelocityConstraintFirst) are not supported by the cable: pose the problem on positions');
    return this.cableInitialLength.value - cableLength(this.states[0].xFree, this.indices.value, this.pull());
  }

  getConstraintViolation(out: Float64Array, order: ConstraintOrder): void {
    out[this.row] = this.freeShortening(order);
  }

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || this.states.length === 0) return;
    this.cableLength.setValue(cableLength(this.states[0].x, this.indices.value, this.pull()));
  }
}
