import { expect } from 'chai';
import { Data } from './data.js';
import { DataTracker } from './data-tracker.js';
import { Real, RealArray } from './data-types.js';

const owner = { className: 'Owner', getName: () => 'owner' };

describe('core: DataTracker (SOFA DataTracker)', () => {
  it('is dirty until cleaned, then again after a set, an in-place change with touch, or a change of a linked parent', () => {
    const a = new Data({ name: 'a', type: Real, default: 1, help: '' }, owner);
    const parent = new Data({ name: 'p', type: RealArray(0), default: new Float64Array(0), help: '' }, owner);
    const b = new Data({ name: 'b', type: RealArray(0), default: new Float64Array(0), help: '' }, owner);
    b.setParent(parent);
    const t = new DataTracker(a, b);
    expect(t.isDirty()).to.equal(true);
    t.clean();
    expect(t.isDirty()).to.equal(false);
    a.value = 2;
    expect(t.isDirty()).to.equal(true);
    t.clean();
    b.touch();
    expect(t.isDirty()).to.equal(true);
    t.clean();
    parent.value = Float64Array.of(4, 5);
    expect(t.isDirty()).to.equal(true);
    t.clean();
    expect(t.isDirty()).to.equal(false);
    expect(Array.from(b.value)).to.deep.equal([4, 5]);
  });
});
