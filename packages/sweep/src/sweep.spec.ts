import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseParam } from './param-spec.js';
import { parseRecord } from './record-spec.js';
import { runSweep, type SweepOptions } from './sweep.js';
import { BALL_SCENE, SPRING_SCENE, cliBin, readCsv, readParquet, repoRoot, type Row } from './results-test-support.js';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-sweep-test-'));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [cliBin, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

function ballSweep(dir: string, extra: Partial<SweepOptions> = {}): SweepOptions {
  const scene = path.join(dir, 'ball.scn');
  fs.writeFileSync(scene, BALL_SCENE);
  return {
    scene,
    params: [parseParam('/root.gravity=0 {lin:-20:0:12} 0')],
    steps: 10,
    records: [parseRecord('/ball/dofs.position:5')],
    out: path.join(dir, 'out'),
    threads: 2,
    ...extra,
  };
}

/** The values of the results table without the wall times (which differ from run to run). */
const physics = (rows: Row[]): Row[] => rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('wall.'))));

describe('sofa-ts sweep: cases on local worker threads', function () {
  this.timeout(240000);

  it("sets each case's Data: the ball's fall is the closed form of implicit Euler at every recorded step", async () => {
    const dir = tmp();
    const s = await runSweep(ballSweep(dir));
    expect([s.total, s.ok, s.failed, s.ran, s.interrupted]).to.deep.equal([12, 12, 0, 12, false]);
    const rows = await readParquet(s.files.parquet);
    // one row per case and recorded step: steps 0, 5, 10
    expect(rows).to.have.length(36);
    const h = 0.01;
    for (const r of rows) {
      const g = r['/root.gravity'] as number,
        n = r['step'] as number;
      const y = (r['/ball/dofs.position'] as number[])[1];
      const exact = (h * h * g * (n * (n + 1))) / 2;
      expect(Math.abs(y - exact)).to.be.at.most(1e-14 * Math.max(1, Math.abs(exact)));
      expect(r['time']).to.be.closeTo(n * h, 1e-15);
    }
    expect(new Set(rows.map((r) => r['/root.gravity']))).to.have.property('size', 12);
    // the CSV holds the same numbers, exactly (shortest round-trip texts)
    const csv = readCsv(s.files.csv);
    expect(csv).to.have.length(36);
    csv.forEach((c, i) => {
      expect(Number(c['/root.gravity'])).to.equal(rows[i]['/root.gravity']);
      expect(c['/ball/dofs.position'].split(' ').map(Number)).to.deep.equal(rows[i]['/ball/dofs.position']);
    });
    expect(fs.readFileSync(s.files.summary, 'utf8')).to.match(/^<svg[\s\S]*\/ball\/dofs\.position y[\s\S]*<circle/);
  });

  it('resumes: an interrupted sweep keeps its finished cases, the re-run runs only the others, the results equal an uninterrupted sweep', async () => {
    const dir = tmp();
    let outcomes = 0;
    const first = await runSweep(ballSweep(dir, { threads: 1 }), { onOutcome: () => outcomes++ }, () => outcomes >= 4);
    expect(first.interrupted).to.equal(true);
    expect(first.ok).to.be.within(4, 11);
    const lines = fs.readFileSync(first.files.journal, 'utf8').trim().split('\n');
    expect(lines).to.have.length(first.ok);
    const second = await runSweep(ballSweep(dir, { threads: 1 }));
    expect([second.kept, second.ran, second.ok, second.interrupted]).to.deep.equal([first.ok, 12 - first.ok, 12, false]);
    // a third run has nothing to do
    const third = await runSweep(ballSweep(dir, { threads: 1 }));
    expect([third.kept, third.ran]).to.deep.equal([12, 0]);
    expect(fs.readFileSync(third.files.journal, 'utf8').trim().split('\n')).to.have.length(12);
    const fresh = await runSweep(ballSweep(tmp(), { threads: 1 }));
    expect(physics(await readParquet(third.files.parquet))).to.deep.equal(physics(await readParquet(fresh.files.parquet)));
    // another number of steps is another case: nothing kept
    const other = await runSweep(ballSweep(dir, { steps: 11, threads: 1 }));
    expect([other.kept, other.ran]).to.deep.equal([0, 12]);
  });

  it('a failing case is retried, then reported with its located message; a diverged case is a recorded failure', async () => {
    const dir = tmp();
    const spring = path.join(dir, 'spring.scn');
    fs.writeFileSync(spring, SPRING_SCENE);
    const s = await runSweep({
      scene: spring,
      params: [parseParam('/s/spring.spring=0 1 {100,1e9} 0 1'), parseParam('/root.dt=0.01,-0.01')],
      steps: 200,
      records: [parseRecord('states')],
      out: path.join(dir, 'out'),
      threads: 2,
      retries: 1,
    });
    expect([s.total, s.ok, s.failed]).to.deep.equal([4, 1, 3]);
    const failures = readCsv(s.files.failures);
    expect(failures.map((f) => [f['index'], f['attempts']])).to.deep.equal([
      ['1', '2'],
      ['2', '2'],
      ['3', '2'],
    ]);
    expect(failures[0]['error']).to.match(/^--param \/root\.dt:1:1: Node 'root': 'dt' must be finite and > 0, got -0\.01/);
    expect(failures[0]['step']).to.equal('0');
    expect(failures[1]['error']).to.match(/the simulation diverged: .* after step \d+/);
    expect(Number(failures[1]['step'])).to.be.within(1, 199);
    const rows = await readParquet(s.files.parquet);
    expect(rows.map((r) => r['index'])).to.deep.equal([0]);
  });

  it('refuses a bad path, value or record before any case runs', async () => {
    const dir = tmp();
    const o = ballSweep(dir);
    await expectReject(
      runSweep({ ...o, params: [parseParam('/ball/dofs.positio=0 0 0')] }),
      /MechanicalObject 'dofs' has no Data 'positio'.*did you mean 'position'/,
    );
    await expectReject(runSweep({ ...o, params: [parseParam('/ball/mass.totalMass=1,heavy')] }), /bad value for 'totalMass'/);
    await expectReject(runSweep({ ...o, records: [parseRecord('/ball/dofs.position[3]')] }), /item 3 is out of range \(1 items of 3\)/);
    await expectReject(runSweep({ ...o, records: [parseRecord('/ball/nothing.x')] }), /no node or object at '\/ball\/nothing'/);
    expect(fs.existsSync(path.join(dir, 'out'))).to.equal(false);
  });

  it('the results of a case are bitwise those of `sofa-ts run` of the scene written with the same Data', () => {
    const dir = tmp();
    const out = path.join(dir, 'out');
    const scene = path.join(repoRoot, 'scenes/softrobots/finger-direct.scn');
    const r = cli(
      'sweep',
      scene,
      '--param',
      '/finger/HexahedronFEMForceField1.youngModulus=log:6000:30000:2',
      '--param',
      '/finger/cable.value=1.7,2.3',
      '-n',
      '20',
      '--record',
      'states',
      '--out',
      out,
      '-j',
      '2',
    );
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/cases\s+4: 4 ok, 0 failed/);
    const rows = readCsv(path.join(out, 'results.csv'));
    const xml = fs.readFileSync(scene, 'utf8');
    for (const index of ['1', '2']) {
      const row = rows.find((x) => x['index'] === index)!;
      // the scene as a user would write it for this case
      const E = row['/finger/HexahedronFEMForceField1.youngModulus'],
        value = row['/finger/cable.value'];
      const file = path.join(dir, `case${index}.scn`);
      fs.writeFileSync(file, xml.replace('youngModulus="18000"', `youngModulus="${E}"`).replace('value="2"', `value="${value}"`));
      const vtk = path.join(dir, `vtk${index}`);
      const run = cli('run', file, '-n', '20', '--export-vtk', vtk);
      expect(run.status, run.stderr).to.equal(0);
      const vtu = fs.readFileSync(path.join(vtk, '0_dofs_20.vtu'), 'utf8');
      const arr = (name: string): number[] => new RegExp(`Name="${name}"[^>]*>([^<]*)<`).exec(vtu)![1].trim().split(/\s+/).map(Number);
      const bits = (a: number[]): string[] => a.map((x) => (Object.is(x, -0) ? '-0' : String(x)));
      expect(bits(row['/finger/dofs.position'].split(' ').map(Number))).to.deep.equal(bits(arr('Points')));
      expect(bits(row['/finger/dofs.velocity'].split(' ').map(Number))).to.deep.equal(bits(arr('velocity')));
    }
  });
});

async function expectReject(p: Promise<unknown>, re: RegExp): Promise<void> {
  let err: unknown;
  try {
    await p;
  } catch (e) {
    err = e;
  }
  expect(err, 'expected an error').to.be.instanceOf(Error);
  expect((err as Error).message).to.match(re);
}
