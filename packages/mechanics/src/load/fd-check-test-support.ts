import type { BaseForceField, StateType } from '@sofa-ts/core';

/**
 * Test helper: the dense K a force field emits at x (after addForce at x), and the central
 * finite differences ∂f/∂x_j ≈ (f(x ⊕ h·e_j) − f(x ⊕ −h·e_j)) / 2h of its force, both (n × n) in
 * derivative coordinates. Without `type`, x is a Vec state (x ⊕ h·e_j = x + h·e_j); with a Rigid
 * type, x holds coordinates and e_j moves them through the type's own increment (a rotation of
 * angle h about world axis j for the orientation of a Rigid3d frame).
 */
export function stiffnessAndFiniteDifferences(
  ff: BaseForceField,
  x: Float64Array,
  v: Float64Array,
  h = 1e-6,
  type?: StateType,
): { K: number[][]; FD: number[][] } {
  const points = type ? x.length / type.coordSize : x.length;
  const n = type ? points * type.derivSize : x.length;
  const force = (at: Float64Array): Float64Array => {
    const f = new Float64Array(n);
    ff.addForce([f], [at], [v]);
    return f;
  };
  const moved = (j: number, s: number): Float64Array => {
    const y = Float64Array.from(x);
    if (!type) {
      y[j] += s;
      return y;
    }
    const e = new Float64Array(n);
    e[j] = 1;
    type.addDerivToCoord(y, x, e, s, points);
    return y;
  };
  const FD = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < n; j++) {
    const fp = force(moved(j, h));
    const fm = force(moved(j, -h));
    for (let i = 0; i < n; i++) FD[i][j] = (fp[i] - fm[i]) / (2 * h);
  }
  force(x);
  const K = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  ff.addKToMatrix({ add: (r, c, val) => (K[r][c] += val) }, 1);
  return { K, FD };
}
