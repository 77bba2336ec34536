import { expect } from 'chai';
import { AnimateEndEvent, Rigid3d, Vec3d } from '@sofa-ts/core';
import { RigidMapping } from '../RigidMapping.js';
import { StubSetContainer, StubState, checkJacobian, checkTranspose, mount, rng } from '../test-support.js';
import { PersistentContactBarycentricMapping } from './PersistentContactBarycentricMapping.js';
import { PersistentContactRigidMapping } from './PersistentContactRigidMapping.js';

/** Two tetrahedra sharing the face (1, 2, 3), their nodes moved at random (seeded). */
function tetraBody(seed: number): { from: StubState; topo: StubSetContainer } {
  const r = rng(seed);
  const rest = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1];
  const x = rest.map((v) => v + 0.1 * (2 * r() - 1));
  const topo = new StubSetContainer({ tetrahedra: Uint32Array.of(0, 1, 2, 3, 1, 2, 3, 4), positions: Float64Array.from(x) });
  return { from: new StubState(Vec3d, x, 'body'), topo };
}

/** Σ_k w_k·x_{nodes[k]}. */
function combination(x: Float64Array, nodes: readonly number[], w: readonly number[]): number[] {
  const p = [0, 0, 0];
  nodes.forEach((n, k) => {
    for (let a = 0; a < 3; a++) p[a] += w[k] * x[3 * n + a];
  });
  return p;
}

/** out = R(q)·v for the unit quaternion q = (x, y, z, w) at x[o + 3 ..]: the closed form R = (w² − u·u)·I + 2·u·uᵀ + 2w·[u]×. */
function rotateClosedForm(x: Float64Array, o: number, v: readonly number[]): number[] {
  const [qx, qy, qz, qw] = [x[o + 3], x[o + 4], x[o + 5], x[o + 6]];
  const uv = qx * v[0] + qy * v[1] + qz * v[2];
  const s = qw * qw - (qx * qx + qy * qy + qz * qz);
  const c = [qy * v[2] - qz * v[1], qz * v[0] - qx * v[2], qx * v[1] - qy * v[0]];
  return [0, 1, 2].map((a) => s * v[a] + 2 * uv * [qx, qy, qz][a] + 2 * qw * c[a]);
}

describe('PersistentContactBarycentricMapping', () => {
  it('locates a new contact point in its tetrahedron: its coordinates are the barycentric weights of the point (closed form)', () => {
    const { from, topo } = tetraBody(1);
    const to = new StubState(Vec3d, [0, 0, 0], 'contacts');
    const m = mount(new PersistentContactBarycentricMapping(), from, to, topo);
    m.beginAddContactPoint();
    const w0 = [0.1, 0.2, 0.3, 0.4],
      w1 = [0.25, 0.25, 0.3, 0.2];
    const p0 = combination(from.x, [0, 1, 2, 3], w0),
      p1 = combination(from.x, [1, 2, 3, 4], w1);
    expect(m.addContactPointFromInputMapping(p0[0], p0[1], p0[2])).to.equal(0);
    expect(m.addContactPointFromInputMapping(p1[0], p1[1], p1[2])).to.equal(1);
    const { element, coordinates } = m.contactPoints;
    expect(Array.from(element)).to.deep.equal([0, 1]);
    // f = the weights of nodes 1, 2, 3 of the element
    [0.2, 0.3, 0.4, 0.25, 0.3, 0.2].forEach((f, i) => expect(coordinates[i]).to.be.closeTo(f, 1e-12));
    m.applyPositionAndFreePosition();
    expect(to.size).to.equal(2);
    [...p0, ...p1].forEach((v, i) => expect(to.x[i]).to.be.closeTo(v, 1e-12));
  });

  it('a kept point stays at the same material point: after the body moves it is the same combination of the moved nodes', () => {
    const { from, topo } = tetraBody(2);
    const to = new StubState(Vec3d, [0, 0, 0], 'contacts');
    const m = mount(new PersistentContactBarycentricMapping(), from, to, topo);
    const w = [0.4, 0.1, 0.2, 0.3];
    m.beginAddContactPoint();
    const p = combination(from.x, [1, 2, 3, 4], w);
    m.addContactPointFromInputMapping(0.2, 0.2, 0.2);
    m.addContactPointFromInputMapping(p[0], p[1], p[2]);
    m.applyPositionAndFreePosition();
    m.handleEvent(new AnimateEndEvent(0.01));
    // the body deforms; the stored point 1 is kept (it becomes point 0 of the new step)
    const r = rng(7);
    for (let i = 0; i < from.x.length; i++) from.x[i] += 0.2 * (2 * r() - 1);
    from.xFree.set(from.x);
    m.beginAddContactPoint();
    expect(m.keepContactPointFromInputMapping(1)).to.equal(0);
    m.applyPositionAndFreePosition();
    expect(to.size).to.equal(1);
    const moved = combination(from.x, [1, 2, 3, 4], w);
    moved.forEach((v, a) => expect(to.x[a]).to.be.closeTo(v, 1e-12));
    moved.forEach((v, a) => expect(to.xFree[a]).to.be.closeTo(v, 1e-12));
  });

  it('a point outside every tetrahedron goes to the one of the nearest centre (SOFA rule)', () => {
    const { from, topo } = tetraBody(3);
    const to = new StubState(Vec3d, [0, 0, 0], 'contacts');
    const m = mount(new PersistentContactBarycentricMapping(), from, to, topo);
    m.beginAddContactPoint();
    m.addContactPointFromInputMapping(3, 3, 3);
    m.addContactPointFromInputMapping(-2, -2, -2);
    expect(Array.from(m.contactPoints.element)).to.deep.equal([1, 0]);
  });

  it('J of the contact points equals finite differences of apply, applyJT is its transpose', () => {
    const { from, topo } = tetraBody(4);
    const to = new StubState(Vec3d, [0, 0, 0], 'contacts');
    const m = mount(new PersistentContactBarycentricMapping(), from, to, topo);
    m.beginAddContactPoint();
    const r = rng(5);
    for (let k = 0; k < 4; k++) {
      const w = [r(), r(), r(), r()];
      const s = w.reduce((a, b) => a + b, 0);
      const p = combination(
        from.x,
        k % 2 ? [0, 1, 2, 3] : [1, 2, 3, 4],
        w.map((v) => v / s),
      );
      m.addContactPointFromInputMapping(p[0], p[1], p[2]);
    }
    m.applyPositionAndFreePosition();
    checkJacobian(m, from, to, 6);
    checkTranspose(m, 15, 12, 7);
  });

  it('refuses an input without tetrahedra', () => {
    const from = new StubState(Vec3d, [0, 0, 0, 1, 0, 0, 0, 1, 0], 'surface');
    const topo = new StubSetContainer({ triangles: Uint32Array.of(0, 1, 2), positions: Float64Array.from(from.x) });
    const to = new StubState(Vec3d, [0.2, 0.2, 0], 'contacts');
    expect(() => mount(new PersistentContactBarycentricMapping(), from, to, topo)).to.throw(/no tetrahedra/);
  });
});

