import { host } from '@sofa-ts/core';

/** A polygonal surface read from a Wavefront OBJ file: what SOFA's helper::io::MeshOBJ keeps for topologies. */
export interface ObjSurface {
  /** Vertex positions (nV × 3), in file order. */
  readonly vertices: Float64Array;
  /** One list of vertex indices (0-based) per `f` or `l` line, in file order. */
  readonly facets: readonly (readonly number[])[];
}

/** C's atoi: the leading integer of a string (0 when there is none). */
function atoi(s: string): number {
  const m = /^\s*[+-]?\d+/.exec(s);
  return m ? parseInt(m[0], 10) : 0;
}

/**
 * Reads the vertices (`v x y z`) and faces (`f` or `l`, entries `v`, `v/t`, `v/t/n` or `v//n`, indices
 * counted from 1) of an OBJ text; normals, texture coordinates, groups and materials are skipped.
 */
export function parseObjSurface(text: string): ObjSurface {
  const vertices: number[] = [];
  const facets: number[][] = [];
  for (const raw of text.split(/\r?\n/)) {
    const parts = raw.trim().split(/\s+/);
    const token = parts[0];
    if (token === 'v') {
      for (let k = 1; k <= 3; k++) {
        const x = parseFloat(parts[k] ?? '');
        vertices.push(Number.isFinite(x) ? x : 0);
      }
    } else if (token === 'f' || token === 'l') {
      const facet: number[] = [];
      for (let k = 1; k < parts.length; k++) {
        const entry = parts[k];
        if (entry === '') continue;
        const first = entry.split('/')[0];
        facet.push(first === '' ? 0 : atoi(first) - 1);
      }
      facets.push(facet);
    }
  }
  return { vertices: Float64Array.from(vertices), facets };
}

export function readObjSurface(file: string): ObjSurface {
  return parseObjSurface(host().readText(file, 'utf8'));
}
