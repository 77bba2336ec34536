/**
 * Bounds on the work a scene can ask for, checked before memory is allocated, so that a typo
 * (`n="1000 1000 1000"`) or a hostile file gives a located error naming the bound instead of
 * exhausting the memory of the process.
 */

/** Points a generated topology or state may have (grids, sparse grids, `size` of a state). */
export const MAX_POINTS = 4_000_000;

/** Bytes of a scene file or of a file it includes. */
export const MAX_SCENE_FILE_BYTES = 16 * 1024 * 1024;

/** Bytes of a data file a component reads (meshes, sphere files, surfaces). */
export const MAX_DATA_FILE_BYTES = 256 * 1024 * 1024;

/** Rows of a constraint problem whose dense compliance W (rows² numbers) is built. */
export const MAX_DENSE_CONSTRAINT_ROWS = 10_000;

/** A byte count as people read it: '16 MiB'. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
