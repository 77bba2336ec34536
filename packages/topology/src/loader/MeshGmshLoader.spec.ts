import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SofaError } from '@sofa-ts/core';
import type { MeshGmshLoader } from './MeshGmshLoader.js';
import { corpusShare, el, find, initScene, tempFiles } from './scene-test-support.js';

// Two tetrahedra sharing the face (1 2 3), an extra triangle (0 1 2), a line (0 4) and a point
// element, written in the three Gmsh formats. Points: 0 origin, 1 x, 2 y, 3 z, 4 (1 1 1).
const v1 = `$NOD
5
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
5 1 1 1
$ENDNOD
$ELM
5
1 15 0 1 1 1
2 1 0 1 2 1 5
3 2 0 1 3 1 2 3
4 4 0 1 4 1 2 3 4
5 4 0 1 4 2 3 4 5
$ENDELM
`;

const v2 = `$MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
1
3 1 "body"
$EndPhysicalNames
$Nodes
5
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
5 1 1 1
$EndNodes
$Elements
5
1 15 2 0 1 1
2 1 2 0 1 1 5
3 2 2 0 1 1 2 3
4 4 2 1 1 1 2 3 4
5 4 2 1 1 2 3 4 5
$EndElements
`;

const v4 = `$MeshFormat
4.1 0 8
$EndMeshFormat
$Entities
1 0 0 1
1 0 0 0 0
1 0 0 0 1 1 1 0 0
$EndEntities
$Nodes
2 5 1 5
0 1 0 1
1
0 0 0
3 1 0 4
2
3
4
5
1 0 0
0 1 0
0 0 1
1 1 1
$EndNodes
$Elements
4 5 1 5
0 1 15 1
1 1
1 1 1 1
2 1 5
2 1 2 1
3 1 2 3
3 1 4 2
4 1 2 3 4
5 2 3 4 5
$EndElements
`;

// SOFA's rule, applied by hand: the file's triangle first, then the faces of each tetrahedron
// (t0 t2 t1), (t0 t1 t3), (t0 t3 t2), (t1 t2 t3) not yet present; edges: the file's line, then
// edge j of each triangle = (t[j+1], t[j+2]) when not yet present.
const expectedPositions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1];
const expectedTetrahedra = [0, 1, 2, 3, 1, 2, 3, 4];
const expectedTriangles = [0, 1, 2, 0, 1, 3, 0, 3, 2, 1, 2, 3, 1, 2, 4, 1, 4, 3, 2, 3, 4];
const expectedEdges = [0, 4, 1, 2, 2, 0, 0, 1, 1, 3, 3, 0, 3, 2, 2, 4, 4, 1, 4, 3];

function load(file: string, attrs: Record<string, string> = {}): MeshGmshLoader {
  const root = initScene([el('MeshGmshLoader', { name: 'loader', filename: file, ...attrs })]);
  return find<MeshGmshLoader>(root, 'loader');
}

function initError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as SofaError).message;
  }
  throw new Error('expected an error');
}

