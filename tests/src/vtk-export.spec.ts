/**
 * VTKExporter, MeshExporter and Monitor through a scene, their files read back by an independent
 * reader: meshio (Debian's python3-meshio) parses the .vtu, .vtk and .gmsh files; points, cells
 * and point data must equal what the scene held at each export (all digits: the writers print
 * shortest round-trip numbers). The .pvd is checked against ParaView's collection layout.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSceneFromString } from 'sofa-ts';

const python = '/usr/bin/python3';
function hasMeshio(): boolean {
  try {
    execFileSync(python, ['-c', 'import meshio'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** meshio's reading of a file: points, cells by type, point data. */
function meshioRead(file: string): { points: number[][]; cells: Record<string, number[][]>; point_data: Record<string, number[][] | number[]> } {
  const script = `
import json, sys, meshio
m = meshio.read(sys.argv[1], file_format=(sys.argv[2] if len(sys.argv) > 2 else None))
cells = {}
for b in m.cells:
    cells.setdefault(b.type, []).extend(b.data.tolist())
print(json.dumps({"points": m.points.tolist(), "cells": cells, "point_data": {k: v.tolist() for k, v in m.point_data.items()}}))
`;
  return JSON.parse(execFileSync(python, ['-c', script, file, ...(file.endsWith('.gmsh') ? ['gmsh'] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
}

const rows3 = (a: Float64Array): number[][] => Array.from({ length: a.length / 3 }, (_, i) => [a[3 * i]!, a[3 * i + 1]!, a[3 * i + 2]!]);
const rowsN = (a: ArrayLike<number>, n: number): number[][] => Array.from({ length: a.length / n }, (_, i) => Array.from({ length: n }, (_, k) => a[n * i + k]!));

describe('VTK export read back by meshio (VTKExporter, MeshExporter, Monitor, run --export-vtk)', function () {
  let dir: string;
  before(function () {
    if (!hasMeshio()) {
      console.log(`    skipped: ${python} cannot import meshio (Debian: apt-get install python3-meshio; CI installs it in .ci/run)`);
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
    const saved: { x: Float64Array; v: Float64Array; t: number }[] = [{ x: Float64Array.from(dofs.x), v: Float64Array.from(dofs.v), t: scene.time }];
    for (let s = 1; s <= 4; s++) {
      scene.step();
      saved.push({ x: Float64Array.from(dofs.x), v: Float64Array.from(dofs.v), t: scene.time });
    }
    expect(saved[4]!.x).to.not.deep.equal(saved[0]!.x, 'the beam moved');

    // XML series: beam_0 (init), beam_1 (step 2), beam_2 (step 4)
    for (const [k, step] of [[0, 0], [1, 2], [2, 4]] as const) {
      const m = meshioRead(path.join(dir, `beam_${k}.vtu`));
      expect(m.points).to.deep.equal(rows3(saved[step]!.x));
      expect(m.cells['hexahedron']).to.deep.equal(rowsN(hexas, 8));
      expect(m.point_data['velocity']).to.deep.equal(rows3(saved[step]!.v));
    }
    const pvd = fs.readFileSync(path.join(dir, 'beam.pvd'), 'utf8');
    expect(pvd).to.match(/<VTKFile type="Collection"/);
    expect([...pvd.matchAll(/timestep="([^"]+)"[^>]*file="([^"]+)"/g)].map((m) => [Number(m[1]), m[2]])).to.deep.equal([[0, 'beam_0.vtu'], [saved[2]!.t, 'beam_1.vtu'], [saved[4]!.t, 'beam_2.vtu']]);

    // legacy file, overwritten: the last export (step 4), data named by its label
    const legacy = meshioRead(path.join(dir, 'legacy.vtk'));
    expect(legacy.points).to.deep.equal(rows3(saved[4]!.x));
    expect(legacy.cells['hexahedron']).to.deep.equal(rowsN(hexas, 8));
    expect(legacy.point_data['v']).to.deep.equal(rows3(saved[4]!.v));

    // MeshExporter at init: vtu, vtk and gmsh agree with the rest shape; obj has the surface quads
    for (const f of ['mesh_0.vtu', 'mesh_0.vtk', 'mesh_0.gmsh']) {
      const m = meshioRead(path.join(dir, f));
      expect(m.points, f).to.deep.equal(rows3(saved[0]!.x));
      expect(m.cells['hexahedron'], f).to.deep.equal(rowsN(hexas, 8));
    }
    const obj = fs.readFileSync(path.join(dir, 'mesh_0.obj'), 'utf8').split('\n');
    expect(obj.filter((l) => l.startsWith('v ')).length).to.equal(12);

    // Monitor: a line at init and after each step, time then the two points
    const mx = fs.readFileSync(path.join(dir, 'mon_x.txt'), 'utf8').trim().split('\n');
    expect(mx[0]).to.match(/^# Gnuplot File : positions of 2 particle\(s\) Monitored/);
    const data = mx.filter((l) => !l.startsWith('#')).map((l) => l.split(/\s+/).map(Number));
    expect(data.length).to.equal(5);
    for (let s = 0; s <= 4; s++) expect(data[s]).to.deep.equal([saved[s]!.t, ...saved[s]!.x.subarray(3, 6), ...saved[s]!.x.subarray(15, 18)]);
  });

  it('sofa-ts run --export-vtk DIR: one .vtu per state and step, read back by meshio, and a .pvd per state', async () => {
    const out = path.join(dir, 'run');
    const scene = path.join(dir, 'grid.scn');
    fs.writeFileSync(scene, `<Node name="root" dt="0.01"><EulerImplicitSolver/><CGLinearSolver iterations="100" tolerance="1e-14" threshold="1e-14"/>
<RegularGridTopology name="grid" n="2 2 2" min="0 0 0" max="1 1 1"/><MechanicalObject name="dofs"/><UniformMass totalMass="1"/>
<HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3"/><FixedProjectiveConstraint indices="0"/></Node>`);
    const cli = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'packages', 'cli', 'bin', 'sofa-ts.js');
    execFileSync(process.execPath, [cli, 'run', scene, '-n', '3', '--export-vtk', out], { stdio: 'pipe' });
    const s = await loadSceneFromString(fs.readFileSync(scene, 'utf8'));
    s.step(3);
    const m = meshioRead(path.join(out, '0_dofs_3.vtu'));
    expect(m.points).to.deep.equal(rows3(s.get<any>('/dofs')!.x));
    expect(m.point_data['velocity']).to.deep.equal(rows3(s.get<any>('/dofs')!.v));
    expect(m.cells['hexahedron']).to.deep.equal(rowsN(s.get<any>('/grid')!.getHexahedra(), 8));
    const pvd = fs.readFileSync(path.join(out, '0_dofs.pvd'), 'utf8');
    expect([...pvd.matchAll(/file="([^"]+)"/g)].map((x) => x[1])).to.deep.equal(['0_dofs_0.vtu', '0_dofs_1.vtu', '0_dofs_2.vtu', '0_dofs_3.vtu']);
  });
});
