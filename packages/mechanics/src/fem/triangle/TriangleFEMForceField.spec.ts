import { expect } from 'chai';
import { TriangleFEMForceField } from './TriangleFEMForceField.js';
import { forceAt, sharedTriangleFemChecks, topologyOf } from './triangle-fem-test-support.js';
import { buildNode, StubTopology } from '../../mass/mesh-test-support.js';

function tfem(
  method: 'large' | 'small',
  E: number,
  nu: number,
  extra: { thickness?: number; planeStrain?: boolean } = {},
): TriangleFEMForceField {
  const ff = new TriangleFEMForceField();
  ff.method.value = method;
  ff.youngModulus.value = E;
  ff.poissonRatio.value = nu;
  if (extra.thickness !== undefined) ff.thickness.value = extra.thickness;
  if (extra.planeStrain !== undefined) ff.planeStrain.value = extra.planeStrain;
  return ff;
}

describe('TriangleFEMForceField', () => {
  sharedTriangleFemChecks((method, E, nu) => tfem(method, E, nu));

  const rest = [0, 0, 0, 2, 0, 0, 0, 3, 0];
  const stretched = Float64Array.of(0, 0, 0, 2.2, 0, 0, 0, 3, 0);

  it('scales with the thickness, and in plane strain uses E(1 − ν)/((1 + ν)(1 − 2ν))', () => {
    const one = tfem('large', 1000, 0.3);
    buildNode(rest, topologyOf(3, [0, 1, 2]), [one]);
    const thick = tfem('large', 1000, 0.3, { thickness: 0.25 });
    buildNode(rest, topologyOf(3, [0, 1, 2]), [thick]);
    const f1 = forceAt(one, stretched),
      f4 = forceAt(thick, stretched);
    for (let i = 0; i < 9; i++) expect(f4[i]).to.be.closeTo(0.25 * f1[i], 1e-12);
    // plane strain, uniaxial stretch e of AB: f_B.x = −E(1−ν)/((1+ν)(1−2ν))·H·e/(2(1+e)²)
    const ps = tfem('large', 1000, 0.3, { planeStrain: true });
    buildNode(rest, topologyOf(3, [0, 1, 2]), [ps]);
    const f = forceAt(ps, stretched);
    const e = 0.1,
      nu = 0.3;
    expect(f[3]).to.be.closeTo((((-1000 * (1 - nu)) / ((1 + nu) * (1 - 2 * nu))) * 3 * e) / (2 * (1 + e) ** 2), 1e-10);
    // f_C.y = −ν·E/((1+ν)(1−2ν))·L·e/(2(1+e))
    expect(f[7]).to.be.closeTo((((-nu * 1000) / ((1 + nu) * (1 - 2 * nu))) * 2 * e) / (2 * (1 + e)), 1e-10);
  });

  it('splits quads into (q0, q1, q2) and (q0, q2, q3) when the topology has no triangles', () => {
    const sq = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0];
    const ff = tfem('large', 100, 0.3);
    buildNode(sq, new StubTopology(4, { quads: [0, 1, 2, 3] }), [ff]);
    expect(ff.elementCount).to.equal(2);
    const tri = (ff as unknown as { tri: Uint32Array }).tri;
    expect(Array.from(tri)).to.deep.equal([0, 1, 2, 0, 2, 3]);
  });

  it('takes its rest shape from initialPoints when given', () => {
    const ff = tfem('large', 1000, 0.3);
    ff.initialPoints.value = Float64Array.from(stretched);
    buildNode(rest, topologyOf(3, [0, 1, 2]), [ff]);
    for (const fi of forceAt(ff, stretched)) expect(Math.abs(fi)).to.be.below(1e-12);
    expect(Math.abs(forceAt(ff, Float64Array.from(rest))[3])).to.be.greaterThan(1);
  });
});
