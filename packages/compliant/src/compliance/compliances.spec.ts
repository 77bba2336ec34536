import { expect } from 'chai';
import { Node, Vec1d, Vec3d } from '@sofa-ts/core';
import { DampingCompliance } from './DampingCompliance.js';
import { DiagonalCompliance } from './DiagonalCompliance.js';
import { DiagonalStiffness } from './DiagonalStiffness.js';
import { UniformCompliance } from './UniformCompliance.js';
import { UniformStiffness } from './UniformStiffness.js';
import type { DiagonalForceField } from './diagonal-force-field.js';
import { DenseAccumulator, TestState } from '../test-support.js';

function mount<F extends DiagonalForceField>(ff: F, state: TestState, mapped: boolean, dt = 0.01): F {
  const node = new Node('n');
  node.dt.value = dt;
  node.addObject(state);
  node.addObject(ff);
  ff.mstate.set(state);
  ff.init();
  ff.setStateIsMapped(mapped);
  return ff;
}

const diag = (a: number[][]) => a.map((r, i) => r[i]);
const offDiagonalZero = (a: number[][]) => a.every((r, i) => r.every((v, j) => i === j || v === 0));

describe('compliant: compliances and stiffnesses', () => {
  const x = [0.5, -1, 2];

  it('UniformCompliance as a compliance: C = c·I (factor applied), no force, no K, damping B = −d·I', () => {
    const c = new UniformCompliance();
    c.compliance.value = 0.25;
    c.damping.value = 3;
    mount(c, new TestState(Vec1d, 3, x), true);
    expect(c.actsAsCompliance).to.equal(true);
    const C = new DenseAccumulator(3),
      K = new DenseAccumulator(3),
      B = new DenseAccumulator(3);
    c.addComplianceToMatrix(C, 2);
    c.addKToMatrix(K, 1);
    c.addBToMatrix(B, 1);
    expect(diag(C.a)).to.deep.equal([0.5, 0.5, 0.5]);
    expect(K.a.flat().every((v) => v === 0)).to.equal(true);
    expect(diag(B.a)).to.deep.equal([-3, -3, -3]);
    const f = new Float64Array(3);
    c.addForce([f], [Float64Array.from(x)], [new Float64Array(3)]);
    expect(Array.from(f)).to.deep.equal([0, 0, 0]);
  });

  it('UniformCompliance as a stiffness (isCompliance 0, or on a master): K = −C⁻¹, f = K·x = −∂E/∂x, addDForce = K·dx', () => {
    for (const [isC, mapped] of [
      [false, true],
      [true, false],
    ] as const) {
      const c = new UniformCompliance();
      c.compliance.value = 0.25;
      c.isCompliance.value = isC;
      mount(c, new TestState(Vec1d, 3, x), mapped);
      expect(c.actsAsCompliance).to.equal(false);
      const K = new DenseAccumulator(3);
      c.addKToMatrix(K, 1);
      expect(diag(K.a)).to.deep.equal([-4, -4, -4]);
      const f = new Float64Array(3);
      c.addForce([f], [Float64Array.from(x)], [new Float64Array(3)]);
      // f = −∂E/∂x by central differences of E = ½·k·x²
      for (let i = 0; i < 3; i++) {
        const xp = Float64Array.from(x),
          xm = Float64Array.from(x);
        xp[i] += 1e-6;
        xm[i] -= 1e-6;
        const dE = (c.getPotentialEnergy([xp]) - c.getPotentialEnergy([xm])) / 2e-6;
        expect(f[i]).to.be.closeTo(-dE, 1e-6);
      }
      const df = new Float64Array(3);
      c.addDForce([df], [Float64Array.of(1, 2, 3)], 0.5, 0);
      expect(Array.from(df)).to.deep.equal([-2, -4, -6]);
    }
  });

  it('a zero compliance is a hard constraint (C = 0 emitted) and a stiffness 1/ε', () => {
    const c = new UniformCompliance();
    mount(c, new TestState(Vec1d, 1, [1]), true);
    const C = new DenseAccumulator(1);
    c.addComplianceToMatrix(C, 1);
    expect(C.a).to.deep.equal([[0]]);
    c.setStateIsMapped(false);
    const K = new DenseAccumulator(1);
    c.addKToMatrix(K, 1);
    expect(K.a[0][0]).to.equal(-1 / Number.EPSILON);
  });

  it('DiagonalCompliance: one value per dof; damping values repeat their last entry', () => {
    const c = new DiagonalCompliance();
    c.compliance.value = Float64Array.of(1, 2, 4, 0.5, 0.25, 8);
    c.damping.value = Float64Array.of(1, 2);
    mount(c, new TestState(Vec3d, 2), true);
    const C = new DenseAccumulator(6),
      B = new DenseAccumulator(6);
    c.addComplianceToMatrix(C, 1);
    c.addBToMatrix(B, -1);
    expect(diag(C.a)).to.deep.equal([1, 2, 4, 0.5, 0.25, 8]);
    expect(offDiagonalZero(C.a)).to.equal(true);
    expect(diag(B.a)).to.deep.equal([1, 2, 2, 2, 2, 2]);
    c.setStateIsMapped(false);
    const K = new DenseAccumulator(6);
    c.addKToMatrix(K, 1);
    expect(diag(K.a)).to.deep.equal([-1, -0.5, -0.25, -2, -4, -0.125]);
    c.compliance.value = Float64Array.of(1);
    expect(() => c.reinit()).to.throw(/compliance has 1 values, the state has 6 dofs/);
  });

  it('UniformStiffness / DiagonalStiffness are stiffnesses by default: f = −k·x; as compliances C = 1/k', () => {
    const u = new UniformStiffness();
    u.stiffness.value = 10;
    u.damping.value = 0.5;
    mount(u, new TestState(Vec1d, 2, [1, -2]), true);
    expect(u.isCompliance.value).to.equal(false);
    const f = new Float64Array(2);
    u.addForce([f], [Float64Array.of(1, -2)], [new Float64Array(2)]);
    expect(Array.from(f)).to.deep.equal([-10, 20]);
    const df = new Float64Array(2);
    u.addDForce([df], [Float64Array.of(1, 1)], 0, 2); // B·dx with B = −0.5·I, factor 2
    expect(Array.from(df)).to.deep.equal([-1, -1]);
    u.isCompliance.value = true;
    const C = new DenseAccumulator(2);
    u.addComplianceToMatrix(C, 1);
    expect(diag(C.a)).to.deep.equal([0.1, 0.1]);
    const d = new DiagonalStiffness();
    d.stiffness.value = Float64Array.of(2, 0);
    mount(d, new TestState(Vec1d, 2), true);
    d.isCompliance.value = true;
    const C2 = new DenseAccumulator(2);
    d.addComplianceToMatrix(C2, 1);
    expect(diag(C2.a)).to.deep.equal([0.5, 1e100]);
  });

  it('DampingCompliance: C = h/d as a compliance, nothing as a stiffness or with d = 0', () => {
    const c = new DampingCompliance();
    c.damping.value = 4;
    mount(c, new TestState(Vec1d, 2), true, 0.02);
    const C = new DenseAccumulator(2);
    c.addComplianceToMatrix(C, 1);
    expect(diag(C.a)).to.deep.equal([0.005, 0.005]);
    c.damping.value = 0;
    expect(c.actsAsCompliance).to.equal(false);
    const f = new Float64Array(2);
    c.addForce([f], [Float64Array.of(1, 1)], [new Float64Array(2)]);
    expect(Array.from(f)).to.deep.equal([0, 0]);
  });
});
