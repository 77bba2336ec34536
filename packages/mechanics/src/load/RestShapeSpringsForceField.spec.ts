import { expect } from 'chai';
import { Node, Rigid3d, Simulation, BaseAnimationLoop, sceneWarnings } from '@sofa-ts/core';
import { MechanicalObject } from '../MechanicalObject.js';
import { RestShapeSpringsForceField } from './RestShapeSpringsForceField.js';
import { stiffnessAndFiniteDifferences } from './fd-check-test-support.js';
import { buildNode, rng } from '../mass/mesh-test-support.js';

function springs(
  attrs: {
    points?: number[];
    stiffness?: number[];
    angularStiffness?: number[];
    externalPoints?: number[];
    activeDirections?: number[];
  } = {},
): RestShapeSpringsForceField {
  const s = new RestShapeSpringsForceField();
  if (attrs.points) s.points.value = Uint32Array.from(attrs.points);
  if (attrs.stiffness) s.stiffness.value = Float64Array.from(attrs.stiffness);
  if (attrs.angularStiffness) s.angularStiffness.value = Float64Array.from(attrs.angularStiffness);
  if (attrs.externalPoints) s.externalPoints.value = Uint32Array.from(attrs.externalPoints);
  if (attrs.activeDirections) s.activeDirections.value = Uint8Array.from(attrs.activeDirections);
  return s;
}

class IdleLoop extends BaseAnimationLoop {
  step(): void {}
}

