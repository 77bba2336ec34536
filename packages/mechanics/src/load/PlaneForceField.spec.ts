import { expect } from 'chai';
import { Rigid3d } from '@sofa-ts/core';
import { PlaneForceField } from './PlaneForceField.js';
import { stiffnessAndFiniteDifferences } from './fd-check-test-support.js';
import { buildNode, rng } from '../mass/mesh-test-support.js';

function plane(
  attrs: {
    normal?: number[];
    d?: number;
    stiffness?: number;
    damping?: number;
    maxForce?: number;
    bilateral?: boolean;
    localRange?: number[];
  } = {},
): PlaneForceField {
  const p = new PlaneForceField();
  if (attrs.normal) p.normal.value = Float64Array.from(attrs.normal);
  if (attrs.d !== undefined) p.d.value = attrs.d;
  if (attrs.stiffness !== undefined) p.stiffness.value = attrs.stiffness;
  if (attrs.damping !== undefined) p.damping.value = attrs.damping;
  if (attrs.maxForce !== undefined) p.maxForce.value = attrs.maxForce;
  if (attrs.bilateral !== undefined) p.bilateral.value = attrs.bilateral;
  if (attrs.localRange) p.localRange.value = Float64Array.from(attrs.localRange);
  return p;
}

/** Points scattered around the plane, none within 1e-3 of it (so finite differences see no switch). */
function scatter(n: number, normal: number[], d: number, seed: number): Float64Array {
  const r = rng(seed);
  const x = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) x[3 * i + k] = 2 * r();
    const depth = x[3 * i] * normal[0] + x[3 * i + 1] * normal[1] + x[3 * i + 2] * normal[2] - d;
    if (Math.abs(depth) < 1e-2) x[3 * i + 1] += 0.1;
  }
  return x;
}

describe('PlaneForceField', () => {
  it('pushes the points below the plane with f = −k·δ·n + c·δ·v, and leaves the others', () => {
    const p = plane({ normal: [0, 0, 1], d: 1, stiffness: 100, damping: 2 });
    buildNode([0, 0, 0.5, 1, 1, 2], undefined, [p]);
    const f = new Float64Array(6);
    p.addForce([f], [Float64Array.of(0, 0, 0.5, 1, 1, 2)], [Float64Array.of(1, -2, 3, 4, 5, 6)]);
    // δ = −0.5: f = 50·n − 1·v
    expect(Array.from(f)).to.deep.equal([-1, 2, 47, 0, 0, 0]);
    expect(p.contacts).to.deep.equal([0]);
  });

  it('clamps |f| to maxForce and acts on both sides when bilateral', () => {
    const p = plane({ normal: [0, 1, 0], stiffness: 10, damping: 0, maxForce: 3, bilateral: true });
    buildNode([0, -1, 0, 0, 0.1, 0], undefined, [p]);
    const f = new Float64Array(6);
    p.addForce([f], [Float64Array.of(0, -1, 0, 0, 0.1, 0)], [new Float64Array(6)]);
    expect(f[1]).to.be.closeTo(3, 1e-15); // 10 clamped to 3
    expect(f[4]).to.be.closeTo(-1, 1e-15); // above the plane: pulled back
  });

  for (const normal of [
    [0, 1, 0],
    [1 / Math.sqrt(3), 1 / Math.sqrt(3), -1 / Math.sqrt(3)],
    [2, 0.5, 1],
  ]) {
    it(`K = ∂f/∂x by central differences (normal ${normal.map((v) => v.toFixed(2)).join(' ')}, v = 0)`, () => {
      const x = scatter(6, normal, 0.2, 7);
      const p = plane({ normal, d: 0.2, stiffness: 300, damping: 4 });
      buildNode(x, undefined, [p]);
      const { K, FD } = stiffnessAndFiniteDifferences(p, x, new Float64Array(x.length));
      expect(p.contacts.length).to.be.within(1, 5);
      for (let i = 0; i < x.length; i++) for (let j = 0; j < x.length; j++) expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-5 * 300);
    });
  }

  it('addDForce matches K·dx, with the Rayleigh factor, and localRange limits the points', () => {
    const x = scatter(5, [0, 1, 0], 0, 3);
    const p = plane({ stiffness: 50 });
    p.rayleighStiffness.value = 0.5;
    buildNode(x, undefined, [p]);
    const { K } = stiffnessAndFiniteDifferences(p, x, new Float64Array(x.length));
    const dx = Float64Array.from(x, (_, i) => Math.sin(i));
    const df = new Float64Array(x.length);
    p.addDForce([df], [dx], 2, 0.1);
    for (let i = 0; i < x.length; i++) {
      let s = 0;
      for (let j = 0; j < x.length; j++) s += K[i][j] * dx[j];
      expect(df[i]).to.be.closeTo((2 + 0.05) * s, 1e-12);
    }
    const ranged = plane({ localRange: [1, 2], bilateral: true });
    buildNode(x, undefined, [ranged]);
    ranged.addForce([new Float64Array(x.length)], [x], [new Float64Array(x.length)]);
    expect(ranged.contacts).to.deep.equal([1, 2]);
  });

  it('takes (0, 1) as the default normal of a 2D state', () => {
    const p = plane();
    buildNode([0, -1, 3, 2], undefined, [p], { template: 'Vec2d' });
    const f = new Float64Array(4);
    p.addForce([f], [Float64Array.of(0, -1, 3, 2)], [new Float64Array(4)]);
    expect(Array.from(f)).to.deep.equal([0, 500, 0, 0]);
  });

  it("Rigid3d: the plane pushes the frames' centres (translation only), K = −k·n·nᵀ on the translation equals ∂f/∂x", () => {
    const p = plane({ normal: [0, 1, 0], d: 0, stiffness: 100, damping: 2 });
    const s = Math.sin(0.2),
      c = Math.cos(0.2);
    const x = Float64Array.of(0.3, -0.1, 0.2, s, 0, 0, c, 1, 0.5, 0, 0, s, 0, c);
    buildNode(x, undefined, [p], { template: 'Rigid3d' });
    const f = new Float64Array(12);
    const v = Float64Array.of(1, -2, 3, 4, 5, 6, 1, 1, 1, 1, 1, 1);
    p.addForce([f], [x], [v]);
    // frame 0: δ = −0.1, f = −k·δ·n + c·δ·v = 10·n − 0.2·v_linear; no torque; frame 1 above the plane
    const expected = [-0.2, 10 + 0.4, -0.6, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    f.forEach((val, i) => expect(val, `f[${i}]`).to.be.closeTo(expected[i], 1e-14));
    expect(p.contacts).to.deep.equal([0]);
    const { K, FD } = stiffnessAndFiniteDifferences(p, x, new Float64Array(12), 1e-6, Rigid3d);
    for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) expect(K[i][j], `K[${i}][${j}]`).to.be.closeTo(FD[i][j], 1e-7);
    expect(K[1][1]).to.equal(-100);
  });
});
