import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MeshOBJLoader } from './MeshOBJLoader.js';
import { el, find, initScene, tempFiles, type TestState } from './scene-test-support.js';

const arr = (a: ArrayLike<number>): number[] => Array.from(a);

describe('MeshLoader', () => {
  // A square split in two triangles (0 1 2) (0 2 3), an isolated point 4, and a quad 5-8 in the plane x = 5.
  const obj = 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 9 9 9\nv 5 0 0\nv 5 1 0\nv 5 1 1\nv 5 0 1\nf 1 2 3\nf 1 3 4\nf 6 7 8 9\n';
  const dir = tempFiles({ 'm.obj': obj, 'tri.obj': 'v 0 0 0\nv 2 0 0\nv 0 2 0\nf 1 2 3\n' });
  const file = path.join(dir, 'm.obj');

  it('is followed through src by a state, which does not take its transform parameters', () => {
    const root = initScene([
      el('MeshOBJLoader', { name: 'loader', filename: file, translation: '1 0 0' }),
      el('TestState', { name: 'dofs', src: '@loader' }),
    ]);
    const s = find<TestState>(root, 'dofs');
    expect(arr(s.position.value.subarray(0, 3))).to.deep.equal([1, 0, 0]);
    expect(arr(s.translation.value)).to.deep.equal([0, 0, 0]);
    expect(s.filename.value).to.equal('');
  });

  it('drops the points no element uses with onlyAttachedPoints, renumbering the elements', () => {
    const l = find<MeshOBJLoader>(initScene([el('MeshOBJLoader', { name: 'loader', filename: file, onlyAttachedPoints: '1' })]), 'loader');
    expect(l.position.value.length / 3).to.equal(8);
    expect(arr(l.quads.value)).to.deep.equal([4, 5, 6, 7]);
    expect(arr(l.position.value.subarray(12, 15))).to.deep.equal([5, 0, 0]);
  });

  it('computes point normals from triangles and quad corners', () => {
    const l = find<MeshOBJLoader>(initScene([el('MeshOBJLoader', { name: 'loader', filename: file })]), 'loader');
    // Square in z = 0 ordered counter-clockwise seen from +z; quad (5 0 0) (5 1 0) (5 1 1) (5 0 1): normal +x.
    expect(arr(l.normals.value.subarray(0, 3))).to.deep.equal([0, 0, 1]);
    expect(arr(l.normals.value.subarray(12, 15))).to.deep.equal([0, 0, 0]);
    expect(arr(l.normals.value.subarray(15, 18))).to.deep.equal([1, 0, 0]);
  });

  it('adds the edges of triangles and quads with createSubelements', () => {
    const l = find<MeshOBJLoader>(initScene([el('MeshOBJLoader', { name: 'loader', filename: file, createSubelements: '1' })]), 'loader');
    // Quad first: (6 7) (7 8) (8 5) (5 6); then triangles: (1 2) (2 0) (0 1), (2 3) (3 0); (0 2) exists.
    expect(arr(l.edges.value)).to.deep.equal([6, 7, 7, 8, 8, 5, 5, 6, 1, 2, 2, 0, 0, 1, 2, 3, 3, 0]);
  });

  it('reads its file again when the filename changes and an output is read', () => {
    const l = find<MeshOBJLoader>(initScene([el('MeshOBJLoader', { name: 'loader', filename: file })]), 'loader');
    expect(l.position.value.length / 3).to.equal(9);
    l.filename.value = path.join(dir, 'tri.obj');
    expect(arr(l.position.value)).to.deep.equal([0, 0, 0, 2, 0, 0, 0, 2, 0]);
    expect(fs.existsSync(file)).to.equal(true);
  });
});
