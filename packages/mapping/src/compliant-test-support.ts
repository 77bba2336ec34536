/**
 * Helpers for the specs of the multi-mappings and of the non-linear mappings' geometric stiffness
 * (not exported from the package): mounting a multi-mapping on stub states, J_i against central
 * differences of apply for every input, the dot-product test of applyJT, and K_geo against
 * central differences of Jᵀ·f for a fixed child force.
 */
import { expect } from 'chai';
import { Node, type BaseMapping, type BaseMechanicalState } from '@sofa-ts/core';
import type { MultiMappingComponent } from './multi-mapping-component.js';
import { DenseAccumulator, dense, perturb, rng, type StubState } from './test-support.js';

/** Root node; each input in its own child node; the output and the mapping in a last child. Links set, mapping initialised. */
export function mountMulti<M extends MultiMappingComponent>(mapping: M, froms: StubState[], to: StubState): M {
  const root = new Node('root');
  froms.forEach((s, i) => {
    root.createChild(`in${i}`).addObject(s);
    s.componentState = 'valid';
  });
  const child = root.createChild('mapped');
  child.addObject(to);
  child.addObject(mapping);
  mapping.input.setAll(froms);
  mapping.output.setAll([to]);
  mapping.init();
  return mapping;
}

/** Random numbers in [−1, 1). */
export function randomArray(n: number, seed: number): Float64Array {
  const r = rng(seed);
  return Float64Array.from({ length: n }, () => 2 * r() - 1);
}

/**
 * For every input i: J_i (getJ after apply) equals central differences of apply with respect to
 * input i's derivative coordinates (world-frame rotations for Rigid3d), and applyJ equals Σ J_i·u_i
 * for random u_i. Output coordinates and derivatives must share their layout (Vec outputs).
 */
export function checkMultiJacobian(
  mapping: BaseMapping,
  froms: StubState[],
  to: BaseMechanicalState,
  seed: number,
  h = 1e-6,
  tol = 1e-7,
): void {
  mapping.apply();
  const nOut = to.size * to.stateType.derivSize;
  froms.forEach((from, i) => {
    const J = dense(mapping.getJ(i));
    const nIn = from.size * from.stateType.derivSize;
    expect(J.length).to.equal(nOut);
    if (nOut > 0) expect(J[0].length).to.equal(nIn);
    const base = Float64Array.from(from.x);
    for (let j = 0; j < nIn; j++) {
      from.x.set(base);
      perturb(from.stateType, from.x, j, h);
      mapping.apply();
      const plus = Float64Array.from(to.x);
      from.x.set(base);
      perturb(from.stateType, from.x, j, -h);
      mapping.apply();
      for (let r = 0; r < nOut; r++) {
        const fd = (plus[r] - to.x[r]) / (2 * h);
        expect(Math.abs(fd - J[r][j]), `J_${i}[${r}][${j}] = ${J[r][j]} vs finite difference ${fd}`).to.be.below(
          tol * Math.max(1, Math.abs(fd)),
        );
      }
    }
    from.x.set(base);
  });
  mapping.apply();
  const us = froms.map((s, i) => randomArray(s.size * s.stateType.derivSize, seed + i));
  const out = new Float64Array(nOut);
  mapping.applyJ(out, us);
  const expected = new Float64Array(nOut);
  froms.forEach((_, i) => {
    const J = dense(mapping.getJ(i));
    for (let r = 0; r < nOut; r++) for (let c = 0; c < J[r].length; c++) expected[r] += J[r][c] * us[i][c];
  });
  for (let r = 0; r < nOut; r++) expect(out[r]).to.be.closeTo(expected[r], 1e-12 * Math.max(1, Math.abs(expected[r])));
}

/** Σ_i ⟨u_i, J_iᵀ·w⟩ = ⟨Σ_i J_i·u_i, w⟩ for random u_i, w (applyJT accumulates onto a non-zero start). */
export function checkMultiTranspose(mapping: BaseMapping, sizes: readonly number[], nOut: number, seed: number): void {
  const us = sizes.map((n, i) => randomArray(n, seed + 10 * i));
  const w = randomArray(nOut, seed + 1000);
  const starts = sizes.map((n, i) => randomArray(n, seed + 10 * i + 5));
  const ju = new Float64Array(nOut);
  mapping.applyJ(ju, us);
  const jtw = starts.map((s) => Float64Array.from(s));
  mapping.applyJT(jtw, w);
  let lhs = 0;
  for (let r = 0; r < nOut; r++) lhs += ju[r] * w[r];
  let rhs = 0;
  sizes.forEach((n, i) => {
    for (let k = 0; k < n; k++) rhs += us[i][k] * (jtw[i][k] - starts[i][k]);
  });
  expect(lhs).to.be.closeTo(rhs, 1e-12 * Math.max(1, Math.abs(lhs)));
}

/** Jᵀ·f at the current input positions (after apply), for a single-input mapping. */
function jtf(mapping: BaseMapping, nIn: number, childForce: Float64Array): Float64Array {
  mapping.apply();
  const g = new Float64Array(nIn);
  mapping.applyJT([g], childForce);
  return g;
}

/** Dense kFactor·K_geo as the mapping emits it (single input), with the emitted (row, col) sequence. */
export function emittedGeometricStiffness(mapping: BaseMapping, nIn: number, childForce: Float64Array, kFactor: number): DenseAccumulator {
  const acc = new DenseAccumulator(nIn);
  mapping.addGeometricStiffness(acc, childForce, kFactor);
  return acc;
}

/**
 * K_geo (emitted with kFactor = 1) equals ∂(Jᵀ·f)/∂x by central differences for the fixed child
 * force f, and applyDJT(dx) equals kFactor·K_geo·dx for a random dx.
 */
export function checkGeometricStiffness(
  mapping: BaseMapping,
  from: StubState,
  childForce: Float64Array,
  seed: number,
  h = 1e-6,
  tol = 1e-6,
): void {
  const nIn = from.size * from.stateType.derivSize;
  mapping.apply();
  const K = emittedGeometricStiffness(mapping, nIn, childForce, 1).A;
  const base = Float64Array.from(from.x);
  for (let j = 0; j < nIn; j++) {
    from.x.set(base);
    perturb(from.stateType, from.x, j, h);
    const plus = jtf(mapping, nIn, childForce);
    from.x.set(base);
    perturb(from.stateType, from.x, j, -h);
    const minus = jtf(mapping, nIn, childForce);
    for (let r = 0; r < nIn; r++) {
      const fd = (plus[r] - minus[r]) / (2 * h);
      expect(Math.abs(fd - K[r][j]), `K[${r}][${j}] = ${K[r][j]} vs finite difference ${fd}`).to.be.below(tol * Math.max(1, Math.abs(fd)));
    }
  }
  from.x.set(base);
  mapping.apply();
  const dx = randomArray(nIn, seed);
  const kFactor = 0.7;
  const df = randomArray(nIn, seed + 1);
  const start = Float64Array.from(df);
  mapping.applyDJT([df], [dx], childForce, kFactor);
  for (let r = 0; r < nIn; r++) {
    let kdx = 0;
    for (let c = 0; c < nIn; c++) kdx += K[r][c] * dx[c];
    expect(df[r] - start[r]).to.be.closeTo(kFactor * kdx, 1e-12 * Math.max(1, Math.abs(kdx)));
  }
}
