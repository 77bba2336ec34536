import { expect } from 'chai';
import { BaseAnimationLoop, Node, Simulation } from '@sofa-ts/core';
import { ConicalForceField } from './ConicalForceField.js';
import { DiagonalVelocityDampingForceField } from './DiagonalVelocityDampingForceField.js';
import { EllipsoidForceField } from './EllipsoidForceField.js';
import { InteractionEllipsoidForceField } from './InteractionEllipsoidForceField.js';
import { LinearForceField } from './LinearForceField.js';
import { SphereForceField } from './SphereForceField.js';
import { UniformVelocityDampingForceField } from './UniformVelocityDampingForceField.js';
import { stiffnessAndFiniteDifferences } from './fd-check-test-support.js';
import { buildNode, rng } from '../mass/mesh-test-support.js';
import { MechanicalObject } from '../MechanicalObject.js';
import type { BaseForceField } from '@sofa-ts/core';

function scatter(n: number, scale: number, seed: number): Float64Array<ArrayBuffer> {
  const r = rng(seed);
  const out = new Float64Array(3 * n);
  for (let i = 0; i < out.length; i++) out[i] = scale * r();
  return out;
}

function force(ff: BaseForceField, x: Float64Array, v = new Float64Array(x.length)): Float64Array {
  const f = new Float64Array(x.length);
  ff.addForce([f], [x], [v]);
  return f;
}

function expectKMatchesFD(ff: BaseForceField, x: Float64Array, scale: number): void {
  const { K, FD } = stiffnessAndFiniteDifferences(ff, x, new Float64Array(x.length), 1e-7);
  for (let i = 0; i < x.length; i++)
    for (let j = 0; j < x.length; j++) expect(K[i][j], `K[${i}][${j}]`).to.be.closeTo(FD[i][j], 1e-5 * scale);
}

/** The ellipsoid law written out: f = −|k|·v·g/|g| − c·|v|·u, g = p ⊙ r⁻², v = |p ⊘ r| − 1. */
function ellipsoidForce(p: number[], r: number[], k: number, c: number, u: number[]): number[] | undefined {
  const s2 = p.reduce((a, pj, j) => a + (pj / r[j]) ** 2, 0);
  if (!((s2 - 1) * k < 0)) return undefined;
  const v = Math.sqrt(s2) - 1;
  const g = p.map((pj, j) => pj / r[j] ** 2);
  const gl = Math.hypot(...g);
  return g.map((gj, j) => (-Math.abs(k) * v * gj) / gl - c * Math.abs(v) * u[j]);
}

describe('EllipsoidForceField', () => {
  it('pushes the points inside out with the closed-form force; K = ∂f/∂x (the exact derivative)', () => {
    const e = new EllipsoidForceField();
    e.center.value = Float64Array.of(0.1, -0.2, 0.3);
    e.vradius.value = Float64Array.of(1.5, 0.8, 1.1);
    e.stiffness.value = 200;
    e.damping.value = 3;
    const x = scatter(12, 1.6, 1);
    buildNode(x, undefined, [e]);
    const v = scatter(12, 1, 2);
    const f = force(e, x, v);
    let inside = 0;
    for (let i = 0; i < 12; i++) {
      const p = [0, 1, 2].map((k) => x[3 * i + k] - e.center.value[k]);
      const want = ellipsoidForce(
        p,
        [1.5, 0.8, 1.1],
        200,
        3,
        [0, 1, 2].map((k) => v[3 * i + k]),
      );
      if (want) inside++;
      for (let k = 0; k < 3; k++) expect(f[3 * i + k]).to.be.closeTo(want ? want[k] : 0, 1e-12);
    }
    expect(inside).to.be.within(2, 10);
    expectKMatchesFD(e, x, 200);
  });

  it('a negative stiffness keeps the points inside (outside points pulled in)', () => {
    const e = new EllipsoidForceField();
    e.vradius.value = Float64Array.of(1, 1, 1);
    e.stiffness.value = -50;
    const x = Float64Array.of(2, 0, 0, 0.5, 0, 0);
    buildNode(x, undefined, [e]);
    const f = force(e, x);
    expect(f[0]).to.be.closeTo(-50, 1e-12); // v = 1, g/|g| = (1, 0, 0)
    expect(f[3]).to.equal(0);
    expectKMatchesFD(e, Float64Array.of(2, 0.3, -0.4, 0.5, 0, 0), 50);
  });
});

