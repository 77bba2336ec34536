import { MAX_SCENE_FILE_BYTES, SofaError, formatBytes, host, type SourceLocation } from '@sofa-ts/core';

/**
 * The text of a scene file or of a file it includes. It must be a regular file (a device such as
 * /dev/zero or a pipe could be read without end) of at most MAX_SCENE_FILE_BYTES. `what` names the
 * file in messages ('scene file', 'included file'); `loc` is where it was named (the include).
 */
export function readSceneText(file: string, what: string, loc?: SourceLocation): string {
  const at = loc ? { loc } : {};
  const h = host();
  if (!h.exists(file)) throw new SofaError(`cannot read ${what} '${file}': no such file`, at);
  if (!h.isFile(file)) throw new SofaError(`${what} '${file}' is not a regular file`, at);
  const size = h.fileSize?.(file);
  if (size !== undefined && size > MAX_SCENE_FILE_BYTES)
    throw new SofaError(
      `${what} '${file}' is ${formatBytes(size)} (${size} bytes), above the limit of ${formatBytes(MAX_SCENE_FILE_BYTES)} for a scene file`,
      at,
    );
  try {
    return h.readText(file, 'utf8');
  } catch (e) {
    throw new SofaError(`cannot read ${what} '${file}': ${(e as Error).message}`, { ...at, cause: e });
  }
}
