import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ArrayMechanicalState, Node, Rigid3d } from '@sofa-ts/core';
import { rng } from '../inverse/test-support.js';
import { PREquivalentStiffnessForceField } from './PREquivalentStiffnessForceField.js';

/**
 * PREquivalentStiffnessForceField: closed forms of a stretched and a twisted link, no force under a
 * rigid motion of the chain, no net force nor moment, the force as −∂E/∂x and the stiffness as ∂f/∂x
 * (central differences over positions and world rotations).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-prequivalent-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes the compliance matrices (36 numbers each) to a file; returns its path. */
function complianceFile(Cs: number[][], name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, Cs.map((C) => `[${C.join(', ')}]`).join('\n'));
  return file;
}

const diag = (d: number[]): number[] => Array.from({ length: 36 }, (_, k) => (k % 7 === 0 ? d[k / 7] : 0));

/** Frames as (p, q) with q from an axis-angle (world rotation about axis by angle). */
function frame(p: number[], axis = [1, 0, 0], angle = 0): number[] {
  const n = Math.hypot(axis[0], axis[1], axis[2]),
    s = Math.sin(angle / 2);
  return [...p, (s * axis[0]) / n, (s * axis[1]) / n, (s * axis[2]) / n, Math.cos(angle / 2)];
}

function mount(
  rest: number[],
  Cs: number[][],
  attrs: Record<string, string> = {},
): { ff: PREquivalentStiffnessForceField; state: ArrayMechanicalState } {
  const state = new ArrayMechanicalState(Rigid3d, rest);
  const root = new Node('root');
  root.addObject(state);
  const ff = new PREquivalentStiffnessForceField();
  ff.complianceFile.read(complianceFile(Cs, `c${Math.random().toString(36).slice(2)}.txt`));
  for (const [k, v] of Object.entries(attrs)) ff.findData(k)!.read(v);
  root.addObject(ff);
  ff.mstate.set(state);
  ff.init();
  return { ff, state };
}

function force(ff: PREquivalentStiffnessForceField, x: number[] | Float64Array): Float64Array {
  const f = new Float64Array((x.length / 7) * 6);
  ff.addForce([f], [Float64Array.from(x)], [new Float64Array(f.length)]);
  return f;
}

/** x moved by the derivative dq: p += dq_lin, q ← exp(ω/2) ⊗ q with ω = dq_ang (exact rotation). */
function moved(x: ArrayLike<number>, dq: ArrayLike<number>, h: number): Float64Array {
  const out = Float64Array.from(x);
  for (let i = 0; i < out.length / 7; i++) {
    for (let a = 0; a < 3; a++) out[7 * i + a] += h * dq[6 * i + a];
    const w = [h * dq[6 * i + 3], h * dq[6 * i + 4], h * dq[6 * i + 5]];
    const t = Math.hypot(w[0], w[1], w[2]);
    if (t === 0) continue;
    const s = Math.sin(t / 2) / t;
    const e = [s * w[0], s * w[1], s * w[2], Math.cos(t / 2)];
    const q = [out[7 * i + 3], out[7 * i + 4], out[7 * i + 5], out[7 * i + 6]];
    // e ⊗ q
    out[7 * i + 3] = e[3] * q[0] + e[0] * q[3] + e[1] * q[2] - e[2] * q[1];
    out[7 * i + 4] = e[3] * q[1] - e[0] * q[2] + e[1] * q[3] + e[2] * q[0];
    out[7 * i + 5] = e[3] * q[2] + e[0] * q[1] - e[1] * q[0] + e[2] * q[3];
    out[7 * i + 6] = e[3] * q[3] - e[0] * q[0] - e[1] * q[1] - e[2] * q[2];
  }
  return out;
}

/** A random symmetric positive definite 6×6 compliance: AᵀA + I, scaled per block. */
function randomCompliance(r: () => number): number[] {
  const A = Array.from({ length: 36 }, () => r() - 0.5);
  const C = new Array<number>(36).fill(0);
  for (let i = 0; i < 6; i++)
    for (let j = 0; j < 6; j++) {
      for (let k = 0; k < 6; k++) C[6 * i + j] += A[6 * k + i] * A[6 * k + j];
      if (i === j) C[6 * i + j] += 1;
    }
  return C.map((v) => v * 1e-2);
}

