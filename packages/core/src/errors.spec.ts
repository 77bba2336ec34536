import { expect } from 'chai';
import { didYouMean, nearestNames } from './errors.js';

describe('did you mean', () => {
  it('suggests near names, best first, case-insensitively', () => {
    expect(nearestNames('MechanicalObjet', ['MechanicalObject', 'MeshTopology', 'UniformMass'])).to.deep.equal(['MechanicalObject']);
    expect(didYouMean('uniformmas', ['UniformMass', 'DiagonalMass'])).to.equal("did you mean 'UniformMass'?");
  });

  it('never suggests an empty name (an unnamed node), nor anything for an empty name', () => {
    expect(nearestNames('x', ['', 'dofs'])).to.deep.equal([]);
    expect(didYouMean('a', ['', 'b', ''])).to.equal("did you mean 'b'?");
    expect(nearestNames('', ['a', 'b'])).to.deep.equal([]);
  });

  it('lists a name once', () => {
    expect(nearestNames('dof', ['dofs', 'dofs', 'dofs'])).to.deep.equal(['dofs']);
  });
});
