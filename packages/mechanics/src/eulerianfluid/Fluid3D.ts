import { BaseObject, Int, Real, Vec3, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { Grid3D } from './grid-3d.js';

/**
 * SOFA's Fluid3D (plugin SofaEulerianFluid): a 3D stable-fluids grid (Grid3D, in grid-3d.ts) of
 * nx × ny × nz cells, stepped at each step (SOFA's BehaviorModel::updatePosition, here at the
 * AnimateBeginEvent with the step's dt) under the context's gravity divided by cellwidth. At init
 * the level set is φ = (x, y, z)·dir/|dir| − height when height ≠ 0; the source runs for
 * tstart < t < tstop. `center` and the drawing (marching-cubes surface) are left to viewers:
 * nothing is drawn in batch.
 */
@sofaComponent({
  name: 'Fluid3D',
  category: 'BehaviorModel',
  module: 'SofaEulerianFluid',
  description: 'Eulerian 3D fluid.',
})
export class Fluid3D extends BaseObject {
  readonly nx = this.initData({ name: 'nx', type: Int, default: 16, help: 'grid size along x axis' });
  readonly ny = this.initData({ name: 'ny', type: Int, default: 16, help: 'grid size along y axis' });
  readonly nz = this.initData({ name: 'nz', type: Int, default: 16, help: 'grid size along z axis' });
  readonly cellwidth = this.initData({ name: 'cellwidth', type: Real, default: 1, help: 'width of each cell' });
  readonly center = this.initData({
    name: 'center',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    help: 'position of grid center',
    group: 'Visualization',
  });
  readonly height = this.initData({ name: 'height', type: Real, default: 5, help: 'initial fluid height' });
  readonly dir = this.initData({ name: 'dir', type: Vec3, default: Float64Array.of(0, 1, 0), help: 'initial fluid surface normal' });
  readonly tstart = this.initData({ name: 'tstart', type: Real, default: 0, help: 'starting time for fluid source' });
  readonly tstop = this.initData({ name: 'tstop', type: Real, default: 60, help: 'stopping time for fluid source' });

  fluid = new Grid3D();
  private fnext = new Grid3D();
  private readonly ftemp = new Grid3D();
  private warnedProjection = false;

  constructor() {
    super();
    this.listening.value = true;
  }

  override init(): void {
    const n = [this.nx, this.ny, this.nz] as const;
    for (const d of n)
      if (!(d.value >= 3))
        throw this.dataError(d, `${d.spec.name}=${d.value}: the grid needs at least 3 cells along each axis (its border cells are walls)`);
    if (!(this.cellwidth.value > 0)) throw this.dataError(this.cellwidth, `cellwidth=${this.cellwidth.value} must be positive`);
    const dir = this.dir.value;
    if (this.height.value !== 0 && !(Math.hypot(dir[0], dir[1], dir[2]) > 0))
      throw this.dataError(this.dir, 'dir must be a non-zero vector');
    for (const g of [this.fluid, this.fnext, this.ftemp]) g.clear(n[0].value, n[1].value, n[2].value);
    if (this.height.value !== 0) this.fluid.seed(this.height.value, dir[0], dir[1], dir[2]);
    this.fluid.t = -this.tstart.value;
    this.fluid.tend = this.tstop.value - this.tstart.value;
  }

  override reset(): void {
    this.init();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type === 'AnimateBeginEvent') this.updatePosition((event as SofaEvent & { dt: number }).dt);
  }

  /** One step of the grid (SOFA's updatePosition). */
  updatePosition(dt: number): void {
    const g = this.context.gravity.value,
      w = this.cellwidth.value;
    this.fnext.gravity.set([g[0] / w, g[1] / w, g[2] / w]);
    this.fnext.step(this.fluid, this.ftemp, dt);
    [this.fluid, this.fnext] = [this.fnext, this.fluid];
    if (!this.fluid.lastConverged && !this.warnedProjection) {
      this.warnedProjection = true;
      this.warn('the pressure projection did not reach ‖r‖² ≤ 1e-6‖b‖² in 100 conjugate-gradient iterations (reported once)');
    }
    const f = this.fluid;
    for (let i = 0; i < f.ncell; i++)
      if (!Number.isFinite(f.levelset[i]) || !Number.isFinite(f.u0[i]) || !Number.isFinite(f.u1[i]) || !Number.isFinite(f.u2[i]))
        throw this.error(`non-finite fluid state in cell ${i} at t = ${f.t}`);
  }
}
