import { expect } from 'chai';
import { controlPoints, frameOrigin, localEndVector, quatToMatrix } from './beam-frames.js';

/*
 * SOFA's frame algebra for quaternions of any norm, written here from its definitions (not from the
 * kernels under test), to pin the rule the kernels follow:
 *   rotate(q, v) = M(q)·v, M(q) = I + 2w[v]× + 2[v]×²; inverseRotate = M(q)ᵀ·v;
 *   inverse(q) = conj(q)/|q|; product = Hamilton product, not normalised;
 *   SolidTypes Transform (q, o) keeps o = the parent's origin seen from the child:
 *     Transform(t, q) = (q, −inverseRotate(q, t)); getOrigin = −rotate(q, o);
 *     inversed(q, o) = (inverse(q), −rotate(q, o));  (q1, o1)·(q2, o2) = (q1 q2, o2 + inverseRotate(q2, o1));
 *   CreateSpatialVector(q, o) = (rotation vector of q/|q|, getOrigin).
 */
type V3 = [number, number, number];
type Q = [number, number, number, number];
interface Tf {
  q: Q;
  o: V3;
}

function cross(a: V3, b: V3): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
/** M(q)·v by the cross-product form v + 2w(u × v) + 2u × (u × v), u the vector part. */
function rotate(q: Q, v: V3): V3 {
  const u: V3 = [q[0], q[1], q[2]];
  const c1 = cross(u, v),
    c2 = cross(u, c1);
  return [0, 1, 2].map((i) => v[i] + 2 * q[3] * c1[i] + 2 * c2[i]) as V3;
}
/** M(q)ᵀ·v = the same with the conjugate. */
function inverseRotate(q: Q, v: V3): V3 {
  return rotate([-q[0], -q[1], -q[2], q[3]], v);
}
function mul(a: Q, b: Q): Q {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}
function inverse(q: Q): Q {
  const n = Math.hypot(...q);
  return [-q[0] / n, -q[1] / n, -q[2] / n, q[3] / n];
}
const fromPosition = (t: V3, q: Q): Tf => ({ q, o: inverseRotate(q, t).map((x) => -x) as V3 });
const origin = (f: Tf): V3 => rotate(f.q, f.o).map((x) => -x) as V3;
const inversed = (f: Tf): Tf => ({ q: inverse(f.q), o: rotate(f.q, f.o).map((x) => -x) as V3 });
const compose = (f1: Tf, f2: Tf): Tf => {
  const r = inverseRotate(f2.q, f1.o);
  return { q: mul(f1.q, f2.q), o: [f2.o[0] + r[0], f2.o[1] + r[1], f2.o[2] + r[2]] };
};
function rotationVector(q: Q): V3 {
  const n = Math.hypot(...q),
    s = q[3] < 0 ? -1 / n : 1 / n;
  const u: V3 = [q[0] * s, q[1] * s, q[2] * s];
  const sn = Math.hypot(...u),
    angle = 2 * Math.atan2(sn, q[3] * s);
  return sn === 0 ? [0, 0, 0] : (u.map((x) => (x / sn) * angle) as V3);
}

/** The quaternion 0.707 0 0.707 0 of SofaScene's beam (|q|² = 0.999698) and others of several norms. */
const quats: Q[] = [
  [0.707, 0, 0.707, 0],
  [0.1, -0.3, 0.2, 0.93],
  [0.5, 0.5, -0.5, 0.52],
  [0, 0, 0.38268343236508984, 0.9238795325112867],
];

