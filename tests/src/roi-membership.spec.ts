import { expect } from 'chai';
import type { BaseObject } from 'sofa-ts';
import { findNamed, sceneOf } from './harness-support-test-support.js';

/**
 * ROI engines' memberships on a 3×3×3 grid of points (0, 1, 2 on each axis), with points on the
 * regions' boundaries, counted from the regions' definitions (SOFA's are closed: a point on the
 * boundary is inside): a box [0, 1]³ holds the 2³ grid points of its corners; a sphere of radius 1
 * about the centre holds the centre and its 6 face neighbours (at distance 1); PairBoxROI keeps the
 * points of its inclusive box that are not in its included box, boundary included in both.
 */
async function indices(engine: string): Promise<number[]> {
  const scene = await sceneOf(
    `<RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="2 2 2"/><MechanicalObject name="dofs"/>${engine}`,
  );
  return Array.from(findNamed<BaseObject>(scene.root, 'roi').findData('indices')!.value as ArrayLike<number>).sort((a, b) => a - b);
}
const grid = Array.from({ length: 27 }, (_, i) => [i % 3, Math.floor(i / 3) % 3, Math.floor(i / 9)] as const);
const where = (pred: (p: readonly [number, number, number]) => boolean) => grid.flatMap((p, i) => (pred(p) ? [i] : []));

describe('ROI memberships with points on the boundary (XML path)', () => {
  it('BoxROI: the closed box [0, 1]³ holds its 8 corner points', async () => {
    const got = await indices('<BoxROI name="roi" box="0 0 0 1 1 1" position="@dofs.position"/>');
    expect(got).to.deep.equal(where((p) => p.every((c) => c <= 1)));
    expect(got).to.have.length(8);
  });

  it('SphereROI: |p − c| ≤ r holds the centre and its 6 face neighbours', async () => {
    const got = await indices('<SphereROI name="roi" centers="1 1 1" radii="1" position="@dofs.position"/>');
    expect(got).to.deep.equal(where((p) => (p[0] - 1) ** 2 + (p[1] - 1) ** 2 + (p[2] - 1) ** 2 <= 1));
    expect(got).to.have.length(7);
  });

  it('PairBoxROI: in the inclusive box and not in the included one, both closed', async () => {
    const got = await indices('<PairBoxROI name="roi" inclusiveBox="0 0 0 2 2 2" includedBox="1 1 1 2 2 2" position="@dofs.position"/>');
    expect(got).to.deep.equal(where((p) => !p.every((c) => c >= 1)));
    expect(got).to.have.length(27 - 8);
  });
});