describe('InteractionEllipsoidForceField', () => {
  class Idle extends BaseAnimationLoop {
    step(): void {}
  }

  /** Points (Vec3d) and one rigid frame (centre C, rotation q), the force field in the points' node. */
  function setup(x1: Float64Array, frame: number[], forces: boolean, configure: (f: InteractionEllipsoidForceField) => void) {
    const root = new Node('root');
    root.addObject(new Idle());
    const pts = new MechanicalObject();
    pts.template = 'Vec3d';
    pts.position.value = Float64Array.from(x1);
    root.addObject(pts);
    const rigid = new MechanicalObject();
    rigid.template = 'Rigid3d';
    rigid.position.value = Float64Array.from(frame);
    const child = root.createChild('obstacle');
    child.addObject(rigid);
    const ff = new InteractionEllipsoidForceField();
    ff.object1.set(pts);
    ff.object2.set(rigid);
    ff.object2Forces.value = forces;
    configure(ff);
    root.addObject(ff);
    new Simulation(root).init();
    return { ff, pts, rigid };
  }

  const angle = 0.7,
    axis = [1, 2, 2].map((v) => v / 3);
  const q = [...axis.map((a) => a * Math.sin(angle / 2)), Math.cos(angle / 2)];
  const C = [0.5, -0.3, 0.2];
  /** R·v for the frame's rotation (Rodrigues). */
  function rot(v: number[], sign = 1): number[] {
    const c = Math.cos(sign * angle),
      s = Math.sin(sign * angle),
      [ax, ay, az] = axis as [number, number, number];
    const d = ax * v[0] + ay * v[1] + az * v[2];
    const cr = [ay * v[2] - az * v[1], az * v[0] - ax * v[2], ax * v[1] - ay * v[0]];
    return v.map((vi, k) => vi * c + cr[k] * s + axis[k] * d * (1 - c));
  }

  it('in the frame of object2, the nearest of several ellipsoids pushes with the ellipsoid law: f = R·f_local(Rᵀ(x − C))', () => {
    const x1 = Float64Array.from(scatter(15, 1, 3), (v, k) => v + C[k % 3]);
    const { ff } = setup(x1, [...C, ...q], false, (f) => {
      f.center.value = Float64Array.of(0, 0, 0, 0, -1, 0);
      f.vradius.value = Float64Array.of(1.2, 0.6, 0.9, 0.5, 1, 0.5);
      f.stiffness.value = 300;
      f.damping.value = 0;
    });
    expect(ff.getMechanicalStates()).to.have.length(1);
    const f = force(ff, x1);
    let inside = 0;
    for (let i = 0; i < 15; i++) {
      const local = rot(
        [0, 1, 2].map((k) => x1[3 * i + k] - C[k]),
        -1,
      );
      const cands = [
        [
          [0, 0, 0],
          [1.2, 0.6, 0.9],
        ],
        [
          [0, -1, 0],
          [0.5, 1, 0.5],
        ],
      ] as const;
      const norms = cands.map(([c, r]) => local.reduce((a, p, k) => a + ((p - c[k]) / r[k]) ** 2, 0));
      const [c, r] = cands[norms[0] <= norms[1] ? 0 : 1];
      const fl = ellipsoidForce(
        local.map((p, k) => p - c[k]),
        [...r],
        300,
        0,
        [0, 0, 0],
      );
      const want = fl ? rot(fl) : [0, 0, 0];
      if (fl) inside++;
      for (let k = 0; k < 3; k++) expect(f[3 * i + k]).to.be.closeTo(want[k], 1e-11);
    }
    expect(inside).to.be.above(1);
    expectKMatchesFD(ff, x1, 300);
  });

  it('with object2_forces the frame takes the opposite force, and K couples x1 with the frame translation', () => {
    const x1 = Float64Array.of(0.6, -0.2, 0.3, 0.4, -0.5, 0.1);
    const frame = [...C, ...q];
    const { ff } = setup(x1, frame, true, (f) => {
      f.vradius.value = Float64Array.of(1, 0.8, 1.2);
      f.stiffness.value = 100;
    });
    expect(ff.getMechanicalStates()).to.have.length(2);
    const f1 = new Float64Array(6),
      f2 = new Float64Array(6);
    ff.addForce([f1, f2], [x1, Float64Array.from(frame)], [new Float64Array(6), new Float64Array(6)]);
    for (let k = 0; k < 3; k++) expect(f2[k]).to.be.closeTo(-(f1[k] + f1[3 + k]), 1e-14);
    // ∂f1/∂C = −∂f1/∂x1 summed: moving the frame's centre by δ moves every local point by −δ
    const K: number[][] = Array.from({ length: 12 }, () => new Array<number>(12).fill(0));
    ff.addKToMatrix({ add: (r, c, v) => (K[r][c] += v) }, 1);
    const h = 1e-7;
    for (let j = 0; j < 3; j++) {
      const fp = new Float64Array(6),
        fm = new Float64Array(6),
        g = new Float64Array(6);
      const cp = Float64Array.from(frame),
        cm = Float64Array.from(frame);
      cp[j] += h;
      cm[j] -= h;
      ff.addForce([fp, g], [x1, cp], [new Float64Array(6), new Float64Array(6)]);
      ff.addForce([fm, g], [x1, cm], [new Float64Array(6), new Float64Array(6)]);
      for (let i = 0; i < 6; i++) expect(K[i][6 + j], `∂f1_${i}/∂C_${j}`).to.be.closeTo((fp[i] - fm[i]) / (2 * h), 1e-4);
    }
  });
});

