import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { corpusRoot, hasCorpus, repoRoot } from './corpus-test-support.js';

/**
 * Where the files that a scene's components write go: beside the scene file that names them, or
 * into `sofa-ts run --out DIR` (check runs every scene with a temporary output folder), never into
 * the working directory (SOFA writes there; a run from the repository root once left its OBJ and
 * STL files committed at the root).
 */

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
function cli(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}
const listing = (dir: string): string[] => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

/** Two triangles written by exporters and writers with relative names, at the begin and after 2 steps. */
const scene = `<Node name="root" dt="0.5" gravity="0 0 0">
  <DefaultAnimationLoop/>
  <Node name="n">
    <EulerExplicitSolver/>
    <MechanicalObject name="mo" position="0 0 0  1 0 0  1 1 0  0 1 0" velocity="0 0 1  0 0 1  0 0 1  0 0 1"/>
    <UniformMass vertexMass="1"/>
    <MeshTopology name="mesh" triangles="0 1 2  0 2 3"/>
    <STLExporter filename="outFile" position="@mo.position" triangle="@mesh.triangles" exportAtBegin="true"/>
    <VTKExporter filename="beam" triangles="1" edges="0" exportEveryNumberOfSteps="2"/>
    <MeshExporter filename="mesh" format="vtk" triangles="1" edges="0" exportAtBegin="true"/>
    <Monitor indices="0" ExportPositions="true" fileName="sub/monitor"/>
    <WriteState filename="state.txt"/>
  </Node>
</Node>
`;
const written = ['beam_0.vtu', 'beam.pvd', 'mesh_0.vtk', 'outFile.stl', 'state.txt', 'sub', 'sub/monitor_x.txt'].sort();

describe('output files of scene components', function () {
  this.timeout(120000);
  let tmp = '';
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-outfiles-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('sofa-ts run writes them beside the scene file, not into the working directory', () => {
    const sceneDir = path.join(tmp, 'scene'),
      cwd = path.join(tmp, 'cwd');
    fs.mkdirSync(sceneDir);
    fs.mkdirSync(cwd);
    fs.writeFileSync(path.join(sceneDir, 'exporters.scn'), scene);
    const r = cli(cwd, 'run', path.join(sceneDir, 'exporters.scn'), '-n', '2');
    expect(r.status, r.stderr).to.equal(0);
    expect(listing(cwd)).to.deep.equal([]);
    expect(listing(sceneDir)).to.deep.equal([...written, 'exporters.scn'].sort());
  });

  it('sofa-ts run --out DIR writes them into DIR only', () => {
    const sceneDir = path.join(tmp, 'scene'),
      cwd = path.join(tmp, 'cwd'),
      out = path.join(tmp, 'out');
    fs.mkdirSync(sceneDir);
    fs.mkdirSync(cwd);
    fs.writeFileSync(path.join(sceneDir, 'exporters.scn'), scene);
    const r = cli(cwd, 'run', path.join(sceneDir, 'exporters.scn'), '-n', '2', '--out', out);
    expect(r.status, r.stderr).to.equal(0);
    expect(listing(cwd)).to.deep.equal([]);
    expect(listing(sceneDir)).to.deep.equal(['exporters.scn']);
    expect(listing(out)).to.deep.equal(written);
  });

  it('sofa-ts check writes nothing into the working directory nor beside the scenes', () => {
    const sceneDir = path.join(tmp, 'scene'),
      cwd = path.join(tmp, 'cwd');
    fs.mkdirSync(sceneDir);
    fs.mkdirSync(cwd);
    fs.writeFileSync(path.join(sceneDir, 'exporters.scn'), scene);
    const r = cli(cwd, 'check', sceneDir, '-n', '4', '-j', '1');
    expect(r.status, r.stdout + r.stderr).to.equal(0);
    expect(listing(cwd)).to.deep.equal([]);
    expect(listing(sceneDir)).to.deep.equal(['exporters.scn']);
  });

  it("sofa-ts check of SOFA's exporter examples from the repository root leaves git status as it was", function () {
    const examples = path.join(corpusRoot, 'sofa', 'examples');
    const scenes = [
      'Component/IO/Mesh/OBJExporter.scn',
      'Component/IO/Mesh/STLExporter.scn',
      'Component/IO/Mesh/MeshExporter.scn',
      'Component/Topology/Mapping/Hexa2TetraTopologicalMapping_export.scn',
    ].map((s) => path.join(examples, s));
    const status = () => spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repoRoot, encoding: 'utf8' });
    const before = status();
    if (!hasCorpus || before.status !== 0) this.skip();
    const r = cli(repoRoot, 'check', ...scenes, '-n', '6', '-j', '1');
    expect(
      r.stdout
        .trim()
        .split('\n')
        .slice(0, scenes.length)
        .map((l) => l.split(/\s+/)[0]),
    ).to.deep.equal(['RUNS', 'RUNS', 'RUNS', 'RUNS'], r.stdout + r.stderr);
    expect(status().stdout).to.equal(before.stdout);
  });
});
