import type { Host, PathRules, SerialPort } from './host.js';
import { writeFailure } from './write-failure.js';

interface NodeFs {
  existsSync(p: string): boolean;
  statSync(p: string, o?: { throwIfNoEntry: boolean }): { isFile(): boolean; mode: number; size: number } | undefined;
  readFileSync(p: string, enc?: string): string | Uint8Array;
  realpathSync(p: string): string;
  writeFileSync(p: string, c: string | Uint8Array): void;
  appendFileSync(p: string, c: string | Uint8Array): void;
  mkdirSync(p: string, o: { recursive: boolean }): void;
  openSync(p: string, flags: number): number;
  writeSync(fd: number, b: Uint8Array, offset?: number, length?: number): number;
  readSync(fd: number, b: Uint8Array, offset: number, length: number, position: null): number;
  closeSync(fd: number): void;
  constants: { O_RDWR: number; O_NOCTTY: number; O_NONBLOCK: number };
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
    openSerialPort: (port, baudRate) => openSerialPort(fs, proc, port, baudRate),
    importFile: async (file) => (await import(url.pathToFileURL(file).href)) as Record<string, unknown>,
  };
}

/**
 * A serial port as a character device: opened read-write without becoming the controlling
 * terminal, non-blocking (a read returns what is waiting), and set raw at the baud rate by the
 * system's `stty -F` (GNU coreutils, Linux; Node has no termios of its own). Throws with the reason when the device
 * does not open or stty refuses it.
 */
function openSerialPort(fs: NodeFs, proc: NodeProcess, port: string, baudRate: number): SerialPort {
  const { O_RDWR, O_NOCTTY, O_NONBLOCK } = fs.constants;
  const fd = fs.openSync(port, O_RDWR | O_NOCTTY | O_NONBLOCK);
  try {
    const cp = proc.getBuiltinModule!('node:child_process') as {
      execFileSync(cmd: string, args: string[], o: { stdio: string[]; timeout: number }): unknown;
    };
    cp.execFileSync('stty', ['-F', port, String(baudRate), 'raw', '-echo'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5000 });
  } catch (e) {
    fs.closeSync(fd);
    throw new Error(
      `stty could not set ${port} to ${baudRate} baud, raw: ${(e as { stderr?: Uint8Array }).stderr?.toString().trim() || (e as Error).message}`,
      { cause: e },
    );
  }
  return {
    write: (bytes) => {
      for (let off = 0; off < bytes.length;) off += fs.writeSync(fd, bytes, off, bytes.length - off);
    },
    read: (max) => {
      const b = new Uint8Array(max);
      try {
        return b.subarray(0, fs.readSync(fd, b, 0, max, null));
      } catch (e) {
        if ((e as { code?: string }).code === 'EAGAIN') return b.subarray(0, 0);
        throw e;
      }
    },
    close: () => fs.closeSync(fd),
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
  const tmp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${(globalThis as { process?: { pid: number } }).process?.pid ?? 0}.${++temporaries}.tmp`,
  );
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
