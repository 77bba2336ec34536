/**
 * VTK's file formats for an unstructured grid (points, cells, point and cell data), as ParaView
 * reads them: the legacy text format (`.vtk`, "# vtk DataFile Version 2.0"), the XML format
 * (`.vtu`, VTKFile type="UnstructuredGrid", ascii arrays), and the `.pvd` collection that makes a
 * time series of them. Numbers are printed in shortest round-trip form (no precision lost).
 */

/** VTK cell type ids: vertex 1, line 3, triangle 5, quad 9, tetra 10, hexahedron 12. */
export const VTK_CELL = { vertex: 1, line: 3, triangle: 5, quad: 9, tetra: 10, hexahedron: 12 } as const;

export interface CellBlock {
  /** VTK cell type id (VTK_CELL). */
  type: number;
  /** Points per cell. */
  size: number;
  /** Point indices (nCells × size). */
  connectivity: ArrayLike<number>;
}

export interface DataArray {
  name: string;
  /** 1 (scalars) or 3 (vectors) or any component count. */
  components: number;
  values: ArrayLike<number>;
  /** Whole numbers (Int32 in XML, int in legacy files). */
  integer?: boolean;
}

export interface UnstructuredGrid {
  /** (n × 3) */
  points: ArrayLike<number>;
  cells: CellBlock[];
  pointData: DataArray[];
  cellData: DataArray[];
}

const num = (x: number): string => (Number.isFinite(x) ? String(x) : Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf');

function rows(values: ArrayLike<number>, per: number): string {
  const out: string[] = [];
  for (let i = 0; i < values.length; i += per) {
    const r: string[] = [];
    for (let k = 0; k < per && i + k < values.length; k++) r.push(num(values[i + k]));
    out.push(r.join(' '));
  }
  return out.join('\n');
}

function cellCount(cells: readonly CellBlock[]): number {
  return cells.reduce((s, c) => s + c.connectivity.length / c.size, 0);
}

/**
 * Points without elements (a state of collision spheres, a point cloud) as one VTK_VERTEX cell per
 * point: a grid of zero cells is refused by readers (meshio) and drawn as nothing by ParaView.
 */
function withVertexCells(g: UnstructuredGrid): UnstructuredGrid {
  const np = g.points.length / 3;
  if (np === 0 || cellCount(g.cells) > 0) return g;
  const connectivity = new Uint32Array(np);
  for (let i = 0; i < np; i++) connectivity[i] = i;
  return { ...g, cells: [{ type: VTK_CELL.vertex, size: 1, connectivity }], cellData: [] };
}

/** Legacy VTK (ASCII): POINTS, CELLS, CELL_TYPES, POINT_DATA, CELL_DATA. Points without cells get vertex cells. */
export function legacyVtk(grid: UnstructuredGrid, title = 'Exported VTK file'): string {
  const g = withVertexCells(grid);
  const np = g.points.length / 3;
  const nc = cellCount(g.cells);
  const lines = [
    '# vtk DataFile Version 2.0',
    title.replace(/\n/g, ' ').slice(0, 255),
    'ASCII',
    'DATASET UNSTRUCTURED_GRID',
    `POINTS ${np} double`,
    rows(g.points, 3),
  ];
  const listSize = g.cells.reduce((s, c) => s + (c.connectivity.length / c.size) * (c.size + 1), 0);
  lines.push(`CELLS ${nc} ${listSize}`);
  for (const c of g.cells)
    for (let i = 0; i < c.connectivity.length; i += c.size)
      lines.push(`${c.size} ${Array.from({ length: c.size }, (_, k) => c.connectivity[i + k]).join(' ')}`);
  lines.push(`CELL_TYPES ${nc}`);
  for (const c of g.cells) for (let i = 0; i < c.connectivity.length / c.size; i++) lines.push(String(c.type));
  const section = (kind: 'POINT_DATA' | 'CELL_DATA', n: number, arrays: DataArray[]): void => {
    if (arrays.length === 0) return;
    lines.push(`${kind} ${n}`);
    for (const a of arrays) {
      const type = a.integer ? 'int' : 'double';
      if (a.components === 3) lines.push(`VECTORS ${a.name} ${type}`);
      else lines.push(`SCALARS ${a.name} ${type} ${a.components}`, 'LOOKUP_TABLE default');
      lines.push(rows(a.values, a.components));
    }
  };
  section('POINT_DATA', np, g.pointData);
  section('CELL_DATA', nc, g.cellData);
  return `${lines.filter((l) => l !== '').join('\n')}\n`;
}

function xmlArray(a: DataArray, indent: string): string {
  const type = a.integer ? 'Int32' : 'Float64';
  const comps = a.components > 1 ? ` NumberOfComponents="${a.components}"` : '';
  return `${indent}<DataArray type="${type}" Name="${a.name}"${comps} format="ascii">\n${rows(a.values, Math.max(1, a.components))}\n${indent}</DataArray>\n`;
}

/** XML VTK unstructured grid (.vtu), ASCII arrays. Points without cells get vertex cells. */
export function vtuXml(grid: UnstructuredGrid): string {
  const g = withVertexCells(grid);
  const np = g.points.length / 3;
  const nc = cellCount(g.cells);
  const conn: number[] = [];
  const offsets: number[] = [];
  const types: number[] = [];
  for (const c of g.cells) {
    for (let i = 0; i < c.connectivity.length; i += c.size) {
      for (let k = 0; k < c.size; k++) conn.push(c.connectivity[i + k]);
      offsets.push(conn.length);
      types.push(c.type);
    }
  }
  const i4 = '        ';
  let s = '<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">\n  <UnstructuredGrid>\n';
  s += `    <Piece NumberOfPoints="${np}" NumberOfCells="${nc}">\n`;
  if (g.pointData.length) s += `      <PointData>\n${g.pointData.map((a) => xmlArray(a, i4)).join('')}      </PointData>\n`;
  if (g.cellData.length) s += `      <CellData>\n${g.cellData.map((a) => xmlArray(a, i4)).join('')}      </CellData>\n`;
  s += `      <Points>\n${xmlArray({ name: 'Points', components: 3, values: g.points }, i4)}      </Points>\n`;
  s += '      <Cells>\n';
  s += xmlArray({ name: 'connectivity', components: 1, values: conn, integer: true }, i4);
  s += xmlArray({ name: 'offsets', components: 1, values: offsets, integer: true }, i4);
  s += xmlArray({ name: 'types', components: 1, values: types, integer: true }, i4).replace('Int32', 'UInt8');
  s += '      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n';
  return s;
}

/** A ParaView collection (.pvd): one DataSet per file, with its time. `file` relative to the .pvd. */
export function pvdCollection(entries: readonly { time: number; file: string }[]): string {
  const ds = entries
    .map(
      (e) => `    <DataSet timestep="${num(e.time)}" group="" part="0" file="${e.file.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"/>\n`,
    )
    .join('');
  return `<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1" byte_order="LittleEndian">\n  <Collection>\n${ds}  </Collection>\n</VTKFile>\n`;
}
