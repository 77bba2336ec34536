import {
  Bool,
  Indices,
  nonNegative,
  Real,
  contextMeshTopology,
  followPointIndices,
  requireDataFile,
  sofaComponent,
  Str,
  type MatrixAccumulator,
  host,
  SingleStateMass,
} from '@sofa-ts/core';
import { parseRigidMassFile } from './rigid-mass-file.js';
import { MassText, RigidInertia } from '../rigid-inertia.js';

/**
 * SOFA's UniformMass: the same mass m on every point (or on the points of `indices`).
 *   M = m·I (diagonal), gravity force f = m·g per point.
 * totalMass, when set, wins: m = totalMass / n. Otherwise vertexMass, when set, gives
 * totalMass = n·m. With neither, totalMass defaults to 1 (SOFA's defaults).
 * Rigid templates (SOFA's RigidMass): vertexMass is "m [volume [inertia]]", the inertia per unit
 * mass J (3x3 for Rigid3, written plain or as "[a b c,d e f,g h i]"; a scalar for Rigid2; identity
 * / 1 by default); the frame's mass matrix is diag(m·I₃, m·J) in the world axes, as SOFA applies it
 * (the inertia is not rotated with the frame), and gravity acts on the translation only.
 * Rigid3: `filename` names a SOFA rigid file (BehaviorModels/*.rigid, see rigid-mass-file.ts) giving
 * m, the volume and J over vertexMass; when the file gives the mass and the scene no vertexMass,
 * the file's mass wins over totalMass (SOFA marks vertexMass set and totalMass unset). totalMass,
 * when it wins, replaces m only: J stays per unit mass, so the rotational mass scales with m.
 * Topological changes: with every point massive, the mass follows the state's size as SOFA's
 * updateMassOnResize does: m = totalMass / n with preserveTotalMass, else totalMass = n·m; listed
 * `indices` follow the point removals of the node's topology.
 */
