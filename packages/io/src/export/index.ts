export { VTKExporter } from './VTKExporter.js';
export { MeshExporter } from './MeshExporter.js';
export { Monitor } from './Monitor.js';
export { ExporterBase } from './export-schedule.js';
export { SimulationExporterBase } from './simulation-exporter.js';
export { STLExporter, stlAscii, stlBinary } from './STLExporter.js';
export { VisualModelOBJExporter } from './VisualModelOBJExporter.js';
export { BlenderExporter } from './BlenderExporter.js';
export {
  BLENDER_SIMULATION,
  bphysFileName,
  bphysFrameBytes,
  bphysHairInfoFrame,
  bphysPointCount,
  writeBphysFrame,
  type BphysState,
} from './bphys-format.js';
export { VTK_CELL, legacyVtk, vtuXml, pvdCollection, type CellBlock, type DataArray, type UnstructuredGrid } from './vtk-format.js';
export { exportComponents, exportModule } from './module.js';
export { exportStatesVtk, type StateVtkSeries } from './state-vtk.js';
export { MatrixExporterBase } from './matrix-exporter.js';
export { MATRIX_FILE_FORMATS, csrRows, denseRows, matrixFileText, type ExportedMatrix, type MatrixFileFormat } from './matrix-file.js';
export { GlobalSystemMatrixExporter, type SystemMatrixHolder } from './GlobalSystemMatrixExporter.js';
export { ComplianceMatrixExporter, type ComplianceHolder } from './ComplianceMatrixExporter.js';