describe('SphereForceField', () => {
  it('f = −k·(|d| − r)·d/|d| inside the sphere, K = ∂f/∂x; bilateral acts outside too', () => {
    const s = new SphereForceField();
    s.center.value = Float64Array.of(0.2, 0, -0.1);
    s.radius.value = 0.9;
    s.stiffness.value = 400;
    const x = scatter(10, 1.3, 4);
    buildNode(x, undefined, [s]);
    const f = force(s, x);
    for (let i = 0; i < 10; i++) {
      const d = [0, 1, 2].map((k) => x[3 * i + k] - s.center.value[k]);
      const l = Math.hypot(...d);
      for (let k = 0; k < 3; k++) expect(f[3 * i + k]).to.be.closeTo(l < 0.9 ? (-400 * (l - 0.9) * d[k]) / l : 0, 1e-12);
    }
    expect(s.contactPoints.length).to.be.within(1, 9);
    expectKMatchesFD(s, x, 400);
    s.bilateral.value = true;
    force(s, x);
    expect(s.contactPoints).to.have.length(10);
    expectKMatchesFD(s, x, 400);
  });
});

describe('ConicalForceField', () => {
  it('pulls the points outside the cone back (cap, side, behind the apex); K = ∂f/∂x in each region', () => {
    const c = new ConicalForceField();
    c.coneCenter.value = Float64Array.of(0, 0, 0);
    c.coneHeight.value = Float64Array.of(0, 0, 2);
    c.coneAngle.value = 30;
    c.stiffness.value = 100;
    const x = Float64Array.of(
      0.1,
      0.1,
      1, // inside
      0,
      0.5,
      2.2, // beyond the cap
      1.5,
      0.2,
      1, // beside the cone
      0.3,
      -0.2,
      -0.5, // behind the apex
    );
    buildNode(x, undefined, [c]);
    const f = force(c, x);
    expect(Array.from(f.subarray(0, 3))).to.deep.equal([0, 0, 0]);
    expect(c.contactPoints).to.deep.equal([1, 2, 3]);
    // behind the apex: f = −k·q
    for (let k = 0; k < 3; k++) expect(f[9 + k]).to.be.closeTo(-100 * x[9 + k], 1e-12);
    // beside: the force brings the point onto the cone's side, orthogonally to it
    const p = [1.5, 0.2, 1];
    const target = p.map((v, k) => v + f[6 + k] / 100);
    const ang = Math.acos(target[2] / Math.hypot(...target));
    expect((ang * 180) / Math.PI).to.be.closeTo(30, 1e-9);
    expectKMatchesFD(c, x, 100);
  });
});

