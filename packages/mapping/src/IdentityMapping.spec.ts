import { expect } from 'chai';
import { Node, Rigid2d, Rigid3d, Vec2d, Vec3d, Vec6d } from '@sofa-ts/core';
import { IdentityMapping } from './IdentityMapping.js';
import { StubState, checkJacobian, checkTranspose, expectValidCsr, mount, rng } from './test-support.js';

describe('IdentityMapping', () => {
  it('copies the input point by point, and its velocity at init (Vec3d)', () => {
    const r = rng(1);
    const from = new StubState(Vec3d, Array.from({ length: 12 }, r), 'in');
    from.v.set(Array.from({ length: 12 }, r));
    const to = new StubState(Vec3d, new Float64Array(12), 'out');
    mount(new IdentityMapping(), from, to);
    expect(Array.from(to.x)).to.deep.equal(Array.from(from.x));
    expect(Array.from(to.v)).to.deep.equal(Array.from(from.v));
  });

  it('resizes the output to the input size (SOFA resizes the output state)', () => {
    const from = new StubState(Vec3d, [1, 2, 3, 4, 5, 6], 'in');
    const to = new StubState(Vec3d, [0, 0, 0], 'out');
    mount(new IdentityMapping(), from, to);
    expect(to.size).to.equal(2);
    expect(Array.from(to.x)).to.deep.equal([1, 2, 3, 4, 5, 6]);
  });

  it('J is the identity, equals finite differences of apply, and applyJT is its transpose (Vec3d, Rigid3d)', () => {
    for (const type of [Vec3d, Rigid3d]) {
      const r = rng(2);
      const n = 3;
      const x = new Float64Array(n * type.coordSize);
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < 3; k++) x[i * type.coordSize + k] = r();
        if (type === Rigid3d) {
          const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
          const l = Math.hypot(...q);
          for (let k = 0; k < 4; k++) x[7 * i + 3 + k] = q[k] / l;
        }
      }
      const from = new StubState(type, x, 'in');
      const to = new StubState(type, new Float64Array(x.length), 'out');
      const m = mount(new IdentityMapping(), from, to);
      const d = type.derivSize;
      expectValidCsr(m.getJ(0), n * d, n * d);
      expect(m.getJ(0).values.every((v) => v === 1)).to.equal(true);
      if (type === Vec3d) checkJacobian(m, from, to, 3);
      checkTranspose(m, n * d, n * d, 4);
    }
  });

  it('Vec6d → Vec3d keeps the first three components', () => {
    const from = new StubState(Vec6d, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 'in');
    const to = new StubState(Vec3d, new Float64Array(6), 'out');
    const m = mount(new IdentityMapping(), from, to);
    expect(Array.from(to.x)).to.deep.equal([1, 2, 3, 7, 8, 9]);
    expectValidCsr(m.getJ(0), 6, 12);
    checkJacobian(m, from, to, 5);
    checkTranspose(m, 12, 6, 6);
  });

  it('a link to a node means its state, searched up from that node (SOFA\'s input="@..")', () => {
    const root = new Node('root');
    const from = root.addObject(new StubState(Vec3d, [1, 2, 3], 'in'));
    const group = root.createChild('group');
    const leaf = group.createChild('leaf');
    const to = leaf.addObject(new StubState(Vec3d, [0, 0, 0], 'out'));
    const m = leaf.addObject(new IdentityMapping());
    m.input.set(group);
    m.output.set(leaf);
    m.init();
    expect(m.getFrom()[0]).to.equal(from);
    expect(m.getTo()).to.equal(to);
    // defaults: input from the parent node (or above), output in the mapping's node
    const d = leaf.addObject(new IdentityMapping());
    d.init();
    expect(d.getFrom()[0]).to.equal(from);
  });

  it("Rigid3d → Vec3d gives the frames' centres; J = [I 0] equals finite differences of apply (rotations included), Jᵀ its transpose", () => {
    const r = rng(21);
    const x: number[] = [];
    for (let i = 0; i < 3; i++) {
      const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
      const l = Math.hypot(...q);
      x.push(2 * r() - 1, 2 * r() - 1, 2 * r() - 1, ...q.map((v) => v / l));
    }
    const from = new StubState(Rigid3d, x, 'frames');
    from.v.set(Array.from({ length: 18 }, r));
    const to = new StubState(Vec3d, new Float64Array(3), 'centres');
    const m = mount(new IdentityMapping(), from, to);
    expect(m.template).to.equal('Rigid3d,Vec3d');
    expect(to.size).to.equal(3);
    for (let i = 0; i < 3; i++) {
      for (let k = 0; k < 3; k++) {
        expect(to.x[3 * i + k]).to.equal(x[7 * i + k]);
        expect(to.v[3 * i + k]).to.equal(from.v[6 * i + k]);
      }
    }
    expectValidCsr(m.getJ(0), 9, 18);
    checkJacobian(m, from, to, 22);
    checkTranspose(m, 18, 9, 23);
  });

  it("Rigid2d → Vec2d gives the frames' centres; J equals finite differences of apply", () => {
    const from = new StubState(Rigid2d, [1, 2, 0.3, -1, 0.5, 2], 'frames');
    const to = new StubState(Vec2d, new Float64Array(2), 'centres');
    const m = mount(new IdentityMapping(), from, to);
    expect(Array.from(to.x)).to.deep.equal([1, 2, -1, 0.5]);
    checkJacobian(m, from, to, 24);
    checkTranspose(m, 6, 4, 25);
  });

  it('refuses states of different kinds, and a template that contradicts them', () => {
    const from = new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], 'in');
    const to = new StubState(Vec2d, [0, 0], 'out');
    expect(() => mount(new IdentityMapping(), from, to)).to.throw(/cannot map Rigid3d to Vec2d/);
    const m = new IdentityMapping();
    m.template = 'Vec3,Vec3';
    expect(() =>
      mount(m, new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], 'in'), new StubState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], 'out')),
    ).to.throw(/does not match the states/);
  });
});
