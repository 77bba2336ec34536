import { expect } from 'chai';
import { ImageLPTransform, rotate } from './image-transform.js';
import { el, find, initScene } from './image-test-support.js';
import type { ImageTransformEngine } from './ImageTransformEngine.js';

const input = '0.5 -1 2 10 -20 30 0.1 0.2 0.3';

function engine(attrs: Record<string, string>, name = 'e'): ImageTransformEngine {
  const root = initScene([el('ImageTransformEngine', { name, inputTransform: input, ...attrs })]);
  return find<ImageTransformEngine>(root, name);
}

describe('ImageTransformEngine', () => {
  it('the output maps image points to s·R·(input map) + t', () => {
    const e = engine({ translation: '50 -100 20', rotation: '20 56 -82', scale: '0.2' });
    const inT = new ImageLPTransform(input.split(' ').map(Number));
    const r = new ImageLPTransform([0, 0, 0, 20, 56, -82]).q;
    const out = e.outputTransform.value;
    for (const ip of [
      [0, 0, 0],
      [3, -2, 7],
      [10, 4, 1],
    ]) {
      const a = [0, 0, 0],
        b = [0, 0, 0];
      inT.fromImage(ip[0], ip[1], ip[2], a);
      rotate(r, a[0], a[1], a[2], a);
      out.fromImage(ip[0], ip[1], ip[2], b);
      const expected = [a[0] * 0.2 + 50, a[1] * 0.2 - 100, a[2] * 0.2 + 20];
      for (let k = 0; k < 3; k++) expect(b[k]).to.be.closeTo(expected[k], 1e-9);
    }
  });

  it('inverse undoes the transform', () => {
    const attrs = { translation: '5 -1 2', rotation: '20 56 -82', scale: '3' };
    const fwd = engine(attrs).outputTransform.value;
    const root = initScene([
      el('ImageTransformEngine', { name: 'back', inputTransform: Array.from(fwd.params).join(' '), inverse: 'true', ...attrs }),
    ]);
    const back = find<ImageTransformEngine>(root, 'back').outputTransform.value;
    const inT = new ImageLPTransform(input.split(' ').map(Number));
    const a = [0, 0, 0],
      b = [0, 0, 0];
    inT.fromImage(4, 5, 6, a);
    back.fromImage(4, 5, 6, b);
    for (let k = 0; k < 3; k++) expect(b[k]).to.be.closeTo(a[k], 1e-9);
  });
});