describe('LinearForceField', () => {
  it('interpolates the key forces in time (scaled by force), then keeps the last one', () => {
    const l = new LinearForceField();
    l.points.value = Uint32Array.of(1);
    l.times.value = Float64Array.of(1, 3);
    l.forces.value = Float64Array.of(0, 0, 0, 2, -4, 6);
    l.force.value = 0.5;
    const { node } = buildNode([0, 0, 0, 1, 1, 1], undefined, [l]);
    const at = (t: number): number[] => {
      node.time.value = t;
      return Array.from(force(l, new Float64Array(6)));
    };
    expect(at(0.5)).to.deep.equal([0, 0, 0, 0, 0, 0]);
    expect(at(2)).to.deep.equal([0, 0, 0, 0.5, -1, 1.5]);
    expect(at(4)).to.deep.equal([0, 0, 0, 2, -4, 6]);
  });
});

describe('velocity damping force fields', () => {
  /** B = ∂f/∂v by central differences, and the emitted B. */
  function dampingAndFD(ff: BaseForceField, n: number): { B: number[][]; FD: number[][] } {
    const x = new Float64Array(n),
      v = scatter(n / 3, 1, 5);
    const FD = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (let j = 0; j < n; j++) {
      const vp = Float64Array.from(v),
        vm = Float64Array.from(v);
      vp[j] += 1e-6;
      vm[j] -= 1e-6;
      const fp = force(ff, x, vp),
        fm = force(ff, x, vm);
      for (let i = 0; i < n; i++) FD[i][j] = (fp[i] - fm[i]) / 2e-6;
    }
    const B = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    ff.addBToMatrix({ add: (r, c, val) => (B[r][c] += val) }, 1);
    return { B, FD };
  }

  it('UniformVelocityDampingForceField: f = −c·v; B = −c·I with implicit, none otherwise', () => {
    const u = new UniformVelocityDampingForceField();
    u.dampingCoefficient.value = 0.7;
    buildNode([0, 0, 0, 1, 1, 1], undefined, [u]);
    const { B, FD } = dampingAndFD(u, 6);
    expect(B.flat().every((b) => b === 0)).to.equal(true);
    u.implicit.value = true;
    const r = dampingAndFD(u, 6);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(r.B[i][j]).to.be.closeTo(FD[i][j], 1e-9);
    const df = new Float64Array(6);
    u.addDForce([df], [Float64Array.of(1, 2, 3, 4, 5, 6)], 0, -0.1);
    expect(df[5]).to.be.closeTo(0.42, 1e-15);
  });

  it('DiagonalVelocityDampingForceField: f_i = −c_i ⊙ v_i, the last coefficient for the points beyond; B = ∂f/∂v', () => {
    const d = new DiagonalVelocityDampingForceField();
    d.dampingCoefficient.value = Float64Array.of(0.5, 0.2, 0.2, 1, 2, 3);
    buildNode([0, 0, 0, 1, 1, 1, 2, 2, 2], undefined, [d]);
    const f = force(d, new Float64Array(9), Float64Array.of(1, 1, 1, 1, 1, 1, 1, 1, 1));
    expect(Array.from(f)).to.deep.equal([-0.5, -0.2, -0.2, -1, -2, -3, -1, -2, -3]);
    const { B, FD } = dampingAndFD(d, 9);
    for (let i = 0; i < 9; i++) for (let j = 0; j < 9; j++) expect(B[i][j]).to.be.closeTo(FD[i][j], 1e-9);
  });
});
