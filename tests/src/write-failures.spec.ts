/**
 * Writes that fail — a full disk (a small tmpfs: the system's own ENOSPC), a removed folder — stop
 * the run with the system's reason and the path; every state file ends on its last complete frame
 * (all on the same one), every other output is complete or absent, checkpoints stay atomic.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { host, osReason } from '@sofa-ts/core';
import { io, loadSceneFromString, readCheckpointFile } from 'sofa-ts';
import { repoRoot } from './corpus-test-support.js';
import { hasMeshio, meshioRead } from './meshio-test-support.js';
import { stableScene } from './safety-test-support.js';
import { mountSmallDisk, strictStateFrames, type SmallDisk } from './small-disk-test-support.js';

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [bin, 'run', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
const ENOSPC = 'no space left on device (ENOSPC)';

/** Fills the disk but for about `leave` bytes (tmpfs counts whole pages). */
function fill(dir: string, leave: number): void {
  const filler = path.join(dir, 'filler');
  const chunk = Buffer.alloc(4096, 1);
  const fd = fs.openSync(filler, 'w');
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch {
    // full
  } finally {
    fs.closeSync(fd);
  }
  fs.truncateSync(filler, Math.max(0, fs.statSync(filler).size - leave));
}

const leftovers = (dir: string): string[] => fs.readdirSync(dir).filter((f) => f.includes('.tmp'));

