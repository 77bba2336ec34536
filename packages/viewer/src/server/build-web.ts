import * as fs from 'node:fs';
import * as path from 'node:path';
import { SofaError, findDataFile, host, loadScene, setHost, type Host } from 'sofa-ts';
import { webAssets } from './bundle.js';
import { FileRoots } from './file-roots.js';
import { viewerPage } from './page.js';

/**
 * `sofa-ts build-web`: a static folder any web server can serve — index.html, assets/ (page and
 * worker bundles) and files/ (the scene and every file it reads, under the viewer's virtual
 * layout). The files are found by loading the scene here through a host that records each read.
 * Returns the files written (relative to `outDir`).
 */
export async function buildWeb(sceneFile: string, outDir: string, o: { dataPaths: readonly string[] }): Promise<string[]> {
  if (!fs.statSync(sceneFile, { throwIfNoEntry: false })?.isFile()) throw new SofaError(`scene file '${sceneFile}' not found`);
  const roots = new FileRoots(sceneFile, o.dataPaths);
  const read = new Set<string>([path.resolve(sceneFile)]);
  const base = host();
  const recording: Host = {
    ...base,
    readText: (p, enc) => (read.add(base.path.resolve(p)), base.readText(p, enc)),
    readBytes: (p) => (read.add(base.path.resolve(p)), base.readBytes(p)),
  };
  setHost(recording);
  try {
    const scene = await loadScene(sceneFile, { dataPaths: [...o.dataPaths] });
    // textures are files the page reads (the simulation only names them)
    scene.root.visit((n) => {
      for (const obj of n.objects) {
        const name = String(obj.findData('texturename')?.value ?? '');
        const file = name ? findDataFile(obj, name) : undefined;
        if (file) read.add(file);
      }
    });
  } finally {
    setHost(base);
  }
  const written: string[] = [];
  const write = (rel: string, content: string | Buffer): void => {
    const full = path.join(outDir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
    written.push(rel);
  };
  const outside: string[] = [];
  for (const real of read) {
    const v = roots.virtualPath(real);
    if (!v) {
      outside.push(real);
      continue;
    }
    write(path.join('files', ...v.slice(1).split('/')), fs.readFileSync(real));
  }
  if (outside.length > 0)
    throw new SofaError(
      `the scene reads files outside its folder and the data paths; add their folders with --data-path: ${outside.join(', ')}`,
    );
  const assets = await webAssets();
  for (const [name, text] of Object.entries(assets)) write(path.join('assets', name), text);
  write(
    'index.html',
    viewerPage({ scene: roots.sceneVirtual, dataPaths: roots.dataVirtual, mode: 'worker', title: path.basename(sceneFile) }),
  );
  return written;
}
