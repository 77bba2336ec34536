import { expect } from 'chai';
import { Node } from '../node.js';
import { BaseObject } from '../base-object.js';
import { resolveSearchLinks } from '../simulation.js';
import { stateTypeOf } from '../state-types.js';
import { ArrayMechanicalState } from './array-mechanical-state.js';
import { contextMechanicalState, contextStateLink } from './context-state.js';
import type { BaseMechanicalState } from './mechanical-state.js';

class Acting extends BaseObject {
  readonly mstate = this.initLink<BaseMechanicalState>(contextStateLink());
}

function state(name: string): ArrayMechanicalState {
  return new ArrayMechanicalState(stateTypeOf('Vec3d')!, [0, 0, 0], { name });
}

describe('core: which state a component acts on (SOFA Node::getMechanicalState)', () => {
  it('the state of its node, else the first state of the nearest ancestor that has one', () => {
    const root = new Node('root');
    const a = root.createChild('a');
    const b = a.createChild('b');
    const c = b.createChild('c');
    const top = root.addObject(state('top'));
    const first = a.addObject(state('first'));
    a.addObject(state('second'));
    expect(contextMechanicalState(c)).to.equal(first);
    expect(contextMechanicalState(b)).to.equal(first);
    expect(contextMechanicalState(root)).to.equal(top);
    const own = c.addObject(state('own'));
    expect(contextMechanicalState(c)).to.equal(own);
  });

  it('an unset mstate link is filled from the context; none anywhere is an error naming where it looked', () => {
    const root = new Node('root');
    const child = root.createChild('child');
    const s = root.addObject(state('dofs'));
    const comp = child.addObject(new Acting());
    resolveSearchLinks(comp);
    expect(comp.mstate.get()).to.equal(s);
    const alone = new Node('alone').addObject(new Acting());
    expect(() => resolveSearchLinks(alone)).to.throw(/'mstate' needs a MechanicalObject, none in this node or its ancestors/);
  });
});
