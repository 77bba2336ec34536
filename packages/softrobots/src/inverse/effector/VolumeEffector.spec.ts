import { expect } from 'chai';
import { Vec3d } from '@sofa-ts/core';
import { EFFECTOR, InverseRows } from '../inverse-rows.js';
import { jacobianError, jacobian, mount, rng, TestState, violation } from '../test-support.js';
import { VolumeEffector } from './VolumeEffector.js';

/**
 * VolumeEffector: its shift δ = |V(x_free)| − desiredVolume against the closed form of a
 * tetrahedron, its row against central finite differences, desiredVolume defaulting to V₀.
 */
const TET = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
const OUTWARD = '0 2 1  0 1 3  0 3 2  1 2 3';

describe('softrobots: VolumeEffector (unit)', () => {
  it('δ_free = |V(x_free)| − desiredVolume (tetrahedron: V = d_z/6)', () => {
    const c = new VolumeEffector();
    c.triangles.read(OUTWARD);
    c.desiredVolume.value = 0.25;
    const s = new TestState(Vec3d, TET);
    mount(c, s);
    jacobian(c, s);
    s.xFree[11] = 2;
    expect(violation(c, 1)[0]).to.be.closeTo(2 / 6 - 0.25, 1e-15);
  });

  it('its row is ∂δ/∂x (central differences) and it is an effector of its weight', () => {
    const r = rng(11);
    const x = TET.map((v) => v + 0.2 * (r() - 0.5));
    const c = new VolumeEffector();
    c.triangles.read(OUTWARD);
    c.weight.value = 3;
    const s = new TestState(Vec3d, x);
    mount(c, s);
    expect(c.desiredVolume.value).to.equal(c.initialCavityVolume.value);
    for (let i = 0; i < s.xFree.length; i++) s.xFree[i] += 0.05 * (r() - 0.5);
    expect(jacobianError(c, s)).to.be.at.most(1e-8);
    const rows = new InverseRows();
    rows.reset(1);
    c.getInverseRows(rows);
    expect(rows.role[0]).to.equal(EFFECTOR);
    expect(rows.weight[0]).to.equal(3);
  });
});
