import type { ComponentClass } from '@sofa-ts/core';
import { DifferenceEngine } from './DifferenceEngine.js';
import { DisplacementMatrixEngine, DisplacementTransformEngine } from './DisplacementTransformEngine.js';
import { IndexValueMapper } from './IndexValueMapper.js';
import { MapIndices } from './MapIndices.js';
import { SmoothMeshEngine } from './SmoothMeshEngine.js';
import { TransformEngine } from './TransformEngine.js';
import {
  InvertTransformMatrixEngine,
  RotateTransformMatrixEngine,
  ScaleTransformMatrixEngine,
  TranslateTransformMatrixEngine,
} from './TransformMatrixEngine.js';
import { TransformPosition } from './TransformPosition.js';
import { Vertex2Frame } from './Vertex2Frame.js';

/** Sofa.Component.Engine.Transform. */
export const transformComponents: readonly ComponentClass[] = [
  TransformEngine,
  TransformPosition,
  Vertex2Frame,
  IndexValueMapper,
  MapIndices,
  DifferenceEngine,
  SmoothMeshEngine,
  DisplacementTransformEngine,
  DisplacementMatrixEngine,
  TranslateTransformMatrixEngine,
  ScaleTransformMatrixEngine,
  RotateTransformMatrixEngine,
  InvertTransformMatrixEngine,
];
