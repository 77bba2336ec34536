import * as path from 'node:path';

/**
 * The folders a page may read, under virtual names: `scene` is the scene's folder, `data/<i>` the
 * i-th data path. A request outside them is refused (read-only, nothing else of the disk).
 */
export class FileRoots {
  readonly roots: { name: string; dir: string }[];
  readonly sceneVirtual: string;
  readonly dataVirtual: string[];

  constructor(sceneFile: string, dataPaths: readonly string[]) {
    const abs = path.resolve(sceneFile);
    this.roots = [{ name: 'scene', dir: path.dirname(abs) }, ...dataPaths.map((d, i) => ({ name: `data/${i}`, dir: path.resolve(d) }))];
    this.sceneVirtual = `/scene/${path.basename(abs)}`;
    this.dataVirtual = dataPaths.map((_, i) => `/data/${i}`);
  }

  /** The real file of a virtual path (`/scene/mesh/a.obj`), or undefined outside the roots. */
  realPath(virtual: string): string | undefined {
    const clean = path.posix.normalize(`/${virtual}`);
    for (const r of this.roots) {
      const prefix = `/${r.name}/`;
      if (!clean.startsWith(prefix)) continue;
      const real = path.resolve(r.dir, clean.slice(prefix.length));
      const rel = path.relative(r.dir, real);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
      return real;
    }
    return undefined;
  }

  /** The virtual path of a real file inside a root (the first root holding it), or undefined. */
  virtualPath(real: string): string | undefined {
    const abs = path.resolve(real);
    for (const r of this.roots) {
      const rel = path.relative(r.dir, abs);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return `/${r.name}/${rel.split(path.sep).join('/')}`;
    }
    return undefined;
  }
}
