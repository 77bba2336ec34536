import { expect } from 'chai';
import * as path from 'node:path';
import type { GIDMeshLoader } from './GIDMeshLoader.js';
import type { GridMeshCreator } from './GridMeshCreator.js';
import type { MeshOffLoader } from './MeshOffLoader.js';
import type { MeshTrianLoader } from './MeshTrianLoader.js';
import type { MeshVTKLoader } from './MeshVTKLoader.js';
import type { VoxelGridLoader } from './VoxelGridLoader.js';
import { el, find, initScene, tempFiles } from './scene-test-support.js';

const arr = (a: ArrayLike<number>): number[] => Array.from(a);
function load<T>(tag: string, attrs: Record<string, string>): T {
  return find(initScene([el(tag, { name: 'l', ...attrs })]), 'l') as unknown as T;
}

describe('GridMeshCreator, MeshOffLoader, MeshTrianLoader, GIDMeshLoader, VoxelGridLoader, binary VTK', () => {
  it('GridMeshCreator: nx·ny points on the unit square, 2 triangles per cell by pattern, each edge once', () => {
    const g = load<GridMeshCreator>('GridMeshCreator', { resolution: '3 2' });
    expect(arr(g.position.value)).to.deep.equal([0, 0, 0, 0.5, 0, 0, 1, 0, 0, 0, 1, 0, 0.5, 1, 0, 1, 1, 0]);
    expect(arr(g.triangles.value)).to.deep.equal([0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4]);
    // 7 lines of the grid + 2 diagonals, each once, in increasing (a, b) order
    expect(arr(g.edges.value)).to.deep.equal([0, 1, 1, 2, 1, 4, 2, 5, 3, 0, 4, 0, 4, 3, 5, 1, 5, 4]);
    const alt = load<GridMeshCreator>('GridMeshCreator', { resolution: '3 2', trianglePattern: '1' });
    expect(arr(alt.triangles.value)).to.deep.equal([0, 1, 4, 0, 4, 3, 1, 2, 4, 2, 5, 4]);
    const quads = load<GridMeshCreator>('GridMeshCreator', { resolution: '3 3', trianglePattern: '0' });
    expect(quads.quads.value.length / 4).to.equal(4);
    expect(quads.edges.value.length / 2).to.equal(12);
    // transformed like a loader: scale (one number), rotation, translation
    const t = load<GridMeshCreator>('GridMeshCreator', { resolution: '2 2', scale: '10', translation: '0 0 1' });
    expect(arr(t.position.value.subarray(9))).to.deep.equal([10, 10, 1]);
  });

  it('MeshOffLoader reads the vertices and the triangle and quad faces', () => {
    const dir = tempFiles({ 'm.off': 'OFF\n# a comment\n5 3 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n3 0 1 2\n4 0 1 2 3\n5 0 1 2 3 4\n' });
    const m = load<MeshOffLoader>('MeshOffLoader', { filename: path.join(dir, 'm.off') });
    expect(m.position.value.length / 3).to.equal(5);
    expect(arr(m.triangles.value)).to.deep.equal([0, 1, 2]);
    expect(arr(m.quads.value)).to.deep.equal([0, 1, 2, 3]);
    expect(() => load('MeshOffLoader', { filename: path.join(tempFiles({ 'x.off': 'NOFF\n' }), 'x.off') })).to.throw(/not an OFF file/);
  });

  it('MeshTrianLoader reads the triangles, their neighbours and the border', () => {
    // two triangles sharing edge (1 2): triangle 0 = (0 1 2), neighbour 1 across edge (1 2) (opposite vertex 0)
    const dir = tempFiles({ 'm.trian': '4\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n2\n0 1 2 1 -1 -1\n1 3 2 -1 0 -1\n' });
    const m = load<MeshTrianLoader>('MeshTrianLoader', { filename: path.join(dir, 'm.trian') });
    expect(arr(m.triangles.value)).to.deep.equal([0, 1, 2, 1, 3, 2]);
    expect(arr(m.neighborTable.value)).to.deep.equal([1, -1, -1, -1, 0, -1]);
    expect(arr(m.edgesOnBorder.value)).to.deep.equal([2, 0, 0, 1, 3, 2, 1, 3]);
    expect(arr(m.trianglesOnBorderList.value)).to.deep.equal([0, 1]);
  });

  it('GIDMeshLoader reads coordinates and 1-based elements', () => {
    const dir = tempFiles({
      'm.gidmsh':
        'MESH dimension 3 ElemType Tetrahedra Nnode 4\nCoordinates\n  1 0 0 0\n  2 1 0 0\n  3 0 1 0\n  4 0 0 1\nEnd Coordinates\n\nElements\n1 1 2 3 4\nEnd Elements\n',
    });
    const m = load<GIDMeshLoader>('GIDMeshLoader', { filename: path.join(dir, 'm.gidmsh') });
    expect(arr(m.position.value)).to.deep.equal([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(arr(m.tetrahedra.value)).to.deep.equal([0, 1, 2, 3]);
    const bad = tempFiles({ 'p.gidmsh': 'MESH dimension 3 ElemType Prism Nnode 6\n' });
    expect(() => load('GIDMeshLoader', { filename: path.join(bad, 'p.gidmsh') })).to.throw(/Prism/);
  });

  it('VoxelGridLoader: a hexahedron per active voxel, shared corners, SOFA vertex order', () => {
    // 2×1×1 voxels after a 3-byte header: values 5 (active) and 0 (background)
    const dir = tempFiles({ 'v.raw': Uint8Array.of(9, 9, 9, 5, 5) });
    const v = load<VoxelGridLoader>('VoxelGridLoader', {
      filename: path.join(dir, 'v.raw'),
      resolution: '2 1 1',
      voxelSize: '0.5 1 2',
      header: '3',
      bgValue: '0',
    });
    expect(v.position.value.length / 3).to.equal(12);
    expect(v.hexahedra.value.length / 8).to.equal(2);
    // first voxel's corners: (0 0 0) (1 0 0) (1 1 0) (0 1 0) then z = 1, points numbered x fastest over 3×2×2
    expect(arr(v.hexahedra.value.subarray(0, 8))).to.deep.equal([0, 1, 4, 3, 6, 7, 10, 9]);
    expect(arr(v.position.value.subarray(3 * 10, 3 * 11))).to.deep.equal([0.5, 1, 2]);
    const one = load<VoxelGridLoader>('VoxelGridLoader', {
      filename: path.join(tempFiles({ 'w.raw': Uint8Array.of(5, 0) }), 'w.raw'),
      resolution: '2 1 1',
      bgValue: '0',
    });
    expect(one.hexahedra.value.length / 8).to.equal(1);
    expect(arr(one.idxInRegularGrid.value)).to.deep.equal([0]);
  });

  it('MeshVTKLoader reads binary legacy files: big-endian float points and int polygons', () => {
    const head = Buffer.from('# vtk DataFile Version 3.0\nbinary test\nBINARY\nDATASET POLYDATA\nPOINTS 4 float\n', 'latin1');
    const pts = Buffer.alloc(4 * 12);
    [0, 0, 0, 1, 0, 0, 0, 1, 0, 0.1, 0, 1].forEach((v, i) => pts.writeFloatBE(v, 4 * i));
    const polyHead = Buffer.from('\nPOLYGONS 2 9\n', 'latin1');
    const polys = Buffer.alloc(4 * 9);
    [3, 0, 1, 2, 4, 0, 1, 3, 2].forEach((v, i) => polys.writeInt32BE(v, 4 * i));
    const dir = tempFiles({ 'b.vtk': Buffer.concat([head, pts, polyHead, polys, Buffer.from('\n')]) });
    const m = load<MeshVTKLoader>('MeshVTKLoader', { filename: path.join(dir, 'b.vtk') });
    expect(arr(m.position.value)).to.deep.equal([0, 0, 0, 1, 0, 0, 0, 1, 0, Math.fround(0.1), 0, 1]);
    expect(arr(m.triangles.value)).to.deep.equal([0, 1, 2]);
    expect(arr(m.quads.value)).to.deep.equal([0, 1, 3, 2]);
  });
});