describe('PersistentContactRigidMapping', () => {
  /** Two frames; a collision node with a RigidMapping 'col' on frame 1, as the scenes have. */
  function rigidBody(): { from: StubState; m: PersistentContactRigidMapping; to: StubState } {
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 0.1, -0.3, 0.2, Math.sqrt(1 - 0.14)], 'frames');
    const to = new StubState(Vec3d, [0, 0, 0], 'contacts');
    const m = new PersistentContactRigidMapping();
    m.nameOfInputMap.value = 'col';
    mount(m, from, to);
    const colNode = from.context.createChild('collision');
    const cm = new StubState(Vec3d, [0.5, 0, 0], 'cm');
    const col = new RigidMapping();
    col.name.value = 'col';
    col.index.value = 1;
    colNode.addObject(cm);
    colNode.addObject(col);
    col.input.set(from);
    col.output.set(cm);
    col.init();
    m.bwdInit();
    return { from, m, to };
  }

  it("a new contact point is fixed in the input mapping's frame: l = Rᵀ·(p − c), mapped back to p (closed form)", () => {
    const { from, m, to } = rigidBody();
    m.beginAddContactPoint();
    m.addContactPointFromInputMapping(1.5, 2.2, 2.6);
    m.applyPositionAndFreePosition();
    const { frame, local } = m.contactPoints;
    expect(frame).to.equal(1);
    const Rl = rotateClosedForm(from.x, 7, Array.from(local));
    [1.5 - 1, 2.2 - 2, 2.6 - 3].forEach((v, a) => expect(Rl[a]).to.be.closeTo(v, 1e-12));
    [1.5, 2.2, 2.6].forEach((v, a) => expect(to.x[a]).to.be.closeTo(v, 1e-12));
  });

  it('a kept point moves with the frame: x = c′ + R′·l, the same material point of the body', () => {
    const { from, m, to } = rigidBody();
    m.beginAddContactPoint();
    m.addContactPointFromInputMapping(0.4, 0.1, -0.2);
    m.addContactPointFromInputMapping(1.5, 2.2, 2.6);
    m.applyPositionAndFreePosition();
    const l = Array.from(m.contactPoints.local.subarray(3, 6));
    m.handleEvent(new AnimateEndEvent(0.01));
    // the frame moves: translated, and turned by 0.5 rad about z
    const q = [from.x[10], from.x[11], from.x[12], from.x[13]];
    const [c, s] = [Math.cos(0.25), Math.sin(0.25)];
    const nq = [c * q[0] - s * q[1], c * q[1] + s * q[0], c * q[2] + s * q[3], c * q[3] - s * q[2]];
    from.x.set([1.3, 1.9, 3.4, ...nq], 7);
    from.xFree.set(from.x);
    m.beginAddContactPoint();
    expect(m.keepContactPointFromInputMapping(1)).to.equal(0);
    m.applyPositionAndFreePosition();
    expect(to.size).to.equal(1);
    const Rl = rotateClosedForm(from.x, 7, l);
    [1.3, 1.9, 3.4].forEach((v, a) => expect(to.x[a]).to.be.closeTo(v + Rl[a], 1e-12));
    [1.3, 1.9, 3.4].forEach((v, a) => expect(to.xFree[a]).to.be.closeTo(v + Rl[a], 1e-12));
  });

  it('J of the contact points equals finite differences of apply, applyJT is its transpose', () => {
    const { from, m, to } = rigidBody();
    m.beginAddContactPoint();
    m.addContactPointFromInputMapping(1.5, 2.2, 2.6);
    m.addContactPointFromInputMapping(0.5, 1.2, 3.6);
    m.addContactPointFromInputMapping(1, 2.5, 2);
    m.applyPositionAndFreePosition();
    checkJacobian(m, from, to, 8);
    checkTranspose(m, 12, 9, 9);
  });
});
