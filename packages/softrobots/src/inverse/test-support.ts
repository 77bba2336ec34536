/**
 * Helpers of the inverse components' specs (not exported from the package): a state holding plain
 * arrays (with its free positions), mounting a constraint on it in a node, its dense rows J, its
 * violation δ_free and the check J == central finite differences of δ_free.
 */
import {
  ArrayMechanicalState,
  BaseMechanicalState,
  Node,
  type BaseLagrangianConstraint,
  type BaseObject,
  type ConstraintJacobianBuilder,
  type Link,
  type StateType,
} from '@sofa-ts/core';

/** Deterministic uniform [0, 1) generator (LCG). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
}

/** A state over plain arrays with free positions = positions (core's ArrayMechanicalState). */
export class TestState extends ArrayMechanicalState {
  constructor(type: StateType, x: ArrayLike<number>) {
    super(type, x, { freeVectors: true });
  }
}

type Mountable = BaseLagrangianConstraint & { readonly mstate: Link<BaseMechanicalState> };

/** Puts the state, `others` and the constraint in a node, links the state and runs init and bwdInit. */
export function mount<C extends Mountable>(c: C, state: TestState, others: BaseObject[] = []): C {
  const root = new Node('root');
  root.addObject(state);
  for (const o of others) root.addObject(o);
  root.addObject(c);
  c.mstate.set(state);
  c.init();
  c.bwdInit();
  return c;
}

/** Dense rows J (rows × state's deriv scalars) of the constraint, built from row 0. */
export function jacobian(c: BaseLagrangianConstraint, state: TestState): Float64Array[] {
  const d = state.stateType.derivSize,
    cols = state.size * d;
  const rows: Float64Array[] = [];
  const J: ConstraintJacobianBuilder = {
    add(s, row, point, values, scale = 1) {
      if (s !== state) throw new Error('a row on another state');
      while (rows.length <= row) rows.push(new Float64Array(cols));
      for (let a = 0; a < d; a++) rows[row][point * d + a] += scale * values[a];
    },
  };
  const m = c.buildConstraintMatrix(J, 0, 'pos');
  while (rows.length < m) rows.push(new Float64Array(cols));
  return rows.slice(0, m);
}

/** δ_free of the constraint's rows (its rows start at 0; build them first). */
export function violation(c: BaseLagrangianConstraint, m: number, dt = 0.1): Float64Array {
  const out = new Float64Array(m);
  c.getConstraintViolation(out, 'pos', dt);
  return out;
}

/**
 * Largest |J − FD| over every row and every deriv component of every point, FD the central
 * difference (step h) of δ_free as the free positions move along that component (rigid frames
 * rotate by the state type's own integration).
 */
export function jacobianError(c: BaseLagrangianConstraint, state: TestState, h = 1e-6): number {
  const J = jacobian(c, state);
  const m = J.length;
  const t = state.stateType,
    d = t.derivSize,
    cs = t.coordSize,
    n = state.size;
  const base = Float64Array.from(state.xFree);
  const dir = new Float64Array(d);
  const point = new Float64Array(cs);
  let err = 0;
  for (let p = 0; p < n; p++) {
    for (let a = 0; a < d; a++) {
      dir.fill(0);
      dir[a] = 1;
      const shifted = (s: number): Float64Array => {
        state.xFree.set(base);
        t.addDerivToCoord(point, base.subarray(p * cs, p * cs + cs), dir, s, 1);
        state.xFree.set(point, p * cs);
        return violation(c, m);
      };
      const plus = shifted(h),
        minus = shifted(-h);
      for (let r = 0; r < m; r++) err = Math.max(err, Math.abs((plus[r] - minus[r]) / (2 * h) - J[r][p * d + a]));
    }
  }
  state.xFree.set(base);
  jacobian(c, state);
  return err;
}
