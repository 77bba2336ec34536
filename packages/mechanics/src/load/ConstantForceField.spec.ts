import { expect } from 'chai';
import { ConstantForceField } from './ConstantForceField.js';
import { buildNode, StubTopology } from '../mass/mesh-test-support.js';

function cff(attrs: {
  indices?: number[];
  forces?: number[];
  force?: number[];
  totalForce?: number[];
  indexFromEnd?: boolean;
}): ConstantForceField {
  const c = new ConstantForceField();
  if (attrs.indices) c.indices.value = Uint32Array.from(attrs.indices);
  if (attrs.forces) c.forces.value = Float64Array.from(attrs.forces);
  if (attrs.force) c.force.value = Float64Array.from(attrs.force);
  if (attrs.totalForce) c.totalForce.value = Float64Array.from(attrs.totalForce);
  if (attrs.indexFromEnd) c.indexFromEnd.value = true;
  return c;
}

function apply(c: ConstantForceField, n: number): number[] {
  const f = new Float64Array(3 * n);
  c.addForce([f], [new Float64Array(3 * n)], [new Float64Array(3 * n)]);
  return Array.from(f);
}

const points = [0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0];

describe('ConstantForceField', () => {
  it('applies forces[i] at indices[i]; forces win over force and totalForce, and give totalForce', () => {
    const c = cff({ indices: [3, 1], forces: [1, 2, 3, 4, 5, 6], force: [9, 9, 9], totalForce: [7, 7, 7] });
    buildNode(points, undefined, [c]);
    expect(apply(c, 4)).to.deep.equal([0, 0, 0, 4, 5, 6, 0, 0, 0, 1, 2, 3]);
    expect(Array.from(c.totalForce.value)).to.deep.equal([5, 7, 9]);
  });

  it('applies force at every index, else totalForce shared equally, all points by default', () => {
    const one = cff({ force: [0, -1, 0], totalForce: [100, 0, 0] });
    buildNode(points, undefined, [one]);
    expect(apply(one, 4)).to.deep.equal([0, -1, 0, 0, -1, 0, 0, -1, 0, 0, -1, 0]);
    expect(Array.from(one.totalForce.value)).to.deep.equal([0, -4, 0]);
    const total = cff({ indices: [0, 2], totalForce: [2, 4, -6] });
    buildNode(points, undefined, [total]);
    expect(apply(total, 4)).to.deep.equal([1, 2, -3, 0, 0, 0, 1, 2, -3, 0, 0, 0]);
    expect(Array.from(total.force.value)).to.deep.equal([1, 2, -3]);
  });

  it('counts indices from the end with indexFromEnd, takes the point count from a topology, and has no stiffness', () => {
    const c = cff({ indices: [0], force: [1, 1, 1], indexFromEnd: true });
    buildNode(points, undefined, [c]);
    expect(apply(c, 4)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    const byTopo = cff({ force: [1, 0, 0] });
    buildNode(points, new StubTopology(2, { edges: [0, 1] }), [byTopo]);
    expect(Array.from(byTopo.indices.value)).to.deep.equal([0, 1]);
    let entries = 0;
    byTopo.addKToMatrix({ add: () => entries++ }, 1);
    expect(entries).to.equal(0);
    // E = −Σ f·x
    expect(byTopo.getPotentialEnergy([Float64Array.from(points)])).to.equal(-1);
  });

  it('replicates a single force of forces on every index, as SOFA updateFromForcesVector does', () => {
    const c = cff({ indices: [0, 2], forces: [1, 2, 3] });
    buildNode(points, undefined, [c]);
    expect(apply(c, 4)).to.deep.equal([1, 2, 3, 0, 0, 0, 1, 2, 3, 0, 0, 0]);
    expect(Array.from(c.forces.value)).to.deep.equal([1, 2, 3, 1, 2, 3]);
    expect(Array.from(c.totalForce.value)).to.deep.equal([2, 4, 6]);
  });

  it('reports a forces list that does not match the indices', () => {
    expect(() => buildNode(points, undefined, [cff({ indices: [0, 1, 2], forces: [1, 2, 3, 4, 5, 6] })])).to.throw(/one force/);
    expect(() => buildNode(points, undefined, [cff({ indices: [7], force: [1, 2, 3] })])).to.throw(/out of range/);
    // indices are checked against the topology at init (as SOFA), against the state at the force
    const c = cff({ force: [1, 2, 3] });
    buildNode(points, new StubTopology(6, { edges: [0, 1] }), [c]);
    expect(c.indices.value.length).to.equal(6);
    expect(() => apply(c, 4)).to.throw(/index 4 is out of range: .* has 4 points/);
  });
});
