import {
  Bool,
  contextMeshTopology,
  DataTracker,
  followElementIndices,
  Indices,
  isTopology,
  RealArray,
  sofaComponent,
  type BaseMeshTopology,
  type CheckpointReader,
  type CheckpointRecord,
  type MatrixAccumulator,
  SingleStateForceField,
} from '@sofa-ts/core';
import { FollowerTriangles } from './follower-triangles.js';

/**
 * SOFA's TrianglePressureForceField: a pressure on the triangles `triangleList` of the topology.
 * With useConstantForce (the default) the force of triangle t is the vector `pressure` times its
 * area at rest A_t, shared by its three vertices:
 *   f_v += pressure·A_t / 3      (K = 0; a new `pressure` applies from the next step)
 * Otherwise the force follows the surface: with σ = cauchyStress (symmetric, SOFA's MatSym order
 * xx yx yy zx zy zz) and n_t = (x_b − x_a) × (x_c − x_a) (twice the area vector),
 *   f_v += σ·n_t / 6   on each vertex v of t,
 * and K = ∂f/∂x is the exact tangent (follower-triangles.ts). SOFA leaves K at zero for that
 * case; sofa-ts gives the tangent so that implicit steps converge as Newton's method does.
 *
 * Topological changes: triangleList follows the topology's triangle removals (a removed triangle
 * leaves it, the moved last one is renamed: SOFA's TopologySubsetData), and the loaded triangles
 * are built again after any change of the topology (points renamed).
 */
@sofaComponent({
  name: 'TrianglePressureForceField',
  category: 'ForceField',
  module: 'Sofa.Component.MechanicalLoad',
  description: 'Pressure applied on a set of triangles (constant force per unit area at rest, or a Cauchy stress on the current normals).',
  templates: ['Vec3d'],
})
export class TrianglePressureForceField extends SingleStateForceField {
  readonly pressure = this.initData({
    name: 'pressure',
    type: RealArray(0, 'Deriv'),
    default: new Float64Array(0),
    unit: 'Pa',
    help: 'pressure force per unit area (a vector)',
  });
  readonly cauchyStress = this.initData({
    name: 'cauchyStress',
    type: RealArray(0, 'MatSym3'),
    default: new Float64Array(6),
    unit: 'Pa',
    help: 'Cauchy stress applied on the normal of each triangle (6 numbers: xx yx yy zx zy zz), used when useConstantForce is false',
  });
  readonly triangleList = this.initData({
    name: 'triangleList',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the triangles the pressure is applied to',
  });
  readonly showForces = this.initData({
    name: 'showForces',
    type: Bool,
    default: false,
    help: 'draw the triangles which have a given pressure',
    group: 'Visualization',
  });
  readonly useConstantForce = this.initData({
    name: 'useConstantForce',
    type: Bool,
    default: true,
    help: 'the force is the pressure vector times the area at rest (else the Cauchy stress times the current area vector)',
  });

  readonly topology = this.initLink<BaseMeshTopology>({
    name: 'topology',
    help: 'link to the topology container (default: the topology of the context)',
    accepts: isTopology,
    expected: 'a topology',
  });

  /** The loaded triangles' vertices, (m × 3). */
  private readonly surface = new FollowerTriangles();
  /** Rest areas, (m). */
  private areas = new Float64Array(0);
  /** Force per vertex of each triangle (pressure·A/3), (m × 3). */
  private forces = new Float64Array(0);
  /** σ/6, row-major (9). */
  private readonly M = new Float64Array(9);
  private tracker: { list: DataTracker; pressure: DataTracker } | undefined;
  /** The topology's changeRevision the triangles were built for. */
  private builtRevision = -1;

  /**
   * Checkpoint: the loaded triangles with their rest areas and forces. A triangleList that became
   * empty keeps the triangles loaded before (see build), which its Data no longer show.
   */
  checkpointState(): CheckpointRecord {
    return { tris: this.surface.tris, areas: this.areas, forces: this.forces };
  }

