import type { BaseForceField } from '@sofa-ts/core';

/**
 * Test helper: the dense K a force field emits at x (after addForce at x), and the central
 * finite differences ∂f/∂x_j ≈ (f(x + h·e_j) − f(x − h·e_j)) / 2h of its force, both (n × n).
 */
export function stiffnessAndFiniteDifferences(ff: BaseForceField, x: Float64Array, v: Float64Array, h = 1e-6): { K: number[][]; FD: number[][] } {
  const n = x.length;
  const force = (at: Float64Array): Float64Array => {
    const f = new Float64Array(n);
    ff.addForce([f], [at], [v]);
    return f;
  };
  const FD = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < n; j++) {
    const xp = Float64Array.from(x);
    const xm = Float64Array.from(x);
    xp[j] += h;
    xm[j] -= h;
    const fp = force(xp);
    const fm = force(xm);
    for (let i = 0; i < n; i++) FD[i]![j] = (fp[i]! - fm[i]!) / (2 * h);
  }
  force(x);
  const K = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  ff.addKToMatrix({ add: (r, c, val) => (K[r]![c]! += val) }, 1);
  return { K, FD };
}
