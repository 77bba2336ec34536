import { host } from '@sofa-ts/core';

/** Where relative data files are looked for: the folder of the file naming them, then the data
 *  paths (SOFA's DataRepository), in order. */
export interface DataSearch {
  readonly sceneDir?: string;
  readonly dataPaths?: readonly string[];
}

/** The absolute paths tried for `relPath`, in order. An absolute `relPath` is its only candidate. */
export function dataFileCandidates(relPath: string, search: DataSearch): string[] {
  if (host().path.isAbsolute(relPath)) return [host().path.normalize(relPath)];
  const dirs = [...(search.sceneDir !== undefined ? [search.sceneDir] : []), ...(search.dataPaths ?? [])];
  const out: string[] = [];
  for (const dir of dirs) {
    const candidate = host().path.resolve(dir, relPath);
    if (!out.includes(candidate)) out.push(candidate);
  }
  return out;
}

/** Absolute path of the first existing candidate for `relPath` (see dataFileCandidates), or
 *  undefined when none exists. */
export function resolveDataFile(relPath: string, search: DataSearch): string | undefined {
  return dataFileCandidates(relPath, search).find((candidate) => host().exists(candidate));
}

/** Splits a path list: `;` always separates, `:` too on POSIX (where it is path.delimiter).
 *  Empty entries are dropped. */
export function splitPathList(list: string): string[] {
  const separators = host().path.delimiter === ':' ? /[:;]/ : /;/;
  return list
    .split(separators)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

/** Data paths from the environment: the `SOFA_DATA_PATH` variable as absolute paths. */
export function defaultDataPaths(
  env: Readonly<Record<string, string | undefined>> = { SOFA_DATA_PATH: host().env('SOFA_DATA_PATH') },
): string[] {
  const value = env['SOFA_DATA_PATH'];
  return value ? splitPathList(value).map((p) => host().path.resolve(p)) : [];
}