@sofaComponent({
  name: 'UniformMass',
  category: 'Mass',
  module: 'Sofa.Component.Mass',
  description: 'Uniform mass on every point: M = m·I.',
  templates: ['Vec3d', 'Vec2d', 'Vec1d', 'Vec6d', 'Rigid3d', 'Rigid2d'],
})
export class UniformMass extends SingleStateMass {
  readonly vertexMass = this.initData({
    name: 'vertexMass',
    type: MassText,
    default: Float64Array.of(1),
    unit: 'kg',
    help: 'mass of each particle; for Rigid templates "mass [volume [inertia matrix per unit mass]]"',
  });
  readonly totalMass = this.initData({
    name: 'totalMass',
    type: Real,
    default: 1,
    unit: 'kg',
    range: nonNegative,
    help: 'if >0 : total mass of this body',
  });
  readonly filenameMass = this.initData({
    name: 'filename',
    type: Str,
    default: '',
    help: 'rigid file to load the mass parameters (Rigid templates)',
  });
  readonly showCenterOfGravity = this.initData({
    name: 'showGravityCenter',
    type: Bool,
    default: false,
    help: 'display the center of gravity of the system',
    group: 'Visualization',
  });
  readonly showAxisSize = this.initData({
    name: 'showAxisSizeFactor',
    type: Real,
    default: 1,
    help: 'factor length of the axis displayed',
    group: 'Visualization',
  });
  readonly computeMappingInertia = this.initData({
    name: 'compute_mapping_inertia',
    type: Bool,
    default: false,
    help: 'accepted for compatibility',
  });
  readonly showInitialCenterOfGravity = this.initData({
    name: 'showInitialCenterOfGravity',
    type: Bool,
    default: false,
    help: 'display the initial center of gravity of the system',
    group: 'Visualization',
  });
  readonly showX0 = this.initData({
    name: 'showX0',
    type: Bool,
    default: false,
    help: 'display the rest positions',
    group: 'Visualization',
  });
  readonly localRange = this.initData({
    name: 'localRange',
    type: Indices,
    default: new Uint32Array(0),
    help: 'optional range of local DOF indices: only points in [first, last] get the mass',
  });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'optional local DOF indices; points not listed get no mass',
  });
  readonly handleTopologicalChanges = this.initData({
    name: 'handleTopologicalChanges',
    type: Bool,
    default: false,
    help: 'the mass follows topological changes',
  });
  readonly preserveTotalMass = this.initData({
    name: 'preserveTotalMass',
    type: Bool,
    default: false,
    help: 'keep the total mass constant under topological changes',
  });

  /** Points carrying the mass. */
  private points: Uint32Array = new Uint32Array(0);
  private m = 1;
  /** Rotational part of the frames' mass (Rigid templates), undefined for Vec templates. */
  private inertia: RigidInertia | undefined;
  /** Every point of the state is massive (no indices nor localRange). */
  private allPoints = false;

  get isDiagonal(): boolean {
    return true;
  }

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    const n = s.size;
    let pts: Uint32Array;
    if (this.indices.value.length > 0) pts = Uint32Array.from(this.indices.value);
    else if (this.localRange.value.length === 2) {
      const [a, b] = [this.localRange.value[0], Math.min(this.localRange.value[1], n - 1)];
      pts = Uint32Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => a + i);
    } else pts = Uint32Array.from({ length: n }, (_, i) => i);
    for (const p of pts) if (p >= n) throw this.error(`index ${p} is out of range: ${s.describe()} has ${n} points`);
    this.points = pts;
    this.allPoints = this.indices.value.length === 0 && this.localRange.value.length !== 2;
    if (this.indices.value.length > 0)
      followPointIndices(contextMeshTopology(this.context), this.indices, (l) => (this.points = Uint32Array.from(l)));
    const count = pts.length;
    let given = this.vertexMass.value;
    if (given.length === 0) throw this.error('vertexMass is empty: give a mass');
    if (!s.stateType.isRigid && given.length !== 1)
      throw this.error(`vertexMass of a ${s.stateType.name} state is one value (got ${given.length})`);
    let vertexSet = this.vertexMass.isSet;
    let totalSet = this.totalMass.isSet;
    const file = this.filenameMass.value;
    if (file !== '' && file !== 'unused') {
      if (s.stateType.name !== 'Rigid3d')
        throw this.error(
          `mass files ('${file}') are read for Rigid3d states only (this state is ${s.stateType.name})`,
          'give vertexMass instead',
        );
      const read = this.loadRigidMassFile(file, given);
      given = read.given;
      if (read.hasMass && !vertexSet) {
        vertexSet = true;
        totalSet = false;
      }
    }
    if (totalSet || !vertexSet) {
      if (this.totalMass.value < 0) throw this.error(`totalMass must be positive (got ${this.totalMass.value})`);
      if (totalSet && vertexSet)
        this.warn('totalMass overrides vertexMass (vertexMass = totalMass / number of points): set only one of them');
      this.m = count > 0 ? this.totalMass.value / count : 0;
    } else {
      if (given[0] < 0) throw this.error(`vertexMass must be positive (got ${given[0]})`);
      this.m = given[0];
      this.totalMass.value = this.m * count;
    }
    if (s.stateType.isRigid) {
      const dim = s.stateType.name === 'Rigid3d' ? 3 : 2;
      // SOFA reads one "mass volume inertia" value from the text and ignores what follows
      const full = 2 + (dim === 3 ? 9 : 1);
      if (given.length > full) {
        this.warnAbout(
          this.vertexMass,
          `vertexMass has ${given.length} numbers; a Rigid${dim}d mass is "mass volume inertia" (${full}): the ${given.length - full} extra number(s) are ignored, as SOFA reads one value`,
        );
        given = given.subarray(0, full);
      }
      try {
        this.inertia = RigidInertia.fromVertexMass(dim, given, this.m);
      } catch (e) {
        throw this.error((e as Error).message);
      }
      this.vertexMass.value = this.inertia.toVertexMass();
    } else {
      this.inertia = undefined;
      this.vertexMass.value = Float64Array.of(this.m);
    }
  }

  /**
   * Reads a SOFA rigid file over the vertexMass value `given` ("m volume J"): the file's mass,
   * volume and inertia replace the given ones. Returns the merged value and whether the file gave
   * the mass.
   */
  private loadRigidMassFile(name: string, given: Float64Array): { given: Float64Array; hasMass: boolean } {
    const path = requireDataFile(this, name, 'rigid mass file');
    const f = parseRigidMassFile(host().readText(path, 'utf8'));
    if (f.errors.length > 0) throw this.error(`rigid mass file '${name}': ${f.errors.join('; ')}`);
    for (const w of f.warnings) this.warn(`rigid mass file '${name}': ${w}`);
    let base: RigidInertia;
    try {
      base = RigidInertia.fromVertexMass(3, given, given[0]);
    } catch (e) {
      throw this.error((e as Error).message);
    }
    const m = f.mass ?? base.mass;
    const merged = RigidInertia.of(3, m, f.volume ?? base.volume, f.inertia ?? base.unitInertia);
    return { given: merged.toVertexMass(), hasMass: f.mass !== undefined };
  }

  /** The state's size changed (a topological change): SOFA's updateMassOnResize. */
  private followSize(): void {
    if (!this.allPoints) return;
    const n = this.getMechanicalState().size;
    if (n === this.points.length) return;
    this.points = Uint32Array.from({ length: n }, (_, i) => i);
    if (n === 0) this.totalMass.value = 0;
    else if (this.preserveTotalMass.value) {
      this.m = this.totalMass.value / n;
      if (this.inertia) this.inertia = RigidInertia.of(this.inertia.dim, this.m, this.inertia.volume, this.inertia.unitInertia);
      this.vertexMass.value = this.inertia ? this.inertia.toVertexMass() : Float64Array.of(this.m);
    } else this.totalMass.value = n * this.m;
  }

  addMDx(out: Float64Array, dx: Float64Array, factor: number): void {
    this.followSize();
    if (this.inertia) {
      for (const p of this.points) this.inertia.addMDx(out, dx, p, factor);
      return;
    }
    const d = this.getMechanicalState().stateType.derivSize;
    const c = this.m * factor;
    for (const p of this.points) for (let k = 0; k < d; k++) out[p * d + k] += c * dx[p * d + k];
  }

  addMToMatrix(acc: MatrixAccumulator, mFactor: number): void {
    this.followSize();
    if (this.inertia) {
      for (const p of this.points) this.inertia.addMToMatrix(acc, p, mFactor);
      return;
    }
    const d = this.getMechanicalState().stateType.derivSize;
    const c = this.m * mFactor;
    for (const p of this.points) for (let k = 0; k < d; k++) acc.add(p * d + k, p * d + k, c);
  }

  addForce(f: Float64Array, _x: Float64Array, _v: Float64Array): void {
    this.followSize();
    const t = this.getMechanicalState().stateType;
    const g = this.context.getGravity();
    const d = t.derivSize;
    const dim = Math.min(t.spatialDimensions, 3);
    for (const p of this.points) for (let k = 0; k < dim; k++) f[p * d + k] += this.m * g[k];
  }

  accFromF(a: Float64Array, f: Float64Array): void {
    this.followSize();
    if (this.inertia) {
      for (const p of this.points) this.inertia.accFromF(a, f, p);
      return;
    }
    const d = this.getMechanicalState().stateType.derivSize;
    const inv = this.m !== 0 ? 1 / this.m : 0;
    for (const p of this.points) for (let k = 0; k < d; k++) a[p * d + k] = f[p * d + k] * inv;
  }

  getKineticEnergy(v: Float64Array): number {
    this.followSize();
    if (this.inertia) {
      let e = 0;
      for (const p of this.points) e += this.inertia.kineticEnergy(v, p);
      return e;
    }
    const d = this.getMechanicalState().stateType.derivSize;
    let e = 0;
    for (const p of this.points) for (let k = 0; k < d; k++) e += v[p * d + k] * v[p * d + k];
    return 0.5 * this.m * e;
  }

  getPotentialEnergy(x: Float64Array): number {
    this.followSize();
    const t = this.getMechanicalState().stateType;
    const g = this.context.getGravity();
    let e = 0;
    for (const p of this.points) for (let k = 0; k < Math.min(t.spatialDimensions, 3); k++) e -= this.m * g[k] * x[p * t.coordSize + k];
    return e;
  }

  /** The mass of one point (after init). */
  get pointMass(): number {
    return this.m;
  }
}
