import type { ComponentClass } from '@sofa-ts/core';
import { AverageCoord } from './AverageCoord.js';
import { ClusteringEngine } from './ClusteringEngine.js';
import { HausdorffDistance } from './HausdorffDistance.js';
import { ShapeMatching } from './ShapeMatching.js';

/** Sofa.Component.Engine.Analyze. */
export const analyzeComponents: readonly ComponentClass[] = [AverageCoord, ClusteringEngine, HausdorffDistance, ShapeMatching];
