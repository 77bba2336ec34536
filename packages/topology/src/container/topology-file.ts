import { findDataFile, type BaseObject } from '@sofa-ts/core';
import { readObjSurface } from '../grid/obj-surface.js';

/** The elements of a mesh file named by a topology's `filename` Data. */
export interface FileTopology {
  readonly positions: Float64Array;
  readonly edges: Uint32Array;
  readonly triangles: Uint32Array;
  readonly quads: Uint32Array;
}

/**
 * Reads a topology's `filename` (SOFA's BaseMeshTopology loading). OBJ only: `v` lines give the
 * points; faces of 2, 3 and 4 vertices give edges, triangles and quads, larger faces are split in
 * fans of triangles. Other formats are read by the loaders (`src="@loader"`).
 */
export function readTopologyFile(owner: BaseObject, name: string): FileTopology {
  if (!/\.obj$/i.test(name)) throw owner.error(`cannot read '${name}': only OBJ files are read by ${owner.className} (use a mesh loader and src="@loader")`);
  const file = findDataFile(owner, name);
  if (!file) throw owner.error(`mesh file '${name}' not found`);
  const surf = readObjSurface(file);
  const edges: number[] = [];
  const triangles: number[] = [];
  const quads: number[] = [];
  for (const f of surf.facets) {
    if (f.length === 2) edges.push(f[0]!, f[1]!);
    else if (f.length === 3) triangles.push(f[0]!, f[1]!, f[2]!);
    else if (f.length === 4) quads.push(f[0]!, f[1]!, f[2]!, f[3]!);
    else for (let j = 2; j < f.length; j++) triangles.push(f[0]!, f[j - 1]!, f[j]!);
  }
  return { positions: surf.vertices, edges: Uint32Array.from(edges), triangles: Uint32Array.from(triangles), quads: Uint32Array.from(quads) };
}