describe('MeshGmshLoader', () => {
  const dir = tempFiles({ 'v1.msh': v1, 'v2.msh': v2, 'v4.msh': v4 });

  for (const version of ['v1', 'v2', 'v4']) {
    it(`reads the same mesh from format ${version}`, () => {
      const l = load(path.join(dir, `${version}.msh`));
      expect(Array.from(l.position.value)).to.deep.equal(expectedPositions);
      expect(Array.from(l.tetrahedra.value)).to.deep.equal(expectedTetrahedra);
      expect(Array.from(l.triangles.value)).to.deep.equal(expectedTriangles);
      expect(Array.from(l.edges.value)).to.deep.equal(expectedEdges);
      expect(l.quads.value.length).to.equal(0);
      expect(l.createSubelements.value).to.equal(true);
    });
  }

  it('keeps only the file elements when createSubelements is 0', () => {
    const l = load(path.join(dir, 'v2.msh'), { createSubelements: '0' });
    expect(Array.from(l.triangles.value)).to.deep.equal([0, 1, 2]);
    expect(Array.from(l.edges.value)).to.deep.equal([0, 4]);
  });

  it('maps version-2 node numbers to points in file order (unknown numbers to point 0)', () => {
    const d = tempFiles({
      'shuffled.msh': `$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n30 0 0 1\n10 0 0 0\n20 1 0 0\n$EndNodes\n$Elements\n2\n1 2 0 10 20 30\n2 1 0 10 25\n$EndElements\n`,
    });
    const l = load(path.join(d, 'shuffled.msh'), { createSubelements: 'false' });
    expect(Array.from(l.position.value)).to.deep.equal([0, 0, 1, 0, 0, 0, 1, 0, 0]);
    expect(Array.from(l.triangles.value)).to.deep.equal([1, 2, 0]);
    expect(Array.from(l.edges.value)).to.deep.equal([1, 0]);
  });

  it('reads hexahedra and quads, and adds the missing quad faces of hexahedra', () => {
    const nodes = [
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 1, 0],
      [0, 0, 1],
      [1, 0, 1],
      [1, 1, 1],
      [0, 1, 1],
    ];
    const text = `$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n8\n${nodes.map((p, i) => `${i + 1} ${p.join(' ')}`).join('\n')}\n$EndNodes\n$Elements\n2\n1 3 0 1 4 3 2\n2 5 0 1 2 3 4 5 6 7 8\n$EndElements\n`;
    const l = load(path.join(tempFiles({ 'hex.msh': text }), 'hex.msh'));
    expect(Array.from(l.hexahedra.value)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    // The file's bottom quad (0 3 2 1) is the hexahedron's first face: 5 more are added.
    expect(l.quads.value.length / 4).to.equal(6);
    expect(Array.from(l.quads.value.subarray(0, 8))).to.deep.equal([0, 3, 2, 1, 4, 5, 6, 7]);
    // A cube has 12 edges.
    expect(l.edges.value.length / 2).to.equal(12);
  });

  it('reports a missing file with the folders searched', () => {
    const msg = initError(() => load('no/such/mesh.msh'));
    expect(msg).to.match(/MeshGmshLoader 'loader'.*mesh file 'no\/such\/mesh.msh' not found/);
  });

  it('reports a bad value with its line in the mesh file', () => {
    const bad = v2.replace('3 0 1 0', '3 0 zz 0');
    const file = path.join(tempFiles({ 'bad.msh': bad }), 'bad.msh');
    const msg = initError(() => load(file));
    expect(msg).to.contain(`${file}:12:`);
    expect(msg).to.contain("found 'zz'");
  });

  it('reports a file that is not a Gmsh file', () => {
    const file = path.join(tempFiles({ 'x.msh': 'hello\n' }), 'x.msh');
    expect(initError(() => load(file))).to.contain(`${file}:1: not a Gmsh file`);
  });

  describe('corpus meshes', function () {
    before(function () {
      if (!fs.existsSync(corpusShare)) this.skip();
    });

    for (const name of ['liver.msh', 'torus_low_res.msh', 'truthcylinder1.msh']) {
      it(`loads ${name} with the counts of its headers (Euler characteristic of the tetrahedra)`, () => {
        const file = path.join(corpusShare, 'mesh', name);
        const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
        const nNodes = Number(lines[1]);
        const elm = lines.indexOf('$ELM');
        const nElems = Number(lines[elm + 1]);
        const elemLines = lines.slice(elm + 2, elm + 2 + nElems);
        const nTets = elemLines.filter((l) => l.trim().split(/\s+/)[1] === '4').length;
        const l = load(file);
        expect(l.position.value.length / 3).to.equal(nNodes);
        expect(l.tetrahedra.value.length / 4).to.equal(nTets);
        const V = nNodes,
          E = l.edges.value.length / 2,
          F = l.triangles.value.length / 3,
          T = nTets;
        if (elemLines.every((ln) => ['4'].includes(ln.trim().split(/\s+/)[1])))
          expect(V - E + F - T).to.equal(name.startsWith('torus') ? 0 : 1);
      });
    }
  });
});
