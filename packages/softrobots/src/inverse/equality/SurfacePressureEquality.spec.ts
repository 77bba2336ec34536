import { expect } from 'chai';
import { Vec3d } from '@sofa-ts/core';
import { EQUALITY, InverseRows } from '../inverse-rows.js';
import { jacobianError, mount, rng, TestState } from '../test-support.js';
import { SurfacePressureEquality } from './SurfacePressureEquality.js';

/** SurfacePressureEquality: the equality it hands the solver, its row against central differences. */
const TET = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
const OUTWARD = '0 2 1  0 1 3  0 3 2  1 2 3';

function equality(attrs: Record<string, string>): { c: SurfacePressureEquality; s: TestState } {
  const c = new SurfacePressureEquality();
  c.triangles.read(OUTWARD);
  for (const [k, v] of Object.entries(attrs)) c.findData(k)!.read(v);
  const s = new TestState(Vec3d, TET);
  return { c: mount(c, s), s };
}

describe('softrobots: SurfacePressureEquality (unit)', () => {
  it('eqVolumeGrowth: δ = target (it takes precedence over eqPressure); eqPressure: λ fixed', () => {
    const rows = new InverseRows();
    rows.reset(1);
    equality({ eqVolumeGrowth: '0.2', eqPressure: '3' }).c.getInverseRows(rows);
    expect(rows.role[0]).to.equal(EQUALITY);
    expect(rows.target[0]).to.equal(0.2);
    expect([rows.lambdaMin[0], rows.lambdaMax[0]]).to.deep.equal([-Infinity, Infinity]);
    rows.reset(1);
    equality({ eqPressure: '3' }).c.getInverseRows(rows);
    expect(Number.isNaN(rows.target[0])).to.equal(true);
    expect([rows.lambdaMin[0], rows.lambdaMax[0]]).to.deep.equal([3, 3]);
    expect(() => equality({})).to.throw(/neither eqVolumeGrowth nor eqPressure/);
  });

  it('its row is ∂δ/∂x at the free positions (central differences)', () => {
    const r = rng(5);
    const { c, s } = equality({ eqPressure: '1' });
    for (let i = 0; i < s.xFree.length; i++) s.xFree[i] += 0.1 * (r() - 0.5);
    expect(jacobianError(c, s)).to.be.at.most(1e-8);
  });
});
