import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { Host } from '@sofa-ts/core';

/**
 * A scene with everything it reads: the scene file, its includes and meshes, and what the loader
 * asked about files (which of the data paths has a mesh, a file's size, ...). The coordinator of a
 * sweep records it while loading the scene once; every case then reads its files from the bundle,
 * so a worker on another machine needs no copy of the scene's folder, and the bundle's hash is the
 * scene part of a case's identity (a changed mesh makes new cases).
 */
export interface SceneBundle {
  /** The scene file, absolute, as the coordinator named it (the bundle's paths are the coordinator's). */
  readonly scene: string;
  /** File contents by absolute path. */
  readonly files: Record<string, Uint8Array>;
  /** Answers of the host's queries by `query\0path` (isFile, exists, realpath, fileSize, isReadOnly, env, cwd). */
  readonly answers: Record<string, unknown>;
}

type Query = 'isFile' | 'exists' | 'realpath' | 'fileSize' | 'isReadOnly' | 'env' | 'cwd';

/** A host that reads through `base` and keeps every file read and every answer given. */
export function recordingHost(base: Host, scene: string): { host: Host; bundle(): SceneBundle } {
  const files: Record<string, Uint8Array> = {};
  const answers: Record<string, unknown> = {};
  const ask = <T>(q: Query, p: string, f: () => T): T => {
    const v = f();
    answers[`${q}\0${p}`] = v;
    return v;
  };
  const read = (p: string): Uint8Array => {
    const bytes = base.readBytes(p);
    files[p] = bytes;
    return bytes;
  };
  const host: Host = {
    path: base.path,
    isFile: (p) => ask('isFile', p, () => base.isFile(p)),
    exists: (p) => ask('exists', p, () => base.exists(p)),
    readBytes: (p) => read(p),
    readText: (p, enc = 'utf8') => Buffer.from(read(p)).toString(enc),
    realpath: (p) => ask('realpath', p, () => base.realpath(p)),
    writeFile: (p, c, o) => base.writeFile(p, c, o),
    env: (name) => ask('env', name, () => base.env(name)),
    cwd: () => ask('cwd', '', () => base.cwd()),
    ...(base.gzip ? { gzip: (d: Uint8Array) => base.gzip!(d) } : {}),
    ...(base.gunzip ? { gunzip: (d: Uint8Array) => base.gunzip!(d) } : {}),
    ...(base.isReadOnly ? { isReadOnly: (p: string) => ask('isReadOnly', p, () => base.isReadOnly!(p)) } : {}),
    ...(base.fileSize ? { fileSize: (p: string) => ask('fileSize', p, () => base.fileSize!(p)) } : {}),
    ...(base.resolvePackage ? { resolvePackage: (n: string, from: readonly string[]) => base.resolvePackage!(n, from) } : {}),
    ...(base.importFile ? { importFile: (f: string) => base.importFile!(f) } : {}),
  };
  return { host, bundle: () => ({ scene, files: { ...files }, answers: { ...answers } }) };
}

/**
 * A host that serves a bundle: its files and answers, the same bytes and the same answers the
 * coordinator had. What the bundle does not hold (a file only some cases read, a plugin's code,
 * the files a scene writes) goes to `base`, the machine's own host.
 */
export function bundleHost(b: SceneBundle, base: Host): Host {
  const has = (q: Query, p: string): boolean => Object.prototype.hasOwnProperty.call(b.answers, `${q}\0${p}`);
  const answer = <T>(q: Query, p: string, f: () => T): T => (has(q, p) ? (b.answers[`${q}\0${p}`] as T) : f());
  const bytes = (p: string): Uint8Array => (Object.prototype.hasOwnProperty.call(b.files, p) ? b.files[p] : base.readBytes(p));
  return {
    path: base.path,
    isFile: (p) => answer('isFile', p, () => base.isFile(p)),
    exists: (p) => answer('exists', p, () => base.exists(p)),
    readBytes: (p) => bytes(p),
    readText: (p, enc = 'utf8') => Buffer.from(bytes(p)).toString(enc),
    realpath: (p) => answer('realpath', p, () => base.realpath(p)),
    writeFile: (p, c, o) => base.writeFile(p, c, o),
    env: (name) => answer('env', name, () => base.env(name)),
    cwd: () => answer('cwd', '', () => base.cwd()),
    ...(base.gzip ? { gzip: (d: Uint8Array) => base.gzip!(d) } : {}),
    ...(base.gunzip ? { gunzip: (d: Uint8Array) => base.gunzip!(d) } : {}),
    isReadOnly: (p) => answer('isReadOnly', p, () => base.isReadOnly?.(p) ?? false),
    fileSize: (p) => answer('fileSize', p, () => base.fileSize?.(p)),
    ...(base.resolvePackage ? { resolvePackage: (n: string, from: readonly string[]) => base.resolvePackage!(n, from) } : {}),
    ...(base.importFile ? { importFile: (f: string) => base.importFile!(f) } : {}),
  };
}

/**
 * The bundle's identity: SHA-256 over its files (by path relative to the scene's folder, so a
 * moved folder keeps its cases) and the answers that decided what was read.
 */
export function bundleHash(b: SceneBundle): string {
  const h = createHash('sha256');
  const dir = path.dirname(b.scene);
  const rel = (p: string): string => path.relative(dir, p).split(path.sep).join('/');
  h.update(`scene\0${rel(b.scene)}\0`);
  for (const p of Object.keys(b.files).sort()) {
    h.update(`file\0${rel(p)}\0${b.files[p].length}\0`);
    h.update(b.files[p]);
  }
  // Answers about files that were read, relative to the scene; answers naming machine paths
  // (cwd, realpath) are left out: they do not change what the scene computes.
  for (const k of Object.keys(b.answers).sort()) {
    const [q, p] = k.split('\0') as [Query, string];
    if (q === 'cwd' || q === 'realpath' || q === 'isReadOnly') continue;
    h.update(`${q}\0${q === 'env' ? p : rel(p)}\0${JSON.stringify(b.answers[k] ?? null)}\0`);
  }
  return h.digest('hex');
}

/** The bundle as bytes (for Redis): JSON with the files in base64. */
export function encodeBundle(b: SceneBundle): Buffer {
  const files = Object.fromEntries(Object.entries(b.files).map(([p, d]) => [p, Buffer.from(d).toString('base64')]));
  // undefined (a file size the host could not tell, an unset variable) travels as null
  const answers = Object.fromEntries(Object.entries(b.answers).map(([k, v]) => [k, v === undefined ? null : v]));
  return Buffer.from(JSON.stringify({ scene: b.scene, files, answers }));
}

export function decodeBundle(bytes: Uint8Array): SceneBundle {
  const o = JSON.parse(Buffer.from(bytes).toString('utf8')) as {
    scene: string;
    files: Record<string, string>;
    answers: Record<string, unknown>;
  };
  return {
    scene: o.scene,
    files: Object.fromEntries(Object.entries(o.files).map(([p, s]) => [p, new Uint8Array(Buffer.from(s, 'base64'))])),
    answers: Object.fromEntries(Object.entries(o.answers).map(([k, v]) => [k, v === null ? undefined : v])),
  };
}
