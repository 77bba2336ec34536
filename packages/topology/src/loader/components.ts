import type { ComponentClass } from '@sofa-ts/core';
import { GIDMeshLoader } from './GIDMeshLoader.js';
import { GridMeshCreator } from './GridMeshCreator.js';
import { MeshGmshLoader } from './MeshGmshLoader.js';
import { MeshOBJLoader } from './MeshOBJLoader.js';
import { MeshOffLoader } from './MeshOffLoader.js';
import { MeshSTLLoader } from './MeshSTLLoader.js';
import { MeshTrianLoader } from './MeshTrianLoader.js';
import { MeshVTKLoader } from './MeshVTKLoader.js';
import { SphereLoader } from './SphereLoader.js';
import { StringMeshCreator } from './StringMeshCreator.js';
import { VoxelGridLoader } from './VoxelGridLoader.js';

/** The loader components of @sofa-ts/topology. */
export const loaderComponents: readonly ComponentClass[] = [
  MeshGmshLoader,
  MeshOBJLoader,
  MeshVTKLoader,
  MeshSTLLoader,
  SphereLoader,
  StringMeshCreator,
  GridMeshCreator,
  MeshOffLoader,
  MeshTrianLoader,
  GIDMeshLoader,
  VoxelGridLoader,
];
