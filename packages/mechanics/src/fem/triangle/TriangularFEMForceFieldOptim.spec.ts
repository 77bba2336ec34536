import { expect } from 'chai';
import { buildNode, rng } from '../../mass/mesh-test-support.js';
import { TriangularFEMForceFieldOptim } from './TriangularFEMForceFieldOptim.js';
import { forceAt, kError, randomRotation, topologyOf, transform, wavyStrip } from './triangle-fem-test-support.js';

function optim(E: number, nu: number): TriangularFEMForceFieldOptim {
  const ff = new TriangularFEMForceFieldOptim();
  ff.youngModulus.value = Float64Array.of(E);
  ff.poissonRatio.value = Float64Array.of(nu);
  return ff;
}

/** A square [0, 2]² cut into 8 triangles around the centre point 4 (points 0..3 the corners, 5..8 the edge midpoints). */
function fan(): { pts: number[]; tris: number[] } {
  const pts = [0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0, 1, 1, 0, 1, 0, 0, 2, 1, 0, 1, 2, 0, 0, 1, 0];
  const ring = [0, 5, 1, 6, 2, 7, 3, 8];
  const tris: number[] = [];
  for (let i = 0; i < 8; i++) tris.push(ring[i], ring[(i + 1) % 8], 4);
  return { pts, tris };
}

