import { Real, Vec3, sofaComponent, type Data } from '@sofa-ts/core';
import { GridTopology } from './GridTopology.js';

/**
 * The frame (X, Y, Z) of a grid mapped onto a cylinder or sphere: Z = unit(axis), X the unit part
 * of (1, 0, 0) orthogonal to Z — of (0, 1, 0) when the axis is along x — and Y = Z × X.
 * (SOFA tests only axis = +x; for −x it would produce a degenerate frame.)
 */
export function axisFrame(axis: ArrayLike<number>): { X: number[]; Y: number[]; Z: number[] } {
  const l = Math.hypot(axis[0], axis[1], axis[2]);
  const Z = l > 0 ? [axis[0] / l, axis[1] / l, axis[2] / l] : [0, 0, 1];
  const ref = Math.abs(Z[0]) > 1 - 1e-6 ? [0, 1, 0] : [1, 0, 0];
  const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const unit = (a: number[]): number[] => {
    const r = Math.hypot(a[0], a[1], a[2]);
    return [a[0] / r, a[1] / r, a[2] / r];
  };
  const Y = unit(cross(Z, ref));
  const X = unit(cross(Y, Z));
  return { X, Y, Z };
}

/**
 * SOFA's CylinderGridTopology: a GridTopology (same connectivity, nx × ny × nz points) whose points
 * fill a cylinder of `radius` and `length` along `axis`, from `center` (the centre of its first
 * cross-section). Point (i, j, k): the square coordinates s = (i·2r/(nx−1) − r, j·2r/(ny−1) − r) are
 * pulled onto the disc, s ← s·max(|s_x|, |s_y|)/|s| (so the square's border lands on the circle), and
 *   p = center + s_x·X + s_y·Y + (k·length/(nz−1))·Z   (X, Y, Z: see axisFrame; nz = 1: a disc).
 */
@sofaComponent({
  name: 'CylinderGridTopology',
  aliases: ['CylinderGrid'],
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Grid',
  description: 'Cylinder grid in 3D.',
})
export class CylinderGridTopology extends GridTopology {
  readonly center = this.initData({
    name: 'center',
    type: Vec3,
    default: new Float64Array(3),
    help: 'centre of the first cross-section of the cylinder',
  });
  readonly axis = this.initData({ name: 'axis', type: Vec3, default: Float64Array.of(0, 0, 1), help: 'main direction of the cylinder' });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 1, help: 'radius of the cylinder' });
  readonly length = this.initData({ name: 'length', type: Real, default: 1, help: 'length of the cylinder along its axis' });

  protected override extraInputs(): readonly Data<unknown>[] {
    return [...super.extraInputs(), this.center, this.axis, this.radius, this.length] as Data<unknown>[];
  }

  protected override computePositions(): Float64Array {
    const [nx, ny, nz] = this.resolution();
    const r = this.radius.value,
      l = this.length.value,
      c = this.center.value;
    const { X, Y, Z } = axisFrame(this.axis.value);
    const out = new Float64Array(3 * nx * ny * nz);
    let o = 0;
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          let sx = nx > 1 ? (i * 2 * r) / (nx - 1) - r : 0,
            sy = ny > 1 ? (j * 2 * r) / (ny - 1) - r : 0;
          const n = Math.hypot(sx, sy);
          if (n > 1e-7) {
            const f = Math.max(Math.abs(sx), Math.abs(sy)) / n;
            sx *= f;
            sy *= f;
          }
          const sz = nz > 1 ? (k * l) / (nz - 1) : 0;
          for (let d = 0; d < 3; d++) out[o++] = c[d] + sx * X[d] + sy * Y[d] + sz * Z[d];
        }
      }
    }
    return out;
  }
}