describe('beam-frames: SOFA frame algebra for quaternions of any norm', () => {
  it("M(q) is SOFA's rotate: (1 − |q|²)·I + |q|²·R(q/|q|)", () => {
    const M = new Float64Array(9);
    for (const q of quats) {
      quatToMatrix(M, 0, q, 0);
      const n2 = q[0] ** 2 + q[1] ** 2 + q[2] ** 2 + q[3] ** 2;
      const R = new Float64Array(9);
      quatToMatrix(
        R,
        0,
        q.map((x) => x / Math.sqrt(n2)),
        0,
      );
      for (let i = 0; i < 3; i++) {
        const e: V3 = [0, 0, 0];
        e[i] = 1;
        const v = rotate(q, e);
        for (let r = 0; r < 3; r++) {
          expect(M[3 * r + i]).to.be.closeTo(v[r], 1e-15);
          expect(M[3 * r + i]).to.be.closeTo((1 - n2) * (r === i ? 1 : 0) + n2 * R[3 * r + i], 1e-15);
        }
      }
    }
  });

  it('a frame gives back the origin M(q)·M(q)ᵀ·p (p itself only for a unit q): 1e-2 off 15 m from the origin at |q|² = 0.9997', () => {
    const R = new Float64Array(9),
      out = new Float64Array(3);
    const p: V3 = [12, 0, -9];
    for (const q of quats) {
      quatToMatrix(R, 0, q, 0);
      frameOrigin(out, 0, R, 0, p, 0);
      const want = origin(fromPosition(p, q));
      for (let c = 0; c < 3; c++) expect(out[c]).to.be.closeTo(want[c], 1e-13);
    }
    quatToMatrix(R, 0, quats[0], 0);
    frameOrigin(out, 0, R, 0, p, 0);
    // (1 − s²)² I + s⁴ I + 2 s²(1 − s²) R̂ applied to p, R̂ the half turn about (1, 0, 1)/√2: R̂·p = (−9, 0, 12)
    const s2 = 2 * 0.707 ** 2,
      a = (1 - s2) ** 2 + s2 ** 2,
      b = 2 * s2 * (1 - s2);
    expect(out[0]).to.be.closeTo(a * 12 + b * -9, 1e-12);
    expect(out[2]).to.be.closeTo(a * -9 + b * 12, 1e-12);
    expect(Math.hypot(out[0] - 12, out[2] + 9)).to.be.greaterThan(1e-2);
    // a unit quaternion gives p back
    quatToMatrix(R, 0, quats[3], 0);
    frameOrigin(out, 0, R, 0, p, 0);
    for (let c = 0; c < 3; c++) expect(out[c]).to.be.closeTo(p[c], 1e-14);
  });

  it("control points: the frames' origins and their x axes M(q)·e_x·L/3 (BeamAdapter getControlPointsFromFrame)", () => {
    const x = Float64Array.of(12, 0, -9, ...quats[0], 12.1, 0.2, -8, ...quats[1]);
    const P = new Float64Array(12),
      R = new Float64Array(9),
      L = 1.05;
    controlPoints(P, x, 0, 7, L, R);
    const f0 = fromPosition([12, 0, -9], quats[0]),
      f1 = fromPosition([12.1, 0.2, -8], quats[1]);
    const o0 = origin(f0),
      o1 = origin(f1),
      x0 = rotate(quats[0], [1, 0, 0]),
      x1 = rotate(quats[1], [-1, 0, 0]);
    for (let c = 0; c < 3; c++) {
      expect(P[c]).to.be.closeTo(o0[c], 1e-13);
      expect(P[3 + c]).to.be.closeTo(o0[c] + (x0[c] * L) / 3, 1e-13);
      expect(P[6 + c]).to.be.closeTo(o1[c] + (x1[c] * L) / 3, 1e-13);
      expect(P[9 + c]).to.be.closeTo(o1[c], 1e-13);
    }
  });

  it("local end vector = CreateSpatialVector(global_H_local⁻¹ · global_H_localEnd) in SOFA's Transform algebra", () => {
    const out = new Float64Array(6),
      tmp = new Float64Array(8);
    const pm = Float64Array.of(12.05, 0.1, -8.5);
    for (const qm of [quats[3], quats[1], quats[0]]) {
      for (const qe of quats) {
        const x = Float64Array.of(12, 0, -9, ...qe);
        localEndVector(out, 0, x, 0, pm, 0, Float64Array.from(qm), 0, tmp);
        const local = compose(inversed(fromPosition([pm[0], pm[1], pm[2]], qm)), fromPosition([12, 0, -9], qe));
        const pos = origin(local),
          rot = rotationVector(local.q);
        for (let c = 0; c < 3; c++) {
          expect(out[c], `position ${c}`).to.be.closeTo(pos[c], 1e-12);
          expect(out[3 + c], `rotation ${c}`).to.be.closeTo(rot[c], 1e-12);
        }
      }
    }
    // unit quaternions: R_mᵀ·(p_e − pm) and the rotation vector of qm⁻¹ ⊗ q_e
    const qm = Float64Array.from(quats[3]),
      qe = quats[3],
      x = Float64Array.of(12, 0, -9, ...qe);
    localEndVector(out, 0, x, 0, pm, 0, qm, 0, tmp);
    const back = inverseRotate(quats[3], [12 - pm[0], 0 - pm[1], -9 - pm[2]]);
    for (let c = 0; c < 3; c++) expect(out[c]).to.be.closeTo(back[c], 1e-13);
    for (let c = 0; c < 3; c++) expect(out[3 + c]).to.be.closeTo(0, 1e-15);
  });
});
