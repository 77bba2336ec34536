/**
 * meshio (Debian's python3-meshio), the independent reader of the mesh files sofa-ts writes (VTK
 * legacy and XML, gmsh, STL, OBJ). Tests skip, saying why, when Debian's Python cannot import it.
 */
import { execFileSync } from 'node:child_process';

/** Debian's Python (python3-meshio is installed for it, not for another python3 on the PATH). */
export const python = '/usr/bin/python3';

export function hasMeshio(): boolean {
  try {
    execFileSync(python, ['-c', 'import meshio'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

export const noMeshio = `${python} cannot import meshio (Debian: apt-get install python3-meshio; CI installs it in .ci/run)`;

export interface MeshioMesh {
  points: number[][];
  /** Cells by meshio's type name (vertex, line, triangle, quad, tetra, hexahedron), blocks joined. */
  cells: Record<string, number[][]>;
  point_data: Record<string, number[][] | number[]>;
}

/** meshio's reading of a file (`format`: meshio's name of it, when the extension does not say). */
export function meshioRead(file: string, format?: string): MeshioMesh {
  const script = `
import json, sys, meshio
m = meshio.read(sys.argv[1], file_format=(sys.argv[2] if len(sys.argv) > 2 else None))
cells = {}
for b in m.cells:
    cells.setdefault(b.type, []).extend(b.data.tolist())
print(json.dumps({"points": m.points.tolist(), "cells": cells, "point_data": {k: v.tolist() for k, v in m.point_data.items()}}))
`;
  return JSON.parse(
    execFileSync(python, ['-c', script, file, ...(format ? [format] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  ) as MeshioMesh;
}