describe('write failures: a full disk or a removed folder stops the run with the reason; outputs stay whole', function () {
  this.timeout(120000);
  let disk: SmallDisk | undefined;
  let scene = '';
  before(function () {
    const d = mountSmallDisk(64);
    if (typeof d === 'string') {
      console.log(`    skipped: ${d}`);
      this.skip();
    }
    disk = d;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-full-scene-'));
    scene = path.join(dir, 'stable.scn');
    fs.writeFileSync(scene, stableScene);
  });
  after(() => disk?.unmount());
  afterEach(() => {
    if (disk) for (const f of fs.readdirSync(disk.dir)) fs.rmSync(path.join(disk.dir, f), { recursive: true, force: true });
  });

  it('--write-state: the error names the file and ENOSPC; every state file ends on the same complete frame, the one the run says', () => {
    const out = path.join(disk!.dir, 'states');
    const r = run(scene, '-n', '100000', '--write-state', out);
    expect(r.status, r.stderr).to.equal(1);
    expect(r.stderr).to.match(
      new RegExp(`^error: cannot write state file ${out}/[01]_(dofs|copy)\\.state\\.txt: ${ENOSPC.replace(/[()]/g, '\\$&')}$`, 'm'),
    );
    const kept = /states kept: (\d+) frame\(s\) of 2 state\(s\)/.exec(r.stderr);
    expect(kept, r.stderr).to.not.equal(null);
    const frames = ['0_dofs.state.txt', '1_copy.state.txt'].map((f) => strictStateFrames(fs.readFileSync(path.join(out, f), 'utf8'), 9));
    expect(frames[0].length).to.equal(Number(kept![1]));
    expect(frames[1].length).to.equal(Number(kept![1]));
    expect(frames[0].length).to.be.greaterThan(10);
    frames[0].forEach((f, k) => expect(f.time).to.be.closeTo(0.01 * k, 1e-12));
    // the copy (IdentityMapping) has the same positions in every frame
    frames[1].forEach((f, k) => expect(f.x).to.deep.equal(frames[0][k].x));
    for (const f of frames.flat()) expect(f.v, 'V= in every frame').to.have.length(9);
  });

  it('--export-vtk: every .vtu left is whole (read by meshio), no temporary file, the error names the file and ENOSPC', () => {
    const out = path.join(disk!.dir, 'vtk');
    const r = run(scene, '-n', '100000', '--export-vtk', out);
    expect(r.status, r.stderr).to.equal(1);
    expect(r.stderr).to.match(new RegExp(`error: .*cannot write file ${out}/\\S+: no space left on device \\(ENOSPC\\)`));
    const files = fs.readdirSync(out);
    expect(leftovers(out)).to.deep.equal([]);
    const vtu = files.filter((f) => f.endsWith('.vtu'));
    expect(vtu.length).to.be.greaterThan(10);
    for (const f of vtu) expect(fs.readFileSync(path.join(out, f), 'utf8'), f).to.match(/<\/VTKFile>\n$/);
    if (hasMeshio()) for (const f of [vtu[0], vtu[vtu.length - 1]]) expect(meshioRead(path.join(out, f)).points, f).to.have.length(3);
  });

  it('--checkpoint-dir: every checkpoint left reads back, no temporary file, the error names the checkpoint and ENOSPC', () => {
    const out = path.join(disk!.dir, 'ckpt');
    const r = run(scene, '-n', '100000', '--checkpoint-dir', out, '--checkpoint-every', '1');
    expect(r.status, r.stderr).to.equal(1);
    expect(r.stderr).to.match(new RegExp(`error: cannot write checkpoint ${out}/step-\\d+\\.ckpt: no space left on device \\(ENOSPC\\)`));
    expect(leftovers(out)).to.deep.equal([]);
    const ckpts = fs.readdirSync(out).filter((f) => f.endsWith('.ckpt'));
    expect(ckpts.length).to.be.greaterThan(0);
    for (const f of ckpts) expect(() => readCheckpointFile(path.join(out, f)), f).to.not.throw();
  });

  it('the exporters (VTK, Mesh, STL, OBJ, Blender, Monitor, WriteState): the step stops with the file and ENOSPC; each file is whole or absent', async () => {
    const dir = disk!.dir;
    const exporters: [string, string][] = [
      ['VTKExporter', `<VTKExporter filename="${dir}/vtk" edges="0" triangles="1" exportEveryNumberOfSteps="1"/>`],
      ['MeshExporter', `<MeshExporter filename="${dir}/mesh" format="vtkxml" exportEveryNumberOfSteps="1"/>`],
      ['STLExporter', `<STLExporter filename="${dir}/stl" binaryformat="false" exportEveryNumberOfSteps="1"/>`],
      ['VisualModelOBJExporter', `<VisualModelOBJExporter filename="${dir}/obj" exportEveryNumberOfSteps="1"/>`],
      ['BlenderExporter', `<BlenderExporter path="${dir}" baseName="blend" simulationType="0" step="1"/>`],
      ['Monitor', `<Monitor indices="0 1 2" ExportPositions="1" fileName="${dir}/mon"/>`],
      ['WriteState', `<WriteState filename="${dir}/ws.state.txt" period="0.01"/>`],
    ];
    for (const [name, xml] of exporters) {
      for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
      fill(dir, 6000);
      const s = await loadSceneFromString(`<Node name="root" dt="0.01" gravity="0 -9.81 0"><DefaultAnimationLoop/>
  <EulerImplicitSolver/><CGLinearSolver iterations="20" tolerance="1e-9" threshold="1e-12"/>
  <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0"/><UniformMass totalMass="1"/>
  <MeshTopology name="mesh" triangles="0 1 2"/>
  <OglModel name="visual" position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  ${xml}
</Node>`);
      let error = '';
      for (let k = 0; k < 2000 && !error; k++) {
        try {
          s.step();
        } catch (e) {
          error = (e as Error).message;
        }
      }
      expect(error, `${name}: a step failed`).to.match(
        new RegExp(`cannot write (state )?file ${dir}/\\S+: no space left on device \\(ENOSPC\\)`),
      );
      const files = fs.readdirSync(dir).filter((f) => f !== 'filler');
      expect(leftovers(dir), name).to.deep.equal([]);
      for (const f of files) {
        const text = fs.readFileSync(path.join(dir, f), 'latin1');
        if (/\.(vtu|vtk)$/.test(f)) expect(text, `${name} ${f}`).to.match(/<\/VTKFile>\n$/);
        else if (f.endsWith('.pvd')) expect(text, `${name} ${f}`).to.match(/<\/VTKFile>\n$/);
        else if (f.endsWith('.stl')) expect(text, `${name} ${f}`).to.match(/endsolid[^\n]*\n$/);
        else if (f.endsWith('.obj') || f.endsWith('.mtl')) expect(text.endsWith('\n'), `${name} ${f}`).to.equal(true);
        else if (f.endsWith('.bphys')) expect(fs.statSync(path.join(dir, f)).size, `${name} ${f}`).to.be.greaterThan(0);
        else if (f.startsWith('mon')) {
          const rows = text
            .split('\n')
            .slice(0, -1)
            .filter((l) => !l.startsWith('#'));
          expect(text.endsWith('\n'), `${name} ${f}`).to.equal(true);
          for (const row of rows)
            expect(row.trim().split(/\s+/).map(Number).filter(Number.isFinite).length, `${name} ${f}: ${row}`).to.equal(10);
        } else if (f.startsWith('ws')) {
          const frames = strictStateFrames(text, 9);
          expect(frames.length, `${name} ${f}`).to.be.greaterThan(0);
        } else expect.fail(`${name} wrote an unexpected file ${f}`);
      }
    }
  });

  it('sweep: the error names the file and ENOSPC; the results are whole or absent, the journal ends on a whole line', () => {
    const out = path.join(disk!.dir, 'sweep');
    for (const leave of [0, 3000, 9000]) {
      for (const f of fs.readdirSync(disk!.dir)) fs.rmSync(path.join(disk!.dir, f), { recursive: true, force: true });
      fill(disk!.dir, leave);
      const r = spawnSync(
        process.execPath,
        [
          bin,
          'sweep',
          scene,
          '--param',
          '/root.gravity=0 {lin:-20:0:40} 0',
          '-n',
          '3',
          '-j',
          '1',
          '--record',
          '/body/dofs.position',
          '--out',
          out,
        ],
        { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
      );
      expect(r.status, `${leave}: ${r.stdout}${r.stderr}`).to.equal(1);
      expect(r.stderr, String(leave)).to.match(new RegExp(`cannot write .*${out}/\\S+: no space left on device \\(ENOSPC\\)`));
      if (!fs.existsSync(out)) continue;
      expect(leftovers(out)).to.deep.equal([]);
      const has = (f: string): boolean => fs.existsSync(path.join(out, f));
      if (has('results.parquet'))
        expect(fs.readFileSync(path.join(out, 'results.parquet')).subarray(-4).toString('latin1')).to.equal('PAR1');
      for (const f of ['results.csv', 'failures.csv', 'cases.jsonl'])
        if (has(f)) expect(fs.readFileSync(path.join(out, f), 'utf8')).to.match(/(^|\n)$/);
      if (has('cases.jsonl'))
        for (const line of fs.readFileSync(path.join(out, 'cases.jsonl'), 'utf8').split('\n').filter(Boolean))
          expect(() => JSON.parse(line)).to.not.throw();
    }
  });

  it('a state file whose folder is removed while the run writes it is an error, not frames written nowhere', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-removed-'));
    const w = new io.StateWriter(path.join(dir, 'a.state.txt'));
    w.writeFrame(0, [1, 2, 3]);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(() => w.writeFrame(0.1, [1, 2, 3])).to.throw(
      `cannot write state file ${path.join(dir, 'a.state.txt')}: the file was removed while it was written`,
    );
    w.close();
  });

  it("the system's reason in words and code: ENOSPC, EIO, EDQUOT, ENOENT", () => {
    expect(osReason(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).to.equal(ENOSPC);
    expect(osReason(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }))).to.equal('i/o error (EIO)');
    expect(osReason(Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT' }))).to.equal(
      'disk quota exceeded (EDQUOT)',
    );
    let missing: unknown;
    try {
      fs.writeFileSync(path.join(os.tmpdir(), 'sofa-ts-no-such-folder', 'x', 'y'), '');
    } catch (e) {
      missing = e;
    }
    expect(osReason(missing)).to.equal('no such file or directory (ENOENT)');
  });

  it("the host's writeFile: a whole file is the old one or the new one, an append lands whole or not at all", () => {
    const dir = disk!.dir;
    const f = path.join(dir, 'whole.txt');
    host().writeFile(f, 'old\n');
    fill(dir, 0);
    expect(() => host().writeFile(f, 'x'.repeat(100000))).to.throw(`cannot write file ${f}: ${ENOSPC}`);
    expect(fs.readFileSync(f, 'utf8')).to.equal('old\n');
    expect(() => host().writeFile(f, 'y'.repeat(100000), { append: true })).to.throw(`cannot write file ${f}: ${ENOSPC}`);
    expect(fs.readFileSync(f, 'utf8')).to.equal('old\n');
    const g = path.join(dir, 'new.txt');
    expect(() => host().writeFile(g, 'z'.repeat(100000), { append: true })).to.throw(ENOSPC);
    expect(fs.existsSync(g)).to.equal(false);
    expect(leftovers(dir)).to.deep.equal([]);
    // a symbolic link still names the file, which is replaced
    fs.rmSync(path.join(dir, 'filler'));
    const link = path.join(dir, 'link.txt');
    fs.symlinkSync(f, link);
    host().writeFile(link, 'new\n');
    expect(fs.lstatSync(link).isSymbolicLink()).to.equal(true);
    expect(fs.readFileSync(f, 'utf8')).to.equal('new\n');
  });
});
