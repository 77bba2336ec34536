import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setSceneFiles } from '@sofa-ts/core';
import type { TetrahedronSetTopologyContainer } from './TetrahedronSetTopologyContainer.js';
import type { MeshTopology } from './MeshTopology.js';
import { el, initScene, objectNamed } from './container-test-support.js';

// Two tetrahedra sharing the face (1 2 3), in Gmsh 2.2 ASCII with shuffled node numbers.
const GMSH = `$MeshFormat
2.2 0 8
$EndMeshFormat
$Nodes
5
10 0 0 0
11 1 0 0
12 0 1 0
13 0 0 1
14 1 1 1
$EndNodes
$Elements
2
1 4 2 0 1 10 11 12 13
2 4 2 0 1 11 12 13 14
$EndElements
`;

describe("topology containers' filename", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-topofile-'));
  fs.writeFileSync(path.join(dir, 'two.msh'), GMSH);
  const scene = (tag: string) => {
    const root = el('Node', { name: 'root' }, [el(tag, { name: 't', filename: 'two.msh' })]);
    return root;
  };

  it('reads a Gmsh file into a TetrahedronSetTopologyContainer (node numbers mapped, faces derived)', () => {
    const node = initSceneIn(dir, scene('TetrahedronSetTopologyContainer'));
    const t = objectNamed<TetrahedronSetTopologyContainer>(node, 't');
    expect(Array.from(t.position.value)).to.deep.equal([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]);
    expect(Array.from(t.tetrahedra.value)).to.deep.equal([0, 1, 2, 3, 1, 2, 3, 4]);
    expect(t.getTriangles().length / 3).to.equal(7); // 4 + 4 faces, one shared
  });

  it('reads it into a MeshTopology too, and names the formats it reads for others', () => {
    const node = initSceneIn(dir, scene('MeshTopology'));
    expect(Array.from(objectNamed<MeshTopology>(node, 't').tetrahedra.value)).to.deep.equal([0, 1, 2, 3, 1, 2, 3, 4]);
    fs.writeFileSync(path.join(dir, 'x.ply'), 'ply\n');
    const bad = el('Node', { name: 'root' }, [el('MeshTopology', { name: 't', filename: 'x.ply' })]);
    expect(() => initSceneIn(dir, bad)).to.throw(
      /cannot read 'x\.ply': MeshTopology reads OBJ, Gmsh \(\.msh\), VTK \(\.vtk, \.vtu\) and STL files/,
    );
  });
});

function initSceneIn(dir: string, root: ReturnType<typeof el>) {
  const file = path.join(dir, 'scene.scn');
  return initScene(root, (n) => setSceneFiles(n, { sceneFile: file, dataPaths: [] }));
}
