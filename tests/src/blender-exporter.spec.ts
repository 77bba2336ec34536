import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadScene, type BaseMechanicalState, type SofaScene } from 'sofa-ts';
import { corpusRoot, repoRoot } from './corpus-test-support.js';

/**
 * BlenderExporter through scene files written into a temporary folder: the .bphys files are read
 * back with a reader written here from the layout SOFA's BlenderExporter writes (an 8-byte
 * "BPHYSICS", uint32 cache type, uint32 point count, uint32 data-type flags, then per point, from
 * the last to the first, float32 location, velocity and — for hair — rest position), and
 * compared with the state the scene had at the beginning of the exported steps.
 */

interface Bphys {
  type: number;
  count: number;
  dataTypes: number;
  /** count × (fields × 3) float32 values, in file order. */
  records: number[][];
}

function readBphys(file: string, fields: number): Bphys {
  const bytes = fs.readFileSync(file);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(bytes.subarray(0, 8).toString('latin1')).to.equal('BPHYSICS');
  const type = view.getUint32(8, true),
    count = view.getUint32(12, true),
    dataTypes = view.getUint32(16, true);
  expect(bytes.byteLength).to.equal(20 + 12 * fields * count);
  const records: number[][] = [];
  for (let p = 0; p < count; p++) {
    const r: number[] = [];
    for (let k = 0; k < 3 * fields; k++) r.push(view.getFloat32(20 + 4 * (3 * fields * p + k), true));
    records.push(r);
  }
  return { type, count, dataTypes, records };
}

const f32 = (xs: readonly number[]): number[] => xs.map((x) => Math.fround(x));

