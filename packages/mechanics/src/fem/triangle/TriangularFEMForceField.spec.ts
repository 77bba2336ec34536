import { expect } from 'chai';
import { TriangularFEMForceField } from './TriangularFEMForceField.js';
import { forceAt, sharedTriangleFemChecks, topologyOf } from './triangle-fem-test-support.js';
import { buildNode, StubTopology } from '../../mass/mesh-test-support.js';

function tfem(method: 'large' | 'small', E: number | number[], nu: number): TriangularFEMForceField {
  const ff = new TriangularFEMForceField();
  ff.method.value = method;
  ff.youngModulus.value = Float64Array.from(typeof E === 'number' ? [E] : E);
  ff.poissonRatio.value = Float64Array.of(nu);
  return ff;
}

describe('TriangularFEMForceField', () => {
  sharedTriangleFemChecks((method, E, nu) => tfem(method, E, nu));

  it('takes one Young modulus per triangle when given as many', () => {
    // two separate, equal triangles stretched alike; the second is three times stiffer
    const rest = [0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 0, 0, 6, 0, 0, 5, 1, 0];
    const ff = tfem('large', [100, 300], 0.3);
    buildNode(rest, topologyOf(6, [0, 1, 2, 3, 4, 5]), [ff]);
    const x = Float64Array.from(rest);
    x[3] += 0.1;
    x[12] += 0.1;
    const f = forceAt(ff, x);
    for (let i = 0; i < 9; i++) expect(f[9 + i]).to.be.closeTo(3 * f[i], 1e-12);
    expect(Math.abs(f[3])).to.be.greaterThan(1);
  });

  it('gives the principal stresses and the Hosford criterion with computePrincipalStress', () => {
    const ff = tfem('large', 1000, 0.3);
    ff.computePrincipalStress.value = true;
    ff.hosfordExponant.value = 2;
    ff.criteriaValue.value = 10;
    buildNode([0, 0, 0, 2, 0, 0, 0, 3, 0], topologyOf(3, [0, 1, 2]), [ff]);
    const e = 0.1;
    forceAt(ff, Float64Array.of(0, 0, 0, 2 * (1 + e), 0, 0, 0, 3, 0));
    // stresses (area 3 included): σxx = Ê·3·ε, σyy = ν·σxx, τ = 0 with ε = −e/(1+e)
    const sxx = (1000 / (1 - 0.09)) * 3 * (-e / (1 + e));
    const syy = 0.3 * sxx;
    expect(ff.maxStress[0]).to.be.closeTo(Math.abs(sxx), 1e-9);
    const hosford = Math.sqrt(0.5 * (sxx * sxx + syy * syy + (sxx - syy) ** 2));
    expect(ff.differenceToCriteria[0]).to.be.closeTo(hosford - 10, 1e-9);
    expect(Math.abs(ff.principalStressDirection[0])).to.be.closeTo(Math.abs(sxx) / 100, 1e-12);
    expect(ff.principalStressDirection[1]).to.be.closeTo(0, 1e-12);
  });

  it('re-reads the triangles when the topology changes', () => {
    const topo = new StubTopology(4, { triangles: [0, 1, 2] });
    const ff = tfem('large', 100, 0.3);
    const rest = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0];
    buildNode(rest, topo, [ff]);
    expect(ff.elementCount).to.equal(1);
    topo.elems.triangles = [0, 1, 2, 2, 1, 3];
    topo.revision++;
    const f = forceAt(ff, Float64Array.from(rest));
    expect(ff.elementCount).to.equal(2);
    for (const fi of f) expect(Math.abs(fi)).to.be.below(1e-12);
  });
});
