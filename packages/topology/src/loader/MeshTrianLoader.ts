import { Bool, IndexArray, Indices, RealArray, host, sofaComponent } from '@sofa-ts/core';
import { MeshLoader, type MeshBuffers } from './MeshLoader.js';
import { TextScanner } from './text-scanner.js';

/**
 * SOFA's MeshTrianLoader: "trian" triangulations. The file holds nVertices, the vertices "x y z",
 * nTriangles, then per triangle "a b c n0 n1 n2": its vertices and the neighbour triangle across
 * each edge (edge j is opposite vertex j: (b c), (c a), (a b)), −1 on the border.
 * Outputs besides the mesh: neighborTable (the n's), edgesOnBorder (the border edges) and
 * trianglesOnBorderList (the triangles with a border edge, once each).
 * With trian2: 13 header lines, then "<word> nVertices" and the vertices, "<word> nNormals" and the
 * normals, "<word> nTriangles" and the triangles "a b c".
 */
@sofaComponent({
  name: 'MeshTrianLoader',
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Specific mesh loader for trian (only triangulations) file format.',
})
export class MeshTrianLoader extends MeshLoader {
  readonly trian2 = this.initData({ name: 'trian2', type: Bool, default: false, help: 'the mesh is in the trian2 format' });
  readonly neighborTable = this.initData({
    name: 'neighborTable',
    type: RealArray(3, 'vector<fixed_array<int,3>>'),
    default: new Float64Array(0),
    help: 'neighbour triangle index across each edge of each triangle (−1: border)',
    output: true,
  });
  readonly edgesOnBorder = this.initData({
    name: 'edgesOnBorder',
    type: IndexArray(2, 'vector<vector<unsigned int>>'),
    default: new Uint32Array(0),
    help: 'edges on the border of the mesh',
    output: true,
  });
  readonly trianglesOnBorderList = this.initData({
    name: 'trianglesOnBorderList',
    type: Indices,
    default: new Uint32Array(0),
    help: 'indices of the triangles on the border of the mesh',
    output: true,
  });

  private extra = { ngb: [] as number[], border: [] as number[], borderTri: [] as number[] };

  constructor() {
    super();
    this.addInput(this.trian2);
    this.addFileOutputs(this.neighborTable, this.edgesOnBorder, this.trianglesOnBorderList);
  }

  protected readMesh(path: string, out: MeshBuffers): void {
    const s = new TextScanner(host().readText(path, 'latin1'), path);
    this.extra = { ngb: [], border: [], borderTri: [] };
    if (this.trian2.value) {
      for (let i = 0; i < 13; i++) s.readLine();
      s.expectToken('the vertex section');
      const nv = s.int('the number of vertices');
      for (let i = 0; i < 3 * nv; i++) out.positions.push(s.number('a vertex coordinate'));
      s.expectToken('the normal section');
      const nn = s.int('the number of normals');
      for (let i = 0; i < 3 * nn; i++) out.normals.push(s.number('a normal coordinate'));
      s.expectToken('the triangle section');
      const nt = s.int('the number of triangles');
      for (let i = 0; i < nt; i++) this.addTriangle(out, this.vertex(s, nv), this.vertex(s, nv), this.vertex(s, nv));
      return;
    }
    const nv = s.int('the number of vertices');
    for (let i = 0; i < 3 * nv; i++) out.positions.push(s.number('a vertex coordinate'));
    const nt = s.int('the number of triangles');
    for (let t = 0; t < nt; t++) {
      const v = [this.vertex(s, nv), this.vertex(s, nv), this.vertex(s, nv)] as const;
      const n = [s.int('a neighbour index'), s.int('a neighbour index'), s.int('a neighbour index')];
      this.addTriangle(out, v[0], v[1], v[2]);
      this.extra.ngb.push(...n);
      // Edge j, opposite vertex j, is on the border when there is no neighbour across it.
      if (n[0] === -1) this.extra.border.push(v[1], v[2]);
      if (n[1] === -1) this.extra.border.push(v[2], v[0]);
      if (n[2] === -1) this.extra.border.push(v[0], v[1]);
      if (n.includes(-1)) this.extra.borderTri.push(t);
    }
  }

  private vertex(s: TextScanner, nv: number): number {
    const v = s.int('a vertex index');
    if (v < 0 || v >= nv) throw s.fail(`vertex index ${v} is out of range (${nv} vertices)`);
    return v;
  }

  protected override finishMesh(buf: MeshBuffers): void {
    super.finishMesh(buf);
    this.neighborTable.value = Float64Array.from(this.extra.ngb);
    this.edgesOnBorder.value = Uint32Array.from(this.extra.border);
    this.trianglesOnBorderList.value = Uint32Array.from(this.extra.borderTri);
  }
}
