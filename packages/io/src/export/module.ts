import { componentModule } from '@sofa-ts/core';
import { BlenderExporter } from './BlenderExporter.js';
import { ComplianceMatrixExporter } from './ComplianceMatrixExporter.js';
import { GlobalSystemMatrixExporter } from './GlobalSystemMatrixExporter.js';
import { MeshExporter } from './MeshExporter.js';
import { Monitor } from './Monitor.js';
import { STLExporter } from './STLExporter.js';
import { VisualModelOBJExporter } from './VisualModelOBJExporter.js';
import { VTKExporter } from './VTKExporter.js';

/**
 * The exporters (SOFA's VTKExporter, MeshExporter, Monitor, STLExporter, VisualModelOBJExporter,
 * BlenderExporter, and SofaMatrix's GlobalSystemMatrixExporter and ComplianceMatrixExporter):
 * browser-safe, they write through core's host.
 */
export const exportComponents = [
  VTKExporter,
  MeshExporter,
  Monitor,
  STLExporter,
  VisualModelOBJExporter,
  BlenderExporter,
  GlobalSystemMatrixExporter,
  ComplianceMatrixExporter,
] as const;
export const exportModule = componentModule('@sofa-ts/io/export', exportComponents);
