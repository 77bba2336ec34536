import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BaseObject } from './base-object.js';
import type { Node } from './node.js';
import { MAX_DATA_FILE_BYTES, formatBytes } from './limits.js';

/** Where a scene finds its data files (meshes, includes): set on the root node by the scene loader. */
export interface SceneFiles {
  /** Absolute path of the scene file, if it came from a file. */
  readonly sceneFile?: string;
  /** Data folders searched after the file's own folder (--data-path, then SOFA_DATA_PATH). */
  readonly dataPaths: readonly string[];
}

const sceneFiles = new WeakMap<Node, SceneFiles>();

export function setSceneFiles(root: Node, files: SceneFiles): void {
  sceneFiles.set(root, files);
}

export function getSceneFiles(root: Node): SceneFiles | undefined {
  return sceneFiles.get(root);
}

/**
 * The candidates for a file named by a component, in SOFA's order: an absolute path as is; the
 * folder of the file that declares the component (includes keep their own folder); the scene's
 * folder; each data path of the scene; each folder of SOFA_DATA_PATH.
 */
export function dataFileCandidates(obj: BaseObject, name: string): string[] {
  if (path.isAbsolute(name)) return [name];
  const dirs: string[] = [];
  if (obj.loc && !/^<.*>$/.test(obj.loc.file)) dirs.push(path.dirname(obj.loc.file));
  const files = obj.hasContext ? getSceneFiles(obj.context.root) : undefined;
  if (files?.sceneFile) dirs.push(path.dirname(files.sceneFile));
  for (const d of files?.dataPaths ?? []) dirs.push(d);
  for (const d of (process.env['SOFA_DATA_PATH'] ?? '').split(/[:;]/)) if (d) dirs.push(d);
  dirs.push(process.cwd());
  return [...new Set(dirs)].map((d) => path.resolve(d, name));
}

/** The first existing candidate (see dataFileCandidates), or undefined. */
export function findDataFile(obj: BaseObject, name: string): string | undefined {
  return dataFileCandidates(obj, name).find((p) => fs.existsSync(p) && fs.statSync(p).isFile());
}

/**
 * Like findDataFile, but throws a located error listing where it looked. The file must be a
 * regular file (not a device or a pipe, which could be read without end) of at most
 * MAX_DATA_FILE_BYTES.
 */
export function requireDataFile(obj: BaseObject, name: string, what = 'file'): string {
  const found = findDataFile(obj, name);
  if (!found) {
    const other = dataFileCandidates(obj, name).find((p) => fs.existsSync(p));
    if (other) throw obj.error(`${what} '${name}' is not a regular file (${other})`);
    throw obj.error(`${what} '${name}' not found (looked in: ${dataFileCandidates(obj, name).map((p) => path.dirname(p)).join(', ')})`);
  }
  const size = fs.statSync(found).size;
  if (size > MAX_DATA_FILE_BYTES) throw obj.error(`${what} '${name}' is ${formatBytes(size)} (${size} bytes), above the limit of ${formatBytes(MAX_DATA_FILE_BYTES)} for a data file`);
  return found;
}
