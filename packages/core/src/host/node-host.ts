import type { Host, PathRules } from './host.js';
import { writeFailure } from './write-failure.js';

interface NodeFs {
  existsSync(p: string): boolean;
  statSync(p: string, o?: { throwIfNoEntry: boolean }): { isFile(): boolean; mode: number; size: number } | undefined;
  readFileSync(p: string, enc?: string): string | Uint8Array;
  realpathSync(p: string): string;
  writeFileSync(p: string, c: string | Uint8Array): void;
  appendFileSync(p: string, c: string | Uint8Array): void;
  mkdirSync(p: string, o: { recursive: boolean }): void;
  renameSync(from: string, to: string): void;
  rmSync(p: string, o: { force: boolean }): void;
  truncateSync(p: string, len: number): void;
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
    writeFile: (p, content, o) => (o?.append ? appendWhole(fs, path, p, content) : replaceWhole(fs, path, p, content)),
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

/** Temporary files made by this thread (their names must differ between two writes of one file). */
let temporaries = 0;

/**
 * A whole file, atomically: written into a temporary file of the same folder, then renamed over
 * `p`, so that a reader, and the disk after a failed write (ENOSPC, EIO, EDQUOT), hold the old file
 * or the new one, never part of one. What is not a regular file (a device, a pipe) is written as is.
 */
function replaceWhole(fs: NodeFs, path: PathRules, p: string, content: string | Uint8Array): void {
  const existing = fs.statSync(p, { throwIfNoEntry: false });
  if (existing && !existing.isFile()) {
    try {
      fs.writeFileSync(p, content);
    } catch (cause) {
      throw writeFailure('file', p, cause);
    }
    return;
  }
  // a symbolic link keeps pointing at the file it names: the file is replaced, not the link
  const target = existing ? fs.realpathSync(p) : p;
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${(globalThis as { process?: { pid: number } }).process?.pid ?? 0}.${++temporaries}.tmp`);
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, target);
  } catch (cause) {
    fs.rmSync(tmp, { force: true });
    throw writeFailure('file', p, cause);
  }
}

/** An append that lands whole or not at all: a failed one is cut back to the file's former length
 *  (a file it created is removed), so the file ends on its last complete record. */
function appendWhole(fs: NodeFs, path: PathRules, p: string, content: string | Uint8Array): void {
  const before = fs.statSync(p, { throwIfNoEntry: false });
  const size = before?.isFile() ? before.size : -1;
  try {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.appendFileSync(p, content);
  } catch (cause) {
    try {
      if (size < 0 && !before) fs.rmSync(p, { force: true });
      else if (size >= 0) fs.truncateSync(p, size);
    } catch {
      // the write's failure is the one reported
    }
    throw writeFailure('file', p, cause);
  }
}
