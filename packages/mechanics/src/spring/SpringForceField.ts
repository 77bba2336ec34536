import {
  contextMechanicalState,
  BaseForceField,
  Int,
  Real,
  RealArray,
  Indices,
  Str,
  isMechanicalState,
  sofaComponent,
  type BaseMechanicalState,
  type DataType,
  type MatrixAccumulator,
} from '@sofa-ts/core';
import { LinearSprings } from '../linear-springs.js';

/** Springs as SOFA writes them: "i j ks kd restLength" per spring. */
const Springs: DataType<Float64Array> = RealArray(5, 'vector<LinearSpring>');

const BoolList: DataType<Uint8Array> = {
  name: 'vector<bool>',
  parse: (t) => Uint8Array.from(Indices.parse(t.replace(/\btrue\b/gi, '1').replace(/\bfalse\b/gi, '0')), (x) => (x ? 1 : 0)),
  print: (v) => Array.from(v, String).join(' '),
  clone: (v) => Uint8Array.from(v),
};

/**
 * SOFA's SpringForceField: linear springs between points of object1 and object2 (the same state
 * by default). For a spring (a, b) with u = p_b − p_a, d = |u|, û = u/d:
 *   f = ks·(d − L) + kd·û·(v_b − v_a),   F_a += f·û,  F_b −= f·û
 *   ∂F_a/∂p_b = (ks − f/d)·û·ûᵀ + (f/d)·I  =: m,   K = [−m  m; m  −m]
 * Damping enters the force only, not the matrices (as in SOFA). Springs shorter than 1e-9, disabled
 * springs and, with elongationOnly, compressed springs exert nothing.
 * Rigid3d (SOFA's rigid instantiation): the springs join the frames' centres and pull on their
 * translation only (no torque); Vec6d: distances over the 6 components.
 */
@sofaComponent({
  name: 'SpringForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs between pairs of points, with stiffness, damping and rest length.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d'],
})
export class SpringForceField extends BaseForceField {
  readonly spring = this.initData({
    name: 'spring',
    type: Springs,
    default: new Float64Array(0),
    help: 'pairs of indices, stiffness, damping, rest length',
  });
  readonly stiffness = this.initData({
    name: 'stiffness',
    type: RealArray(0),
    default: Float64Array.of(100),
    unit: 'N/m',
    help: 'uniform stiffness for all the springs (or one per spring, with indices1/indices2)',
  });
  readonly damping = this.initData({
    name: 'damping',
    type: RealArray(0),
    default: Float64Array.of(5),
    unit: 'N·s/m',
    help: 'uniform damping for all the springs (or one per spring)',
  });
  readonly indices1 = this.initData({
    name: 'indices1',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the first points of the springs (in object1)',
  });
  readonly indices2 = this.initData({
    name: 'indices2',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the second points of the springs (in object2)',
  });
  readonly lengths = this.initData({
    name: 'lengths',
    type: RealArray(0),
    default: new Float64Array(0),
    help: 'rest lengths of the springs built from indices1/indices2 (one value applies to all; empty: 0)',
    aliases: ['length'],
  });
  readonly elongationOnly = this.initData({
    name: 'elongationOnly',
    type: BoolList,
    default: Uint8Array.of(0),
    help: 'springs that only act when elongated (one value applies to all)',
  });
  readonly enabled = this.initData({
    name: 'enabled',
    type: BoolList,
    default: Uint8Array.of(1),
    help: 'springs that are enabled (one value applies to all)',
  });
  readonly fileSprings = this.initData({
    name: 'fileSprings',
    type: Str,
    default: '',
    help: 'file describing the springs (.xs3)',
    aliases: ['filename'],
  });
  readonly showArrowSize = this.initData({
    name: 'showArrowSize',
    type: Real,
    default: 0.01,
    help: 'size of the axis',
    group: 'Visualization',
  });
  readonly drawMode = this.initData({
    name: 'drawMode',
    type: Int,
    default: 0,
    help: 'the way springs will be drawn: 0 line, 1 cylinder, 2 arrow',
    group: 'Visualization',
  });

