import { Bool, RealArray, Str, host, sofaComponent } from '@sofa-ts/core';
import { ExporterBase } from './export-schedule.js';
import { VTK_CELL, legacyVtk, vtuXml, type CellBlock } from './vtk-format.js';

const formats = ['ALL', 'vtkxml', 'vtk', 'gmsh', 'obj'] as const;

/**
 * SOFA's MeshExporter: the node's topology with the current positions, as XML VTK (`.vtu`),
 * legacy VTK (`.vtk`), Gmsh 2.2 ASCII (`.gmsh`) or Wavefront OBJ (`.obj`, its faces and lines),
 * or all of them (ALL). SOFA's netgen and tetgen formats are not written (an error says so).
 */
@sofaComponent({
  name: 'MeshExporter',
  category: 'Exporter',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Export the topology and positions to a mesh file (vtk, vtu, gmsh, obj).',
})
export class MeshExporter extends ExporterBase {
  readonly filename = this.initData({ name: 'filename', type: Str, default: '', help: 'output Mesh file name' });
  readonly format = this.initData({
    name: 'format',
    type: Str,
    default: 'ALL',
    help: 'File format to use: ALL, vtkxml, vtk, gmsh, obj (netgen and tetgen are not written here)',
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3, 'vector<Vec3d>'),
    default: new Float64Array(0),
    unit: 'm',
    help: 'points position (will use points from topology or mechanical state if this is empty)',
  });
  readonly edges = this.initData({ name: 'edges', type: Bool, default: true, help: 'write edge topology' });
  readonly triangles = this.initData({ name: 'triangles', type: Bool, default: true, help: 'write triangle topology' });
  readonly quads = this.initData({ name: 'quads', type: Bool, default: true, help: 'write quad topology' });
  readonly tetras = this.initData({ name: 'tetras', type: Bool, default: true, help: 'write tetra topology' });
  readonly hexas = this.initData({ name: 'hexas', type: Bool, default: true, help: 'write hexa topology' });

  override init(): void {
    super.init();
    if (!this.topology) throw this.error('no topology in this node or above');
    const f = this.format.value;
    if (!(formats as readonly string[]).includes(f))
      throw this.error(
        `format '${f}' is not written by sofa-ts (expected one of ${formats.join(', ')}; SOFA's netgen and tetgen are missing)`,
      );
  }

  private cells(): CellBlock[] {
    const t = this.topology!;
    const c: CellBlock[] = [];
    if (this.edges.value) c.push({ type: VTK_CELL.line, size: 2, connectivity: t.getEdges() });
    if (this.triangles.value) c.push({ type: VTK_CELL.triangle, size: 3, connectivity: t.getTriangles() });
    if (this.quads.value) c.push({ type: VTK_CELL.quad, size: 4, connectivity: t.getQuads() });
    if (this.tetras.value) c.push({ type: VTK_CELL.tetra, size: 4, connectivity: t.getTetrahedra() });
    if (this.hexas.value) c.push({ type: VTK_CELL.hexahedron, size: 8, connectivity: t.getHexahedra() });
    return c.filter((b) => b.connectivity.length > 0);
  }

  write(): void {
    const f = this.format.value;
    const points = this.points(this.position.value);
    const cells = this.cells();
    const grid = { points, cells, pointData: [], cellData: [] };
    const out = (ext: string, text: string): void =>
      host().writeFile(this.numberedName(this.filename.value, ext, ['.vtu', '.vtk', '.gmsh', '.msh', '.obj']).file, text);
    if (f === 'ALL' || f === 'vtkxml') out('.vtu', vtuXml(grid));
    if (f === 'ALL' || f === 'vtk') out('.vtk', legacyVtk(grid, this.getName()));
    if (f === 'ALL' || f === 'gmsh') out('.gmsh', gmsh(points, cells));
    if (f === 'ALL' || f === 'obj') out('.obj', obj(points, cells));
    this.nbFiles++;
  }
}

/** Gmsh 2.2 ASCII: 1-based nodes; element types line 1, triangle 2, quad 3, tetrahedron 4, hexahedron 5. */
function gmsh(points: Float64Array, cells: readonly CellBlock[]): string {
  const typeOf: Record<number, number> = {
    [VTK_CELL.line]: 1,
    [VTK_CELL.triangle]: 2,
    [VTK_CELL.quad]: 3,
    [VTK_CELL.tetra]: 4,
    [VTK_CELL.hexahedron]: 5,
  };
  const lines = ['$MeshFormat', '2.2 0 8', '$EndMeshFormat', '$Nodes', String(points.length / 3)];
  for (let i = 0; i < points.length / 3; i++) lines.push(`${i + 1} ${points[3 * i]} ${points[3 * i + 1]} ${points[3 * i + 2]}`);
  lines.push('$EndNodes', '$Elements');
  const elems: string[] = [];
  for (const c of cells) {
    for (let i = 0; i < c.connectivity.length; i += c.size) {
      const nodes = Array.from({ length: c.size }, (_, k) => c.connectivity[i + k] + 1);
      elems.push(`${elems.length + 1} ${typeOf[c.type]} 2 0 0 ${nodes.join(' ')}`);
    }
  }
  lines.push(String(elems.length), ...elems, '$EndElements');
  return `${lines.join('\n')}\n`;
}

/** Wavefront OBJ: vertices, faces of the triangles and quads, lines of the edges (1-based). */
function obj(points: Float64Array, cells: readonly CellBlock[]): string {
  const lines = ['# exported by sofa-ts MeshExporter'];
  for (let i = 0; i < points.length / 3; i++) lines.push(`v ${points[3 * i]} ${points[3 * i + 1]} ${points[3 * i + 2]}`);
  for (const c of cells) {
    const tag = c.type === VTK_CELL.line ? 'l' : c.type === VTK_CELL.triangle || c.type === VTK_CELL.quad ? 'f' : undefined;
    if (!tag) continue;
    for (let i = 0; i < c.connectivity.length; i += c.size)
      lines.push(`${tag} ${Array.from({ length: c.size }, (_, k) => c.connectivity[i + k] + 1).join(' ')}`);
  }
  return `${lines.join('\n')}\n`;
}
