import type { Host, PathRules } from './host.js';

interface NodeFs {
  existsSync(p: string): boolean;
  statSync(p: string, o?: { throwIfNoEntry: boolean }): { isFile(): boolean; mode: number; size: number } | undefined;
  readFileSync(p: string, enc?: string): string | Uint8Array;
  realpathSync(p: string): string;
  writeFileSync(p: string, c: string | Uint8Array): void;
  appendFileSync(p: string, c: string | Uint8Array): void;
  mkdirSync(p: string, o: { recursive: boolean }): void;
}
interface NodeProcess {
  getBuiltinModule?(id: string): unknown;
  env: Record<string, string | undefined>;
  cwd(): string;
}

/** Node's host, or undefined outside Node (no `process.getBuiltinModule`). */
export function createNodeHost(): Host | undefined {
  const proc = (globalThis as { process?: NodeProcess }).process;
  if (!proc?.getBuiltinModule) return undefined;
  const fs = proc.getBuiltinModule('node:fs') as NodeFs;
  const path = proc.getBuiltinModule('node:path') as PathRules;
  const mod = proc.getBuiltinModule('node:module') as { createRequire(p: string): { resolve(n: string): string } };
  const url = proc.getBuiltinModule('node:url') as { pathToFileURL(p: string): URL; fileURLToPath(u: string): string };
  const zlib = proc.getBuiltinModule('node:zlib') as { gzipSync(d: Uint8Array): Uint8Array; gunzipSync(d: Uint8Array): Uint8Array };
  return {
    path,
    isFile: (p) => fs.statSync(p, { throwIfNoEntry: false })?.isFile() ?? false,
    exists: (p) => fs.existsSync(p),
    readBytes: (p) => fs.readFileSync(p) as Uint8Array,
    readText: (p, enc = 'utf8') => fs.readFileSync(p, enc) as string,
    realpath: (p) => fs.realpathSync(p),
    writeFile: (p, content, o) => {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      if (o?.append) fs.appendFileSync(p, content);
      else fs.writeFileSync(p, content);
    },
    gzip: (d) => zlib.gzipSync(d),
    gunzip: (d) => zlib.gunzipSync(d),
    isReadOnly: (p) => ((fs.statSync(p, { throwIfNoEntry: false })?.mode ?? 0o222) & 0o222) === 0,
    env: (name) => proc.env[name],
    cwd: () => proc.cwd(),
    fileSize: (p) => {
      const st = fs.statSync(p, { throwIfNoEntry: false });
      return st?.isFile() ? st.size : undefined;
    },
    resolvePackage: (name, searchFrom) => {
      // The folders given, then this install (where sofa-ts's own packages are).
      for (const dir of [...searchFrom, path.dirname(url.fileURLToPath(import.meta.url))]) {
        try {
          return mod.createRequire(path.join(dir, 'noop.js')).resolve(name);
        } catch {
          // try the next folder
        }
      }
      return undefined;
    },
    importFile: async (file) => (await import(url.pathToFileURL(file).href)) as Record<string, unknown>,
  };
}
