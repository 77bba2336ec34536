import {
  Indices,
  contextMeshTopology,
  followPointIndices,
  isTopology,
  Real,
  RealArray,
  sofaComponent,
  type MatrixAccumulator,
  SingleStateProjectiveConstraint,
} from '@sofa-ts/core';

/**
 * SOFA's FixedPlaneProjectiveConstraint (alias FixedPlaneConstraint): the listed points move only
 * in the plane orthogonal to `direction`. With n = direction/|direction|:
 *   P_i = I − n·nᵀ on each constrained point i (identity elsewhere),  P·P = P.
 * When dmin ≠ dmax, the points with dmin < x·direction < dmax at init are added to the indices.
 * SOFA uses `direction` unnormalised in the projection (a projection only when |direction| = 1);
 * here it is normalised. For an axis direction P is diagonal (the assembled system clears rows and
 * columns, as SOFA's matrix path does); otherwise the assembled system takes P from
 * addProjectionToMatrix (SOFA's matrix path would fix every component the direction touches).
 * Velocities and positions are not projected (as in SOFA).
 * Rigid3d: the plane constrains the frames' centres only (SOFA's rigid instantiation): direction is
 * 3 numbers, or a 7-number Coord whose orientation part is not used; P acts on the translation
 * block of each frame's derivative, the rotation stays free.
 */
@sofaComponent({
  name: 'FixedPlaneProjectiveConstraint',
  aliases: ['FixedPlaneConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Keep given points from moving along a direction (they slide in a plane).',
  templates: ['Vec3d', 'Vec6d', 'Rigid3d'],
})
export class FixedPlaneProjectiveConstraint extends SingleStateProjectiveConstraint {
  readonly direction = this.initData({
    name: 'direction',
    type: RealArray(0, 'Coord'),
    default: new Float64Array(0),
    help: 'normal direction of the plane the points slide in',
  });
  readonly dmin = this.initData({
    name: 'dmin',
    type: Real,
    default: 0,
    unit: 'm',
    help: 'with dmax: points with dmin < x·direction < dmax at init are constrained too',
  });
  readonly dmax = this.initData({ name: 'dmax', type: Real, default: 0, unit: 'm', help: 'see dmin' });
  readonly indices = this.initData({
    name: 'indices',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the constrained points',
  });

  readonly topology = this.initLink({
    name: 'topology',
    help: 'link to the topology container (accepted)',
    accepts: isTopology,
    expected: 'a topology container',
  });

  /** Constrained points without repetition, (n). */
  private points = new Uint32Array(0);
  /** Unit normal, (N): N = derivSize for Vec templates, 3 (the centre) for Rigid3d. */
  private n = new Float64Array(0);
  /** Scalars per point of the derivatives. */
  private ds = 3;
  /** The one nonzero component of an axis direction, or −1. */
  private axis = -1;

  override init(): void {
    const s = this.getMechanicalState();
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name === 'Rigid2d')
      throw this.error('SOFA has no Rigid2d FixedPlaneProjectiveConstraint', 'use Rigid3d, Vec3d or Vec6d');
    const rigid = s.stateType.isRigid;
    const d = rigid ? 3 : s.stateType.derivSize;
    const cs = s.stateType.coordSize;
    this.ds = s.stateType.derivSize;
    let dir = this.direction.value;
    if (rigid && dir.length === 7) dir = dir.slice(0, 3);
    if (dir.length !== d)
      throw this.error(`'direction' needs ${rigid ? '3 (or 7)' : d} numbers for template ${s.stateType.name}, got ${dir.length}`);
    const norm = Math.hypot(...dir);
    if (!(norm > 0)) throw this.error(`'direction' must not be zero`);
    this.n = Float64Array.from(dir, (v) => v / norm);
    const nonzero = Array.from(dir.keys()).filter((k) => dir[k] !== 0);
    this.axis = nonzero.length === 1 ? nonzero[0] : -1;
    const size = s.size;
    const pts = Array.from(this.indices.value);
    for (const i of pts) if (i >= size) throw this.error(`index ${i} is out of range: ${s.describe()} has ${size} points`);
    if (this.dmin.value !== this.dmax.value) {
      // SOFA's selection: dmin < x·direction < dmax, with the direction as given.
      const x = s.x;
      for (let i = 0; i < size; i++) {
        let dist = 0;
        for (let k = 0; k < d; k++) dist += x[i * cs + k] * dir[k];
        if (dist > this.dmin.value && dist < this.dmax.value) pts.push(i);
      }
      this.indices.value = Uint32Array.from(pts);
    }
    this.points = Uint32Array.from(new Set(pts));
    // the points follow the point removals of the node's topology (SOFA's TopologySubsetIndices)
    followPointIndices(
      this.topology.get() ?? contextMeshTopology(this.context),
      this.indices,
      (l) => (this.points = Uint32Array.from(new Set(l))),
    );
  }

  projectResponse(dx: Float64Array): void {
    const d = this.n.length,
      ds = this.ds;
    // dx_i ← dx_i − n·(n·dx_i)
    for (const p of this.points) {
      let dot = 0;
      for (let k = 0; k < d; k++) dot += this.n[k] * dx[p * ds + k];
      for (let k = 0; k < d; k++) dx[p * ds + k] -= dot * this.n[k];
    }
  }

  projectVelocity(_v: Float64Array): void {}

  projectPosition(_x: Float64Array): void {}

  override get isDiagonalProjection(): boolean {
    return this.axis >= 0;
  }

  projectedDofs(out: number[]): void {
    if (this.axis < 0) return;
    for (const p of this.points) out.push(p * this.ds + this.axis);
  }

  /** The d×d block I − n·nᵀ of every constrained point (all entries, zeros included). */
  override addProjectionToMatrix(acc: MatrixAccumulator): void {
    const d = this.n.length,
      ds = this.ds;
    for (const p of this.points) {
      for (let r = 0; r < d; r++) for (let c = 0; c < d; c++) acc.add(p * ds + r, p * ds + c, (r === c ? 1 : 0) - this.n[r] * this.n[c]);
    }
  }
}
