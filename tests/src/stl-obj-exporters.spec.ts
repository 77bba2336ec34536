import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSceneFromString } from 'sofa-ts';
import { hasMeshio, meshioRead, noMeshio } from './meshio-test-support.js';

/**
 * STLExporter and VisualModelOBJExporter through XML: the files are read back with parsers
 * written here from the formats' specifications (binary STL: 80-byte header, uint32 count,
 * 50 bytes per triangle; ASCII STL; Wavefront OBJ), and compared with the scene's points; then
 * by meshio (a mesh library we did not write), when Debian's python3-meshio is there.
 */

/** A unit square (two triangles) and a quad, translated by (0, 0, 1) per step by a constant velocity. */
const square = '0 0 0  1 0 0  1 1 0  0 1 0';

function readBinaryStl(bytes: Uint8Array): { normals: number[][]; vertices: number[][] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(80, true);
  expect(bytes.byteLength).to.equal(84 + 50 * n);
  const normals: number[][] = [],
    vertices: number[][] = [];
  for (let t = 0; t < n; t++) {
    const o = 84 + 50 * t;
    normals.push([0, 1, 2].map((k) => view.getFloat32(o + 4 * k, true)));
    for (let v = 0; v < 3; v++) vertices.push([0, 1, 2].map((k) => view.getFloat32(o + 12 + 12 * v + 4 * k, true)));
  }
  return { normals, vertices };
}

function readAsciiStl(text: string): number[][] {
  const lines = text
    .trim()
    .split('\n')
    .map((l) => l.trim());
  expect(lines[0].startsWith('solid')).to.equal(true);
  expect(lines.at(-1)!.startsWith('endsolid')).to.equal(true);
  return lines.filter((l) => l.startsWith('vertex ')).map((l) => l.split(/\s+/).slice(1).map(Number));
}

describe('STLExporter and VisualModelOBJExporter (scene)', () => {
  let dir = '';
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sofa-ts-stl-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('binary STL of the quads (cut in two) at the begin: the count, the vertices and the unit normals', async () => {
    await loadSceneFromString(`<Node name="root"><Node name="n">
      <MeshTopology name="mesh" position="${square}" quads="0 1 2 3"/>
      <STLExporter filename="${join(dir, 'out')}" exportAtBegin="true"/>
    </Node></Node>`);
    const { normals, vertices } = readBinaryStl(new Uint8Array(readFileSync(join(dir, 'out.stl'))));
    expect(vertices).to.deep.equal([
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 0, 0],
      [1, 1, 0],
      [0, 1, 0],
    ]);
    expect(normals).to.deep.equal([
      [0, 0, 1],
      [0, 0, 1],
    ]);
  });

  it('ASCII STL every 2 steps, numbered on 5 digits, follows the moving points', async () => {
    const scene = await loadSceneFromString(`<Node name="root" dt="0.5" gravity="0 0 0"><DefaultAnimationLoop/><Node name="n">
      <EulerExplicitSolver/>
      <MechanicalObject name="mo" position="${square}" velocity="0 0 1  0 0 1  0 0 1  0 0 1"/>
      <UniformMass vertexMass="1"/>
      <MeshTopology name="mesh" triangles="0 1 2  0 2 3"/>
      <STLExporter filename="${join(dir, 'frame')}" binaryformat="false" position="@mo.position" triangle="@mesh.triangles" exportEveryNumberOfSteps="2"/>
    </Node></Node>`);
    for (let k = 0; k < 4; k++) scene.step();
    expect(readdirSync(dir).sort()).to.deep.equal(['frame00001.stl', 'frame00002.stl']);
    const v = readAsciiStl(readFileSync(join(dir, 'frame00002.stl'), 'utf8'));
    // after 4 steps of 0.5 s at 1 m/s: z = 2
    expect(v).to.have.length(6);
    for (const p of v) expect(p[2]).to.be.closeTo(2, 1e-6);
    expect(v.map((p) => [p[0], p[1]])).to.deep.equal([
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
      [1, 1],
      [0, 1],
    ]);
  });

  it('OBJ of two visual models below the exporter: vertices, faces offset by the first model, and the material library', async () => {
    await loadSceneFromString(`<Node name="root"><Node name="scene">
      <VisualModelOBJExporter filename="${join(dir, 'surf')}" exportAtBegin="true"/>
      <Node name="a"><OglModel name="A" position="${square}" triangles="0 1 2  0 2 3" color="1 0 0 1"/></Node>
      <Node name="b"><OglModel name="B" position="0 0 5  1 0 5  1 1 5  0 1 5" quads="0 1 2 3"/></Node>
    </Node></Node>`);
    const obj = readFileSync(join(dir, 'surf.obj'), 'utf8').split('\n');
    const v = obj.filter((l) => l.startsWith('v ')).map((l) => l.split(' ').slice(1).map(Number));
    expect(v).to.have.length(8);
    expect(v[4]).to.deep.equal([0, 0, 5]);
    const faces = obj
      .filter((l) => l.startsWith('f '))
      .map((l) =>
        l
          .split(' ')
          .slice(1)
          .map((s) => Number(s.split('/')[0])),
      );
    expect(faces).to.deep.equal([
      [1, 2, 3],
      [1, 3, 4],
      [5, 6, 7, 8],
    ]);
    expect(obj).to.include('mtllib surf.mtl');
    const mtl = readFileSync(join(dir, 'surf.mtl'), 'utf8');
    expect(mtl).to.match(/newmtl A_0\nKa [^\n]+\nKd 1 0 0/);
  });
});

