import type { ComponentClass } from '@sofa-ts/core';
import { CubeTopology } from './CubeTopology.js';
import { EdgeSetGeometryAlgorithms } from './EdgeSetGeometryAlgorithms.js';
import { EdgeSetTopologyContainer } from './EdgeSetTopologyContainer.js';
import { EdgeSetTopologyModifier } from './EdgeSetTopologyModifier.js';
import { HexahedronSetGeometryAlgorithms } from './HexahedronSetGeometryAlgorithms.js';
import { HexahedronSetTopologyContainer } from './HexahedronSetTopologyContainer.js';
import { HexahedronSetTopologyModifier } from './HexahedronSetTopologyModifier.js';
import { MeshTopology } from './MeshTopology.js';
import { PointSetGeometryAlgorithms } from './PointSetGeometryAlgorithms.js';
import { PointSetTopologyContainer } from './PointSetTopologyContainer.js';
import { PointSetTopologyModifier } from './PointSetTopologyModifier.js';
import { QuadSetGeometryAlgorithms } from './QuadSetGeometryAlgorithms.js';
import { QuadSetTopologyContainer } from './QuadSetTopologyContainer.js';
import { QuadSetTopologyModifier } from './QuadSetTopologyModifier.js';
import { TetrahedronSetGeometryAlgorithms } from './TetrahedronSetGeometryAlgorithms.js';
import { TetrahedronSetTopologyContainer } from './TetrahedronSetTopologyContainer.js';
import { TetrahedronSetTopologyModifier } from './TetrahedronSetTopologyModifier.js';
import { TriangleSetGeometryAlgorithms } from './TriangleSetGeometryAlgorithms.js';
import { TriangleSetTopologyContainer } from './TriangleSetTopologyContainer.js';
import { TriangleSetTopologyModifier } from './TriangleSetTopologyModifier.js';

/** The container components of @sofa-ts/topology: constant and dynamic containers, their modifiers and geometry algorithms. */
export const containerComponents: readonly ComponentClass[] = [
  MeshTopology,
  CubeTopology,
  PointSetTopologyContainer,
  EdgeSetTopologyContainer,
  TriangleSetTopologyContainer,
  QuadSetTopologyContainer,
  TetrahedronSetTopologyContainer,
  HexahedronSetTopologyContainer,
  PointSetTopologyModifier,
  EdgeSetTopologyModifier,
  TriangleSetTopologyModifier,
  QuadSetTopologyModifier,
  TetrahedronSetTopologyModifier,
  HexahedronSetTopologyModifier,
  PointSetGeometryAlgorithms,
  EdgeSetGeometryAlgorithms,
  TriangleSetGeometryAlgorithms,
  QuadSetGeometryAlgorithms,
  TetrahedronSetGeometryAlgorithms,
  HexahedronSetGeometryAlgorithms,
];
