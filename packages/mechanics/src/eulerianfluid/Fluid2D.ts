import { BaseObject, Int, Real, Vec2, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { Grid2D } from './grid-2d.js';

/**
 * SOFA's Fluid2D (plugin SofaEulerianFluid): a 2D stable-fluids grid (Grid2D, in grid-2d.ts) of
 * nx × ny cells, stepped at each step (SOFA's BehaviorModel::updatePosition, here at the
 * AnimateBeginEvent with the step's dt). At init the level set is φ = (x, y)·dir/|dir| − height
 * (fluid where φ < 0) when height ≠ 0; the source runs for tstart < t < tstop. The drawing (grid,
 * velocities, marching-squares surface) is left to viewers: nothing is drawn in batch.
 */
@sofaComponent({
  name: 'Fluid2D',
  category: 'BehaviorModel',
  module: 'SofaEulerianFluid',
  description: 'Eulerian 2D fluid.',
})
export class Fluid2D extends BaseObject {
  readonly nx = this.initData({ name: 'nx', type: Int, default: 16, help: 'grid size along x axis' });
  readonly ny = this.initData({ name: 'ny', type: Int, default: 16, help: 'grid size along y axis' });
  readonly cellwidth = this.initData({ name: 'cellwidth', type: Real, default: 1, help: 'width of each cell' });
  readonly height = this.initData({ name: 'height', type: Real, default: 5, help: 'initial fluid height' });
  readonly dir = this.initData({ name: 'dir', type: Vec2, default: Float64Array.of(0, 1), help: 'initial fluid surface normal' });
  readonly tstart = this.initData({ name: 'tstart', type: Real, default: 0, help: 'starting time for fluid source' });
  readonly tstop = this.initData({ name: 'tstop', type: Real, default: 60, help: 'stopping time for fluid source' });

  /** The current grid, the next one and the scratch one (swapped after each step). */
  fluid = new Grid2D();
  private fnext = new Grid2D();
  private readonly ftemp = new Grid2D();
  private warnedProjection = false;

  constructor() {
    super();
    this.listening.value = true;
  }

  override init(): void {
    const nx = this.nx.value,
      ny = this.ny.value;
    for (const [d, v] of [
      [this.nx, nx],
      [this.ny, ny],
    ] as const)
      if (!(v >= 3))
        throw this.dataError(d, `${d.spec.name}=${v}: the grid needs at least 3 cells along each axis (its border cells are walls)`);
    const dir = this.dir.value;
    if (this.height.value !== 0 && !(Math.hypot(dir[0], dir[1]) > 0)) throw this.dataError(this.dir, 'dir must be a non-zero vector');
    for (const g of [this.fluid, this.fnext, this.ftemp]) g.clear(nx, ny);
    if (this.height.value !== 0) this.fluid.seed(this.height.value, dir[0], dir[1]);
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
    this.fnext.step(this.fluid, this.ftemp, dt);
    [this.fluid, this.fnext] = [this.fnext, this.fluid];
    if (!this.fluid.lastConverged && !this.warnedProjection) {
      this.warnedProjection = true;
      this.warn('the pressure projection did not reach ‖r‖² ≤ 1e-4‖b‖² in 100 conjugate-gradient iterations (reported once)');
    }
    const ls = this.fluid.levelset;
    for (let i = 0; i < ls.length; i++)
      if (!Number.isFinite(ls[i]) || !Number.isFinite(this.fluid.u0[i]) || !Number.isFinite(this.fluid.u1[i]))
        throw this.error(`non-finite fluid state in cell ${i} at t = ${this.fluid.t}`);
  }
}
