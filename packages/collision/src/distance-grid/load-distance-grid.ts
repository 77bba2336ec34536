import { requireDataFile, type BaseObject } from '@sofa-ts/core';
import { readObjSurface } from '@sofa-ts/topology';
import type { DistanceGrid } from './distance-grid.js';
import { distanceGridFromMesh } from './mesh-distance.js';

/** Grids already built, by file and parameters (SOFA's DistanceGrid::loadShared). */
const shared = new Map<string, DistanceGrid>();

/**
 * The distance grid of the OBJ file `filename` (found as the component's data files are), scaled
 * by `scale`, with n values per axis and the box (see distanceGridFromMesh); one grid per set of
 * parameters is built and shared, as SOFA's loadShared does. Only OBJ meshes are read: SOFA's
 * other sources (.raw, .vtk, .fmesh, #cube) are refused with a located error.
 */
export function loadDistanceGrid(
  owner: BaseObject,
  filename: string,
  scale: number,
  n: readonly [number, number, number],
  box: readonly [ArrayLike<number>, ArrayLike<number>],
): DistanceGrid {
  if (!filename.toLowerCase().endsWith('.obj'))
    throw owner.error(
      `distance grid file '${filename}': only OBJ meshes are read by sofa-ts`,
      'SOFA also reads .raw, .vtk and .fmesh grids and the #cube shape; convert the object to an OBJ mesh',
    );
  for (const k of n)
    if (!(Number.isInteger(k) && k >= 2)) throw owner.error(`distance grid size ${n.join('x')}: each of nx, ny, nz must be an integer ≥ 2`);
  const file = requireDataFile(owner, filename, 'distance grid mesh');
  const key = JSON.stringify([file, scale, n, Array.from(box[0]), Array.from(box[1])]);
  const found = shared.get(key);
  if (found) return found;
  let conflicts = 0;
  const grid = distanceGridFromMesh(readObjSurface(file), scale, n, box, () => conflicts++);
  if (conflicts > 0)
    owner.warn(
      `${conflicts} grid values of the distance grid of '${filename}' have both inside and outside neighbours (the surface may not be closed): their sign follows the majority`,
    );
  shared.set(key, grid);
  return grid;
}