describe('TriangularFEMForceFieldOptim', () => {
  it('exerts no force at rest nor at rigid motions of the rest shape', () => {
    const { pts, tris } = wavyStrip(4, 1);
    const ff = optim(500, 0.35);
    buildNode(pts, topologyOf(pts.length / 3, tris), [ff]);
    for (const fi of forceAt(ff, Float64Array.from(pts))) expect(Math.abs(fi)).to.be.below(1e-12);
    for (const fi of forceAt(ff, transform(pts, randomRotation(3), [1, 2, -3]))) expect(Math.abs(fi)).to.be.below(1e-10);
  });

  it('matches the closed form of a right triangle stretched along its first edge (strain measured on the rest shape)', () => {
    // A = 0, B = (L, 0), C = (0, H); B moved to L(1 + e): ε_xx = −e, f_B.x = −Ê·H·e/2, f_C.y = −ν·Ê·L·e/2
    const L = 2,
      H = 3,
      e = 0.1,
      E = 1000,
      nu = 0.3,
      Eh = E / (1 - nu * nu);
    const rest = [0, 0, 0, L, 0, 0, 0, H, 0];
    const Q = randomRotation(5),
      t = [1, -2, 0.5];
    const ff = optim(E, nu);
    buildNode(transform(rest, Q, t), topologyOf(3, [0, 1, 2]), [ff]);
    const f = forceAt(ff, transform([0, 0, 0, L * (1 + e), 0, 0, 0, H, 0], Q, t));
    const fbx = (-Eh * H * e) / 2,
      fcy = (-nu * Eh * L * e) / 2;
    const expected = transform([-fbx, -fcy, 0, fbx, 0, 0, 0, fcy, 0], Q);
    for (let i = 0; i < 9; i++) expect(f[i]).to.be.closeTo(expected[i], 1e-11 * Eh);
    // SOFA stores ½σ, σ = Ê·[1, ν]·ε in SOFA's sign (rest − current)
    expect(ff.stress[0]).to.be.closeTo((-Eh * e) / 2, 1e-10 * Eh);
    expect(ff.stress[1]).to.be.closeTo((-nu * Eh * e) / 2, 1e-10 * Eh);
    expect(ff.stress[2]).to.be.closeTo(0, 1e-10 * Eh);
  });

  it('passes the patch test: a uniform strain gives no force on the inner point and the plane-stress stress in every triangle', () => {
    const { pts, tris } = fan();
    const E = 2000,
      nu = 0.3,
      Eh = E / (1 - nu * nu),
      s = 1e-6;
    // displacement gradient G (in-plane, unsymmetric: strain + rotation)
    const G = [0.7 * s, 0.4 * s, -0.1 * s, -0.5 * s];
    const exx = G[0],
      eyy = G[3],
      gxy = G[1] + G[2];
    const sxx = Eh * (exx + nu * eyy),
      syy = Eh * (eyy + nu * exx),
      sxy = (Eh * (1 - nu) * gxy) / 2;
    const Q = randomRotation(11);
    const ff = optim(E, nu);
    buildNode(transform(pts, Q), topologyOf(9, tris), [ff]);
    const x = new Float64Array(27);
    for (let i = 0; i < 9; i++) {
      const X = pts[3 * i],
        Y = pts[3 * i + 1];
      x[3 * i] = X + G[0] * X + G[1] * Y;
      x[3 * i + 1] = Y + G[2] * X + G[3] * Y;
    }
    const f = forceAt(ff, transform(x, Q));
    let boundary = 0;
    for (let i = 0; i < 27; i++) boundary = Math.max(boundary, Math.abs(f[i]));
    for (let k = 0; k < 3; k++) expect(Math.abs(f[12 + k])).to.be.below(1e-5 * boundary);
    // the stress of each triangle, turned to the global axes: σ_g = Pᵀ·σ·P with P the frame in the plane
    for (let e = 0; e < 8; e++) {
      const fr = ff.getFrame(e);
      // frame axes back in the plane of the patch
      const ex = [0, 1, 2].map((k) => Q[k] * fr[0] + Q[3 + k] * fr[1] + Q[6 + k] * fr[2]);
      const ey = [0, 1, 2].map((k) => Q[k] * fr[3] + Q[3 + k] * fr[4] + Q[6 + k] * fr[5]);
      const s0 = -2 * ff.stress[3 * e],
        s1 = -2 * ff.stress[3 * e + 1],
        s2 = -2 * ff.stress[3 * e + 2];
      const gxx = ex[0] * ex[0] * s0 + ey[0] * ey[0] * s1 + 2 * ex[0] * ey[0] * s2;
      const gyy = ex[1] * ex[1] * s0 + ey[1] * ey[1] * s1 + 2 * ex[1] * ey[1] * s2;
      const gxyv = ex[0] * ex[1] * s0 + ey[0] * ey[1] * s1 + (ex[0] * ey[1] + ex[1] * ey[0]) * s2;
      expect(gxx).to.be.closeTo(sxx, 1e-6 * Math.abs(sxx));
      expect(gyy).to.be.closeTo(syy, 1e-5 * Math.abs(syy));
      expect(gxyv).to.be.closeTo(sxy, 1e-5 * Math.abs(sxy));
    }
  });

  it('K equals the finite differences of the force at rest and at rigid motions of the rest shape', () => {
    const { pts, tris } = wavyStrip(3, 3);
    const ff = optim(600, 0.3);
    buildNode(pts, topologyOf(pts.length / 3, tris), [ff]);
    expect(kError(ff, Float64Array.from(pts)).err).to.be.below(1e-7);
    expect(kError(ff, transform(pts, randomRotation(17), [0.5, -2, 1])).err).to.be.below(1e-7);
  });

  it('K is symmetric, equals addDForce, and stays within O(strain) of the finite differences when strained', () => {
    const { pts, tris } = wavyStrip(3, 4);
    const r = rng(21);
    const ff = optim(600, 0.3);
    buildNode(pts, topologyOf(pts.length / 3, tris), [ff]);
    const strain = 1e-3;
    const x = Float64Array.from(pts, (c) => c + strain * r());
    const { err, K } = kError(ff, x);
    expect(err).to.be.below(20 * strain);
    const n = x.length;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(K[i][j]).to.be.closeTo(K[j][i], 1e-12 * 600);
    const dx = Float64Array.from({ length: n }, () => r());
    const df = new Float64Array(n);
    ff.addDForce([df], [dx], 2, 0);
    for (let i = 0; i < n; i++) {
      let kdx = 0;
      for (let j = 0; j < n; j++) kdx += K[i][j] * dx[j];
      expect(df[i]).to.be.closeTo(2 * kdx, 1e-10 * 600);
    }
  });
});
