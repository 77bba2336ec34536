import { expect } from 'chai';
import { Rigid3d } from '@sofa-ts/core';
import { JointSpringForceField } from './JointSpringForceField.js';
import { JointSprings } from './joint-spring-syntax.js';
import { buildNode } from '../mass/mesh-test-support.js';
import { stiffnessAndFiniteDifferences } from '../load/fd-check-test-support.js';

/** q (x, y, z, w) of the rotation of angle a about the unit axis n. */
function quat(n: number[], a: number): number[] {
  const s = Math.sin(a / 2);
  return [n[0] * s, n[1] * s, n[2] * s, Math.cos(a / 2)];
}

function joint(springs: string, frames: number[]): { ff: JointSpringForceField; x: Float64Array } {
  const ff = new JointSpringForceField();
  ff.springs.value = JointSprings.parse(springs);
  const { state } = buildNode(frames, undefined, [ff], { template: 'Rigid3d' });
  return { ff, x: Float64Array.from(state.x) };
}

function force(ff: JointSpringForceField, x: Float64Array, v = new Float64Array((x.length / 7) * 6)): Float64Array {
  const f = new Float64Array((x.length / 7) * 6);
  ff.addForce([f], [x], [v]);
  return f;
}

function expectKMatchesFD(ff: JointSpringForceField, x: Float64Array, tol: number): void {
  const n = (x.length / 7) * 6;
  const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(n), 1e-6, Rigid3d);
  let scale = 0;
  for (const row of FD) for (const v of row) scale = Math.max(scale, Math.abs(v));
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(K[i][j], `K[${i}][${j}]`).to.be.closeTo(FD[i][j], tol * scale);
}

