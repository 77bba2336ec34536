import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SphereLoader } from './SphereLoader.js';
import { corpusShare, el, find, initScene, tempFiles } from './scene-test-support.js';

const sph = `sph 1.0
nums 3
# a comment
sphe 1 1 0 0 0.5
sphe 2 0 2 0 0.25
#sphe 9 9 9 9 9
sphe 3 0 0 3 1
`;

function load(attrs: Record<string, string>): SphereLoader {
  return find<SphereLoader>(initScene([el('SphereLoader', { name: 'spheres', ...attrs })]), 'spheres');
}

describe('SphereLoader', () => {
  const file = path.join(tempFiles({ 's.sph': sph }), 's.sph');

  it('reads centers and radii, skipping comments', () => {
    const l = load({ filename: file });
    expect(Array.from(l.position.value)).to.deep.equal([1, 0, 0, 0, 2, 0, 0, 0, 3]);
    expect(Array.from(l.listRadius.value)).to.deep.equal([0.5, 0.25, 1]);
  });

  it('scales, rotates and translates the centers but not the radii', () => {
    const l = load({ filename: file, scale: '2 2 2', rotation: '90 0 0', translation: '0 0 10' });
    // (0 2 0) → (0 4 0) → 90° about x: (0 0 4) → (0 0 14).
    const c = Array.from(l.position.value.subarray(3, 6));
    [0, 0, 14].forEach((v, k) => expect(c[k]).to.be.closeTo(v, 1e-12));
    expect(Array.from(l.listRadius.value)).to.deep.equal([0.5, 0.25, 1]);
    expect(Array.from(load({ filename: file, scale3d: '3 3 3' }).position.value.subarray(0, 3))).to.deep.equal([3, 0, 0]);
  });

  it('reports an unknown keyword with its line', () => {
    const bad = path.join(tempFiles({ 'b.sph': 'sph 1.0\nsphe 1 0 0 0 1\nsphere 2 0 0 0 1\n' }), 'b.sph');
    expect(() => load({ filename: bad })).to.throw(`${bad}:3: unknown keyword 'sphere'`);
  });

  it('loads the corpus liver.sph with one sphere per sphe line', function () {
    const f = path.join(corpusShare, 'mesh', 'liver.sph');
    if (!fs.existsSync(f)) this.skip();
    const n = fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('sphe')).length;
    const l = load({ filename: f });
    expect(l.position.value.length / 3).to.equal(n);
    expect(l.listRadius.value.length).to.equal(n);
  });
});
