import { requireDataFile, type BaseObject } from '@sofa-ts/core';
import { readObjSurface } from '../grid/obj-surface.js';
import { MeshGmshLoader } from '../loader/MeshGmshLoader.js';
import type { MeshLoader } from '../loader/MeshLoader.js';
import { MeshSTLLoader } from '../loader/MeshSTLLoader.js';
import { MeshVTKLoader } from '../loader/MeshVTKLoader.js';
import { MeshFileError } from '../loader/text-scanner.js';

/** The elements of a mesh file named by a topology's `filename` Data. */
export interface FileTopology {
  readonly positions: Float64Array;
  readonly edges: Uint32Array;
  readonly triangles: Uint32Array;
  readonly quads: Uint32Array;
  readonly tetrahedra: Uint32Array;
  readonly hexahedra: Uint32Array;
}

/** The readers of the formats a topology's `filename` may name, by extension (as SOFA's
 *  BaseMeshTopology::load, which reads every format of its mesh readers). */
const readers: ReadonlyArray<[RegExp, () => MeshLoader]> = [
  [/\.msh$/i, () => new MeshGmshLoader()],
  [/\.(vtk|vtu)$/i, () => new MeshVTKLoader()],
  [/\.stl$/i, () => new MeshSTLLoader()],
];

/**
 * Reads a topology's `filename` (SOFA's BaseMeshTopology loading). OBJ: `v` lines give the
 * points; faces of 2, 3 and 4 vertices give edges, triangles and quads, larger faces are split in
 * fans of triangles. Gmsh (.msh), VTK (.vtk, .vtu) and STL files are read by the same code as
 * their loaders, elements as the file gives them (the container derives the others).
 */
export function readTopologyFile(owner: BaseObject, name: string): FileTopology {
  const reader = readers.find(([ext]) => ext.test(name));
  if (!reader && !/\.obj$/i.test(name))
    throw owner.error(
      `cannot read '${name}': ${owner.className} reads OBJ, Gmsh (.msh), VTK (.vtk, .vtu) and STL files (for other formats use a mesh loader and src="@loader")`,
    );
  const file = requireDataFile(owner, name, 'mesh file');
  if (reader) {
    try {
      const b = reader[1]().readRawMesh(file);
      return {
        positions: Float64Array.from(b.positions),
        edges: Uint32Array.from(b.edges),
        triangles: Uint32Array.from(b.triangles),
        quads: Uint32Array.from(b.quads),
        tetrahedra: Uint32Array.from(b.tetrahedra),
        hexahedra: Uint32Array.from(b.hexahedra),
      };
    } catch (e) {
      if (e instanceof MeshFileError) throw owner.error(`cannot read mesh file ${e.message}`);
      throw e;
    }
  }
  const surf = readObjSurface(file);
  const edges: number[] = [];
  const triangles: number[] = [];
  const quads: number[] = [];
  for (const f of surf.facets) {
    if (f.length === 2) edges.push(f[0], f[1]);
    else if (f.length === 3) triangles.push(f[0], f[1], f[2]);
    else if (f.length === 4) quads.push(f[0], f[1], f[2], f[3]);
    else for (let j = 2; j < f.length; j++) triangles.push(f[0], f[j - 1], f[j]);
  }
  return {
    positions: surf.vertices,
    edges: Uint32Array.from(edges),
    triangles: Uint32Array.from(triangles),
    quads: Uint32Array.from(quads),
    tetrahedra: new Uint32Array(0),
    hexahedra: new Uint32Array(0),
  };
}
