import { expect } from 'chai';
import { AnimateEndEvent, Simulation } from '@sofa-ts/core';
import { el, find, initScene } from './image-test-support.js';
import type { ImageAccumulator } from './ImageAccumulator.js';

describe('ImageAccumulator', () => {
  it('appends one frame of the input per step while accumulate, with the mean time between frames', () => {
    const root = initScene([
      el('ImageContainer', { name: 'c', image: '2 2 1 1 1' }),
      el('ImageAccumulator', { name: 'a', inputImage: '@c.image', inputTransform: '@c.transform', accumulate: 'true' }),
    ]);
    const sim = new Simulation(root);
    const a = find<ImageAccumulator>(root, 'a');
    // the test loop only advances time: the step-end event is sent here
    for (let k = 0; k < 3; k++) {
      sim.step(0.5);
      a.handleEvent(new AnimateEndEvent(0.5));
    }
    expect(a.outputImage.value.frames).to.equal(3);
    expect(a.outputTransform.value.scaleT).to.be.closeTo(0.5, 1e-12);
  });
});
