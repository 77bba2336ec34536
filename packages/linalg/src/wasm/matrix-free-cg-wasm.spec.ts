import { expect } from 'chai';
import { CgWorkspace, conjugateGradient, type CgParams } from '../conjugate-gradient.js';
import { MatrixFreeCgWasm } from './matrix-free-cg-wasm.js';
import { wasmApi } from './wasm-module.js';

/** SOFA's node-wise dot of a Vec3 state (MechanicalSystem.dot): per node a₀b₀ + a₁b₁ + a₂b₂, nodes in order, added to 0. */
function nodeDot(a: Float64Array, b: Float64Array): number {
  let r = 0;
  for (let o = 0; o < a.length; o += 3) {
    let s = a[o] * b[o];
    for (let k = 1; k < 3; k++) s += a[o + k] * b[o + k];
    r += s;
  }
  return 0 + r;
}

const bitwise = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describe("MatrixFreeCgWasm (a matrix-free CG in a product's WebAssembly memory)", () => {
  const nodes = 150;
  const n = 3 * nodes;
  // a product's memory: p at 16, q after it, then the free area
  const p0 = 16,
    q0 = p0 + 8 * n,
    area = Math.ceil((q0 + 8 * n) / 16) * 16;
  const api = wasmApi()!;
  const memory = new api.Memory({ initial: 4, maximum: 4, shared: true });
  // the force field's part of the product, called by the kernel: q += k·L·p
  let productCalls = 0;
  const product = (k: number) => {
    productCalls++;
    laplacian(cg.q, cg.p, k);
  };
  const cg = MatrixFreeCgWasm.create({ memory, p: p0, q: q0, area, areaBytes: MatrixFreeCgWasm.bytes(nodes) }, nodes, product)!;
  const masses = Float64Array.from({ length: nodes }, (_, i) => 0.5 + ((i * 7) % 11) / 10);
  const fixed = [0, 1, 2, 30, 31, 32, 3 * 77 + 1];
  const mFactor = 1.002,
    kFactor = -0.37;

  /** The JavaScript path: q = 0; q += (p·mᵢ)·m; q += k·L·p (a chain Laplacian of the nodes); fixed dofs zeroed. */
  function jsProduct(q: Float64Array, p: Float64Array): void {
    q.fill(0);
    for (let i = 0; i < nodes; i++) for (let c = 0; c < 3; c++) q[3 * i + c] += p[3 * i + c] * masses[i] * mFactor;
    laplacian(q, p, kFactor);
    for (const d of fixed) q[d] = 0;
  }
  function laplacian(q: Float64Array, p: Float64Array, k: number): void {
    for (let i = 0; i + 1 < nodes; i++)
      for (let c = 0; c < 3; c++) {
        const d = (p[3 * i + c] - p[3 * i + 3 + c]) * k * -(1 + (i % 3));
        q[3 * i + c] += d;
        q[3 * i + 3 + c] -= d;
      }
  }

  it('mass product, zeroed dofs and the node-wise dots are the JavaScript operations bit for bit (signed zeros included)', () => {
    const p = Float64Array.from({ length: n }, (_, i) => (i % 13 === 0 ? -0 : Math.sin(i)));
    cg.p.set(p);
    cg.masses.set(masses);
    cg.massProduct(mFactor);
    const js = new Float64Array(n);
    for (let i = 0; i < nodes; i++) for (let c = 0; c < 3; c++) js[3 * i + c] += p[3 * i + c] * masses[i] * mFactor;
    expect(bitwise(cg.q, js)).to.equal(true);
    expect(Object.is(cg.q[0], 0)).to.equal(true); // 0 + (−0·m)·m = +0
    fixed.forEach((d, j) => (cg.dofs[j] = d));
    cg.zeroDofs(fixed.length);
    for (const d of fixed) js[d] = 0;
    expect(bitwise(cg.q, js)).to.equal(true);
    Object.assign(cg.config, { useMass: true, m: mFactor, useProduct: false, k: 0, dofCount: fixed.length });
    expect(Object.is(cg.productDot(), nodeDot(p, js))).to.equal(true);
  });

  it('conjugateGradient with it as kernel gives the iterates of the JavaScript loop with node-wise dots, bit for bit, whether the loop runs in JavaScript or in one call (iterate)', () => {
    cg.masses.set(masses);
    fixed.forEach((d, j) => (cg.dofs[j] = d));
    Object.assign(cg.config, { useMass: true, m: mFactor, useProduct: true, k: kFactor, dofCount: fixed.length });
    // the same kernel without `iterate`: conjugateGradient's JavaScript loop over its operations
    const jsLoop = {
      x: cg.x,
      r: cg.r,
      p: cg.p,
      q: cg.q,
      direction: (beta: number) => cg.direction(beta),
      productDot: () => cg.productDot(),
      update: (alpha: number) => cg.update(alpha),
    };
    const b = Float64Array.from({ length: n }, (_, i) => Math.cos(0.3 * i) + 0.2);
    for (const d of fixed) b[d] = 0;
    const ws = new CgWorkspace(n);
    const reasons = new Set<string>();
    for (const params of [
      { maxIterations: 25, tolerance: 1e-9, threshold: 1e-9, warmStart: false, firstSolve: true },
      { maxIterations: 400, tolerance: 1e-10, threshold: 1e-30, warmStart: false, firstSolve: false },
      { maxIterations: 400, tolerance: 1e-30, threshold: 1e-8, warmStart: true, firstSolve: false },
      // a tolerance met at once: iteration 1 of the first solve carries on, a later solve stops there
      { maxIterations: 30, tolerance: 10, threshold: 0, warmStart: false, firstSolve: true },
      { maxIterations: 30, tolerance: 10, threshold: 0, warmStart: false, firstSolve: false },
      { maxIterations: 0, tolerance: 1e-9, threshold: 1e-9, warmStart: false, firstSolve: false },
    ] satisfies CgParams[]) {
      const x0 = Float64Array.from({ length: n }, (_, i) => 0.01 * Math.sin(i));
      const xa = x0.slice(),
        xb = x0.slice(),
        xc = x0.slice();
      const ra = { ...conjugateGradient(jsProduct, b, xa, { ...params, dot: nodeDot }, ws) };
      productCalls = 0;
      const rb = { ...conjugateGradient(jsProduct, b, xb, { ...params, dot: nodeDot, kernel: cg }, ws) };
      const callsInOneCall = productCalls;
      const rc = { ...conjugateGradient(jsProduct, b, xc, { ...params, dot: nodeDot, kernel: jsLoop }, ws) };
      expect(rb).to.deep.equal(ra);
      expect(rc).to.deep.equal(ra);
      expect(bitwise(xb, xa)).to.equal(true);
      expect(bitwise(xc, xa)).to.equal(true);
      // one product per iteration that reached it (a stop on the tolerance comes before the product)
      expect(callsInOneCall).to.equal(ra.reason === 'tolerance' ? ra.iterations - 1 : ra.iterations);
      reasons.add(ra.reason);
    }
    expect([...reasons].sort()).to.deep.equal(['iterations', 'threshold', 'tolerance']);
  });

  it('stops on a zero denominator (p·Ap = 0) as the JavaScript loop does', () => {
    Object.assign(cg.config, { useMass: false, m: 0, useProduct: false, k: 0, dofCount: 0 });
    const b = Float64Array.from({ length: n }, (_, i) => 1 + (i % 5));
    const ws = new CgWorkspace(n);
    const zero = (q: Float64Array) => q.fill(0);
    const params = { maxIterations: 10, tolerance: 1e-9, threshold: 1e-9, warmStart: false, firstSolve: false, dot: nodeDot };
    const xa = new Float64Array(n),
      xb = new Float64Array(n);
    const ra = { ...conjugateGradient(zero, b, xa, params, ws) };
    const rb = { ...conjugateGradient(zero, b, xb, { ...params, kernel: cg }, ws) };
    expect(ra.reason).to.equal('zero-denominator');
    expect(rb).to.deep.equal(ra);
  });

  it('refuses a free area too small for its vectors', () => {
    expect(MatrixFreeCgWasm.create({ memory, p: p0, q: q0, area, areaBytes: MatrixFreeCgWasm.bytes(nodes) - 16 }, nodes, product)).to.equal(
      undefined,
    );
  });
});