describe('BlenderExporter (scene)', () => {
  let dir = '';
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-blender-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function sceneFile(body: string, dt = 0.1): Promise<SofaScene> {
    const file = path.join(dir, 'scene.scn');
    fs.writeFileSync(file, `<Node name="root" dt="${dt}" gravity="0 0 0">\n  <DefaultAnimationLoop/>\n${body}\n</Node>\n`);
    return loadScene(file);
  }

  // Three particles moving at constant velocities: x(t) = x₀ + v·t exactly representable steps.
  const x0 = [
    [0, 0, 0],
    [1, 0.5, 0],
    [2, 0, 0.25],
  ];
  const v = [
    [0.5, 0, 0],
    [0, -1, 0],
    [0.25, 0.25, 1],
  ];
  const flat = (a: number[][]): string => a.map((p) => p.join(' ')).join('  ');

  it('soft body: every `step` animation steps, <path>/<baseName>_<k>_00.bphys beside the scene, the points from last to first', async () => {
    const s = await sceneFile(
      `  <Node name="n">
    <EulerExplicitSolver/>
    <MechanicalObject position="${flat(x0)}" velocity="${flat(v)}"/>
    <UniformMass vertexMass="1"/>
    <BlenderExporter path="cache" baseName="soft" step="2"/>
  </Node>`,
      0.125,
    );
    s.step(5);
    // AnimateBeginEvents 0..4: frames at 0, 2, 4, numbered 1, 2, 3
    expect(fs.readdirSync(path.join(dir, 'cache')).sort()).to.deep.equal([
      'soft_000001_00.bphys',
      'soft_000002_00.bphys',
      'soft_000003_00.bphys',
    ]);
    for (const k of [1, 2, 3]) {
      const t = 2 * (k - 1) * 0.125;
      const f = readBphys(path.join(dir, 'cache', `soft_00000${k}_00.bphys`), 2);
      expect([f.type, f.count, f.dataTypes]).to.deep.equal([0, 3, 6]);
      const expected = [2, 1, 0].map((i) => f32([...x0[i].map((c, d) => c + v[i][d] * t), ...v[i]]));
      expect(f.records).to.deep.equal(expected);
    }
  });

  it('particles and cloth keep their type; Rigid3d frames give their centres and linear velocities', async () => {
    const s =
      await sceneFile(`  <Node name="p"><MechanicalObject position="1 2 3  4 5 6"/><BlenderExporter name="parts" simulationType="1" step="1"/></Node>
  <Node name="c"><MechanicalObject position="1 2 3"/><BlenderExporter name="cloth" simulationType="2"/></Node>
  <Node name="r"><MechanicalObject template="Rigid3" position="1 2 3 0 0 0.6 0.8" velocity="0.5 0.25 -1 3 4 5"/><BlenderExporter name="frames"/></Node>`);
    s.step(1);
    const p = readBphys(path.join(dir, 'parts_000001_00.bphys'), 2);
    expect([p.type, p.count, p.dataTypes]).to.deep.equal([1, 2, 6]);
    expect(p.records).to.deep.equal([
      [4, 5, 6, 0, 0, 0],
      [1, 2, 3, 0, 0, 0],
    ]);
    const c = readBphys(path.join(dir, 'cloth_000001_00.bphys'), 2);
    expect([c.type, c.count, c.dataTypes]).to.deep.equal([2, 1, 6]);
    const r = readBphys(path.join(dir, 'frames_000001_00.bphys'), 2);
    expect([r.type, r.count, r.dataTypes]).to.deep.equal([0, 1, 6]);
    expect(r.records).to.deep.equal([[1, 2, 3, 0.5, 0.25, -1]]);
  });

  it('hair: an information frame at init, then cloth frames with a root tangent point before each root and the rest positions', async () => {
    // two strands of three points; the first strand moved away from its rest positions
    const rest = [
      [0, 0, 0],
      [0, 0, 2],
      [0, 0, 4],
      [1, 0, 0],
      [1, 3, 4],
      [1, 3, 5],
    ];
    const pos = [
      [0, 0, 1],
      [0, 0, 3],
      [0, 0, 5],
      [1, 0, 0],
      [1, 3, 4],
      [1, 3, 5],
    ];
    const s = await sceneFile(`  <Node name="h">
    <MechanicalObject position="${flat(pos)}" rest_position="${flat(rest)}"/>
    <BlenderExporter name="hair" simulationType="3" nbPtsByHair="3"/>
  </Node>`);
    const info = readBphys(path.join(dir, 'hair_000000_00.bphys'), 1);
    expect([info.type, info.count, info.dataTypes]).to.deep.equal([1, 1, 64]);
    expect(info.records).to.deep.equal([[0, 100, 100]]);
    s.step(1);
    const f = readBphys(path.join(dir, 'hair_000001_00.bphys'), 3);
    expect([f.type, f.count, f.dataTypes]).to.deep.equal([2, 8, 22]);
    const point = (i: number): number[] => f32([...pos[i], 0, 0, 0, ...rest[i]]);
    // root tangent r + (p₁ − r)/|p₁ − r|: strand 2 (root 3): (1,0,0) + (0,3,4)/5; strand 1 (root 0): (0,0,1) + (0,0,1)
    const tangent2 = f32([1, 0.6, 0.8, 0, 0, 0, 1, 0.6, 0.8]);
    const tangent1 = f32([0, 0, 2, 0, 0, 0, 0, 0, 2]);
    expect(f.records).to.deep.equal([point(5), point(4), tangent2, point(3), point(2), point(1), tangent1, point(0)]);
  });

  it('hair strands must be whole; an unknown simulation type is refused; unused exporter Data are warned about, located', async () => {
    let error: unknown;
    try {
      await sceneFile(
        '  <Node name="h"><MechanicalObject position="0 0 0  0 0 1  0 0 2"/><BlenderExporter simulationType="3" nbPtsByHair="2"/></Node>',
      );
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/scene\.scn:\d+:\d+.*nbPtsByHair=2 does not divide/);
    error = undefined;
    try {
      await sceneFile('  <Node name="h"><MechanicalObject position="0 0 0"/><BlenderExporter simulationType="4"/></Node>');
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/simulationType/);
    const s = await sceneFile(
      '  <Node name="h"><MechanicalObject position="0 0 0"/><BlenderExporter name="b" filename="example" exportAtBegin="1" enable="0"/></Node>',
    );
    const messages = s.warnings.map((w) => String(w));
    expect(messages.some((m) => /scene\.scn:\d+:\d+.*filename is not used/.test(m))).to.equal(true);
    expect(messages.some((m) => /exportAtBegin is not used/.test(m))).to.equal(true);
    s.step(3);
    expect(fs.readdirSync(dir)).to.deep.equal(['scene.scn']); // enable="0": nothing written
  });

  const example = path.join(corpusRoot, 'sofa', 'examples', 'Component', 'IO', 'Mesh', 'BlenderExporter.scn');
  const share = path.join(corpusRoot, 'sofa', 'share');
  (fs.existsSync(example) ? it : it.skip)(
    "SOFA's example scene: a frame of the dragon's points every 2 steps beside a copy of the scene, and `sofa-ts check` runs it",
    async function () {
      this.timeout(60000);
      const copy = path.join(dir, 'BlenderExporter.scn');
      fs.copyFileSync(example, copy);
      const s = await loadScene(copy, { dataPaths: [share] });
      const mecha = s.get<BaseMechanicalState>('mecha')!;
      const n = mecha.size;
      expect(n).to.be.above(1000);
      const initial = Array.from(mecha.x);
      s.step(20);
      const files = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.bphys'))
        .sort();
      expect(files).to.deep.equal(Array.from({ length: 10 }, (_, k) => `ExportToBlender_${String(k + 1).padStart(6, '0')}_00.bphys`));
      const f = readBphys(path.join(dir, files[9]), 2);
      expect([f.type, f.count, f.dataTypes]).to.deep.equal([0, n, 6]);
      // no solver: the points stay where the loader put them
      for (let j = 0; j < n; j++) {
        const i = n - 1 - j;
        expect(f.records[j]).to.deep.equal(f32([initial[3 * i], initial[3 * i + 1], initial[3 * i + 2], 0, 0, 0]));
      }
      const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
      const r = spawnSync(process.execPath, [bin, 'check', example, '-n', '20', '--data-path', share], {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.match(/RUNS\s+\S*BlenderExporter\.scn\s+20 steps/);
      expect(r.stdout).to.contain('1 run, 0 missing components, 0 errors');
    },
  );
});
