import type { ComponentClass } from '@sofa-ts/core';
import { Edge2QuadTopologicalMapping } from './Edge2QuadTopologicalMapping.js';
import { Hexa2PrismTopologicalMapping } from './Hexa2PrismTopologicalMapping.js';
import { Hexa2QuadTopologicalMapping } from './Hexa2QuadTopologicalMapping.js';
import { Hexa2TetraTopologicalMapping } from './Hexa2TetraTopologicalMapping.js';
import { Mesh2PointTopologicalMapping } from './Mesh2PointTopologicalMapping.js';
import { SimpleTesselatedTetraTopologicalMapping } from './SimpleTesselatedTetraTopologicalMapping.js';
import { SubsetTopologicalMapping } from './SubsetTopologicalMapping.js';
import { Quad2TriangleTopologicalMapping } from './Quad2TriangleTopologicalMapping.js';
import { Tetra2TriangleTopologicalMapping } from './Tetra2TriangleTopologicalMapping.js';
import { Triangle2EdgeTopologicalMapping } from './Triangle2EdgeTopologicalMapping.js';

/** The topological mapping components of @sofa-ts/topology. */
export const mappingComponents: readonly ComponentClass[] = [
  Hexa2TetraTopologicalMapping,
  Hexa2QuadTopologicalMapping,
  Tetra2TriangleTopologicalMapping,
  Triangle2EdgeTopologicalMapping,
  Quad2TriangleTopologicalMapping,
  Mesh2PointTopologicalMapping,
  SubsetTopologicalMapping,
  SimpleTesselatedTetraTopologicalMapping,
  Edge2QuadTopologicalMapping,
  Hexa2PrismTopologicalMapping,
];