describe('softrobots: PREquivalentStiffnessForceField (unit)', () => {
  const L = 2;
  const c = [0.5, 0.25, 0.2, 0.1, 0.05, 0.04];

  it('a link stretched by δ pulls back with δ/c₁; twisted by α about its axis, −α/c₄ (and the opposite on the first frame)', () => {
    const rest = [...frame([0, 0, 0]), ...frame([L, 0, 0])];
    const { ff } = mount(rest, [diag(c)]);
    const f = force(ff, [...frame([0, 0, 0]), ...frame([L + 0.1, 0, 0])]);
    const expected = [0.1 / c[0], 0, 0, 0, 0, 0, -0.1 / c[0], 0, 0, 0, 0, 0];
    for (let k = 0; k < 12; k++) expect(f[k]).to.be.closeTo(expected[k], 1e-12);
    const g = force(ff, [...frame([0, 0, 0]), ...frame([L, 0, 0], [1, 0, 0], 0.3)]);
    const twist = [0, 0, 0, 0.3 / c[3], 0, 0, 0, 0, 0, -0.3 / c[3], 0, 0];
    for (let k = 0; k < 12; k++) expect(g[k]).to.be.closeTo(twist[k], 1e-12);
    expect(ff.getPotentialEnergy([Float64Array.from([...frame([0, 0, 0]), ...frame([L + 0.1, 0, 0])])])).to.be.closeTo(
      (0.5 * 0.01) / c[0],
      1e-14,
    );
  });

  it('a rigid motion of the whole chain (rotation and translation) gives no force; coefForce scales the force', () => {
    const r = rng(7);
    const Cs = [randomCompliance(r), randomCompliance(r)];
    const rest = [...frame([0, 0, 0]), ...frame([L, 0.3, 0], [0, 0, 1], 0.4), ...frame([2 * L, 0.5, 0.2], [1, 1, 0], 0.7)];
    const { ff } = mount(rest, Cs);
    // every frame rotated by 1.1 rad about (1, 2, 3) through the origin, then translated by (5, −1, 2)
    const axis = [1, 2, 3].map((v) => v / Math.hypot(1, 2, 3));
    const angle = 1.1,
      cs = Math.cos(angle),
      sn = Math.sin(angle);
    const rotate = (v: number[]): number[] => {
      const d = axis[0] * v[0] + axis[1] * v[1] + axis[2] * v[2];
      const k = [axis[1] * v[2] - axis[2] * v[1], axis[2] * v[0] - axis[0] * v[2], axis[0] * v[1] - axis[1] * v[0]];
      return [0, 1, 2].map((a) => v[a] * cs + k[a] * sn + axis[a] * d * (1 - cs)); // Rodrigues
    };
    const moving = Float64Array.from(rest);
    for (let i = 0; i < 3; i++) {
      const p = rotate([rest[7 * i], rest[7 * i + 1], rest[7 * i + 2]]);
      moving.set([p[0] + 5, p[1] - 1, p[2] + 2], 7 * i);
    }
    const w = axis.map((a) => a * angle);
    const x = moved(moving, [0, 0, 0, ...w, 0, 0, 0, ...w, 0, 0, 0, ...w], 1);
    for (const v of force(ff, x)) expect(Math.abs(v)).to.be.below(1e-12);
    const stretched = Float64Array.from(rest);
    stretched[7] += 0.05;
    const f1 = force(ff, stretched);
    const f3 = force(mount(rest, Cs, { coefForce: '3' }).ff, stretched);
    expect(Math.max(...f1.map(Math.abs))).to.be.above(0.1);
    for (let k = 0; k < f3.length; k++) expect(f3[k]).to.be.closeTo(3 * f1[k], 1e-12 * (1 + Math.abs(f3[k])));
  });

  it('at a deformed configuration: no net force nor moment, f = −∂E/∂x and ∂f/∂x = the stiffness of addDForce and addKToMatrix', () => {
    const r = rng(11);
    const rest = [...frame([0, 0, 0]), ...frame([L, 0.3, 0], [0, 0, 1], 0.4), ...frame([2 * L, 0.5, 0.2], [1, 1, 0], 0.7)];
    const { ff } = mount(rest, [randomCompliance(r), randomCompliance(r)]);
    const dq0 = Array.from({ length: 18 }, () => r() - 0.5);
    const x = moved(rest, dq0, 0.4);
    const f = force(ff, x);
    // Σ f = 0 and Σ (τ + p × f) = 0
    const net = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 3; i++) {
      const p = [x[7 * i], x[7 * i + 1], x[7 * i + 2]],
        F = [f[6 * i], f[6 * i + 1], f[6 * i + 2]];
      for (let a = 0; a < 3; a++) net[a] += F[a];
      net[3] += f[6 * i + 3] + p[1] * F[2] - p[2] * F[1];
      net[4] += f[6 * i + 4] + p[2] * F[0] - p[0] * F[2];
      net[5] += f[6 * i + 5] + p[0] * F[1] - p[1] * F[0];
    }
    for (const v of net) expect(Math.abs(v)).to.be.below(1e-10);
    // f·dq = −dE along dq (central differences of the energy)
    const h = 1e-6;
    for (let trial = 0; trial < 5; trial++) {
      const dq = Array.from({ length: 18 }, () => r() - 0.5);
      const dE = (ff.getPotentialEnergy([moved(x, dq, h)]) - ff.getPotentialEnergy([moved(x, dq, -h)])) / (2 * h);
      const fdq = f.reduce((s, v, k) => s + v * dq[k], 0);
      expect(fdq).to.be.closeTo(-dE, 1e-7 * (1 + Math.abs(dE)));
    }
    // K·dq against central differences of the force
    force(ff, x);
    for (let trial = 0; trial < 5; trial++) {
      const dq = Float64Array.from({ length: 18 }, () => r() - 0.5);
      const df = new Float64Array(18);
      ff.addDForce([df], [dq], 1, 0);
      const fp = force(ff, moved(x, dq, h)),
        fm = force(ff, moved(x, dq, -h));
      force(ff, x);
      for (let k = 0; k < 18; k++) expect(df[k]).to.be.closeTo((fp[k] - fm[k]) / (2 * h), 1e-6 * (1 + Math.abs(df[k])));
      // addKToMatrix emits the same matrix
      const Km = new Float64Array(18 * 18);
      ff.addKToMatrix({ add: (i, j, v) => void (Km[18 * i + j] += v) }, 1);
      for (let i = 0; i < 18; i++) {
        let s = 0;
        for (let j = 0; j < 18; j++) s += Km[18 * i + j] * dq[j];
        expect(s).to.be.closeTo(df[i], 1e-9 * (1 + Math.abs(df[i])));
      }
    }
  });

  it('startIndex: frames below it are not linked, the first matrix serves the pair (startIndex, startIndex + 1)', () => {
    const rest = [...frame([0, 0, 0]), ...frame([L, 0, 0]), ...frame([2 * L, 0, 0])];
    const { ff } = mount(rest, [diag(c)], { startIndex: '1' });
    const x = Float64Array.from(rest);
    x[7] += 0.1; // frame 1 moves towards frame 2: that link shortens by 0.1
    const f = force(ff, x);
    expect(Array.from(f.subarray(0, 6))).to.deep.equal([0, 0, 0, 0, 0, 0]);
    expect(f[6]).to.be.closeTo(-0.1 / c[0], 1e-12);
    expect(f[12]).to.be.closeTo(0.1 / c[0], 1e-12);
  });

  it('a singular or short compliance file is a located error', () => {
    const rest = [...frame([0, 0, 0]), ...frame([L, 0, 0])];
    expect(() => mount(rest, [diag([1, 1, 1, 1, 1, 0])])).to.throw(/compliance of frames 0 and 1 is singular/);
    expect(() => mount([...rest, ...frame([2 * L, 0, 0])], [diag(c)])).to.throw(/holds 36 numbers, 2 pairs of frames need 72/);
  });
});
