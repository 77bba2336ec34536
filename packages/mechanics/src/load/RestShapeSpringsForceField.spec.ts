import { expect } from 'chai';
import { Node, Simulation, BaseAnimationLoop } from '@sofa-ts/core';
import { MechanicalObject } from '../MechanicalObject.js';
import { RestShapeSpringsForceField } from './RestShapeSpringsForceField.js';
import { stiffnessAndFiniteDifferences } from './fd-check.js';
import { buildNode, rng } from '../mass/test-mesh.js';

function springs(attrs: { points?: number[]; stiffness?: number[]; externalPoints?: number[]; activeDirections?: number[] } = {}): RestShapeSpringsForceField {
  const s = new RestShapeSpringsForceField();
  if (attrs.points) s.points.value = Uint32Array.from(attrs.points);
  if (attrs.stiffness) s.stiffness.value = Float64Array.from(attrs.stiffness);
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
    for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) expect(K[i]![j]).to.be.closeTo(FD[i]![j]!, 1e-7);
    expect(K[1]![1]).to.equal(0);
    expect(K[6]![6]).to.equal(-7);
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
});
