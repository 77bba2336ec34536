import { expect } from 'chai';
import { CONTACT_SLOT, CheckpointReader, Rigid3d, Vec3d, type BaseMechanicalState } from '@sofa-ts/core';
import { TestState, rng } from '../test-support.js';
import { PenalityContactForceField } from './PenalityContactForceField.js';

/** Fills side s, slot c: vertices and weights, or a rigid frame (weights = local offset, n = −1). */
function setSide(ff: PenalityContactForceField, s: 0 | 1, c: number, idx: number[], w: number[], rigid = false): void {
  const side = ff.sides[s];
  side.ensure(c + 1);
  side.n[c] = rigid ? -1 : idx.length;
  idx.forEach((v, k) => (side.idx[CONTACT_SLOT * c + k] = v));
  w.forEach((v, k) => (side.w[CONTACT_SLOT * c + k] = v));
}

/** Forces f(x) per argument state, with the force field's current contacts. */
function forces(ff: PenalityContactForceField, states: readonly BaseMechanicalState[]): Float64Array[] {
  const f = states.map((s) => new Float64Array(s.size * s.stateType.derivSize));
  ff.addForce(
    f,
    states.map((s) => s.x),
    states.map((s) => s.v),
  );
  return f;
}

/** Dense K from addKToMatrix over the concatenated argument states. */
function denseK(ff: PenalityContactForceField, n: number, kFactor = 1): number[][] {
  const K = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  ff.addKToMatrix({ add: (r, c, v) => (K[r][c] += v) }, kFactor);
  return K;
}

/** ∂f/∂x by central differences (rigid dofs moved through the state type, rotations as rotation vectors). */
function fdK(ff: PenalityContactForceField, states: readonly BaseMechanicalState[], h = 1e-6): number[][] {
  const sizes = states.map((s) => s.size * s.stateType.derivSize);
  const n = sizes.reduce((a, b) => a + b, 0);
  const K = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  let col = 0;
  states.forEach((s, si) => {
    for (let d = 0; d < sizes[si]; d++, col++) {
      const x0 = Float64Array.from(s.x);
      const dv = new Float64Array(sizes[si]);
      const eval1 = (eps: number): number[] => {
        dv.fill(0);
        dv[d] = eps;
        s.stateType.addDerivToCoord(s.x, x0, dv, 1, s.size);
        const f = forces(ff, states);
        s.x.set(x0);
        return f.flatMap((a) => Array.from(a));
      };
      const fp = eval1(h),
        fm = eval1(-h);
      for (let r = 0; r < n; r++) K[r][col] = (fp[r] - fm[r]) / (2 * h);
    }
  });
  return K;
}

function expectClose(a: number[][], b: number[][], tol: number): void {
  let scale = 0;
  for (const row of b) for (const v of row) scale = Math.max(scale, Math.abs(v));
  for (let r = 0; r < a.length; r++) for (let c = 0; c < a.length; c++) expect(a[r][c]).to.be.closeTo(b[r][c], tol * scale);
}

