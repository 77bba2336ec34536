import type { ComponentClass } from '@sofa-ts/core';
import { MeshGmshLoader } from './MeshGmshLoader.js';
import { MeshOBJLoader } from './MeshOBJLoader.js';
import { MeshSTLLoader } from './MeshSTLLoader.js';
import { MeshVTKLoader } from './MeshVTKLoader.js';
import { SphereLoader } from './SphereLoader.js';
import { StringMeshCreator } from './StringMeshCreator.js';

/** The loader components of @sofa-ts/topology. */
export const loaderComponents: readonly ComponentClass[] = [MeshGmshLoader, MeshOBJLoader, MeshVTKLoader, MeshSTLLoader, SphereLoader, StringMeshCreator];
