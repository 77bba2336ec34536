import { componentModule } from '@sofa-ts/core';
import { BlenderExporter } from './BlenderExporter.js';
import { MeshExporter } from './MeshExporter.js';
import { Monitor } from './Monitor.js';
import { STLExporter } from './STLExporter.js';
import { VisualModelOBJExporter } from './VisualModelOBJExporter.js';
import { VTKExporter } from './VTKExporter.js';

/** The exporters (SOFA's VTKExporter, MeshExporter, Monitor, STLExporter, VisualModelOBJExporter, BlenderExporter): browser-safe, they write through core's host. */
export const exportComponents = [VTKExporter, MeshExporter, Monitor, STLExporter, VisualModelOBJExporter, BlenderExporter] as const;
export const exportModule = componentModule('@sofa-ts/io/export', exportComponents);
