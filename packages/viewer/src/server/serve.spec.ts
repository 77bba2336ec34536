import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileRoots } from './file-roots.js';
import { startViewer } from './serve.js';
import { repoRoot } from '../browser-test-support.js';

describe('viewer server (sofa-ts view)', function () {
  this.timeout(60000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-serve-'));
    fs.mkdirSync(path.join(dir, 'scene', 'mesh'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'scene', 'a.scn'), '<Node name="root"><MechanicalObject position="0 0 0"/></Node>');
    fs.writeFileSync(path.join(dir, 'scene', 'mesh', 'm.obj'), 'v 0 0 0\n');
    fs.writeFileSync(path.join(dir, 'data', 'd.txt'), 'data');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'not served');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('maps virtual paths into the scene folder and the data paths only', () => {
    const r = new FileRoots(path.join(dir, 'scene', 'a.scn'), [path.join(dir, 'data')]);
    expect(r.sceneVirtual).to.equal('/scene/a.scn');
    expect(r.dataVirtual).to.deep.equal(['/data/0']);
    expect(r.realPath('/scene/mesh/m.obj')).to.equal(path.join(dir, 'scene', 'mesh', 'm.obj'));
    expect(r.realPath('/data/0/d.txt')).to.equal(path.join(dir, 'data', 'd.txt'));
    expect(r.realPath('/scene/../secret.txt')).to.equal(undefined);
    expect(r.realPath('/scene/mesh/../../secret.txt')).to.equal(undefined);
    expect(r.realPath('/data/1/d.txt')).to.equal(undefined);
    expect(r.virtualPath(path.join(dir, 'data', 'd.txt'))).to.equal('/data/0/d.txt');
    expect(r.virtualPath(path.join(dir, 'secret.txt'))).to.equal(undefined);
  });

  it('serves the page, the bundles and the scene files read-only on the loopback address', async () => {
    const v = await startViewer(path.join(dir, 'scene', 'a.scn'), { dataPaths: [path.join(dir, 'data')], port: 0 });
    try {
      expect(v.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(v.server).to.equal(false);
      const page = await (await fetch(v.url)).text();
      expect(page).to.contain('"mode":"worker"').and.to.contain('"scene":"/scene/a.scn"');
      const worker = await fetch(`${v.url}assets/worker.js`);
      expect(worker.status).to.equal(200);
      expect((await worker.text()).length).to.be.greaterThan(100000);
      expect(await (await fetch(`${v.url}files/scene/mesh/m.obj`)).text()).to.equal('v 0 0 0\n');
      expect((await fetch(`${v.url}files/data/0/d.txt`, { method: 'HEAD' })).status).to.equal(200);
      expect((await fetch(`${v.url}files/scene/..%2F..%2Fsecret.txt`)).status).to.equal(404);
      expect((await fetch(`${v.url}files/scene/missing.obj`, { method: 'HEAD' })).status).to.equal(404);
      expect((await fetch(`${v.url}files/scene/a.scn`, { method: 'PUT' })).status).to.equal(405);
    } finally {
      await v.close();
    }
  });

  it('runs a scene that requires an npm plugin in the server process', async () => {
    const v = await startViewer(path.join(repoRoot, 'examples', 'plugin-example', 'scenes', 'drag.scn'), { dataPaths: [], port: 0 });
    try {
      expect(v.server).to.equal(true);
      expect(await (await fetch(v.url)).text()).to.contain('"mode":"server"');
    } finally {
      await v.close();
    }
  });
});
