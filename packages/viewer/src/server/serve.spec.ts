import { expect } from 'chai';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileRoots } from './file-roots.js';
import { startViewer } from './serve.js';
import { repoRoot } from '../browser-test-support.js';
import { WebSocket } from 'ws';

/** A GET with the given Host and Origin headers (fetch would not send a forged Host). */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

/** Opens the viewer's WebSocket with these headers: 'open', or the HTTP status of the refusal. */
function openSocket(url: string, headers: Record<string, string>): Promise<string | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', (e) => reject(e));
  });
}

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

  it('answers only loopback Host names and its own Origin (DNS rebinding), with 403 and a log line for the others', async () => {
    const lines: string[] = [];
    const v = await startViewer(path.join(dir, 'scene', 'a.scn'), {
      dataPaths: [path.join(dir, 'data')],
      port: 0,
      log: (l) => lines.push(l),
    });
    try {
      const port = new URL(v.url).port;
      const file = `${v.url}files/data/0/d.txt`;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, 'localhost']) {
        expect((await get(file, { host })).body, host).to.equal('data');
      }
      expect((await get(file, { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` })).status).to.equal(200);
      // a page of another site whose name was rebound to 127.0.0.1
      const rebound = await get(file, { host: `attacker.example:${port}` });
      expect(rebound.status).to.equal(403);
      expect(rebound.body).to.not.contain('data');
      expect((await get(v.url, { host: `127.0.0.1.attacker.example:${port}` })).status).to.equal(403);
      expect((await get(v.url, { host: `localhost.:${port}` })).status).to.equal(403);
      // a right Host but another origin (another site's page, another port, a sandboxed page)
      for (const origin of ['http://attacker.example', `http://127.0.0.1:${Number(port) + 1}`, `https://localhost:${port}`, 'null']) {
        expect((await get(file, { host: `127.0.0.1:${port}`, origin })).status, origin).to.equal(403);
      }
      expect(lines.length).to.equal(7);
      expect(lines[0]).to.equal(
        `viewer: refused GET /files/data/0/d.txt: Host 'attacker.example:${port}' is not a loopback name (--allow-host NAME answers another name)`,
      );
      expect(lines[6]).to.contain("Origin 'null' is not this page's origin");
    } finally {
      await v.close();
    }
  });

  it('--allow-host answers the names given too', async () => {
    const v = await startViewer(path.join(dir, 'scene', 'a.scn'), {
      dataPaths: [],
      port: 0,
      allowHosts: ['Sim.Lab.Example'],
      log: () => {},
    });
    try {
      const port = new URL(v.url).port;
      expect((await get(v.url, { host: `sim.lab.example:${port}`, origin: `http://sim.lab.example:${port}` })).status).to.equal(200);
      expect((await get(v.url, { host: `other.example:${port}` })).status).to.equal(403);
    } finally {
      await v.close();
    }
  });

  it("the WebSocket of --server refuses a forged Host or another site's Origin with 403", async () => {
    const lines: string[] = [];
    const v = await startViewer(path.join(dir, 'scene', 'a.scn'), { dataPaths: [], port: 0, server: true, log: (l) => lines.push(l) });
    try {
      const port = new URL(v.url).port;
      const ws = `ws://127.0.0.1:${port}/ws`;
      expect(await openSocket(ws, { origin: `http://127.0.0.1:${port}` })).to.equal('open');
      expect(await openSocket(ws, { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` })).to.equal(403);
      expect(await openSocket(ws, { origin: 'http://attacker.example' })).to.equal(403);
      expect(lines).to.have.length(2);
      expect(lines[0]).to.match(/^viewer: refused GET \/ws: Host 'attacker\.example:\d+' is not a loopback name/);
    } finally {
      await v.close();
    }
  });
});
