import { expect } from 'chai';
import * as path from 'node:path';
import type { MeshVTKLoader } from './MeshVTKLoader.js';
import { el, find, initScene, tempFiles } from './scene-test-support.js';

// A unit cube (points 0-7, VTK hexahedron order), an apex 8, and a second cube layer 9-12 above.
const pts = [
  [0, 0, 0],
  [1, 0, 0],
  [1, 1, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 0, 1],
  [1, 1, 1],
  [0, 1, 1],
  [0.5, 0.5, 2],
  [0, 0, 0.1],
  [1, 0, 0.1],
  [0, 1, 0.1],
  [1, 1, 0.1],
];
// [VTK type, points]
const cells: Array<[number, number[]]> = [
  [12, [0, 1, 2, 3, 4, 5, 6, 7]], // hexahedron
  [10, [4, 5, 6, 8]], // tetrahedron
  [5, [4, 5, 8]], // triangle
  [9, [4, 5, 6, 7]], // quad
  [3, [7, 8]], // line
  [1, [8]], // vertex: ignored
  [8, [9, 10, 11, 12]], // pixel: quad (0 1 3 2)
  [11, [0, 1, 3, 2, 4, 5, 7, 6]], // voxel: hexahedron (0 1 3 2 4 5 7 6)
  [7, [0, 1, 2, 3, 8]], // polygon: fan
  [4, [0, 4, 8]], // polyline
];

const legacy = `# vtk DataFile Version 3.0
test grid
ASCII

DATASET UNSTRUCTURED_GRID
POINTS ${pts.length} double
${pts.map((p) => p.join(' ')).join('\n')}

CELLS ${cells.length} ${cells.reduce((s, [, v]) => s + v.length + 1, 0)}
${cells.map(([, v]) => `${v.length} ${v.join(' ')}`).join('\n')}

CELL_TYPES ${cells.length}
${cells.map(([t]) => t).join('\n')}

CELL_DATA ${cells.length}
SCALARS material int 1
LOOKUP_TABLE default
${cells.map((_, i) => i).join(' ')}
`;

let offset = 0;
const vtu = `<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">
  <UnstructuredGrid>
    <Piece NumberOfPoints="${pts.length}" NumberOfCells="${cells.length}">
      <PointData>
        <DataArray type="Float32" Name="temperature" format="ascii">${pts.map((_, i) => i).join(' ')}</DataArray>
      </PointData>
      <Points>
        <DataArray type="Float32" NumberOfComponents="3" format="ascii">
          ${pts.map((p) => p.join(' ')).join('\n          ')}
        </DataArray>
      </Points>
      <Cells>
        <DataArray type="Int32" Name="connectivity" format="ascii">${cells.map(([, v]) => v.join(' ')).join(' ')}</DataArray>
        <DataArray type="Int32" Name="offsets" format="ascii">${cells.map(([, v]) => (offset += v.length)).join(' ')}</DataArray>
        <DataArray type="UInt8" Name="types" format="ascii">${cells.map(([t]) => t).join(' ')}</DataArray>
      </Cells>
    </Piece>
  </UnstructuredGrid>
</VTKFile>
`;

const polydata = `# vtk DataFile Version 2.0
surface
ASCII
DATASET POLYDATA
POINTS 6 float
0 0 0 1 0 0 1 1 0 0 1 0 0.1 0.5 0 2 0.5 0
POLYGONS 3 15
4 0 1 2 3
5 0 1 5 2 4
3 1 5 2
POINT_DATA 6
NORMALS n float
0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1
`;

function load(file: string, attrs: Record<string, string> = {}): MeshVTKLoader {
  return find<MeshVTKLoader>(initScene([el('MeshVTKLoader', { name: 'loader', filename: file, ...attrs })]), 'loader');
}
const arr = (a: ArrayLike<number>): number[] => Array.from(a);

describe('MeshVTKLoader', () => {
  const dir = tempFiles({ 'grid.vtk': legacy, 'grid.vtu': vtu, 'surf.vtk': polydata });

  it('reads legacy unstructured grids with SOFA cell type rules', () => {
    const l = load(path.join(dir, 'grid.vtk'));
    expect(arr(l.position.value)).to.deep.equal(pts.flat());
    expect(arr(l.hexahedra.value)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]);
    expect(arr(l.tetrahedra.value)).to.deep.equal([4, 5, 6, 8]);
    expect(arr(l.triangles.value)).to.deep.equal([4, 5, 8, 0, 1, 2, 0, 2, 3, 0, 3, 8]);
    expect(arr(l.quads.value)).to.deep.equal([4, 5, 6, 7, 9, 10, 12, 11]);
    expect(arr(l.edges.value)).to.deep.equal([7, 8]);
    expect(l.polylines.value).to.deep.equal([[0, 4, 8]]);
  });

  it('reads the same arrays from the XML (.vtu) form', () => {
    const a = load(path.join(dir, 'grid.vtk'));
    const b = load(path.join(dir, 'grid.vtu'));
    for (const k of ['position', 'hexahedra', 'tetrahedra', 'triangles', 'quads', 'edges'] as const)
      expect(arr(b[k].value)).to.deep.equal(arr(a[k].value));
    expect(b.polylines.value).to.deep.equal(a.polylines.value);
  });

  it('reads polydata polygons (4 points a quad, more a fan) and point normals; float points are float32', () => {
    const l = load(path.join(dir, 'surf.vtk'));
    expect(l.position.value[12]).to.equal(Math.fround(0.1));
    expect(arr(l.quads.value)).to.deep.equal([0, 1, 2, 3]);
    expect(arr(l.triangles.value)).to.deep.equal([0, 1, 5, 0, 5, 2, 0, 2, 4, 1, 5, 2]);
    expect(arr(l.normals.value)).to.deep.equal([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]);
  });

  it('reports an unsupported dataset and a cell out of range with their line', () => {
    const d = tempFiles({
      'sp.vtk': '# vtk DataFile Version 3.0\nx\nASCII\nDATASET STRUCTURED_POINTS\n',
      'oor.vtk':
        '# vtk DataFile Version 3.0\nx\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 2 float\n0 0 0 1 0 0\nCELLS 1 3\n2 0 5\nCELL_TYPES 1\n3\n',
    });
    expect(() => load(path.join(d, 'sp.vtk'))).to.throw(`${path.join(d, 'sp.vtk')}:4: unsupported dataset 'DATASET STRUCTURED_POINTS'`);
    expect(() => load(path.join(d, 'oor.vtk'))).to.throw(`${path.join(d, 'oor.vtk')}:8: cell 0 uses a point out of range`);
  });
});
