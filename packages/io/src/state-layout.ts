/** How many scalars one point of a mechanical state takes in a state file, per SOFA template. */
import { SofaError, didYouMean } from '@sofa-ts/core';

export interface StateLayout {
  /** Scalars per point on X= lines (positions: Coord). */
  readonly coord: number;
  /** Scalars per point on V= lines (velocities: Deriv). */
  readonly deriv: number;
}

// Rigid coordinates carry an orientation (angle in 2D, quaternion x y z w in 3D) while their
// derivatives carry an angular velocity (1 scalar in 2D, 3 in 3D).
const LAYOUTS: Record<string, StateLayout> = {
  Vec1: { coord: 1, deriv: 1 },
  Vec2: { coord: 2, deriv: 2 },
  Vec3: { coord: 3, deriv: 3 },
  Vec6: { coord: 6, deriv: 6 },
  Rigid2: { coord: 3, deriv: 3 },
  Rigid3: { coord: 7, deriv: 6 },
};

/** Layout of a SOFA template name: `Vec3d`, `Vec3f`, `Vec3`, `Rigid3d`, `Rigid` (= Rigid3),
 *  and the manifest's `Vec3d(default)` spelling. */
export function stateLayoutOf(template: string): StateLayout {
  const base = template
    .trim()
    .replace(/\(default\)$/, '')
    .replace(/^(Vec\d|Rigid\d?)[df]$/, '$1');
  const key = base === 'Rigid' ? 'Rigid3' : base;
  const layout = LAYOUTS[key];
  if (!layout) {
    const hint = didYouMean(template, Object.keys(LAYOUTS));
    throw new SofaError(`unknown state template '${template}'`, hint === undefined ? {} : { hint });
  }
  return layout;
}

/** Deriv scalars per point implied by coord scalars per point when no template is known:
 *  7 can only be Rigid3 (6 velocity scalars); every other layout has as many V as X scalars. */
export function defaultDerivScalars(coordScalarsPerPoint: number): number {
  return coordScalarsPerPoint === 7 ? 6 : coordScalarsPerPoint;
}
