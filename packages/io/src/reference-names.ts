/** Where SOFA's regression references live and how their files are named.
 *
 *  For a scene `<list dir>/<rel>` and a reference root `<root>`:
 *  - marker (empty file, says references exist): `<root>/<rel>.reference`
 *  - one file per compared state i named n:     `<root>/<rel>.reference_<i>_<n>_mstate.txt.gz` */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SofaError } from '@sofa-ts/core';

const MARKER_SUFFIX = '.reference';
const STATE_INFIX = '.reference_';
const STATE_SUFFIX = '_mstate.txt.gz';

/** `<root>/<rel>`: what the reference suffixes are appended to. */
export function referenceBase(referenceRoot: string, sceneRelative: string): string {
  return path.join(referenceRoot, sceneRelative);
}

export function referenceMarkerPath(referenceRoot: string, sceneRelative: string): string {
  return referenceBase(referenceRoot, sceneRelative) + MARKER_SUFFIX;
}

/** The reference file of compared state `index` named `name`. */
export function referenceStatePath(referenceRoot: string, sceneRelative: string, index: number, name: string): string {
  if (!Number.isInteger(index) || index < 0) throw new SofaError(`reference index must be an integer >= 0, got ${index}`);
  return `${referenceBase(referenceRoot, sceneRelative)}${STATE_INFIX}${index}_${name}${STATE_SUFFIX}`;
}

export interface ReferenceStateFile {
  index: number;
  /** State (component) name; may contain underscores and spaces. */
  name: string;
  path: string;
}

/** Index and name encoded in a reference file name of scene file `sceneFileName` (a base name
 *  such as `Pendulum.scn`); undefined when the file is not one of that scene's state references. */
export function parseReferenceStateFileName(fileName: string, sceneFileName: string): { index: number; name: string } | undefined {
  const prefix = sceneFileName + STATE_INFIX;
  if (!fileName.startsWith(prefix) || !fileName.endsWith(STATE_SUFFIX)) return undefined;
  const middle = fileName.slice(prefix.length, fileName.length - STATE_SUFFIX.length);
  // The index is the leading digits; everything after the next underscore is the name.
  const m = /^(\d+)_(.+)$/s.exec(middle);
  if (!m) return undefined;
  return { index: Number(m[1]), name: m[2] };
}

/** The existing reference state files of a scene, sorted by index; empty when there are none. */
export function listReferenceStates(referenceRoot: string, sceneRelative: string): ReferenceStateFile[] {
  const base = referenceBase(referenceRoot, sceneRelative);
  const dir = path.dirname(base);
  const sceneFileName = path.basename(base);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SofaError(`cannot list reference folder ${dir}`, { cause });
  }
  const found: ReferenceStateFile[] = [];
  for (const fileName of names) {
    const parsed = parseReferenceStateFileName(fileName, sceneFileName);
    if (parsed) found.push({ ...parsed, path: path.join(dir, fileName) });
  }
  found.sort((a, b) => a.index - b.index);
  // Two files for one index would make the pairing with the scene's states ambiguous.
  for (let k = 1; k < found.length; k++) {
    if (found[k].index === found[k - 1].index) {
      throw new SofaError(`two references for state ${found[k].index}: ${found[k - 1].path} and ${found[k].path}`);
    }
  }
  return found;
}

/** True when the scene's reference marker file exists. */
export function hasReferenceMarker(referenceRoot: string, sceneRelative: string): boolean {
  return fs.existsSync(referenceMarkerPath(referenceRoot, sceneRelative));
}
