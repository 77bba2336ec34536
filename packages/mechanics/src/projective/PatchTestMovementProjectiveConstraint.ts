import { RealArray, sofaComponent } from '@sofa-ts/core';
import { InterpolatedMovementConstraint } from './interpolated-movement.js';

/**
 * SOFA's PatchTestMovementProjectiveConstraint: the points go, between beginConstraintTime and
 * endConstraintTime, from their initial positions x0 to x0 + u(x0), u the bilinear (trilinear in
 * 3D) interpolation of `cornerMovements` over the box of the corners of `constrainedPoints`
 * (SOFA's corner search; 8 corners when the points are not in one z plane): with α, β, γ the
 * normalised coordinates along x, y, z,
 *   u = Σ_corners w_c·m_c,  w = (1−α)(1−β), α(1−β), αβ, (1−α)β on the corners 0..3 (times 1 − γ),
 *   and the same on 4..7 times γ.
 * The motion in time is interpolated-movement.ts's. `cornerPoints` (output) lists the corners found.
 */
@sofaComponent({
  name: 'PatchTestMovementProjectiveConstraint',
  aliases: ['PatchTestMovementConstraint'],
  category: 'ProjectiveConstraintSet',
  module: 'Sofa.Component.Constraint.Projective',
  description: 'Impose a bilinear (patch test) motion on the border points of a grid.',
  templates: ['Vec3d'],
})
export class PatchTestMovementProjectiveConstraint extends InterpolatedMovementConstraint {
  readonly constrainedPoints = this.initData({
    name: 'constrainedPoints',
    type: RealArray(3, 'vector<Coord>'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'coordinates of the constrained points (the border of the grid)',
  });
  readonly cornerMovements = this.initData({
    name: 'cornerMovements',
    type: RealArray(3, 'vector<Deriv>'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'displacement of the corners (4 in 2D, 8 in 3D)',
  });
  readonly cornerPoints = this.initData({
    name: 'cornerPoints',
    type: RealArray(3, 'vector<Coord>'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'corner points found from the constrained points',
    output: true,
  });

  override init(): void {
    super.init();
    this.findCornerPoints();
    const nc = this.cornerPoints.value.length / 3;
    if (nc > 0 && this.cornerMovements.value.length / 3 < nc)
      throw this.error(`'cornerMovements' needs ${nc} displacements (one per corner), got ${this.cornerMovements.value.length / 3}`);
  }

  /** SOFA's findCornerPoints, comparison by comparison. */
  private findCornerPoints(): void {
    const P = this.constrainedPoints.value,
      n = P.length / 3;
    if (n === 0) {
      this.cornerPoints.value = new Float64Array(0);
      return;
    }
    const pt = (i: number): number[] => [P[3 * i], P[3 * i + 1], P[3 * i + 2]];
    let in3D = false;
    for (let i = 0; i < n; i++) if (P[3 * i + 2] !== P[2]) in3D = true;
    const c = Array.from({ length: 8 }, () => pt(0));
    for (let i = 0; i < n; i++) {
      const p = pt(i);
      if (p[0] < c[0][0] || p[1] < c[0][1] || p[2] < c[0][2]) c[0] = p;
      if (p[0] > c[2][0] || p[1] > c[2][1] || p[2] < c[2][2]) c[2] = p;
      if (p[1] < c[1][1] || p[0] > c[1][0] || p[2] < c[1][2]) c[1] = p;
      if (p[0] < c[3][0] || p[1] > c[3][1] || p[2] < c[3][2]) c[3] = p;
      if (in3D && (p[0] < c[4][0] || p[1] < c[4][1] || p[2] > c[0][2])) c[4] = p;
      if (in3D && (p[0] > c[6][0] || p[1] > c[6][1] || p[2] > c[2][2])) c[6] = p;
      if (in3D && (p[1] < c[5][1] || p[0] > c[5][0] || p[2] > c[5][2])) c[5] = p;
      else if (in3D && (p[0] < c[7][0] || p[1] > c[7][1] || p[2] > c[7][2])) c[7] = p;
    }
    this.cornerPoints.value = Float64Array.from(c.slice(0, in3D ? 8 : 4).flat());
  }

  /** xf = x0 + u(x0), u interpolating the corner movements. */
  protected finalPositions(xf: Float64Array, x0: Float64Array): void {
    const C = this.cornerPoints.value,
      M = this.cornerMovements.value,
      nc = C.length / 3;
    for (let j = 0; j < x0.length / 3; j++) {
      const p = [x0[3 * j], x0[3 * j + 1], x0[3 * j + 2]];
      if (nc !== 4 && nc !== 8) {
        for (let k = 0; k < 3; k++) xf[3 * j + k] = p[k];
        continue;
      }
      const a = Math.abs(p[0] - C[0]) / Math.abs(C[3] - C[0]);
      const b = Math.abs(p[1] - C[1]) / Math.abs(C[10] - C[1]);
      const g = nc === 8 ? Math.abs(p[2] - C[2]) / Math.abs(C[14] - C[2]) : 0;
      const w = [(1 - a) * (1 - b), a * (1 - b), a * b, (1 - a) * b];
      for (let k = 0; k < 3; k++) {
        let u = 0;
        for (let q = 0; q < 4; q++) u += w[q] * M[3 * q + k] * (1 - g);
        if (nc === 8) for (let q = 0; q < 4; q++) u += w[q] * M[3 * (4 + q) + k] * g;
        xf[3 * j + k] = p[k] + u;
      }
    }
  }
}