describe('STLExporter and VisualModelOBJExporter files read by meshio', function () {
  let dir = '';
  before(function () {
    if (!hasMeshio()) {
      console.log(`    skipped: ${noMeshio}`);
      this.skip();
    }
  });
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sofa-ts-stl-meshio-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The triangles of a mesh as lists of their corner coordinates (meshio merges STL's repeated points). */
  const corners = (m: { points: number[][]; cells: Record<string, number[][]> }, type: string): number[][][] =>
    (m.cells[type] ?? []).map((c) => c.map((i) => m.points[i]));

  it('binary and ASCII STL: the triangles of the scene', async () => {
    await loadSceneFromString(`<Node name="root"><Node name="n">
      <MeshTopology name="mesh" position="0 0 0  1 0 0  1 1 0  0 1 0.5" triangles="0 1 2  0 2 3"/>
      <STLExporter name="bin" filename="${join(dir, 'bin')}" exportAtBegin="true"/>
      <STLExporter name="ascii" filename="${join(dir, 'ascii')}" binaryformat="false" exportAtBegin="true"/>
    </Node></Node>`);
    const expected = [
      [
        [0, 0, 0],
        [1, 0, 0],
        [1, 1, 0],
      ],
      [
        [0, 0, 0],
        [1, 1, 0],
        [0, 1, 0.5],
      ],
    ];
    for (const f of ['bin.stl', 'ascii.stl']) expect(corners(meshioRead(join(dir, f)), 'triangle'), f).to.deep.equal(expected);
  });

  it('OBJ: the vertices and the triangle and quad faces of two visual models', async () => {
    await loadSceneFromString(`<Node name="root"><Node name="scene">
      <VisualModelOBJExporter filename="${join(dir, 'surf')}" exportAtBegin="true"/>
      <Node name="a"><OglModel name="A" position="${square}" triangles="0 1 2  0 2 3"/></Node>
      <Node name="b"><OglModel name="B" position="0 0 5  1 0 5  1 1 5  0 1 5" quads="0 1 2 3"/></Node>
    </Node></Node>`);
    const m = meshioRead(join(dir, 'surf.obj'));
    expect(m.points).to.deep.equal([
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 1, 0],
      [0, 0, 5],
      [1, 0, 5],
      [1, 1, 5],
      [0, 1, 5],
    ]);
    expect(m.cells).to.deep.equal({
      triangle: [
        [0, 1, 2],
        [0, 2, 3],
      ],
      quad: [[4, 5, 6, 7]],
    });
  });
});
