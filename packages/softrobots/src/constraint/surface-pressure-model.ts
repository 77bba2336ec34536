import {
  contextStateLink,
  AnimateEndEvent,
  BaseLagrangianConstraint,
  Bool,
  IndexArray,
  Real,
  contextMeshTopology,
  type BaseMechanicalState,
  type ConstraintJacobianBuilder,
  type ConstraintOrder,
  type SofaEvent,
} from '@sofa-ts/core';
import { addCavityVolumeGradient, cavityMaxIndex, cavityPoints, cavitySignedVolume } from './surface-pressure-geometry.js';

/**
 * What every cavity component of SoftRobots shares (its SurfacePressureModel): a cavity closed by
 * `triangles` and `quads` of a Vec3 state (by default the faces of the context topology), its
 * volume V (see surface-pressure-geometry.ts), and one constraint row measured at the free
 * positions:
 *
 *   J = s·∂V/∂x   (s = −1 with flipNormal, else 1),   so that λ·J is the nodal load of the pressure λ
 *   and J = ∂|V|/∂x when the faces point out of the cavity (or into it with flipNormal).
 *
 * λ of that row is SOFA's impulse (pressure·dt): J has the unit of an area, λ·J that of a force
 * times dt. The initial volume V₀ is measured at init and again at bwdInit (after the mappings of a
 * mapped cavity state are initialised, as SoftRobots does); `cavityVolume` is measured on the
 * positions at the end of each step. The actuator (SurfacePressureActuator), the equality
 * (SurfacePressureEquality) and the effector (VolumeEffector) say what they impose on the row;
 * its violation is one of |V(x_free)| − V₀ (volume growth) or |V(x_free)| − goal.
 */
export abstract class SurfacePressureModel extends BaseLagrangianConstraint {
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'triangles of the cavity surface (with quads empty too: the faces of the context topology)',
  });
  readonly quads = this.initData({
    name: 'quads',
    type: IndexArray(4, 'vector<Quad>'),
    default: new Uint32Array(0),
    help: 'quads of the cavity surface (with triangles empty too: the faces of the context topology)',
  });
  readonly flipNormal = this.initData({
    name: 'flipNormal',
    type: Bool,
    default: false,
    help: 'the faces point into the cavity (a positive pressure would deflate it otherwise)',
  });
  readonly drawPressure = this.initData({
    name: 'drawPressure',
    type: Bool,
    default: false,
    help: 'draw the value of the pressure',
    group: 'Visualization',
    aliases: ['visualization'],
  });
  readonly drawScale = this.initData({
    name: 'drawScale',
    type: Real,
    default: 0.1,
    help: 'scale of the drawing',
    group: 'Visualization',
    aliases: ['showVisuScale'],
  });

  readonly initialCavityVolume = this.initData({
    name: 'initialCavityVolume',
    type: Real,
    default: 0,
    help: 'cavity volume V₀ at init',
    output: true,
  });
  readonly cavityVolume = this.initData({
    name: 'cavityVolume',
    type: Real,
    default: 1,
    help: 'cavity volume |V| at the end of the last step',
    output: true,
  });

  readonly mstate = this.initLink<BaseMechanicalState>(
    contextStateLink(
      'the Vec3 state of the cavity surface (default: the one of its node, else of the nearest ancestor that has one)',
      'a MechanicalObject (Vec3d)',
    ),
  );

  protected states: BaseMechanicalState[] = [];
  /** First (only) row of the cavity in the last problem. */
  protected row = 0;
  /** The points of the faces (increasing), and ∂V/∂x on the state's points (3 per point, only those entries used). */
  private points: Uint32Array = new Uint32Array(0);
  private grad = new Float64Array(0);
  private readonly entry = new Float64Array(3);

  override init(): void {
    const s = this.mstate.require();
    if (s.stateType.name !== 'Vec3d') throw this.error(`a Vec3d state is needed (got ${s.stateType.name})`);
    this.template = 'Vec3d';
    this.states = [s];
    if (this.triangles.value.length === 0 && this.quads.value.length === 0) {
      const topo = contextMeshTopology(this.context);
      if (!topo) throw this.error('no faces: give triangles and/or quads, or put a topology with the cavity surface in this node or above');
      this.triangles.setValue(topo.getTriangles().slice());
      this.quads.setValue(topo.getQuads().slice());
      if (this.triangles.value.length === 0 && this.quads.value.length === 0)
        throw this.error(`the topology ${topo.describe()} has no triangles nor quads: give the cavity surface (triangles, quads)`);
    }
    const m = cavityMaxIndex(this.triangles.value, this.quads.value);
    if (m >= s.size) throw this.error(`the faces use point ${m}, out of range (${s.describe()} has ${s.size} points)`);
    this.prepare();
    this.measureInitialVolume();
  }

  /** SoftRobots measures V₀ again after the mappings are initialised (a mapped cavity state). */
  override bwdInit(): void {
    if (this.states.length > 0) this.measureInitialVolume();
  }

  override reset(): void {
    if (this.states.length > 0) this.cavityVolume.setValue(this.initialCavityVolume.value);
  }

  private prepare(): void {
    this.points = cavityPoints(this.triangles.value, this.quads.value);
    this.grad = new Float64Array(3 * this.states[0].size);
  }

  private measureInitialVolume(): void {
    const V = this.volumeOf(this.states[0].x);
    this.initialCavityVolume.setValue(V);
    this.cavityVolume.setValue(V);
  }

  /** |V| of the cavity for the positions x of its state. */
  volumeOf(x: ArrayLike<number>): number {
    return Math.abs(cavitySignedVolume(x, this.triangles.value, this.quads.value));
  }

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  buildConstraintMatrix(J: ConstraintJacobianBuilder, firstRow: number): number {
    const s = this.states[0];
    if (this.grad.length !== 3 * s.size) this.prepare();
    this.row = firstRow;
    const g = this.grad,
      pts = this.points,
      e = this.entry;
    for (let k = 0; k < pts.length; k++) g.fill(0, 3 * pts[k], 3 * pts[k] + 3);
    // J = s·∂V/∂x at the free positions
    addCavityVolumeGradient(g, s.xFree, this.triangles.value, this.quads.value, this.flipNormal.value ? -1 : 1);
    for (let k = 0; k < pts.length; k++) {
      const p = pts[k];
      e[0] = g[3 * p];
      e[1] = g[3 * p + 1];
      e[2] = g[3 * p + 2];
      J.add(s, firstRow, p, e);
    }
    return 1;
  }

  /** |V| at the free positions (the cavity's rows are posed on positions). */
  protected freeVolume(order: ConstraintOrder): number {
    if (order === 'vel')
      throw this.error(
        'velocity constraints (solveVelocityConstraintFirst) are not supported by the cavity: pose the problem on positions',
      );
    return this.volumeOf(this.states[0].xFree);
  }

  /** Called at the end of each step with the measured volume |V| (after cavityVolume is set). */
  protected afterStep(_volume: number): void {}

  override handleEvent(event: SofaEvent): void {
    if (!(event instanceof AnimateEndEvent) || this.states.length === 0) return;
    const V = this.volumeOf(this.states[0].x);
    this.cavityVolume.setValue(V);
    this.afterStep(V);
  }
}
