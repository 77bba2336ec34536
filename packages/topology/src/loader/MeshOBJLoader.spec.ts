import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sceneWarnings, type SofaError } from '@sofa-ts/core';
import type { MeshOBJLoader } from './MeshOBJLoader.js';
import { corpusShare, el, find, initScene, tempFiles } from './scene-test-support.js';

// 7 points; a quad, a triangle, a pentagon (fan), a line, a face with relative indices.
const obj = `# test mesh
mtllib test.mtl
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 2 0 0
v 2 1 0
v 3 0.5 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vt 0.5 0.8
vn 0 0 1
vn 0 0 -1
usemtl red
f 1/1/1 2/2/1 3/3/1 4/4/1
f 2/5/1 5/1/1 6/4/1
f 5//2 7//2 6//2 3//2 2//2
l 7 6
f -3 -2 -1
`;
const mtl = 'newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n';

function load(attrs: Record<string, string>): MeshOBJLoader {
  const root = initScene([el('MeshOBJLoader', { name: 'loader', ...attrs })]);
  return find<MeshOBJLoader>(root, 'loader');
}

const arr = (a: ArrayLike<number>): number[] => Array.from(a);

describe('MeshOBJLoader', () => {
  const dir = tempFiles({ 'test.obj': obj, 'test.mtl': mtl });
  const file = path.join(dir, 'test.obj');

  it('keeps quads, fans other polygons into triangles, turns lines into edges', () => {
    const l = load({ filename: file });
    expect(l.position.value.length / 3).to.equal(7);
    expect(arr(l.quads.value)).to.deep.equal([0, 1, 2, 3]);
    // (1 4 5), the pentagon (4 6 5 2 1) as (4 6 5) (4 5 2) (4 2 1), and (-3 -2 -1) = (4 5 6).
    expect(arr(l.triangles.value)).to.deep.equal([1, 4, 5, 4, 6, 5, 4, 5, 2, 4, 2, 1, 4, 5, 6]);
    expect(arr(l.edges.value)).to.deep.equal([5, 6]);
    expect(l.faceList.value).to.deep.equal([
      [0, 1, 2, 3],
      [1, 4, 5],
      [4, 6, 5, 2, 1],
      [6, 5],
      [4, 5, 6],
    ]);
    expect(l.normalsIndex.value[2]).to.deep.equal([1, 1, 1, 1, 1]);
    expect(l.texcoordsIndex.value[2]).to.deep.equal([-1, -1, -1, -1, -1]);
    expect(l.materials.value).to.deep.equal(['red', 'blue']);
    expect(l.defaultMaterial.value).to.equal('red');
  });

  it('gives each point the normalised sum of its face normals and one texture coordinate', () => {
    const l = load({ filename: file });
    // Points 2, 4, 5 get +z and −z: zero stays zero.
    expect(arr(l.normals.value)).to.deep.equal([0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, -1]);
    // Point 1 first gets (1 0), then (0.5 0.8) since −Δu + Δv = 1.3 > 0.
    expect(arr(l.texcoords.value)).to.deep.equal([0, 0, 0.5, 0.8, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0]);
  });

  it('triangulates 4-point faces when asked', () => {
    const l = load({ filename: file, triangulate: '1' });
    expect(l.quads.value.length).to.equal(0);
    expect(arr(l.triangles.value.subarray(0, 6))).to.deep.equal([0, 1, 2, 0, 2, 3]);
    expect(l.triangles.value.length / 3).to.equal(7);
  });

  it('flips the vertex order of faces with flipNormals', () => {
    const l = load({ filename: file, flipNormals: '1' });
    expect(arr(l.quads.value)).to.deep.equal([3, 2, 1, 0]);
    expect(arr(l.triangles.value.subarray(0, 3))).to.deep.equal([5, 4, 1]);
  });

  it('splits points per (texcoord, normal) pair with handleSeams', () => {
    const l = load({ filename: file, handleSeams: '1' });
    // Pairs (t, n) per point, sorted: p0 (0 0); p1 (-1 1) (1 0) (4 0); p2 (-1 1) (2 0); p3 (3 0);
    // p4 (-1 -1) (-1 1) (0 0); p5 (-1 -1) (-1 1) (3 0); p6 (-1 -1) (-1 1): 15 vertices.
    expect(l.position.value.length / 3).to.equal(15);
    expect(arr(l.vertPosIdx.value)).to.deep.equal([0, 1, 1, 1, 2, 2, 3, 4, 4, 4, 5, 5, 5, 6, 6]);
    expect(arr(l.vertNormIdx.value)).to.deep.equal([0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(arr(l.quads.value)).to.deep.equal([0, 2, 5, 6]);
    expect(arr(l.triangles.value)).to.deep.equal([3, 9, 12, 8, 14, 11, 8, 11, 4, 8, 4, 1, 7, 10, 13]);
    expect(arr(l.edges.value)).to.deep.equal([10, 13]);
    expect(arr(l.position.value.subarray(3 * 3, 3 * 4))).to.deep.equal([1, 0, 0]);
    expect(arr(l.normals.value.subarray(3, 9))).to.deep.equal([0, 0, -1, 0, 0, 1]);
    expect(arr(l.normals.value.subarray(21, 24))).to.deep.equal([0, 0, 0]);
    expect(arr(l.texcoords.value.subarray(4, 8))).to.deep.equal([1, 0, 0.5, 0.8]);
  });

  it('scales, rotates (Euler degrees) then translates the points, not the file normals', () => {
    const l = load({ filename: file, scale3d: '2 3 4', rotation: '0 0 90', translation: '1 2 3' });
    // (1 0 0) → scale (2 0 0) → 90° about z (0 2 0) → translate (1 4 3).
    const p = arr(l.position.value.subarray(3, 6));
    [1, 4, 3].forEach((v, k) => expect(p[k]).to.be.closeTo(v, 1e-12));
    expect(arr(l.normals.value.subarray(0, 3))).to.deep.equal([0, 0, 1]);
  });

  it('multiplies scale3d by the scale attribute', () => {
    const l = load({ filename: file, scale: '10', scale3d: '1 2 3' });
    expect(arr(l.scale3d.value)).to.deep.equal([10, 20, 30]);
    expect(arr(l.position.value.subarray(6, 9))).to.deep.equal([10, 20, 0]);
  });

  it('uses the transformation matrix instead of translation, rotation and scale when given', () => {
    const l = load({ filename: file, translation: '100 100 100', transformation: '0 -1 0 5  1 0 0 6  0 0 1 7  0 0 0 1' });
    expect(arr(l.position.value.subarray(3, 6))).to.deep.equal([5, 7, 7]);
  });

  it('computes normals from the faces when the file has none', () => {
    const f = path.join(tempFiles({ 'sq.obj': 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n' }), 'sq.obj');
    const l = load({ filename: f });
    expect(arr(l.normals.value)).to.deep.equal([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
    expect(l.texcoords.value.length).to.equal(0);
  });

  it('reports bad indices with their line', () => {
    const f = path.join(tempFiles({ 'bad.obj': 'v 0 0 0\nv 1 0 0\n\nf 1 2 9\n' }), 'bad.obj');
    const msg = (() => {
      try {
        load({ filename: f });
      } catch (e) {
        return (e as SofaError).message;
      }
      return '';
    })();
    expect(msg).to.contain(`${f}:4: face uses point 9, but the file defines 2 points`);
  });

  it("reads 'v' lines with fewer than 3 coordinates as SOFA's stream does (missing ones keep the previous point's), with a warning", () => {
    const f = path.join(tempFiles({ 'short.obj': 'v 0.5\nv 2\nv 1 3 4\nv 7 8\nv 9\n' }), 'short.obj');
    const root = initScene([el('MeshOBJLoader', { name: 'loader', filename: f })]);
    const l = find<MeshOBJLoader>(root, 'loader');
    expect(arr(l.position.value)).to.deep.equal([0.5, 0, 0, 2, 0, 0, 1, 3, 4, 7, 8, 4, 9, 8, 4]);
    expect(
      sceneWarnings(root)
        .map((w) => w.message)
        .join('\n'),
    ).to.contain(`${f}:1: a 'v' line has fewer than 3 coordinates`);
  });

  describe('corpus meshes', function () {
    before(function () {
      if (!fs.existsSync(corpusShare)) this.skip();
    });

    for (const name of ['liver-smooth.obj', 'torus.obj', 'cube.obj', 'smCube27.obj', 'box_inside.obj']) {
      it(`loads ${name} with the counts of its v and f lines`, () => {
        const file = path.join(corpusShare, 'mesh', name);
        const lines = fs
          .readFileSync(file, 'utf8')
          .split(/\r?\n/)
          .map((l) => l.trim().split(/\s+/));
        const nv = lines.filter((t) => t[0] === 'v').length;
        const faces = lines.filter((t) => t[0] === 'f').map((t) => t.slice(1));
        const nQuads = faces.filter((f) => f.length === 4).length;
        const nTris = faces.filter((f) => f.length !== 4).reduce((s, f) => s + f.length - 2, 0);
        const l = load({ filename: file });
        expect(l.position.value.length / 3).to.equal(nv);
        expect(l.quads.value.length / 4).to.equal(nQuads);
        expect(l.triangles.value.length / 3).to.equal(nTris);
        const t = load({ filename: file, triangulate: '1' });
        expect(t.triangles.value.length / 3).to.equal(nTris + 2 * nQuads);
        // handleSeams: one vertex per distinct v/vt/vn item used by the faces.
        const items = new Set(faces.flat().map((it) => it.replace(/\/+$/, '')));
        const s = load({ filename: file, handleSeams: '1' });
        expect(s.position.value.length / 3).to.equal(items.size);
      });
    }
  });
});
