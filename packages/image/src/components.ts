import type { ComponentClass } from '@sofa-ts/core';
import { DepthMapToMeshEngine } from './DepthMapToMeshEngine.js';
import { ImageAccumulator } from './ImageAccumulator.js';
import { ImageContainer } from './ImageContainer.js';
import { ImageExporter } from './ImageExporter.js';
import { ImageFilter } from './ImageFilter.js';
import { ImageTransform } from './ImageTransform.js';
import { ImageSampler } from './ImageSampler.js';
import { ImageToRigidMassEngine } from './ImageToRigidMassEngine.js';
import { ImageTransformEngine } from './ImageTransformEngine.js';
import { Kinect } from './Kinect.js';
import { MergeImages } from './MergeImages.js';
import { ImageViewer } from './ImageViewer.js';
import { MarchingCubesEngine } from './MarchingCubesEngine.js';
import { VoronoiToMeshEngine } from './VoronoiToMeshEngine.js';
import { MeshToImageEngine } from './MeshToImageEngine.js';
import { TestImageEngine } from './TestImageEngine.js';
import { TransferFunction } from './TransferFunction.js';

/** Every component of @sofa-ts/image (SOFA's image plugin), registered by module.ts. */
export const imageComponents: readonly ComponentClass[] = [
  ImageContainer,
  ImageViewer,
  MeshToImageEngine,
  ImageFilter,
  ImageSampler,
  ImageExporter,
  ImageTransform,
  MarchingCubesEngine,
  VoronoiToMeshEngine,
  TestImageEngine,
  ImageToRigidMassEngine,
  ImageTransformEngine,
  Kinect,
  MergeImages,
  DepthMapToMeshEngine,
  ImageAccumulator,
  TransferFunction,
];
