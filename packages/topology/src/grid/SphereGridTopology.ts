import { Real, Vec3, sofaComponent, type Data } from '@sofa-ts/core';
import { axisFrame } from './CylinderGridTopology.js';
import { GridTopology } from './GridTopology.js';

/**
 * SOFA's SphereGridTopology: a GridTopology whose points fill a ball of `radius` around `center`.
 * Point (i, j, k): the cube coordinates s = (i·2r/(nx−1) − r, j·2r/(ny−1) − r, k·2r/(nz−1) − r) are
 * pulled onto the ball, s ← s·max(|s_x|, |s_y|, |s_z|)/|s| (the cube's surface lands on the sphere),
 * and p = center + s_x·X + s_y·Y + s_z·Z (X, Y, Z: the frame of `axis`, see axisFrame).
 */
@sofaComponent({
  name: 'SphereGridTopology',
  aliases: ['SphereGrid'],
  category: 'Topology',
  module: 'Sofa.Component.Topology.Container.Grid',
  description: 'Sphere grid in 3D.',
})
export class SphereGridTopology extends GridTopology {
  readonly center = this.initData({ name: 'center', type: Vec3, default: new Float64Array(3), help: 'centre of the sphere' });
  readonly axis = this.initData({ name: 'axis', type: Vec3, default: Float64Array.of(0, 0, 1), help: 'main direction of the grid' });
  readonly radius = this.initData({ name: 'radius', type: Real, default: 1, help: 'radius of the sphere' });

  protected override extraInputs(): readonly Data<unknown>[] {
    return [...super.extraInputs(), this.center, this.axis, this.radius] as Data<unknown>[];
  }

  protected override computePositions(): Float64Array {
    const [nx, ny, nz] = this.resolution();
    const r = this.radius.value,
      c = this.center.value;
    const { X, Y, Z } = axisFrame(this.axis.value);
    const out = new Float64Array(3 * nx * ny * nz);
    const coord = (i: number, n: number): number => (n > 1 ? (i * 2 * r) / (n - 1) - r : 0);
    let o = 0;
    for (let k = 0; k < nz; k++) {
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          const s = [coord(i, nx), coord(j, ny), coord(k, nz)];
          const n = Math.hypot(s[0], s[1], s[2]);
          if (n > 1e-7) {
            const f = Math.max(Math.abs(s[0]), Math.abs(s[1]), Math.abs(s[2])) / n;
            for (let d = 0; d < 3; d++) s[d] *= f;
          }
          for (let d = 0; d < 3; d++) out[o++] = c[d] + s[0] * X[d] + s[1] * Y[d] + s[2] * Z[d];
        }
      }
    }
    return out;
  }
}
