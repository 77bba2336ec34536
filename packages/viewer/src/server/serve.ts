import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { WebSocketServer } from 'ws';
import { loadSceneFile } from '@sofa-ts/loader';
import { SofaError, isBuiltinPluginName, requestedPlugins, type SceneElement } from 'sofa-ts';
import { webAssets } from './bundle.js';
import { FileRoots } from './file-roots.js';
import { HostGuard } from './host-guard.js';
import { viewerPage } from './page.js';
import { attachSocketSession } from './socket-session.js';

export interface ViewOptions {
  dataPaths: readonly string[];
  /** 0: any free port. */
  port?: number;
  /** Run the scene in this process and stream states over a WebSocket (default: in the page's
   *  worker, unless the scene requires npm plugins, which import Node modules). */
  server?: boolean;
  /** Host names answered besides the loopback names (127.0.0.1, localhost, [::1]): --allow-host. */
  allowHosts?: readonly string[];
  /** Where a refused request is told (default: a line on stderr). */
  log?: (line: string) => void;
}

export interface RunningViewer {
  url: string;
  close(): Promise<void>;
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.bmp': 'image/bmp',
};
const typeOf = (p: string): string => types[path.extname(p).toLowerCase()] ?? 'application/octet-stream';

/**
 * `sofa-ts view`: serves the viewer page, its bundles and the scene's files (read-only: the scene's
 * folder and the data paths) on the loopback address. The scene runs in the page's Web Worker, or
 * in this process with `server`. Both the page and the WebSocket answer only loopback host names
 * and the page's own origin (host-guard.ts), plus `allowHosts`.
 */
export async function startViewer(sceneFile: string, o: ViewOptions): Promise<RunningViewer & { server: boolean }> {
  if (!fs.statSync(sceneFile, { throwIfNoEntry: false })?.isFile()) throw new SofaError(`scene file '${sceneFile}' not found`);
  const assets = await webAssets();
  // npm plugins import Node modules: such scenes run here unless told otherwise
  // a Python scene needs its interpreter (in this process or a python3 beside it): server mode, whatever was asked
  const python = /\.py$/i.test(sceneFile);
  const plugins = o.server === undefined && !python ? npmPlugins(sceneFile, o.dataPaths) : [];
  o = { ...o, server: python || (o.server ?? plugins.length > 0) };
  const roots = new FileRoots(sceneFile, o.dataPaths);
  const page = viewerPage({
    scene: o.server ? path.resolve(sceneFile) : roots.sceneVirtual,
    dataPaths: o.server ? o.dataPaths.map((d) => path.resolve(d)) : roots.dataVirtual,
    mode: o.server ? 'server' : 'worker',
    title: path.basename(sceneFile),
  });
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // the port is known once listening; no request comes before
  let guard = new HostGuard(0);
  const refusal = (req: http.IncomingMessage): string | undefined => {
    const why = guard.refusal(req.headers.host, req.headers.origin);
    if (why) log(`viewer: refused ${req.method ?? 'GET'} ${req.url ?? '/'}: ${why} (--allow-host NAME answers another name)`);
    return why;
  };
  const server = http.createServer((req, res) => {
    const refused = refusal(req);
    if (refused) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`forbidden: ${refused}\n`);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const p = decodeURIComponent(url.pathname);
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.writeHead(405).end();
      return;
    }
    const reply = (status: number, type: string, body: string | Buffer): void => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
      res.end(head ? undefined : body);
    };
    if (p === '/favicon.ico') return reply(204, 'text/plain', '');
    if (p === '/' || p === '/index.html') return reply(200, types['.html'], page);
    const asset = p.startsWith('/assets/') ? assets[p.slice(8) as keyof typeof assets] : undefined;
    if (asset !== undefined) return reply(200, typeOf(p), asset);
    if (p.startsWith('/files/') && !o.server) {
      const real = roots.realPath(p.slice(6));
      if (real && fs.statSync(real, { throwIfNoEntry: false })?.isFile()) return reply(200, typeOf(real), fs.readFileSync(real));
    }
    reply(404, 'text/plain', 'not found');
  });
  if (o.server) {
    const wss = new WebSocketServer({
      server,
      path: '/ws',
      verifyClient: (info: { req: http.IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
        const refused = refusal(info.req);
        done(refused === undefined, 403, refused);
      },
    });
    wss.on('connection', (ws) =>
      attachSocketSession(ws, { scene: path.resolve(sceneFile), dataPaths: o.dataPaths.map((d) => path.resolve(d)) }),
    );
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  guard = new HostGuard(port, o.allowHosts ?? []);
  return {
    url: `http://127.0.0.1:${port}/`,
    server: o.server === true,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The npm plugins a scene requires (its RequiredPlugin names that are not SOFA modules). */
export function npmPlugins(sceneFile: string, dataPaths: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (el: SceneElement): void => {
    if (el.tag === 'RequiredPlugin') for (const n of requestedPlugins(el)) if (!isBuiltinPluginName(n)) out.push(n);
    for (const c of el.children) visit(c);
  };
  visit(loadSceneFile(sceneFile, { dataPaths: [...dataPaths] }));
  return out;
}