  readonly object1 = this.initLink({
    name: 'object1',
    help: 'first object in interaction (default: the state of this node)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate1'],
  });
  readonly object2 = this.initLink({
    name: 'object2',
    help: 'second object in interaction (default: object1)',
    accepts: isMechanicalState,
    expected: 'a MechanicalObject',
    aliases: ['mstate2'],
  });

  /** The springs (struct of arrays) and their law. */
  protected readonly springs = new LinearSprings();
  protected get a(): Uint32Array {
    return this.springs.a;
  }
  protected get b(): Uint32Array {
    return this.springs.b;
  }
  protected get ks(): Float64Array {
    return this.springs.ks;
  }
  protected get kd(): Float64Array {
    return this.springs.kd;
  }
  protected get rest(): Float64Array {
    return this.springs.rest;
  }
  protected get elongOnly(): Uint8Array {
    return this.springs.elongOnly;
  }
  protected get active(): Uint8Array {
    return this.springs.active;
  }
  /** Spatial dimension N of the points (1, 2 or 3). */
  protected get N(): number {
    return this.springs.N;
  }
  private states: BaseMechanicalState[] = [];
  /** True once the spring indices were checked against the initialised states. */
  private indicesChecked = false;

  getMechanicalStates(): readonly BaseMechanicalState[] {
    return this.states;
  }

  override init(): void {
    const s1 = this.object1.get() ?? contextMechanicalState(this.context);
    if (!s1) throw this.error('no mechanical state: set object1 or put a MechanicalObject in the node or an ancestor');
    const s2 = this.object2.get() ?? s1;
    this.object1.set(s1);
    this.object2.set(s2);
    this.states = s1 === s2 ? [s1] : [s1, s2];
    if (!this.template) this.template = s1.stateType.name;
    const t = s1.stateType;
    if (s2.stateType !== t)
      throw this.error(
        `object1 ${s1.describe()} is ${t.name}, object2 ${s2.describe()} is ${s2.stateType.name}: the two states need the same template`,
      );
    if (t.name === 'Rigid2d') throw this.error(`SOFA has no Rigid2d ${this.className}`, 'use Rigid3d, or Vec templates');
    // Rigid3d (SOFA's rigid instantiation): springs between the frames' centres, forces on their translation.
    this.springs.setLayout(t.isRigid ? t.spatialDimensions : t.derivSize, t.coordSize, t.derivSize);
    if (this.fileSprings.value) throw this.error(`spring files are not supported yet (fileSprings='${this.fileSprings.value}')`);
    this.buildSprings();
    this.indicesChecked = false;
  }

  /**
   * The spring indices are checked against the states' sizes once both states are initialised: at
   * bwdInit, or at first use when a state lives in a node initialised later. SOFA sizes a
   * MechanicalObject at its own init, and init runs top-down, so an interaction spring declared in
   * a parent node is initialised before the states of its child nodes have their points.
   */
  override bwdInit(): void {
    if (this.states.every((s) => s.componentState === 'valid')) this.checkIndices();
  }

  private checkIndices(): void {
    const s1 = this.object1.get()!,
      s2 = this.object2.get()!;
    for (let i = 0; i < this.a.length; i++) {
      if (this.a[i] >= s1.size)
        throw this.error(`spring ${i}: index ${this.a[i]} is out of range (${s1.describe()} has ${s1.size} points)`);
      if (this.b[i] >= s2.size)
        throw this.error(`spring ${i}: index ${this.b[i]} is out of range (${s2.describe()} has ${s2.size} points)`);
    }
    this.indicesChecked = true;
  }

  /** Springs from `spring`, else from indices1/indices2 with per-spring or uniform parameters. */
  protected buildSprings(): void {
    const sp = this.spring.value;
    if (sp.length > 0) {
      const n = sp.length / 5;
      this.allocate(n);
      for (let i = 0; i < n; i++) {
        this.a[i] = sp[5 * i];
        this.b[i] = sp[5 * i + 1];
        this.ks[i] = sp[5 * i + 2];
        this.kd[i] = sp[5 * i + 3];
        this.rest[i] = sp[5 * i + 4];
      }
      this.elongOnly.fill(0);
      this.active.fill(1);
      return;
    }
    const i1 = this.indices1.value;
    const i2 = this.indices2.value;
    if (i1.length !== i2.length) throw this.error(`indices1 (${i1.length}) and indices2 (${i2.length}) must have the same size`);
    const n = i1.length;
    this.allocate(n);
    const pick = <T extends ArrayLike<number>>(v: T, i: number, dflt: number): number =>
      v.length === 0 ? dflt : v[Math.min(i, v.length - 1)];
    for (let i = 0; i < n; i++) {
      this.a[i] = i1[i];
      this.b[i] = i2[i];
      this.ks[i] = pick(this.stiffness.value, i, 100);
      this.kd[i] = pick(this.damping.value, i, 5);
      this.rest[i] = pick(this.lengths.value, i, 0);
      this.elongOnly[i] = pick(this.elongationOnly.value, i, 0);
      this.active[i] = pick(this.enabled.value, i, 1);
    }
  }

  protected allocate(n: number): void {
    this.springs.allocate(n);
  }

  get springCount(): number {
    return this.a.length;
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    if (!this.indicesChecked) this.checkIndices();
    this.springs.addForce(f[0], f[f.length - 1], x[0], x[x.length - 1], v[0], v[v.length - 1]);
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    this.springs.addDForce(df[0], df[df.length - 1], dx[0], dx[dx.length - 1], this.kFactorWithRayleigh(kFactor, bFactor));
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    if (!this.indicesChecked) this.checkIndices();
    this.springs.addKToMatrix(acc, kFactor, this.states.length === 2 ? this.states[0].size * this.springs.ds : 0);
  }

  override getPotentialEnergy(x: readonly Float64Array[]): number {
    return this.springs.potentialEnergy(x[0], x[x.length - 1]);
  }
}

/**
 * SOFA's StiffSpringForceField: the same springs as SpringForceField (whose stiffness matrix SOFA
 * now computes too), kept under its historical name with its own defaults.
 */
@sofaComponent({
  name: 'StiffSpringForceField',
  category: 'ForceField',
  module: 'Sofa.Component.SolidMechanics.Spring',
  description: 'Springs between pairs of points, with the full stiffness matrix (implicit integration).',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d'],
})
export class StiffSpringForceField extends SpringForceField {}
