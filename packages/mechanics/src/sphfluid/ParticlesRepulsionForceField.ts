import { Real, SingleStateForceField, addBlock3, positive, sofaComponent, type MatrixAccumulator } from '@sofa-ts/core';
import { NeighborGrid } from './neighbor-grid.js';
import { findSpatialGrid, type SpatialGridContainer } from './SpatialGridContainer.js';

/**
 * SOFA's ParticlesRepulsionForceField (SofaSphFluid): particles closer than `distance` h push each
 * other apart. For each pair (i, j) with 0 < d = |xj − xi| < h, u = (xj − xi)/d, δ = d − h < 0:
 *   fi += ks·δ·u − kd·δ·(vj − vi),   fj −= the same
 * (ks = stiffness, kd = damping; the damping pulls the relative velocity to zero). Coincident
 * particles (d = 0) exert nothing, as in SOFA. The pairs are found in the node's
 * SpatialGridContainer (every pair within h, see neighbor-grid.ts).
 * Stiffness: SOFA's addDForce, dfi += ks·u·uᵀ·(dxj − dxi) (dfj −= it), at the pairs and positions
 * of the last addForce: it leaves out the change of u, (δ/d)·(I − u·uᵀ), and the damping has no B
 * (it is explicit). SOFA's addKToMatrix is empty; sofa-ts emits the K that addDForce applies
 * (blocks ∓ks·u·uᵀ), so that assembled and matrix-free solvers solve the same system.
 */
@sofaComponent({
  name: 'ParticlesRepulsionForceField',
  category: 'ForceField',
  module: 'SofaSphFluid',
  description: 'Repulsion between particles closer than a distance.',
  templates: ['Vec3d'],
})
export class ParticlesRepulsionForceField extends SingleStateForceField {
  readonly distance = this.initData({
    name: 'distance',
    type: Real,
    default: 1,
    range: positive,
    unit: 'm',
    help: 'distance to maintain between particles',
  });
  readonly stiffness = this.initData({ name: 'stiffness', type: Real, default: 100, unit: 'N/m', help: 'stiffness ks' });
  readonly damping = this.initData({ name: 'damping', type: Real, default: 0.1, help: 'damping kd' });

  private grid?: SpatialGridContainer;
  private readonly neighbors = new NeighborGrid();
  /** Pairs of the last addForce in contact (0 < d < h): their ends and unit directions u (3 per pair). */
  private count = 0;
  private pairI = new Int32Array(0);
  private pairJ = new Int32Array(0);
  private dir = new Float64Array(0);
  private warnedSkipped = false;

  override init(): void {
    super.init();
    const s = this.states[0];
    if (!this.template) this.template = s.stateType.name;
    if (s.stateType.name !== 'Vec3d') throw this.error(`ParticlesRepulsionForceField acts on Vec3d particles, got ${s.stateType.name}`);
    this.grid = findSpatialGrid(this.context);
    if (!this.grid)
      this.warn(
        'no SpatialGridContainer in this node or above: SOFA searches the neighbours by brute force (O(n²)); sofa-ts uses its own grid of cells the distance wide (the same pairs)',
        'add <SpatialGridContainer cellWidth="…"/> beside the state',
      );
  }

  addForce(f: readonly Float64Array[], x: readonly Float64Array[], v: readonly Float64Array[]): void {
    const fs = f[0],
      xs = x[0],
      vs = v[0];
    const n = xs.length / 3;
    const h = this.distance.value,
      ks = this.stiffness.value,
      kd = this.damping.value;
    const g = this.neighbors;
    const found = g.search(xs, 3, n, h, this.grid?.cellWidth.value ?? h);
    if (g.skipped > 0 && !this.warnedSkipped) {
      this.warnedSkipped = true;
      this.warn(`${g.skipped} particle(s) with a non-finite position have no neighbours (reported once)`);
    }
    if (this.pairI.length < found) {
      this.pairI = new Int32Array(g.pairI.length);
      this.pairJ = new Int32Array(g.pairI.length);
      this.dir = new Float64Array(3 * g.pairI.length);
    }
    let c = 0;
    for (let p = 0; p < found; p++) {
      const r2 = g.pairR2[p];
      if (r2 === 0) continue;
      const i = g.pairI[p],
        j = g.pairJ[p];
      const d = Math.sqrt(r2);
      const delta = d - h;
      const fi = ks * delta,
        fd = kd * delta;
      for (let a = 0; a < 3; a++) {
        const u = (xs[3 * j + a] - xs[3 * i + a]) / d;
        this.dir[3 * c + a] = u;
        const t = u * fi - (vs[3 * j + a] - vs[3 * i + a]) * fd;
        fs[3 * i + a] += t;
        fs[3 * j + a] -= t;
      }
      this.pairI[c] = i;
      this.pairJ[c] = j;
      c++;
    }
    this.count = c;
  }

  addDForce(df: readonly Float64Array[], dx: readonly Float64Array[], kFactor: number, bFactor: number): void {
    const dfs = df[0],
      dxs = dx[0];
    const ks = this.stiffness.value * this.kFactorWithRayleigh(kFactor, bFactor);
    const u = this.dir;
    for (let p = 0; p < this.count; p++) {
      const i = this.pairI[p],
        j = this.pairJ[p];
      // dfi += ks·u·(u·(dxj − dxi))
      let s = 0;
      for (let a = 0; a < 3; a++) s += u[3 * p + a] * (dxs[3 * j + a] - dxs[3 * i + a]);
      s *= ks;
      for (let a = 0; a < 3; a++) {
        dfs[3 * i + a] += u[3 * p + a] * s;
        dfs[3 * j + a] -= u[3 * p + a] * s;
      }
    }
  }

  private readonly block = new Float64Array(9);

  addKToMatrix(acc: MatrixAccumulator, kFactor: number): void {
    const ks = this.stiffness.value * kFactor;
    const u = this.dir,
      B = this.block;
    for (let p = 0; p < this.count; p++) {
      const i = 3 * this.pairI[p],
        j = 3 * this.pairJ[p];
      for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) B[3 * r + q] = ks * u[3 * p + r] * u[3 * p + q];
      // ∂fi/∂xi = −ks·u·uᵀ, ∂fi/∂xj = +ks·u·uᵀ
      addBlock3(acc, i, i, B, 0, -1);
      addBlock3(acc, i, j, B, 0, 1);
      addBlock3(acc, j, i, B, 0, 1);
      addBlock3(acc, j, j, B, 0, -1);
    }
  }
}
