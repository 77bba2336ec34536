import { expect } from 'chai';
import type { StringMeshCreator } from './StringMeshCreator.js';
import { el, find, initScene } from './scene-test-support.js';

const arr = (a: ArrayLike<number>): number[] => Array.from(a);

describe('StringMeshCreator', () => {
  it('resolution points evenly spaced from (0,0,0) to (1,0,0), chained by edges (i−1, i)', () => {
    const l = find<StringMeshCreator>(initScene([el('StringMeshCreator', { name: 'loader', resolution: '5' })]), 'loader');
    expect(arr(l.position.value)).to.deep.equal([0, 0, 0, 0.25, 0, 0, 0.5, 0, 0, 0.75, 0, 0, 1, 0, 0]);
    expect(arr(l.edges.value)).to.deep.equal([0, 1, 1, 2, 2, 3, 3, 4]);
    expect(l.triangles.value.length).to.equal(0);
  });

  it('defaults to 2 points and takes the MeshLoader transform (scale3d, rotation, translation)', () => {
    const d = find<StringMeshCreator>(initScene([el('StringMeshCreator', { name: 'loader' })]), 'loader');
    expect(arr(d.position.value)).to.deep.equal([0, 0, 0, 1, 0, 0]);
    const t = find<StringMeshCreator>(
      initScene([el('StringMeshCreator', { name: 'loader', resolution: '3', scale3d: '4 1 1', rotation: '0 0 90', translation: '1 2 3' })]),
      'loader',
    );
    // (x, 0, 0) scaled to (4x, 0, 0), turned 90° about z to (0, 4x, 0), then translated.
    const p = arr(t.position.value);
    const expected = [1, 2, 3, 1, 4, 3, 1, 6, 3];
    p.forEach((v, i) => expect(v).to.be.closeTo(expected[i], 1e-14));
  });

  it('rebuilds when the resolution changes, and rejects fewer than 2 points', () => {
    const l = find<StringMeshCreator>(initScene([el('StringMeshCreator', { name: 'loader', resolution: '3' })]), 'loader');
    l.resolution.value = 4;
    expect(l.edges.value.length).to.equal(6);
    expect(() => initScene([el('StringMeshCreator', { name: 'loader', resolution: '1' })])).to.throw(/at least 2 points/);
  });

  it('refuses a resolution its buffers cannot hold, before building anything (V8 would abort the process)', () => {
    expect(() => initScene([el('StringMeshCreator', { name: 'loader', resolution: '1000000000000' })])).to.throw(
      /'resolution' must be finite and in \[0, 4000000\], got 1000000000000/,
    );
  });
});
