import type { ComponentClass } from '@sofa-ts/core';
import { Hexa2QuadTopologicalMapping } from './Hexa2QuadTopologicalMapping.js';
import { Hexa2TetraTopologicalMapping } from './Hexa2TetraTopologicalMapping.js';
import { Mesh2PointTopologicalMapping } from './Mesh2PointTopologicalMapping.js';
import { Tetra2TriangleTopologicalMapping } from './Tetra2TriangleTopologicalMapping.js';

/** The topological mapping components of @sofa-ts/topology. */
export const mappingComponents: readonly ComponentClass[] = [Hexa2TetraTopologicalMapping, Hexa2QuadTopologicalMapping, Tetra2TriangleTopologicalMapping, Mesh2PointTopologicalMapping];
