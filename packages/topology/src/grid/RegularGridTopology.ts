import { nonNegative, Real, sofaComponent, Vec3, type Data, type GridDescription } from '@sofa-ts/core';
import { GridTopology } from './GridTopology.js';

/** Where the points of a regular grid are: point (i, j, k) = p0 + (i·dx, j·dy, k·dz). */
export interface RegularGridGeometry {
  /** Number of points along x, y, z. */
  readonly n: readonly [number, number, number];
  /** Position of point (0, 0, 0). */
  readonly p0: readonly [number, number, number];
  /** Spacing along x, y, z. */
  readonly step: readonly [number, number, number];
  readonly min: readonly [number, number, number];
  readonly max: readonly [number, number, number];
}

/**
 * SOFA's RegularGridTopology: a GridTopology whose points are evenly spaced in the box [min, max]:
 *   point (i, j, k) = p0 + (i·dx, j·dy, k·dz),  d = (max − min)/(n − 1) per axis,  p0 = min.
 * An axis with a single point gets d = max − min and, for x and y, its point at the middle
 * (min + max)/2 (z stays at min), as SOFA's setPos does. `p0` given in the scene replaces the first
 * point. With cellWidth > 0, n becomes ceil((max − min)/cellWidth) + 1 at init while the spacing
 * keeps the value computed from the n given in the scene, exactly as SOFA (whose spacing is fixed when
 * the scene is read). The old attributes xmin ... zmax (all six, as single precision numbers, times
 * `scale`) give min and max.
 */
@sofaComponent({
  name: 'RegularGridTopology',
  aliases: ['RegularGrid'],
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Grid',
  description: 'Regular grid in 3D: nx × ny × nz points evenly spaced between min and max.',
})
export class RegularGridTopology extends GridTopology {
  readonly min = this.initData({ name: 'min', type: Vec3, default: Float64Array.of(0, 0, 0), help: 'min corner of the grid' });
  readonly max = this.initData({ name: 'max', type: Vec3, default: Float64Array.of(1, 1, 1), help: 'max corner of the grid' });
  readonly p0 = this.initData({
    name: 'p0',
    type: Vec3,
    default: Float64Array.of(0, 0, 0),
    help: 'position of the first point (default: min)',
  });
  readonly cellWidth = this.initData({
    name: 'cellWidth',
    type: Real,
    default: 0,
    range: nonNegative,
    help: 'if > 0, cell size: the resolution is computed from min, max and this width',
  });
  readonly xmin = this.initData({
    name: 'xmin',
    type: Real,
    default: 0,
    help: 'old attribute: min x (used when xmin ... zmax are all given)',
  });
  readonly ymin = this.initData({ name: 'ymin', type: Real, default: 0, help: 'old attribute: min y' });
  readonly zmin = this.initData({ name: 'zmin', type: Real, default: 0, help: 'old attribute: min z' });
  readonly xmax = this.initData({ name: 'xmax', type: Real, default: 1, help: 'old attribute: max x' });
  readonly ymax = this.initData({ name: 'ymax', type: Real, default: 1, help: 'old attribute: max y' });
  readonly zmax = this.initData({ name: 'zmax', type: Real, default: 1, help: 'old attribute: max z' });
  readonly scale = this.initData({ name: 'scale', type: Real, default: 1, help: 'old attribute: factor applied to xmin ... zmax' });

  protected override extraInputs(): readonly Data<unknown>[] {
    const legacy = [this.xmin, this.ymin, this.zmin, this.xmax, this.ymax, this.zmax, this.scale];
    return [...super.extraInputs(), this.min, this.max, this.p0, this.cellWidth, ...legacy] as Data<unknown>[];
  }

  /** min and max: the old xmin ... zmax when all six are given (read as floats, as SOFA), else min, max. */
  private box(): { min: [number, number, number]; max: [number, number, number] } {
    const legacy = [this.xmin, this.ymin, this.zmin, this.xmax, this.ymax, this.zmax];
    if (legacy.every((d) => d.isSet)) {
      const s = Math.fround(this.scale.value);
      const f = (d: Data<number>): number => Math.fround(d.value) * s;
      return { min: [f(this.xmin), f(this.ymin), f(this.zmin)], max: [f(this.xmax), f(this.ymax), f(this.zmax)] };
    }
    const a = this.min.value;
    const b = this.max.value;
    return { min: [a[0], a[1], a[2]], max: [b[0], b[1], b[2]] };
  }

  protected override resolutionBeforeCheck(): [number, number, number] {
    const w = this.cellWidth.value;
    if (!w) return this.givenResolution();
    const { min, max } = this.box();
    return [0, 1, 2].map((k) => Math.ceil((max[k] - min[k]) / w) + 1) as [number, number, number];
  }

  protected override resolutionSource(): Data<unknown> {
    return this.cellWidth.value ? (this.cellWidth as Data<unknown>) : super.resolutionSource();
  }

  /** Number of points, first point and spacing of the grid. */
  geometry(): RegularGridGeometry {
    return this.cached('geometry', () => {
      const { min, max } = this.box();
      // The spacing comes from the resolution given in the scene (SOFA fixes it when reading the scene).
      const g = this.givenResolution();
      const given = g[0] < 1 || g[1] < 1 || g[2] < 1 ? [2, 2, 2] : g;
      const step: [number, number, number] = [0, 0, 0];
      const p0: [number, number, number] = [min[0], min[1], min[2]];
      for (let k = 0; k < 3; k++) {
        const cells = given[k] - 1;
        if (cells > 0) step[k] = (max[k] - min[k]) / cells;
        else {
          step[k] = max[k] - min[k];
          if (k < 2) p0[k] = (max[k] + min[k]) / 2;
        }
      }
      if (this.p0.isSet) {
        const p = this.p0.value;
        p0[0] = p[0];
        p0[1] = p[1];
        p0[2] = p[2];
      }
      return { n: this.resolution(), p0, step, min, max };
    });
  }

  protected override computePositions(): Float64Array {
    const { n, p0, step } = this.geometry();
    const out = new Float64Array(n[0] * n[1] * n[2] * 3);
    let o = 0;
    for (let k = 0; k < n[2]; k++) {
      for (let j = 0; j < n[1]; j++) {
        for (let i = 0; i < n[0]; i++) {
          out[o++] = p0[0] + step[0] * i;
          out[o++] = p0[1] + step[1] * j;
          out[o++] = p0[2] + step[2] * k;
        }
      }
    }
    return out;
  }

  override getGrid(): GridDescription {
    const { n, p0, min, max } = this.geometry();
    const differs = p0[0] !== min[0] || p0[1] !== min[1] || p0[2] !== min[2];
    return { n, min, max, ...(differs ? { p0 } : {}) };
  }

  protected override initContainer(): void {
    // What SOFA's scene reading stores: resolution and box from the old attributes, and p0.
    const { min, max } = this.box();
    const given = this.givenResolution();
    if (this.nx.isSet && this.ny.isSet && this.nz.isSet && !sameVec(this.n.value, given)) this.n.value = Int32Array.from(given);
    if (!sameVec(this.min.value, min)) this.min.value = Float64Array.from(min);
    if (!sameVec(this.max.value, max)) this.max.value = Float64Array.from(max);
    const p0 = this.geometry().p0;
    if (!this.p0.isSet) this.p0.value = Float64Array.from(p0);
    super.initContainer();
  }
}

function sameVec(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}
