import { host } from './host/host.js';
import type { BaseObject } from './base-object.js';
import type { Node } from './node.js';
import { MAX_DATA_FILE_BYTES, formatBytes } from './limits.js';

/** Where a scene finds its data files (meshes, includes): set on the root node by the scene loader. */
export interface SceneFiles {
  /** Absolute path of the scene file, if it came from a file. */
  readonly sceneFile?: string;
  /** Data folders searched after the file's own folder (--data-path, then SOFA_DATA_PATH). */
  readonly dataPaths: readonly string[];
  /** When set, every file a component writes (WriteState, an energy log, an exporter) goes into
   *  this folder instead of beside the scene: `sofa-ts check` runs scenes this way, so that they
   *  cannot overwrite files of the tree they come from. */
  readonly outputDir?: string;
}

const sceneFiles = new WeakMap<Node, SceneFiles>();

export function setSceneFiles(root: Node, files: SceneFiles): void {
  sceneFiles.set(root, files);
}

export function getSceneFiles(root: Node): SceneFiles | undefined {
  return sceneFiles.get(root);
}

/** Appends a folder to the scene's data paths (AddDataRepository); no effect if already there. */
export function addSceneDataPath(root: Node, dir: string): void {
  const files = sceneFiles.get(root) ?? { dataPaths: [] };
  if (files.dataPaths.includes(dir)) return;
  sceneFiles.set(root, { ...files, dataPaths: [...files.dataPaths, dir] });
}

/**
 * The candidates for a file named by a component, in SOFA's order: an absolute path as is; the
 * folder of the file that declares the component (includes keep their own folder); the scene's
 * folder; each data path of the scene; each folder of SOFA_DATA_PATH.
 */
export function dataFileCandidates(obj: BaseObject, name: string): string[] {
  if (name.includes('\0')) throw obj.error(`file name ${JSON.stringify(name)} contains a NUL character`);
  const h = host();
  const path = h.path;
  if (path.isAbsolute(name)) return [name];
  const dirs: string[] = [];
  if (obj.loc && !/^<.*>$/.test(obj.loc.file)) dirs.push(path.dirname(obj.loc.file));
  const files = obj.hasContext ? getSceneFiles(obj.context.root) : undefined;
  if (files?.sceneFile) dirs.push(path.dirname(files.sceneFile));
  for (const d of files?.dataPaths ?? []) dirs.push(d);
  for (const d of (h.env('SOFA_DATA_PATH') ?? '').split(/[:;]/)) if (d) dirs.push(d);
  dirs.push(h.cwd());
  return [...new Set(dirs)].map((d) => path.resolve(d, name));
}

/** The first existing candidate (see dataFileCandidates), or undefined. */
export function findDataFile(obj: BaseObject, name: string): string | undefined {
  const h = host();
  return dataFileCandidates(obj, name).find((p) => h.isFile(p));
}

/**
 * Like findDataFile, but throws a located error listing where it looked. The file must be a
 * regular file (not a device or a pipe, which could be read without end) of at most
 * MAX_DATA_FILE_BYTES.
 */
export function requireDataFile(obj: BaseObject, name: string, what = 'file'): string {
  const h = host();
  const found = findDataFile(obj, name);
  if (!found) {
    const other = dataFileCandidates(obj, name).find((p) => h.exists(p));
    if (other) throw obj.error(`${what} '${name}' is not a regular file (${other})`);
    throw obj.error(
      `${what} '${name}' not found (looked in: ${dataFileCandidates(obj, name)
        .map((p) => h.path.dirname(p))
        .join(', ')})`,
    );
  }
  const size = h.fileSize?.(found);
  if (size !== undefined && size > MAX_DATA_FILE_BYTES)
    throw obj.error(
      `${what} '${name}' is ${formatBytes(size)} (${size} bytes), above the limit of ${formatBytes(MAX_DATA_FILE_BYTES)} for a data file`,
    );
  return found;
}

/**
 * Where a component writes a file it names: an absolute name as is; a relative one beside the file
 * that declares the component (the scene file), else (a scene built in code) in the current
 * directory. Under the scene's `outputDir` the file goes into that folder instead (its relative
 * path kept, without leading `..`; an absolute name by its base name). SOFA writes relative names
 * into the working directory; we do not, so that running a scene never litters the folder the
 * command runs in.
 */
export function outputFilePath(obj: BaseObject, name: string): string {
  if (name.includes('\0')) throw obj.error(`file name ${JSON.stringify(name)} contains a NUL character`);
  const h = host();
  const path = h.path;
  const files = obj.hasContext ? getSceneFiles(obj.context.root) : undefined;
  if (files?.outputDir) {
    const rel = path.isAbsolute(name) ? path.basename(name) : path.normalize(name).replace(/^(\.\.[/\\])+/, '');
    return path.resolve(files.outputDir, rel);
  }
  if (path.isAbsolute(name)) return name;
  const declaring = obj.loc && !/^<.*>$/.test(obj.loc.file) ? path.dirname(obj.loc.file) : h.cwd();
  return path.resolve(declaring, name);
}