describe('RestShapeSpringsForceField', () => {
  const rest = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];

  it('pulls points back to their rest positions, f = −k·(x − x0), k = 100 by default or per point', () => {
    const all = springs();
    const { state } = buildNode(rest, undefined, [all]);
    const x = Float64Array.from(rest, (v, i) => v + (i === 4 ? 0.5 : 0));
    const f = new Float64Array(12);
    all.addForce([f], [x], [new Float64Array(12)]);
    expect(f[4]).to.equal(-50);
    expect(state.size).to.equal(4);
    const some = springs({ points: [1, 3], stiffness: [10, 20] });
    buildNode(rest, undefined, [some]);
    const g = new Float64Array(12);
    some.addForce([g], [Float64Array.from(rest, (v) => v + 1)], [new Float64Array(12)]);
    expect(Array.from(g)).to.deep.equal([0, 0, 0, -10, -10, -10, 0, 0, 0, -20, -20, -20]);
  });

  it('K = ∂f/∂x by central differences, with inactive directions and per-point stiffness', () => {
    const r = rng(9);
    const s = springs({ points: [0, 2, 3], stiffness: [5, 7, 11], activeDirections: [1, 0, 1] });
    buildNode(rest, undefined, [s]);
    const x = Float64Array.from(rest, (v) => v + 0.3 * r());
    const { K, FD } = stiffnessAndFiniteDifferences(s, x, new Float64Array(12));
    for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) expect(K[i][j]).to.be.closeTo(FD[i][j], 1e-7);
    expect(K[1][1]).to.equal(0);
    expect(K[6][6]).to.equal(-7);
  });

  it('uses the current positions of an external_rest_shape state, at external_points', () => {
    const root = new Node('root');
    root.addObject(new IdleLoop());
    const target = new MechanicalObject();
    target.template = 'Vec3d';
    target.position.value = Float64Array.of(10, 0, 0, 20, 0, 0, 30, 0, 0);
    const body = root.createChild('body');
    const dofs = new MechanicalObject();
    dofs.template = 'Vec3d';
    dofs.position.value = Float64Array.of(0, 0, 0, 0, 0, 0);
    const s = springs({ stiffness: [2], externalPoints: [2, 0] });
    s.externalRestShape.set(target);
    body.addObject(dofs);
    body.addObject(s);
    root.createChild('target').addObject(target);
    new Simulation(root).init();
    const f = new Float64Array(6);
    s.addForce([f], [dofs.x], [dofs.v]);
    expect(Array.from(f)).to.deep.equal([60, 0, 0, 20, 0, 0]);
    target.x[0] = 11; // the rest shape follows the external state's current positions
    f.fill(0);
    s.addForce([f], [dofs.x], [dofs.v]);
    expect(f[3]).to.equal(22);
  });

  it('reports points and external points of different counts', () => {
    const root = new Node('root');
    root.addObject(new IdleLoop());
    const other = new MechanicalObject();
    other.position.value = Float64Array.of(0, 0, 0, 1, 1, 1, 2, 2, 2);
    root.addObject(other);
    const child = root.createChild('c');
    const dofs = new MechanicalObject();
    dofs.position.value = Float64Array.of(0, 0, 0);
    child.addObject(dofs);
    const s = springs();
    s.externalRestShape.set(other);
    child.addObject(s);
    expect(() => new Simulation(root).init()).to.throw(/1 points but 3 external points/);
  });

  describe('Rigid3d frames', () => {
    /** A frame at c rotated by θ about the unit axis u: (c, sin(θ/2)·u, cos(θ/2)). */
    const frame = (c: number[], u: number[], theta: number): number[] => [
      ...c,
      ...u.map((k) => Math.sin(theta / 2) * k),
      Math.cos(theta / 2),
    ];
    const u = [1 / 3, 2 / 3, 2 / 3];

    it('f_c = −k·(c − c̄) on the centre and τ = −κ·θ·u on the orientation (finite rotation, closed form)', () => {
      const s = springs({ stiffness: [10], angularStiffness: [4] });
      const rest = frame([0, 0, 0], [1, 0, 0], 0);
      buildNode(frame([1, 2, 3], u, 0.7), undefined, [s], { template: 'Rigid3d', rest });
      const f = new Float64Array(6);
      s.addForce([f], [Float64Array.from(frame([1, 2, 3], u, 0.7))], [new Float64Array(6)]);
      const expected = [-10, -20, -30, ...u.map((k) => -4 * 0.7 * k)];
      f.forEach((v, i) => expect(v, `f[${i}]`).to.be.closeTo(expected[i], 1e-14));
      // The rest shape turned too: only the relative rotation q ⊗ q̄⁻¹ counts.
      const t = springs({ stiffness: [10], angularStiffness: [4] });
      buildNode(frame([0, 0, 0], [0, 0, 1], 1.0), undefined, [t], { template: 'Rigid3d', rest: frame([0, 0, 0], [0, 0, 1], 0.25) });
      const g = new Float64Array(6);
      t.addForce([g], [Float64Array.from(frame([0, 0, 0], [0, 0, 1], 1.0))], [new Float64Array(6)]);
      expect(g[5]).to.be.closeTo(-4 * 0.75, 1e-14);
    });

    it('activeDirections masks centre components and rotation axes', () => {
      const s = springs({ stiffness: [10], angularStiffness: [4], activeDirections: [1, 0, 1, 1, 0, 1, 1] });
      const x = frame([1, 2, 3], u, 0.7);
      buildNode(x, undefined, [s], { template: 'Rigid3d', rest: frame([0, 0, 0], [1, 0, 0], 0) });
      const f = new Float64Array(6);
      s.addForce([f], [Float64Array.from(x)], [new Float64Array(6)]);
      const expected = [-10, 0, -30, -4 * 0.7 * u[0], 0, -4 * 0.7 * u[2]];
      f.forEach((v, i) => expect(v, `f[${i}]`).to.be.closeTo(expected[i], 1e-14));
    });

    it('K = diag(−k·I, −κ·I) equals ∂f/∂x by central differences at the rest orientation (translated frames)', () => {
      const s = springs({ stiffness: [10, 20], angularStiffness: [4, 5] });
      const rest = [...frame([0, 0, 0], u, 0.3), ...frame([1, 1, 1], [0, 1, 0], -0.2)];
      const x = Float64Array.from([...frame([0.5, -1, 2], u, 0.3), ...frame([1, 3, 1], [0, 1, 0], -0.2)]);
      buildNode(x, undefined, [s], { template: 'Rigid3d', rest });
      const { K, FD } = stiffnessAndFiniteDifferences(s, x, new Float64Array(12), 1e-6, Rigid3d);
      for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) expect(K[i][j], `K[${i}][${j}]`).to.be.closeTo(FD[i][j], 1e-7);
      expect(K[3][3]).to.equal(-4);
      expect(K[9][9]).to.equal(-5);
    });

    it('angularStiffness follows stiffness in length, padded with 100 (SOFA); pivot_points is reported and ignored', () => {
      const s = springs({ stiffness: [1, 2, 3], angularStiffness: [5] });
      s.pivotPoints.value = Float64Array.of(0, 0, 0);
      const { node } = buildNode([...frame([0, 0, 0], u, 0), ...frame([1, 0, 0], u, 0), ...frame([2, 0, 0], u, 0)], undefined, [s], {
        template: 'Rigid3d',
      });
      expect(Array.from(s.angularStiffness.value)).to.deep.equal([5, 100, 100]);
      const t = springs();
      buildNode(frame([0, 0, 0], u, 0), undefined, [t], { template: 'Rigid3d' });
      expect(Array.from(t.angularStiffness.value)).to.deep.equal([100]);
      expect(
        sceneWarnings(node)
          .map((w) => w.message)
          .join('\n'),
      ).to.match(/pivot_points is ignored: SOFA's RestShapeSpringsForceField does not use it/);
    });
  });
});
