/**
 * What a scene needs from the machine it runs on: data files, path rules, environment variables.
 * Components and loaders reach files only through `host()`, so the component packages bundle for
 * a browser unchanged. In Node the host is Node's own (its modules taken with
 * `process.getBuiltinModule`, so no bundler sees an import of node:fs); elsewhere the embedding
 * program installs one with `setHost` (the viewer's Web Worker reads the files its server serves).
 */
import { SofaError } from '../errors.js';
import { createNodeHost } from './node-host.js';

/** Path rules of the host (Node's `path` in Node, POSIX rules in a browser). */
export interface PathRules {
  readonly sep: string;
  /** Separator of path lists (SOFA_DATA_PATH). */
  readonly delimiter: string;
  isAbsolute(p: string): boolean;
  normalize(p: string): string;
  join(...parts: string[]): string;
  resolve(...parts: string[]): string;
  dirname(p: string): string;
  basename(p: string, ext?: string): string;
  extname(p: string): string;
  relative(from: string, to: string): string;
}

export interface Host {
  readonly path: PathRules;
  /** True when `p` names an existing regular file. */
  isFile(p: string): boolean;
  /** True when `p` names an existing file or folder. */
  exists(p: string): boolean;
  readBytes(p: string): Uint8Array;
  readText(p: string, encoding?: 'utf8' | 'latin1'): string;
  /** The canonical path of an existing file (symbolic links resolved where the host has them). */
  realpath(p: string): string;
  /** Writes (or appends to) a text or binary file, creating its folder. */
  writeFile(p: string, content: string | Uint8Array, options?: { append?: boolean }): void;
  env(name: string): string | undefined;
  cwd(): string;
  /** gzip compression of state files (.gz); undefined when the host has none. */
  gzip?(data: Uint8Array): Uint8Array;
  gunzip?(data: Uint8Array): Uint8Array;
  /** True when an existing file has no write permission (data to keep); false when unknown. */
  isReadOnly?(p: string): boolean;
  /** The size in bytes of a regular file, undefined when `p` is not one (a device, a pipe, a folder,
   *  nothing) or the host cannot tell. Readers check it before reading (bounded work). */
  fileSize?(p: string): number | undefined;
  /** The entry file of the npm package `name` as Node resolves it from the folders (then from
   *  sofa-ts's own install), undefined when none has it; absent when the host cannot import code. */
  resolvePackage?(name: string, searchFrom: readonly string[]): string | undefined;
  /** Imports a JavaScript file (a plugin); absent when the host cannot. */
  importFile?(file: string): Promise<Record<string, unknown>>;
  /** Opens a serial port (a device such as /dev/ttyACM0) at a baud rate, raw 8-bit; throws with the
   *  reason when it cannot. Absent when the host has no serial ports (a browser). */
  openSerialPort?(port: string, baudRate: number): SerialPort;
}

/** An open serial port (see Host.openSerialPort). */
export interface SerialPort {
  /** Writes every byte (throws on an I/O error). */
  write(bytes: Uint8Array): void;
  /** The bytes waiting to be read, at most `max`, without waiting (empty when none). */
  read(max: number): Uint8Array;
  close(): void;
}

let current: Host | undefined;

/** The host in use: the one installed by setHost, else Node's. */
export function host(): Host {
  if (current) return current;
  const node = createNodeHost();
  if (!node) throw new SofaError('no file host: outside Node, the embedding program must call setHost() before loading a scene');
  current = node;
  return current;
}

/** Installs the host that scenes read their files through (a browser's, a test's). */
export function setHost(h: Host): void {
  current = h;
}
