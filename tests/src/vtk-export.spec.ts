/**
 * VTKExporter, MeshExporter and Monitor through a scene, their files read back by an independent
 * reader: meshio (Debian's python3-meshio) parses the .vtu, .vtk and .gmsh files; points, cells
 * and point data must equal what the scene held at each export (all digits: the writers print
 * shortest round-trip numbers). The .pvd is read by Python's XML parser (ParaView's collection
 * layout) and every file it lists by meshio.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { io, loadSceneFromString } from 'sofa-ts';
import { corpusRoot, hasCorpus } from './corpus-test-support.js';
import { hasMeshio, meshioRead, noMeshio, python } from './meshio-test-support.js';

/** A ParaView collection read by Python's own XML parser: [timestep, file] per DataSet. */
function pvdRead(file: string): [number, string][] {
  const script = `
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "VTKFile" and root.get("type") == "Collection", root.tag
print(json.dumps([[float(d.get("timestep")), d.get("file")] for d in root.find("Collection").findall("DataSet")]))
`;
  return JSON.parse(execFileSync(python, ['-c', script, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
}

const rows3 = (a: Float64Array): number[][] => Array.from({ length: a.length / 3 }, (_, i) => [a[3 * i], a[3 * i + 1], a[3 * i + 2]]);
const rowsN = (a: ArrayLike<number>, n: number): number[][] =>
  Array.from({ length: a.length / n }, (_, i) => Array.from({ length: n }, (_, k) => a[n * i + k]));

describe('VTK export read back by meshio (VTKExporter, MeshExporter, Monitor, run --export-vtk)', function () {
  let dir: string;
  before(function () {
    if (!hasMeshio()) {
      console.log(`    skipped: ${noMeshio}`);
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-vtk-'));
  });
  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes what the scene holds: points, hexahedra and velocities at each export, a .pvd series, gmsh/obj meshes, Monitor files', async () => {
    const scene = await loadSceneFromString(`
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <CGLinearSolver iterations="100" tolerance="1e-14" threshold="1e-14"/>
  <RegularGridTopology name="grid" n="3 2 2" min="0 0 0" max="2 1 1"/>
  <MechanicalObject name="dofs"/>
  <UniformMass totalMass="1"/>
  <HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3"/>
  <FixedProjectiveConstraint indices="0 3"/>
  <VTKExporter name="xml" filename="${dir}/beam" edges="0" hexas="1" pointsDataFields="dofs.velocity" exportEveryNumberOfSteps="2" exportAtBegin="1"/>
  <VTKExporter name="legacy" filename="${dir}/legacy.vtk" XMLformat="0" edges="0" hexas="1" pointsDataFields="v=@dofs.velocity" exportEveryNumberOfSteps="2" overwrite="1"/>
  <MeshExporter name="mesh" filename="${dir}/mesh" format="ALL" edges="0" exportAtBegin="1"/>
  <Monitor name="mon" indices="1 5" ExportPositions="1" ExportVelocities="1" fileName="${dir}/mon"/>
</Node>`);
    const dofs = scene.get<any>('/dofs')!;
    const hexas = Array.from(scene.get<any>('/grid')!.getHexahedra() as Uint32Array);
    const saved: { x: Float64Array; v: Float64Array; t: number }[] = [
      { x: Float64Array.from(dofs.x), v: Float64Array.from(dofs.v), t: scene.time },
    ];
    for (let s = 1; s <= 4; s++) {
      scene.step();
      saved.push({ x: Float64Array.from(dofs.x), v: Float64Array.from(dofs.v), t: scene.time });
    }
    expect(saved[4].x).to.not.deep.equal(saved[0].x, 'the beam moved');

    // XML series: beam_0 (init), beam_1 (step 2), beam_2 (step 4)
    for (const [k, step] of [
      [0, 0],
      [1, 2],
      [2, 4],
    ] as const) {
      const m = meshioRead(path.join(dir, `beam_${k}.vtu`));
      expect(m.points).to.deep.equal(rows3(saved[step].x));
      expect(m.cells['hexahedron']).to.deep.equal(rowsN(hexas, 8));
      expect(m.point_data['velocity']).to.deep.equal(rows3(saved[step].v));
    }
    const pvd = fs.readFileSync(path.join(dir, 'beam.pvd'), 'utf8');
    expect(pvd).to.match(/<VTKFile type="Collection"/);
    expect([...pvd.matchAll(/timestep="([^"]+)"[^>]*file="([^"]+)"/g)].map((m) => [Number(m[1]), m[2]])).to.deep.equal([
      [0, 'beam_0.vtu'],
      [saved[2].t, 'beam_1.vtu'],
      [saved[4].t, 'beam_2.vtu'],
    ]);

    // legacy file, overwritten: the last export (step 4), data named by its label
    const legacy = meshioRead(path.join(dir, 'legacy.vtk'));
    expect(legacy.points).to.deep.equal(rows3(saved[4].x));
    expect(legacy.cells['hexahedron']).to.deep.equal(rowsN(hexas, 8));
    expect(legacy.point_data['v']).to.deep.equal(rows3(saved[4].v));

    // MeshExporter at init: vtu, vtk and gmsh agree with the rest shape; obj has the surface quads
    for (const f of ['mesh_0.vtu', 'mesh_0.vtk', 'mesh_0.gmsh']) {
      const m = meshioRead(path.join(dir, f), f.endsWith('.gmsh') ? 'gmsh' : undefined);
      expect(m.points, f).to.deep.equal(rows3(saved[0].x));
      expect(m.cells['hexahedron'], f).to.deep.equal(rowsN(hexas, 8));
    }
    const obj = fs.readFileSync(path.join(dir, 'mesh_0.obj'), 'utf8').split('\n');
    expect(obj.filter((l) => l.startsWith('v ')).length).to.equal(12);

    // Monitor: a line at init and after each step, time then the two points
    const mx = fs.readFileSync(path.join(dir, 'mon_x.txt'), 'utf8').trim().split('\n');
    expect(mx[0]).to.match(/^# Gnuplot File : positions of 2 particle\(s\) Monitored/);
    const data = mx.filter((l) => !l.startsWith('#')).map((l) => l.split(/\s+/).map(Number));
    expect(data.length).to.equal(5);
    for (let s = 0; s <= 4; s++) expect(data[s]).to.deep.equal([saved[s].t, ...saved[s].x.subarray(3, 6), ...saved[s].x.subarray(15, 18)]);
  });

  it('sofa-ts run --export-vtk DIR: one .vtu per state and step, read back by meshio, and a .pvd per state', async () => {
    const out = path.join(dir, 'run');
    const scene = path.join(dir, 'grid.scn');
    fs.writeFileSync(
      scene,
      `<Node name="root" dt="0.01"><EulerImplicitSolver/><CGLinearSolver iterations="100" tolerance="1e-14" threshold="1e-14"/>
<RegularGridTopology name="grid" n="2 2 2" min="0 0 0" max="1 1 1"/><MechanicalObject name="dofs"/><UniformMass totalMass="1"/>
<HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3"/><FixedProjectiveConstraint indices="0"/></Node>`,
    );
    const cli = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'packages', 'cli', 'bin', 'sofa-ts.js');
    execFileSync(process.execPath, [cli, 'run', scene, '-n', '3', '--export-vtk', out], { stdio: 'pipe' });
    const s = await loadSceneFromString(fs.readFileSync(scene, 'utf8'));
    s.step(3);
    const m = meshioRead(path.join(out, '0_dofs_3.vtu'));
    expect(m.points).to.deep.equal(rows3(s.get<any>('/dofs')!.x));
    expect(m.point_data['velocity']).to.deep.equal(rows3(s.get<any>('/dofs')!.v));
    expect(m.cells['hexahedron']).to.deep.equal(rowsN(s.get<any>('/grid')!.getHexahedra(), 8));
    const pvd = fs.readFileSync(path.join(out, '0_dofs.pvd'), 'utf8');
    expect([...pvd.matchAll(/file="([^"]+)"/g)].map((x) => x[1])).to.deep.equal([
      '0_dofs_0.vtu',
      '0_dofs_1.vtu',
      '0_dofs_2.vtu',
      '0_dofs_3.vtu',
    ]);
  });

  it('points without elements are vertex cells: a point cloud read by meshio from .vtu and legacy .vtk', async () => {
    const scene = await loadSceneFromString(`<Node name="root">
  <PointSetTopologyContainer name="points" position="0 0 0  1 2 3  -4 5.5 6"/>
  <MechanicalObject name="cloud"/>
  <VTKExporter name="xml" filename="${dir}/cloud" exportAtBegin="1" edges="0"/>
  <VTKExporter name="legacy" filename="${dir}/cloud.vtk" XMLformat="0" exportAtBegin="1" edges="0"/>
</Node>`);
    expect(scene.get<any>('/cloud')!.size).to.equal(3);
    for (const f of ['cloud_0.vtu', 'cloud_0.vtk']) {
      const m = meshioRead(path.join(dir, f));
      expect(m.points, f).to.deep.equal([
        [0, 0, 0],
        [1, 2, 3],
        [-4, 5.5, 6],
      ]);
      expect(m.cells, f).to.deep.equal({ vertex: [[0], [1], [2]] });
    }
  });

  it("Demos/liver.scn run --export-vtk: every file of every .pvd series is read by meshio, with the run's states (the spheres as vertex cells)", function () {
    if (!hasCorpus) this.skip();
    this.timeout(120000);
    const out = path.join(dir, 'liver');
    const cli = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'packages', 'cli', 'bin', 'sofa-ts.js');
    const ex = path.join(corpusRoot, 'sofa', 'examples');
    execFileSync(
      process.execPath,
      [
        cli,
        'run',
        path.join(ex, 'Demos', 'liver.scn'),
        '-n',
        '5',
        '--data-path',
        path.join(corpusRoot, 'sofa', 'share'),
        '--data-path',
        ex,
        '--export-vtk',
        out,
        '--write-state',
        path.join(out, 'states'),
      ],
      { stdio: 'pipe' },
    );
    const series = fs
      .readdirSync(out)
      .filter((f) => f.endsWith('.pvd'))
      .sort();
    expect(series).to.deep.equal(['0_dofs.pvd', '1_spheres.pvd']);
    let files = 0;
    for (const pvd of series) {
      const entries = pvdRead(path.join(out, pvd));
      expect(entries.length).to.equal(6);
      // the same state, written by WriteState's format (6 significant digits)
      const frames = io.readStateFile(path.join(out, 'states', `${pvd.replace('.pvd', '')}.state.txt`));
      entries.forEach(([time, file], k) => {
        const m = meshioRead(path.join(out, file));
        expect(time).to.be.closeTo(frames[k].time, 1e-12);
        const x = frames[k].X;
        expect(m.points.length * 3, file).to.equal(x.length);
        m.points.forEach((p, i) => p.forEach((c, j) => expect(c).to.be.closeTo(x[3 * i + j], 1e-5 * Math.max(1, Math.abs(c)))));
        if (pvd.startsWith('1_spheres')) expect(m.cells).to.deep.equal({ vertex: m.points.map((_, i) => [i]) });
        else expect(Object.keys(m.cells)).to.deep.equal(['tetra']);
        files++;
      });
    }
    expect(files).to.equal(12);
  });
});
