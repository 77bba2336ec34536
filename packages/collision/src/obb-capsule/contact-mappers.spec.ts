import { expect } from 'chai';
import { contactPointPosition } from '@sofa-ts/core';
import { meshNode } from '../test-support.js';
import { ContactSide } from '../response/contact-points.js';
import { CapsuleCollisionModel } from './CapsuleCollisionModel.js';
import { OBBCollisionModel } from './OBBCollisionModel.js';

/**
 * The contact points of capsules and boxes (SOFA's capsule and rigid contact mappers): attached at
 * the detection's point, they follow the state with the mapping's Jacobian, checked by central
 * differences of the mapped position:
 *   capsule (a, b), point at s on the axis: x = (1 − s)·x_a + s·x_b → ∂x/∂x_a = (1 − s)·I, ∂x/∂x_b = s·I
 *   box frame (c, q), point P on its surface: x = c + R(q)·l → ∂x/∂c = I, ∂x/∂θ = −[x − c]×
 *   (θ a small rotation of the frame in world axes, q ← exp(θ/2)·q).
 */
const h = 1e-6;

describe('contact mappers of capsules and boxes (Jacobian against finite differences)', () => {
  it('capsule: barycentric on the edge, the radius added to the rest distance', () => {
    const caps = new CapsuleCollisionModel();
    caps.defaultRadius.value = 0.3;
    const x = [0.1, -0.2, 0.3, 1.1, 0.4, -0.5];
    meshNode(undefined, 'caps', x, { edges: [0, 1] }, caps);
    const s = 0.35;
    const P = [0, 1, 2].map((k) => (1 - s) * x[k] + s * x[3 + k]);
    const side = new ContactSide();
    expect(side.attach(0, caps, 0, P, 0)).to.equal(0.3);
    const out = new Float64Array(3);
    contactPointPosition(out, 0, caps.x, side, 0);
    P.forEach((v, k) => expect(out[k]).to.be.closeTo(v, 1e-15));
    const xs = Float64Array.from(x);
    for (let dof = 0; dof < 6; dof++) {
      const col = new Float64Array(3);
      for (const sg of [1, -1]) {
        xs.set(x);
        xs[dof] += sg * h;
        contactPointPosition(out, 0, xs, side, 0);
        for (let k = 0; k < 3; k++) col[k] += (sg * out[k]) / (2 * h);
      }
      const w = dof < 3 ? 1 - s : s;
      for (let k = 0; k < 3; k++) expect(col[k]).to.be.closeTo(k === dof % 3 ? w : 0, 1e-9);
    }
  });

  it('box: fixed in the frame, J = [I, −[x − c]×]', () => {
    const obb = new OBBCollisionModel();
    const q = [0.1, -0.3, 0.2];
    const qw = Math.sqrt(1 - q[0] ** 2 - q[1] ** 2 - q[2] ** 2);
    const frame = [0.5, -1, 2, ...q, qw];
    meshNode(undefined, 'box', frame, { rigid: true }, obb);
    const P = [1.2, -0.4, 2.9];
    const side = new ContactSide();
    expect(side.attach(0, obb, 0, P, 0)).to.equal(0);
    const out = new Float64Array(3);
    contactPointPosition(out, 0, obb.x, side, 0);
    P.forEach((v, k) => expect(out[k]).to.be.closeTo(v, 1e-14));
    const r = [P[0] - frame[0], P[1] - frame[1], P[2] - frame[2]];
    const xs = Float64Array.from(frame);
    for (let dof = 0; dof < 6; dof++) {
      const col = new Float64Array(3);
      for (const sg of [1, -1]) {
        xs.set(frame);
        if (dof < 3) xs[dof] += sg * h;
        else {
          // q ← (sin(h/2)·e, cos(h/2)) ⊗ q: a rotation by ±h about world axis e
          const e = [0, 0, 0];
          e[dof - 3] = Math.sin((sg * h) / 2);
          const ew = Math.cos((sg * h) / 2);
          const [x1, y1, z1] = e as [number, number, number];
          const [x2, y2, z2, w2] = [frame[3], frame[4], frame[5], frame[6]];
          xs[3] = ew * x2 + x1 * w2 + y1 * z2 - z1 * y2;
          xs[4] = ew * y2 - x1 * z2 + y1 * w2 + z1 * x2;
          xs[5] = ew * z2 + x1 * y2 - y1 * x2 + z1 * w2;
          xs[6] = ew * w2 - x1 * x2 - y1 * y2 - z1 * z2;
        }
        contactPointPosition(out, 0, xs, side, 0);
        for (let k = 0; k < 3; k++) col[k] += (sg * out[k]) / (2 * h);
      }
      // translation: e_dof; rotation about e: e × r
      const e = [0, 0, 0];
      e[dof % 3] = 1;
      const expected = dof < 3 ? e : [e[1] * r[2] - e[2] * r[1], e[2] * r[0] - e[0] * r[2], e[0] * r[1] - e[1] * r[0]];
      for (let k = 0; k < 3; k++) expect(col[k]).to.be.closeTo(expected[k], 1e-8);
    }
  });
});
