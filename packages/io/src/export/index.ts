export { VTKExporter } from './VTKExporter.js';
export { MeshExporter } from './MeshExporter.js';
export { Monitor } from './Monitor.js';
export { ExporterBase } from './export-schedule.js';
export { VTK_CELL, legacyVtk, vtuXml, pvdCollection, type CellBlock, type DataArray, type UnstructuredGrid } from './vtk-format.js';
export { exportComponents, exportModule } from './module.js';
export { exportStatesVtk, type StateVtkSeries } from './state-vtk.js';
