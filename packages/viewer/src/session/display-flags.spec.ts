import { expect } from 'chai';
import { applyDisplayFlags, defaultDisplayFlags } from './display-flags.js';

describe('viewer display flags (VisualStyle displayFlags)', () => {
  it("sets the leaf flags of SOFA's group names and keeps the inherited ones", () => {
    const { flags, unknown } = applyDisplayFlags(defaultDisplayFlags, 'showBehavior hideVisual showWireframe');
    expect(flags.showBehaviorModels && flags.showForceFields && flags.showInteractionForceFields).to.equal(true);
    expect(flags.showVisualModels).to.equal(false);
    expect(flags.showWireframe).to.equal(true);
    expect(flags.showCollisionModels).to.equal(false);
    expect(unknown).to.deep.equal([]);
  });
  it('applies words in order and reports unknown ones', () => {
    const { flags, unknown } = applyDisplayFlags(defaultDisplayFlags, 'showAll hideForceFields showSomething');
    expect(flags.showCollisionModels).to.equal(true);
    expect(flags.showForceFields).to.equal(false);
    expect(unknown).to.deep.equal(['showSomething']);
  });
});
