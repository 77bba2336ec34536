import { expect } from 'chai';
import { ArrayMechanicalState } from './behavior/array-mechanical-state.js';
import { DivergenceError, DivergenceGuard } from './divergence.js';
import { Node } from './node.js';
import { Rigid3d, Vec3d } from './state-types.js';

describe('DivergenceGuard', () => {
  function scene(): { root: Node; a: ArrayMechanicalState; b: ArrayMechanicalState } {
    const root = new Node('root');
    const a = root.addObject(new ArrayMechanicalState(Vec3d, [0, 1, 2, 3, 4, 5], { name: 'a' }));
    const child = root.createChild('child');
    const b = child.addObject(new ArrayMechanicalState(Rigid3d, [0, 0, 0, 0, 0, 0, 1], { name: 'b' }));
    return { root, a, b };
  }

  it('accepts finite states, huge values included (their sum would overflow)', () => {
    const { root, a, b } = scene();
    a.x.fill(1.7e308);
    a.v.fill(-1.7e308);
    b.v.fill(Number.MAX_VALUE);
    expect(new DivergenceGuard(root).check(1, 0.01)).to.equal(undefined);
  });

  for (const bad of [NaN, Infinity, -Infinity]) {
    it(`finds ${bad} in a velocity, with its state, node, step and time`, () => {
      const { root, b } = scene();
      b.v[4] = bad;
      const d = new DivergenceGuard(root).check(7, 0.07)!;
      expect(d).to.include({ step: 7, time: 0.07, state: b, nodePath: '/root/child', vector: 'velocity', index: 4 });
      expect(Object.is(d.value, bad)).to.equal(true);
    });
  }

  it('reports the first non-finite value in visit order, positions before velocities', () => {
    const { root, a, b } = scene();
    b.x[2] = NaN;
    a.v[5] = NaN;
    a.x[4] = Infinity;
    const d = new DivergenceGuard(root).check(1, 0)!;
    expect(d).to.include({ state: a, vector: 'position', index: 4, value: Infinity });
    const err = new DivergenceError(d);
    expect(err.message).to.equal(
      "ArrayMechanicalState 'a' in /root: the simulation diverged: position 1 of point 1 is Infinity after step 1 (t = 0 s) (a smaller dt, an implicit ODE solver or a lower stiffness usually cures it)",
    );
  });

  it('sees states added after its first check', () => {
    const { root } = scene();
    const guard = new DivergenceGuard(root);
    expect(guard.check(1, 0)).to.equal(undefined);
    const late = root.createChild('late').addObject(new ArrayMechanicalState(Vec3d, [0, NaN, 0], { name: 'late' }));
    expect(guard.check(2, 0)!.state).to.equal(late);
  });
});
