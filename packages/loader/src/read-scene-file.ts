import { readFileSync, statSync } from 'node:fs';
import { MAX_SCENE_FILE_BYTES, SofaError, formatBytes, type SourceLocation } from '@sofa-ts/core';

/**
 * The text of a scene file or of a file it includes. It must be a regular file (a device such as
 * /dev/zero or a pipe could be read without end) of at most MAX_SCENE_FILE_BYTES. `what` names the
 * file in messages ('scene file', 'included file'); `loc` is where it was named (the include).
 */
export function readSceneText(file: string, what: string, loc?: SourceLocation): string {
  const at = loc ? { loc } : {};
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new SofaError(`${what} '${file}' is not a regular file`, at);
    size = st.size;
  } catch (e) {
    if (e instanceof SofaError) throw e;
    throw new SofaError(`cannot read ${what} '${file}': ${(e as Error).message}`, { ...at, cause: e });
  }
  if (size > MAX_SCENE_FILE_BYTES) throw new SofaError(`${what} '${file}' is ${formatBytes(size)} (${size} bytes), above the limit of ${formatBytes(MAX_SCENE_FILE_BYTES)} for a scene file`, at);
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new SofaError(`cannot read ${what} '${file}': ${(e as Error).message}`, { ...at, cause: e });
  }
}