describe('PenalityContactForceField', () => {
  const r = rng(21);
  const pts = (n: number): number[] => Array.from({ length: 3 * n }, () => r());
  const unit = (v: number[]): number[] => v.map((x) => x / Math.hypot(...v));

  /** Two Vec3 states, contacts on a triangle, a segment, a point and a quad, all penetrating. */
  function meshContacts(constant2 = false): { ff: PenalityContactForceField; a: TestState; b: TestState } {
    const a = new TestState(Vec3d, pts(6));
    const b = new TestState(Vec3d, pts(5));
    const ff = new PenalityContactForceField();
    ff.setStates(a, b, false, constant2);
    ff.beginContacts(3);
    setSide(ff, 0, 0, [0, 1, 2], [0.2, 0.3, 0.5]);
    setSide(ff, 1, 0, [3, 4], [0.6, 0.4]);
    ff.addContact(...(unit([1, 2, 2]) as [number, number, number]), 5, 120, 0, 0, 0);
    setSide(ff, 0, 1, [5], [1]);
    setSide(ff, 1, 1, [0, 1, 2, 3], [0.1, 0.2, 0.3, 0.4]);
    ff.addContact(...(unit([-1, 0.5, 0.3]) as [number, number, number]), 5, 80, 0, 0, 0);
    setSide(ff, 0, 2, [3, 4], [0.5, 0.5]);
    setSide(ff, 1, 2, [2], [1]);
    ff.addContact(...(unit([0, 0, 1]) as [number, number, number]), -100, 50, 0, 0, 0); // not penetrating
    return { ff, a, b };
  }

  it('pushes the two contact points apart along the normal by ks·pen, with opposite total forces', () => {
    const { ff, a, b } = meshContacts();
    const [fa, fb] = forces(ff, [a, b]);
    for (let c = 0; c < 3; c++) {
      let ta = 0,
        tb = 0;
      for (let i = c; i < fa!.length; i += 3) ta += fa![i];
      for (let i = c; i < fb!.length; i += 3) tb += fb![i];
      expect(ta + tb).to.be.closeTo(0, 1e-12);
    }
    // contact 0 alone: F1 = −ks·pen·n with pen = d − (p2 − p1)·n
    expect(ff.pen[0]).to.be.greaterThan(0);
    expect(ff.pen[2]).to.be.lessThan(0);
    const n = unit([1, 2, 2]);
    const p1 = [0, 1, 2].map((c) => 0.2 * a.x[c] + 0.3 * a.x[3 + c] + 0.5 * a.x[6 + c]);
    const p2 = [0, 1, 2].map((c) => 0.6 * b.x[9 + c] + 0.4 * b.x[12 + c]);
    const pen = 5 - ((p2[0] - p1[0]) * n[0] + (p2[1] - p1[1]) * n[1] + (p2[2] - p1[2]) * n[2]);
    expect(ff.pen[0]).to.be.closeTo(pen, 1e-12);
  });

  it("outside the solvers: the identity sides' forces at once, the mapped sides' deferred (in contact order), the same total", () => {
    const { ff, a, b } = meshContacts();
    const [fa, fb] = forces(ff, [a, b]);
    const now = [new Float64Array(18), new Float64Array(15)];
    const deferred: [number, (f: Float64Array) => void][] = [];
    ff.addIsolatedForce(now, [a.x, b.x], [a.v, b.v], (arg, add) => deferred.push([arg, add]));
    // contact 1's side 0 is point 5 (identity): applied now; every other penetrating point is mapped
    expect(deferred.map(([arg]) => arg)).to.deep.equal([0, 1]);
    for (let c = 0; c < 3; c++) expect(now[0][15 + c]).to.equal(fa![15 + c]);
    expect(now[0].subarray(0, 15).every((v) => v === 0)).to.equal(true);
    expect(now[1].every((v) => v === 0)).to.equal(true);
    for (const [arg, add] of deferred) add(now[arg]);
    for (let i = 0; i < 18; i++) expect(now[0][i]).to.be.closeTo(fa![i], 1e-12);
    for (let i = 0; i < 15; i++) expect(now[1][i]).to.be.closeTo(fb![i], 1e-12);
  });

  it('K = ∂f/∂x by central differences (two Vec3 states); addDForce = kFactor·K·dx', () => {
    const { ff, a, b } = meshContacts();
    forces(ff, [a, b]);
    const K = denseK(ff, 33);
    expectClose(K, fdK(ff, [a, b]), 1e-7);
    forces(ff, [a, b]);
    const dx = [Float64Array.from(pts(6)), Float64Array.from(pts(5))];
    const df = [new Float64Array(18), new Float64Array(15)];
    ff.addDForce(df, dx, 0.7, 0);
    const flat = [...dx[0], ...dx[1]];
    const dff = [...df[0], ...df[1]];
    for (let r2 = 0; r2 < 33; r2++) {
      let s = 0;
      for (let c = 0; c < 33; c++) s += 0.7 * K[r2][c] * flat[c];
      expect(dff[r2]).to.be.closeTo(s, 1e-9);
    }
  });

  it('8-point sides (the corners of FFD cubes, trilinear weights): K = ∂f/∂x by central differences, forces balanced', () => {
    const a = new TestState(Vec3d, pts(10));
    const b = new TestState(Vec3d, pts(9));
    const ff = new PenalityContactForceField();
    ff.setStates(a, b, false, false);
    ff.beginContacts(2);
    const tri = (fx: number, fy: number, fz: number): number[] =>
      Array.from({ length: 8 }, (_, j) => (j & 1 ? fx : 1 - fx) * (j & 2 ? fy : 1 - fy) * (j & 4 ? fz : 1 - fz));
    setSide(ff, 0, 0, [0, 1, 2, 3, 4, 5, 6, 7], tri(0.2, 0.7, 0.4));
    setSide(ff, 1, 0, [8], [1]);
    ff.addContact(...(unit([1, -2, 2]) as [number, number, number]), 5, 70, 0, 0, 0);
    setSide(ff, 0, 1, [9, 8, 7, 6, 5, 4, 3, 2], tri(0.9, 0.1, 0.55));
    setSide(ff, 1, 1, [1, 2, 3, 4, 5, 6, 7, 0], tri(0.3, 0.6, 0.8));
    ff.addContact(...(unit([0.2, 0.5, -1]) as [number, number, number]), 5, 40, 0, 0, 0);
    const [fa, fb] = forces(ff, [a, b]);
    expect(ff.pen[0]).to.be.greaterThan(0);
    expect(ff.pen[1]).to.be.greaterThan(0);
    for (let c = 0; c < 3; c++) {
      let t = 0;
      for (let i = c; i < fa!.length; i += 3) t += fa![i];
      for (let i = c; i < fb!.length; i += 3) t += fb![i];
      expect(t).to.be.closeTo(0, 1e-12);
    }
    expectClose(denseK(ff, 57), fdK(ff, [a, b]), 1e-7);
  });
  it('a constant side (collision model not simulated) is left out of the states and matrices', () => {
    const { ff, a, b } = meshContacts(true);
    expect(ff.getMechanicalStates()).to.deep.equal([a]);
    forces(ff, [a]);
    const K = denseK(ff, 18);
    expectClose(K, fdK(ff, [a]), 1e-7);
    const bf = Float64Array.from(b.f);
    forces(ff, [a]);
    expect(Array.from(b.f)).to.deep.equal(Array.from(bf));
  });

  it("blocks with a constant side (for SOFA's assembled systems): ∂F_c/∂x by central differences on its contact points, in its contact numbering, and their transpose", () => {
    const { ff, a } = meshContacts(true);
    for (let c = 0; c < 3; c++) ff.sides[1].sofaPoint[c] = 2 - c; // the outside side's numbering of its contact points
    forces(ff, [a]);
    const Koi = Array.from({ length: 9 }, () => new Array<number>(18).fill(0));
    const Kio = Array.from({ length: 18 }, () => new Array<number>(9).fill(0));
    ff.addOutsideStateKToMatrix(
      {
        addOutsideRow: (o, arg, d, v) => (expect(arg).to.equal(0), (Koi[o][d] += v)),
        addOutsideCol: (arg, d, o, v) => (expect(arg).to.equal(0), (Kio[d][o] += v)),
      },
      0.5,
    );
    // F_c = ks·pen·n on object2's contact point c (pen > 0), numbered 3·sofaPoint + axis
    const Fc = (): number[] => {
      forces(ff, [a]);
      const out = new Array<number>(9).fill(0);
      for (let c = 0; c < 3; c++)
        if (ff.pen[c] > 0) for (let k = 0; k < 3; k++) out[3 * ff.sides[1].sofaPoint[c] + k] = ff.ks[c] * ff.pen[c] * ff.normal[3 * c + k];
      return out;
    };
    const h = 1e-6;
    const fd = Array.from({ length: 9 }, () => new Array<number>(18).fill(0));
    for (let d = 0; d < 18; d++) {
      const x0 = a.x[d];
      a.x[d] = x0 + h;
      const fp = Fc();
      a.x[d] = x0 - h;
      const fm = Fc();
      a.x[d] = x0;
      for (let o = 0; o < 9; o++) fd[o][d] = (0.5 * (fp[o] - fm[o])) / (2 * h);
    }
    forces(ff, [a]);
    for (let o = 0; o < 9; o++)
      for (let d = 0; d < 18; d++) {
        expect(Koi[o][d]).to.be.closeTo(fd[o][d], 1e-6);
        expect(Kio[d][o]).to.equal(Koi[o][d]);
      }
    expect(Koi[0].some((v) => v !== 0)).to.equal(false); // contact 2 (sofaPoint 0) does not penetrate
  });

  it('rigid frames: force and torque at the contact point; K = ∂f/∂x for points at the frame origin', () => {
    const frames = new TestState(Rigid3d, [0, 0, 0, 0, 0, 0, 1, 1, 0.5, 0.2, 0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)]);
    const b = new TestState(Vec3d, pts(3));
    const ff = new PenalityContactForceField();
    ff.setStates(frames, b, false, false);
    ff.beginContacts(2);
    setSide(ff, 0, 0, [1], [0, 0, 0], true);
    setSide(ff, 1, 0, [0, 2], [0.5, 0.5]);
    ff.addContact(...(unit([0.3, -1, 0.2]) as [number, number, number]), 6, 40, 0, 0, 0);
    setSide(ff, 0, 1, [0], [0, 0, 0], true);
    setSide(ff, 1, 1, [1], [1]);
    ff.addContact(...(unit([1, 1, 0]) as [number, number, number]), 6, 30, 0, 0, 0);
    forces(ff, [frames, b]);
    expectClose(denseK(ff, 21), fdK(ff, [frames, b]), 1e-7);
    // with a lever arm: torque = r × F, and addDForce = K·dx
    setSide(ff, 0, 0, [1], [0.3, -0.2, 0.5], true);
    const [ff0] = forces(ff, [frames, b]);
    const n = unit([0.3, -1, 0.2]);
    const fN = 40 * ff.pen[0];
    const F = n.map((v) => -v * fN);
    expect(ff0![6]).to.be.closeTo(F[0], 1e-12);
    const K = denseK(ff, 21);
    const dx = [Float64Array.from(Array.from({ length: 12 }, () => r())), Float64Array.from(pts(3))];
    const df = [new Float64Array(12), new Float64Array(9)];
    ff.addDForce(df, dx, 1, 0);
    const flat = [...dx[0], ...dx[1]],
      dff = [...df[0], ...df[1]];
    for (let i = 0; i < 21; i++) {
      let s = 0;
      for (let c = 0; c < 21; c++) s += K[i][c] * flat[c];
      expect(dff[i]).to.be.closeTo(s, 1e-9);
    }
  });
});

describe('PenalityContactForceField checkpoints', () => {
  it('say how many points a contact side holds, and refuse a layout of another width (or none) instead of misreading it', () => {
    const ff = new PenalityContactForceField();
    const saved = ff.checkpointState();
    expect(saved['slot']).to.equal(CONTACT_SLOT);
    expect(() => ff.restoreState(new CheckpointReader({ ...saved, slot: 4 }, 'contacts'))).to.throw(
      new RegExp(`contacts hold 4 points per side, this sofa-ts ${CONTACT_SLOT}`),
    );
    const { slot: _slot, ...older } = saved;
    expect(() => ff.restoreState(new CheckpointReader(older, 'contacts'))).to.throw(/'slot' should be a number, it is missing/);
    ff.restoreState(new CheckpointReader(saved, 'contacts'));
  });
});