describe('JointSpringForceField', () => {
  it("parses SOFA's joint syntax with its defaults (hard 10000, bloc = hard/100, equal limits block the axis)", () => {
    const [a, b] = JointSprings.parse(
      'BEGIN_SPRING 0 1 FREE_AXIS 0 0 0 0 1 0 KS_T 0 30000 KS_R 0 200000 KD 1 R_LIM_X -0.8 0.8 R_LIM_Y -1.57 1.57 R_LIM_Z 0 0 END_SPRING\n BEGIN_SPRING 2 3 END_SPRING',
    );
    expect(a!.m1).to.equal(0);
    expect(a!.m2).to.equal(1);
    expect(a!.freeMovements).to.deep.equal([false, false, false, false, true, false]);
    expect(a!.hardStiffnessTrans).to.equal(30000);
    expect(a!.hardStiffnessRot).to.equal(200000);
    expect(a!.blocStiffnessRot).to.equal(2000);
    expect(a!.kd).to.equal(1);
    expect(a!.limitAngles).to.deep.equal([-0.8, 0.8, -1.57, 1.57, 0, 0]);
    expect(b!.freeMovements).to.deep.equal([false, false, false, true, true, true]);
    expect(b!.hardStiffnessTrans).to.equal(10000);
    expect(b!.blocStiffnessRot).to.equal(100);
    expect(JointSprings.parse(JointSprings.print([a!, b!]))).to.deep.equal([a, b]);
    const hint = (text: string): string | undefined => {
      try {
        JointSprings.parse(text);
      } catch (e) {
        return (e as { hint?: string }).hint;
      }
      return undefined;
    };
    expect(hint('BEGIN_SPRING 0 1 KS_X 1 END_SPRING')).to.equal("unknown attribute 'KS_X'");
    expect(hint('BEGIN_SPRING 0 1 KD 1')).to.equal('END_SPRING is missing');
  });

  it('at rest no force; a blocked joint pulls the frames back: f = R1·K_T·R1ᵀ·d and R1·K_R·θ (closed form)', () => {
    const q1 = quat([0, 0, 1], 0.7);
    const { ff } = joint('BEGIN_SPRING 0 1 FREE_AXIS 0 0 0 0 0 0 KS_T 0 500 KS_R 0 300 END_SPRING', [0, 0, 0, ...q1, 0, 0, 0, ...q1]);
    expect(Array.from(force(ff, Float64Array.of(0, 0, 0, ...q1, 0, 0, 0, ...q1))).every((v) => Math.abs(v) < 1e-12)).to.equal(true);
    // frame 2 moved by d and rotated by α about world z (the axis of q1: θ = α·e_z in frame 1 too)
    const alpha = 0.3,
      d = [0.1, -0.2, 0.05];
    const f = force(ff, Float64Array.of(0, 0, 0, ...q1, ...d, ...quat([0, 0, 1], 0.7 + alpha)));
    for (let k = 0; k < 3; k++) {
      expect(f[k]).to.be.closeTo(500 * d[k], 1e-9);
      expect(f[6 + k]).to.be.closeTo(-500 * d[k], 1e-9);
    }
    expect(f[5]).to.be.closeTo(300 * alpha, 1e-9);
    expect(f[11]).to.be.closeTo(-300 * alpha, 1e-9);
  });

  it('a soft axis in frame 1 (rotated frame): free translation along the local axis costs the soft stiffness', () => {
    // frame 1 turned 90° about z: its local x is world y
    const q1 = quat([0, 0, 1], Math.PI / 2);
    const { ff } = joint('BEGIN_SPRING 0 1 FREE_AXIS 1 0 0 1 1 1 KS_T 2 1000 KS_R 0 50 END_SPRING', [0, 0, 0, ...q1, 0, 0, 0, ...q1]);
    const f = force(ff, Float64Array.of(0, 0, 0, ...q1, 0.1, 0.2, 0, ...q1));
    expect(f[0]).to.be.closeTo(1000 * 0.1, 1e-9);
    expect(f[1]).to.be.closeTo(2 * 0.2, 1e-9);
  });

  const frames = (q1: number[], q2: number[]): number[] => [0.1, 0.2, -0.1, ...q1, 0.4, -0.1, 0.25, ...q2];
  const qa = quat([0.6, 0, 0.8], 0.9);
  const cases: Array<[string, string, number[]]> = [
    [
      'all rotations blocked',
      'BEGIN_SPRING 0 1 FREE_AXIS 0 0 1 0 0 0 KS_T 3 700 KS_R 1 400 KD 2 END_SPRING',
      frames(qa, quat([0, 1, 0], 0.4)),
    ],
    [
      "a pivot about x (SOFA's φ·u terms)",
      'BEGIN_SPRING 0 1 FREE_AXIS 0 0 0 1 0 0 KS_T 0 700 KS_R 5 400 R_LIM_X -2 2 END_SPRING',
      frames(qa, quat([0.48, 0.6, 0.64], 1.3)),
    ],
    [
      'a pivot about y',
      'BEGIN_SPRING 0 1 FREE_AXIS 0 0 0 0 1 0 KS_T 0 700 KS_R 5 400 END_SPRING',
      frames(qa, quat([0.48, 0.6, 0.64], 1.3)),
    ],
    [
      'a pivot about z',
      'BEGIN_SPRING 0 1 FREE_AXIS 0 0 0 0 0 1 KS_T 0 700 KS_R 5 400 END_SPRING',
      frames(qa, quat([0.48, 0.6, 0.64], 1.3)),
    ],
    ['free rotations inside their limits', 'BEGIN_SPRING 0 1 KS_T 0 700 KS_R 5 400 END_SPRING', frames(qa, quat([0.48, 0.6, 0.64], 1.3))],
    [
      'free rotations beyond their limits (bloc stiffness)',
      'BEGIN_SPRING 0 1 KS_T 0 700 KS_R 5 400 KS_B 60 R_LIM_X -0.1 0.1 R_LIM_Y -0.2 0.05 END_SPRING',
      frames(qa, quat([0.48, 0.6, 0.64], 1.3)),
    ],
    [
      'REST_T: the initial offsets are the rest (SOFA)',
      'BEGIN_SPRING 0 1 FREE_AXIS 0 0 0 0 0 0 KS_T 0 700 KS_R 0 400 REST_T 0 0 0 END_SPRING',
      frames(qa, quat([0, 1, 0], 0.4)),
    ],
  ];
  for (const [what, spec, x0] of cases) {
    it(`K = ∂f/∂x against finite differences (rotations as world rotation vectors): ${what}`, () => {
      const { ff } = joint(spec, x0);
      // evaluate away from the initial state (REST_T took its offsets there)
      const x = Float64Array.from(x0);
      const e = Float64Array.of(0.02, -0.01, 0.03, 0.05, -0.04, 0.03, -0.01, 0.02, 0.01, -0.03, 0.06, 0.02);
      Rigid3d.addDerivToCoord(x, x, e, 1, 2);
      expectKMatchesFD(ff, x, 1e-6);
    });
  }

  it("REST_T takes the initial centres' offset and r0 = q2·q1⁻¹ (SOFA): no force at the initial state when both frames share their orientation, q1⁻¹·q2·r0 otherwise", () => {
    const q = quat([0.6, 0, 0.8], 1.1);
    const { ff, x } = joint('BEGIN_SPRING 0 1 FREE_AXIS 0 0 0 0 0 0 KS_R 0 100 REST_T 9 9 9 END_SPRING', [0, 0, 0, ...q, 1, 2, 3, ...q]);
    expect(Array.from(force(ff, x)).every((v) => Math.abs(v) < 1e-9)).to.equal(true);
    // both about z, q1 by 0.5 and q2 by 1.1: q1⁻¹·q2·(q2·q1⁻¹) turns by 2·0.6 about z
    const b = joint('BEGIN_SPRING 0 1 FREE_AXIS 0 0 0 0 0 0 KS_R 0 100 REST_T 0 0 0 END_SPRING', [
      0,
      0,
      0,
      ...quat([0, 0, 1], 0.5),
      1,
      2,
      3,
      ...quat([0, 0, 1], 1.1),
    ]);
    const f = force(b.ff, b.x);
    expect(f[5]).to.be.closeTo(100 * 1.2, 1e-9);
    expect(Math.hypot(f[0], f[1], f[2], f[3], f[4])).to.be.lessThan(1e-9);
  });

  it('damping kd·(v2 − v1) on both parts, B = ∂f/∂v', () => {
    const q = [0, 0, 0, 1];
    const { ff, x } = joint('BEGIN_SPRING 0 1 KD 3 END_SPRING', [0, 0, 0, ...q, 0, 0, 0, ...q]);
    const v = Float64Array.of(1, 2, 3, 4, 5, 6, -1, 0, 1, 2, 0, -2);
    const f = force(ff, x, v);
    for (let k = 0; k < 6; k++) {
      expect(f[k]).to.be.closeTo(3 * (v[6 + k] - v[k]), 1e-12);
      expect(f[6 + k]).to.be.closeTo(-3 * (v[6 + k] - v[k]), 1e-12);
    }
    const B = Array.from({ length: 12 }, () => new Array<number>(12).fill(0));
    ff.addBToMatrix({ add: (r, c, val) => (B[r][c] += val) }, 1);
    for (let r = 0; r < 12; r++)
      for (let c = 0; c < 12; c++) expect(B[r][c]).to.equal(r % 6 === c % 6 ? (Math.floor(r / 6) === Math.floor(c / 6) ? -3 : 3) : 0);
  });

  it('addDForce applies the assembled K (and B)', () => {
    const { ff, x } = joint(
      'BEGIN_SPRING 0 1 KS_T 0 700 KS_R 5 400 KD 2 R_LIM_X -0.1 0.1 END_SPRING',
      frames(qa, quat([0.48, 0.6, 0.64], 1.3)),
    );
    force(ff, x);
    const K = Array.from({ length: 12 }, () => new Array<number>(12).fill(0));
    ff.addKToMatrix({ add: (r, c, val) => (K[r][c] += val) }, 1);
    ff.addBToMatrix({ add: (r, c, val) => (K[r][c] += 0.5 * val) }, 1);
    const dx = Float64Array.from({ length: 12 }, (_, i) => Math.sin(i + 1));
    const df = new Float64Array(12);
    ff.addDForce([df], [dx], 1, 0.5);
    for (let r = 0; r < 12; r++) {
      let s = 0;
      for (let c = 0; c < 12; c++) s += K[r][c] * dx[c];
      expect(df[r]).to.be.closeTo(s, 1e-9 * (1 + Math.abs(s)));
    }
  });
});
