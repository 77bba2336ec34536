import { expect } from 'chai';
import { SofaImage } from './image.js';
import { el, find, initScene } from './image-test-support.js';
import type { DepthMapToMeshEngine } from './DepthMapToMeshEngine.js';
import type { ImageContainer } from './ImageContainer.js';

describe('DepthMapToMeshEngine', () => {
  it('pixels become vertices at depth value·factor − 0.5; squares split in two, not across a jump', () => {
    const root = initScene([
      el('ImageContainer', { name: 'depth', template: 'ImageD', image: '3 2 1 1 1', transform: '1 2 3 0 0 0 0.5 0.5 2' }),
      el('DepthMapToMeshEngine', {
        name: 'e',
        template: 'ImageD',
        image: '@depth.image',
        transform: '@depth.transform',
        depthFactor: '0.1',
        diffThreshold: '5',
      }),
    ]);
    const img = SofaImage.create('D', 3, 2, 1);
    // a plateau at 10 and a jump to 30 on the last column
    img.data.set([10, 10, 30, 10, 10, 30]);
    find<ImageContainer>(root, 'depth').image.value = img;
    const e = find<DepthMapToMeshEngine>(root, 'e');
    const x = e.position.value;
    // pixel (1, 1): image (1, 1, 10·0.1 − 0.5) → (1 + 0.5, 2 + 0.5, 3 + 2·0.5)
    expect(Array.from(x.subarray(12, 15))).to.deep.equal([1.5, 2.5, 4]);
    // only the first square (no jump) is triangulated
    expect(Array.from(e.triangles.value)).to.deep.equal([0, 1, 3, 1, 4, 3]);
    expect(Array.from(e.texCoord.value.subarray(4, 6))).to.deep.equal([1, 0]);
  });
});