  restoreState(saved: CheckpointReader): void {
    this.surface.setTriangles(saved.array('tris', Uint32Array).slice());
    this.areas = saved.array('areas', Float64Array).slice();
    this.forces = saved.array('forces', Float64Array).slice();
  }

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d')
      throw this.error(`TrianglePressureForceField needs a Vec3d state, ${s.describe()} is ${s.stateType.name}`);
    const topo = this.topology.get() ?? contextMeshTopology(this.context);
    if (!topo) throw this.error('no topology: add a triangle topology in this node or above, or set topology="@path"');
    this.topology.set(topo);
    if (this.pressure.value.length !== 0 && this.pressure.value.length !== 3)
      throw this.error(`'pressure' needs 3 numbers, got ${this.pressure.value.length}`);
    if (this.cauchyStress.value.length !== 6)
      throw this.error(`'cauchyStress' needs 6 numbers (xx yx yy zx zy zz), got ${this.cauchyStress.value.length}`);
    this.tracker = { list: new DataTracker(this.triangleList), pressure: new DataTracker(this.pressure) };
    followElementIndices(topo, 'triangle', this.triangleList);
    this.build();
    this.updateForces();
  }

  /**
   * Triangles from triangleList with their rest areas (SOFA's initTriangleInformation). As in SOFA,
   * a list that becomes empty later (a BoxROI following the moving points) keeps the triangles
   * already loaded, unless the topology changed (its listed triangles were removed).
   */
  private build(): void {
    const topo = this.topology.require();
    const s = this.states[0];
    const all = topo.getTriangles();
    const list = this.triangleList.value;
    this.tracker!.list.clean();
    const topologyChanged = this.builtRevision >= 0 && topo.changeRevision !== this.builtRevision;
    this.builtRevision = topo.changeRevision;
    if (list.length === 0 && topologyChanged) {
      this.surface.setTriangles(new Uint32Array(0));
      this.areas = new Float64Array(0);
      this.forces = new Float64Array(0);
      return;
    }
    if (list.length === 0) {
      if (this.areas.length === 0)
        this.warn('no triangle in triangleList: the pressure acts on nothing', "give triangleList (e.g. from a BoxROI's triangleIndices)");
      return;
    }
    const tris = new Uint32Array(list.length * 3);
    list.forEach((t, i) => {
      if (3 * t + 3 > all.length) throw this.error(`triangle ${t} is out of range: ${topo.describe()} has ${all.length / 3} triangles`);
      for (let k = 0; k < 3; k++) {
        const v = all[3 * t + k];
        if (v >= s.size) throw this.error(`triangle ${t} names point ${v}, but ${s.describe()} has ${s.size} points`);
        tris[3 * i + k] = v;
      }
    });
    this.surface.setTriangles(tris);
    this.areas = new Float64Array(list.length);
    const x0 = s.x0;
    for (let i = 0; i < list.length; i++) {
      const n = this.surface.normal(i, x0, 3);
      this.areas[i] = 0.5 * Math.hypot(n[0], n[1], n[2]);
    }
    this.forces = new Float64Array(list.length * 3);
    this.updateForces();
  }

  /** force per vertex = pressure·A/3 (SOFA's updateTriangleInformation). */
  private updateForces(): void {
    const p = this.pressure.value;
    for (let i = 0; i < this.areas.length; i++)
      for (let k = 0; k < 3; k++) this.forces[3 * i + k] = p.length === 3 ? (p[k] * this.areas[i]) / 3 : 0;
    this.tracker!.pressure.clean();
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], _v: readonly Float64Array[]): void {
    if (this.tracker!.list.isDirty() || this.topology.require().changeRevision !== this.builtRevision) this.build();
    else if (this.tracker!.pressure.isDirty()) this.updateForces();
    const out = f[0];
    const T = this.surface.tris;
    if (this.useConstantForce.value) {
      for (let i = 0; i < this.areas.length; i++) {
        for (let j = 0; j < 3; j++) {
          const o = T[3 * i + j] * 3;
          for (let k = 0; k < 3; k++) out[o + k] += this.forces[3 * i + k];
        }
      }
      return;
    }
    // M = σ/6 from the symmetric storage (i ≥ j at i(i+1)/2 + j)
    const sg = this.cauchyStress.value,
      M = this.M;
    const at = (i: number, j: number): number => (i >= j ? sg[(i * (i + 1)) / 2 + j] : sg[(j * (j + 1)) / 2 + i]);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) M[3 * r + c] = at(r, c) / 6;
    for (let i = 0; i < this.surface.count; i++) {
      this.surface.normal(i, x[0], 3);
      this.surface.apply(i, M, out, x[0], 3, 3);
    }
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    if (this.useConstantForce.value) return;
    this.surface.addDForce(df[0], dx[0], this.kFactorWithRayleigh(kFactor, bFactor), 3);
  }

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    if (this.useConstantForce.value) return;
    this.surface.addKToMatrix(acc, kFactor, 3);
  }

  /** The rest area of each loaded triangle, in triangleList order. */
  get restAreas(): Float64Array {
    return this.areas;
  }
}
