import { expect } from 'chai';
import * as path from 'node:path';
import type { MeshSTLLoader } from './MeshSTLLoader.js';
import { el, find, initScene, tempFiles } from './scene-test-support.js';

// A tetrahedron as 4 facets (outward normals); 0.1 is not a float32, so both forms round it.
const P = [
  [0, 0, 0],
  [0.1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const facets: Array<[number[], number[]]> = [
  [
    [0, 0, -1],
    [0, 2, 1],
  ],
  [
    [0, -1, 0],
    [0, 1, 3],
  ],
  [
    [-1, 0, 0],
    [0, 3, 2],
  ],
  [
    [0.577, 0.577, 0.577],
    [1, 2, 3],
  ],
];

const ascii = `solid tetra
${facets.map(([n, v]) => `  facet normal ${n.join(' ')}\n    outer loop\n${v.map((i) => `      vertex ${P[i].join(' ')}`).join('\n')}\n    endloop\n  endfacet`).join('\n')}
endsolid tetra
`;

function binary(extraDegenerate = false): Buffer {
  const list = extraDegenerate
    ? [
        ...facets,
        [
          [0, 0, 1],
          [0, 0, 1],
        ] as [number[], number[]],
      ]
    : facets;
  const b = Buffer.alloc(84 + 50 * list.length);
  b.write('binary tetra', 0, 'latin1');
  b.writeUInt32LE(list.length, 80);
  list.forEach(([n, v], f) => {
    const o = 84 + 50 * f;
    n.forEach((x, k) => b.writeFloatLE(x, o + 4 * k));
    v.forEach((i, j) => P[i].forEach((x, k) => b.writeFloatLE(x, o + 12 + 12 * j + 4 * k)));
  });
  return b;
}

function load(file: string, attrs: Record<string, string> = {}): MeshSTLLoader {
  return find<MeshSTLLoader>(initScene([el('MeshSTLLoader', { name: 'loader', filename: file, ...attrs })]), 'loader');
}

describe('MeshSTLLoader', () => {
  const dir = tempFiles({ 'a.stl': ascii, 'b.stl': binary(), 'c.stl': binary(true) });

  it('merges the repeated vertices of an ASCII file, in order of first appearance', () => {
    const l = load(path.join(dir, 'a.stl'));
    expect(Array.from(l.position.value)).to.deep.equal([0, 0, 0, 0, 1, 0, Math.fround(0.1), 0, 0, 0, 0, 1]);
    // Facet vertices (0 2 1) (0 1 3) (0 3 2) (1 2 3) renumbered by first appearance: 0→0, 2→1, 1→2, 3→3.
    expect(Array.from(l.triangles.value)).to.deep.equal([0, 1, 2, 0, 2, 3, 0, 3, 1, 2, 1, 3]);
  });

  it('reads the same arrays from the binary form of the file', () => {
    const a = load(path.join(dir, 'a.stl'));
    const b = load(path.join(dir, 'b.stl'));
    expect(Array.from(b.position.value)).to.deep.equal(Array.from(a.position.value));
    expect(Array.from(b.triangles.value)).to.deep.equal(Array.from(a.triangles.value));
  });

  it('drops degenerate facets of binary files', () => {
    const l = load(path.join(dir, 'c.stl'));
    expect(l.triangles.value.length / 3).to.equal(4);
  });

  it('reads a file as binary with forceBinary, and rejects a truncated binary file', () => {
    const renamed = binary();
    renamed.write('solid but binary', 0, 'latin1');
    const d = tempFiles({ 'x.stl': renamed, 'short.stl': binary().subarray(0, 120) });
    expect(load(path.join(d, 'x.stl'), { forceBinary: '1' }).triangles.value.length).to.equal(12);
    expect(() => load(path.join(d, 'short.stl'))).to.throw(/4 facets need 284 bytes, the file has 120/);
  });
});
