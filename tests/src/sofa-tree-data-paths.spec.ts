import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { listDataPaths } from '@sofa-ts/cli';
import { loadScene, sofaTreeDataPaths, type BaseMeshTopology } from 'sofa-ts';

/**
 * The data paths of a scene inside a SOFA tree: ROOT/share and ROOT/examples, as a SOFA build's
 * DataRepository, for an example scene and for a plugin's scene (applications/plugins/X/examples),
 * whose `Objects/...` includes and meshes SOFA finds there.
 */
describe('sofaTreeDataPaths: the share/ and examples/ folders of the SOFA tree a scene is in', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-tree-'));
    for (const d of ['share/mesh', 'examples/Objects', 'examples/Demos', 'applications/plugins/SofaDistanceGrid/examples'])
      fs.mkdirSync(path.join(root, d), { recursive: true });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('an example scene and a plugin scene both get ROOT/share then ROOT/examples', () => {
    const expected = [path.join(root, 'share'), path.join(root, 'examples')];
    expect(sofaTreeDataPaths(path.join(root, 'examples', 'Demos', 'liver.scn'))).to.deep.equal(expected);
    expect(sofaTreeDataPaths(path.join(root, 'applications', 'plugins', 'SofaDistanceGrid', 'examples', 'a.scn'))).to.deep.equal(expected);
  });

  it("a regression list gets the paths of its tree (the examples' lists and the plugins' list)", () => {
    const expected = [path.join(root, 'share'), path.join(root, 'examples')];
    expect(listDataPaths(path.join(root, 'examples', 'State.regression-tests'))).to.deep.equal(expected);
    expect(listDataPaths(path.join(root, 'applications', 'plugins', 'Plugins.regression-tests'))).to.deep.equal(expected);
  });

  it("loadScene finds a plugin scene's mesh in share/ and its include in examples/Objects/ (sofa-ts run and view alike)", async () => {
    fs.writeFileSync(path.join(root, 'share', 'mesh', 'tri.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    fs.writeFileSync(path.join(root, 'examples', 'Objects', 'Surface.xml'), '<MeshTopology name="topo" src="@../loader"/>');
    const scene = path.join(root, 'applications', 'plugins', 'SofaDistanceGrid', 'examples', 'tri.scn');
    fs.writeFileSync(
      scene,
      '<Node name="root"><MeshOBJLoader name="loader" filename="mesh/tri.obj"/><Node name="n"><include href="Objects/Surface.xml"/></Node></Node>',
    );
    const s = await loadScene(scene);
    expect(Array.from(s.get<BaseMeshTopology>('/n/topo')!.getTriangles())).to.deep.equal([0, 1, 2]);
  });

  it('a scene outside any SOFA tree gets none', () => {
    const lone = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-lone-'));
    try {
      expect(sofaTreeDataPaths(path.join(lone, 'scene.scn'))).to.deep.equal([]);
    } finally {
      fs.rmSync(lone, { recursive: true, force: true });
    }
  });
});
