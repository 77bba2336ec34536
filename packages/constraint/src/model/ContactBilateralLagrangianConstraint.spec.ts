import { expect } from 'chai';
import { ArrayMechanicalState, Vec3d, type BaseMechanicalState, type ConstraintResolution, type ContactPointSet } from '@sofa-ts/core';
import { ContactBilateralLagrangianConstraint } from './ContactBilateralLagrangianConstraint.js';

/** A Vec3 state over plain arrays, with free positions and velocities. */
class PlainState extends ArrayMechanicalState {
  constructor(x: ArrayLike<number>) {
    super(Vec3d, x, { freeVectors: true });
  }
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** One contact point slot: points idx with weights w. */
function slot(idx: number[], w: number[]): ContactPointSet {
  const n = Int8Array.of(idx.length);
  const i = new Uint32Array(4),
    ww = new Float64Array(4);
  i.set(idx);
  ww.set(w);
  return { n, idx: i, w: ww };
}

/** P = Σ w_k·x_{i_k}. */
function point(x: Float64Array, s: ContactPointSet): number[] {
  const p = [0, 0, 0];
  for (let k = 0; k < s.n[0]; k++) for (let a = 0; a < 3; a++) p[a] += s.w[k] * x[3 * s.idx[k] + a];
  return p;
}

/** Dense J over (state1 dofs, state2 dofs) from buildConstraintMatrix. */
function denseJ(c: ContactBilateralLagrangianConstraint, s1: BaseMechanicalState, s2: BaseMechanicalState): number[][] {
  const n1 = 3 * s1.size,
    rows = 3 * c.contactCount;
  const J = Array.from({ length: rows }, () => new Array<number>(n1 + 3 * s2.size).fill(0));
  const got = c.buildConstraintMatrix(
    {
      add: (state, row, p, values, scale = 1) => {
        const off = state === s1 ? 0 : n1;
        for (let a = 0; a < 3; a++) J[row][off + 3 * p + a] += scale * values[a];
      },
    },
    0,
  );
  expect(got).to.equal(rows);
  return J;
}

function violation(c: ContactBilateralLagrangianConstraint, order: 'posAndVel' | 'vel' = 'posAndVel', dt = 0.01): number[] {
  const out = new Float64Array(3 * c.contactCount);
  c.getConstraintViolation(out, order, dt);
  return Array.from(out);
}

describe('ContactBilateralLagrangianConstraint (StickContactConstraint rows)', () => {
  const r = rng(7);
  const s1 = new PlainState(Array.from({ length: 12 }, () => r()));
  const s2 = new PlainState(Array.from({ length: 12 }, () => r()));
  // contact 0: a triangle point of object1 glued to a point of object2; contact 1: a segment point
  // glued to a bilinear quad point
  const a0 = slot([0, 1, 3], [0.2, 0.5, 0.3]),
    b0 = slot([2], [1]);
  const a1 = slot([1, 2], [0.75, 0.25]),
    b1 = slot([0, 1, 2, 3], [0.12, 0.28, 0.42, 0.18]);

  function glued(): ContactBilateralLagrangianConstraint {
    const c = new ContactBilateralLagrangianConstraint();
    c.setStates(s1, s2);
    c.clearContacts(1);
    for (const [a, b] of [
      [a0, b0],
      [a1, b1],
    ] as const) {
      const p = point(s1.x, a),
        q = point(s2.x, b);
      c.addContact(a, 0, b, 0, q[0] - p[0], q[1] - p[1], q[2] - p[2]);
    }
    return c;
  }

  beforeEach(() => {
    s1.xFree.set(s1.x);
    s2.xFree.set(s2.x);
  });

  it("has SOFA's class name, three rows per contact", () => {
    const c = glued();
    expect(c.className).to.equal('BilateralLagrangianConstraint');
    expect(denseJ(c, s1, s2).length).to.equal(6);
  });

  it('δ = 0 where the points were glued, and for any common translation of both objects', () => {
    const c = glued();
    denseJ(c, s1, s2);
    for (const v of violation(c)) expect(v).to.be.closeTo(0, 1e-15);
    for (let i = 0; i < 4; i++) {
      s1.xFree[3 * i] += 0.3;
      s1.xFree[3 * i + 2] -= 0.7;
      s2.xFree[3 * i] += 0.3;
      s2.xFree[3 * i + 2] -= 0.7;
    }
    for (const v of violation(c)) expect(v).to.be.closeTo(0, 1e-14);
  });

  it('δ is the change of the relative position of the two points (P2 − P1 − rest)', () => {
    const c = glued();
    denseJ(c, s1, s2);
    const rr = rng(3);
    for (let i = 0; i < 12; i++) {
      s1.xFree[i] += 0.1 * rr();
      s2.xFree[i] += 0.1 * rr();
    }
    const d = violation(c);
    const contacts = [
      [a0, b0],
      [a1, b1],
    ] as const;
    contacts.forEach(([a, b], k) => {
      const p = point(s1.x, a),
        q = point(s2.x, b),
        pf = point(s1.xFree, a),
        qf = point(s2.xFree, b);
      for (let ax = 0; ax < 3; ax++) expect(d[3 * k + ax]).to.be.closeTo(qf[ax] - q[ax] - (pf[ax] - p[ax]), 1e-14);
    });
  });

  it('J = ∂δ/∂x_free (central differences)', () => {
    const c = glued();
    const J = denseJ(c, s1, s2);
    const h = 1e-6;
    let col = 0;
    for (const s of [s1, s2]) {
      for (let i = 0; i < 12; i++, col++) {
        const x0 = s.xFree[i];
        s.xFree[i] = x0 + h;
        const dp = violation(c);
        s.xFree[i] = x0 - h;
        const dm = violation(c);
        s.xFree[i] = x0;
        for (let row = 0; row < 6; row++) expect(J[row][col]).to.be.closeTo((dp[row] - dm[row]) / (2 * h), 1e-9);
      }
    }
  });

  it("velocity order: δ = J·v_free + (J·x + rest)/dt (SOFA's sign of rest)", () => {
    const c = glued();
    const J = denseJ(c, s1, s2);
    const rr = rng(11);
    for (let i = 0; i < 12; i++) {
      s1.vFree[i] = rr();
      s2.vFree[i] = rr();
    }
    const dt = 0.02;
    const d = violation(c, 'vel', dt);
    const x = [...s1.x, ...s2.x],
      v = [...s1.vFree, ...s2.vFree];
    const contacts = [
      [a0, b0],
      [a1, b1],
    ] as const;
    for (let row = 0; row < 6; row++) {
      const [a, b] = contacts[Math.floor(row / 3)];
      const rest = point(s2.x, b)[row % 3] - point(s1.x, a)[row % 3];
      let jv = 0,
        jx = 0;
      for (let k = 0; k < x.length; k++) {
        jv += J[row][k] * v[k];
        jx += J[row][k] * x[k];
      }
      expect(d[row]).to.be.closeTo(jv + (jx + rest) / dt, 1e-11);
    }
  });

  it("each contact is one 3×3 block: one local solve cancels its δ; warm starts follow SOFA's resize", () => {
    const c = glued();
    denseJ(c, s1, s2);
    const n = 6;
    // an SPD W (coupled blocks)
    const W = new Float64Array(n * n);
    const rr = rng(5);
    const B = Array.from({ length: n }, () => Array.from({ length: n }, () => rr()));
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) W[i * n + j] += B[i][k] * B[j][k];
    for (let i = 0; i < n; i++) W[i * n + i] += 1;
    const res: Array<ConstraintResolution | undefined> = new Array(n);
    c.getConstraintResolution(res);
    expect(res[0]?.nbLines).to.equal(3);
    expect(res[3]?.nbLines).to.equal(3);
    expect(res[1]).to.equal(undefined);
    const force = new Float64Array(n);
    res[0]!.init(0, W, n, force);
    res[3]!.init(3, W, n, force);
    const dfree = Float64Array.of(0.1, -0.2, 0.05, 0.3, 0.1, -0.4);
    const d = new Float64Array(n);
    const compute = (): void => {
      for (let i = 0; i < n; i++) {
        d[i] = dfree[i];
        for (let j = 0; j < n; j++) d[i] += W[i * n + j] * force[j];
      }
    };
    compute();
    res[0]!.resolution(0, W, n, d, force, dfree);
    compute();
    for (let i = 0; i < 3; i++) expect(d[i]).to.be.closeTo(0, 1e-12);
    res[0]!.store(0, force, true);
    res[3]!.store(3, force, true);
    // next step, same two contacts: warm start from the stored λ
    const again: Array<ConstraintResolution | undefined> = new Array(n);
    c.getConstraintResolution(again);
    const f2 = new Float64Array(n);
    again[0]!.init(0, W, n, f2);
    expect(Array.from(f2.subarray(0, 3))).to.deep.equal(Array.from(force.subarray(0, 3)));
    // one contact for a step, then two again: the second starts from 0
    c.clearContacts(1);
    c.addContact(a0, 0, b0, 0, 0, 0, 0);
    c.getConstraintResolution(new Array(3));
    c.addContact(a1, 0, b1, 0, 0, 0, 0);
    denseJ(c, s1, s2);
    const third: Array<ConstraintResolution | undefined> = new Array(n);
    c.getConstraintResolution(third);
    const f3 = new Float64Array(n);
    third[3]!.init(3, W, n, f3);
    expect(Array.from(f3.subarray(3, 6))).to.deep.equal([0, 0, 0]);
  });
});
