import { expect } from 'chai';
import { SofaImage } from './image.js';
import { el, find, initScene } from './image-test-support.js';
import type { ImageContainer } from './ImageContainer.js';
import type { TransferFunction } from './TransferFunction.js';

describe('TransferFunction', () => {
  it('maps values through the piecewise linear function of its (input, output) points', () => {
    const root = initScene([
      el('ImageContainer', { name: 'c', template: 'ImageD', image: '5 1 1 1 1' }),
      el('TransferFunction', { name: 'tf', template: 'ImageD,ImageD', inputImage: '@c.image', param: '0 10 2 20 4 0' }),
    ]);
    const img = SofaImage.create('D', 5, 1, 1);
    img.data.set([-1, 1, 2, 3, 5]);
    find<ImageContainer>(root, 'c').image.value = img;
    // −1: the first segment extended (5); 1: 15; 2: 20; 3: 10; 5 (past the last point): 0
    expect(Array.from(find<TransferFunction>(root, 'tf').outputImage.value.data)).to.deep.equal([5, 15, 20, 10, 0]);
  });

  it('inverts a binary unsigned char image with param "0 1 1 0"', () => {
    const root = initScene([
      el('ImageContainer', { name: 'c', image: '3 1 1 1 1' }),
      el('TransferFunction', { name: 'tf', inputImage: '@c.image', param: '0 1 1 0' }),
    ]);
    const img = SofaImage.create('UC', 3, 1, 1);
    img.data.set([0, 1, 1]);
    find<ImageContainer>(root, 'c').image.value = img;
    expect(Array.from(find<TransferFunction>(root, 'tf').outputImage.value.data)).to.deep.equal([1, 0, 0]);
  });
});
