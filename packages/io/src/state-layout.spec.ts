import { expect } from 'chai';
import { SofaError } from '@sofa-ts/core';
import { defaultDerivScalars, stateLayoutOf } from './state-layout.js';

describe('stateLayoutOf', () => {
  it('knows the scalars per point of SOFA templates', () => {
    expect(stateLayoutOf('Vec3d')).to.deep.equal({ coord: 3, deriv: 3 });
    expect(stateLayoutOf('Vec3d(default)')).to.deep.equal({ coord: 3, deriv: 3 });
    expect(stateLayoutOf('Vec3')).to.deep.equal({ coord: 3, deriv: 3 });
    expect(stateLayoutOf('Vec1d')).to.deep.equal({ coord: 1, deriv: 1 });
    expect(stateLayoutOf('Vec2f')).to.deep.equal({ coord: 2, deriv: 2 });
    expect(stateLayoutOf('Rigid3d')).to.deep.equal({ coord: 7, deriv: 6 });
    expect(stateLayoutOf('Rigid3')).to.deep.equal({ coord: 7, deriv: 6 });
    expect(stateLayoutOf('Rigid')).to.deep.equal({ coord: 7, deriv: 6 });
    expect(stateLayoutOf('Rigid2d')).to.deep.equal({ coord: 3, deriv: 3 });
  });

  it('suggests a near name for an unknown template', () => {
    expect(() => stateLayoutOf('Vec4d')).to.throw(SofaError, /unknown state template 'Vec4d'.*did you mean/);
  });

  it('derives V scalars from X scalars when no template is known', () => {
    expect([1, 2, 3, 7].map(defaultDerivScalars)).to.deep.equal([1, 2, 3, 6]);
  });
});
