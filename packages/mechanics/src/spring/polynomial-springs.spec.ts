import { expect } from 'chai';
import { PolynomialRestShapeSpringsForceField } from './PolynomialRestShapeSpringsForceField.js';
import { PolynomialSpringsForceField } from './PolynomialSpringsForceField.js';
import { buildNode, rng } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';

function force(ff: { addForce(f: Float64Array[], x: Float64Array[], v: Float64Array[]): void }, x: Float64Array): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [new Float64Array(x.length)]);
  return f;
}

describe('PolynomialSpringsForceField', () => {
  it('F = p(|l − l0|/l0) along the spring (l0 at the first evaluation), nothing when compressed unless compressible; K = ∂f/∂x', () => {
    const p = new PolynomialSpringsForceField();
    p.firstObjectPoints.value = Uint32Array.of(0);
    p.secondObjectPoints.value = Uint32Array.of(1);
    p.polynomialStiffness.value = Float64Array.of(10, 4, 2); // p(s) = 10s + 4s² + 2s³
    p.polynomialDegree.value = Uint32Array.of(3);
    const x0 = [0, 0, 0, 2, 0, 0];
    buildNode(x0, undefined, [p]);
    expect(Array.from(force(p, Float64Array.from(x0))).every((v) => v === 0)).to.equal(true);
    const x = Float64Array.of(0, 0, 0, 3, 0, 0); // s = 0.5
    const f = force(p, x);
    const P = 10 * 0.5 + 4 * 0.25 + 2 * 0.125;
    expect(f[0]).to.be.closeTo(P, 1e-14);
    expect(f[3]).to.be.closeTo(-P, 1e-14);
    expect(Array.from(force(p, Float64Array.of(0, 0, 0, 1.5, 0, 0))).every((v) => v === 0)).to.equal(true);
    const r = rng(1);
    const xs = Float64Array.of(0.1, -0.2, 0.3, 2.6 + 0.1 * r(), 0.4, -0.3);
    const { K, FD } = stiffnessAndFiniteDifferences(p, xs, new Float64Array(6));
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-6);
    p.compressible.value = true;
    const xc = Float64Array.of(0, 0.1, 0, 1.4, 0.3, 0.2);
    expect(force(p, xc)[0]).to.be.below(0);
    const c = stiffnessAndFiniteDifferences(p, xc, new Float64Array(6));
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(c.K[i][j]).to.be.closeTo(c.FD[i][j], 1e-6);
  });
});

describe('PolynomialRestShapeSpringsForceField', () => {
  it('f = −p(r/L0)·d/√(r² + e^(shift − scale·r²)) towards the rest position; K = ∂f/∂x', () => {
    const p = new PolynomialRestShapeSpringsForceField();
    p.polynomialStiffness.value = Float64Array.of(5, 3, 5, 3);
    p.polynomialDegree.value = Uint32Array.of(2, 2);
    p.initialLength.value = Float64Array.of(0.5);
    p.smoothShift.value = -2;
    p.smoothScale.value = 3;
    const x0 = [0, 0, 0, 1, 1, 1];
    buildNode(x0, undefined, [p]);
    const x = Float64Array.of(0.3, -0.4, 0, 1, 1, 1.2);
    const f = force(p, x);
    const r = 0.5,
      s = r / 0.5,
      P = 5 * s + 3 * s * s,
      D = Math.sqrt(r * r + Math.exp(-2 - 3 * r * r));
    expect(f[0]).to.be.closeTo((-P * 0.3) / D, 1e-14);
    expect(f[1]).to.be.closeTo((-P * -0.4) / D, 1e-14);
    const { K, FD } = stiffnessAndFiniteDifferences(p, x, new Float64Array(6));
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-6);
  });
});
