/**
 * results.parquet read by DuckDB (@duckdb/node-api), a Parquet reader that shares no code with the
 * writer (hyparquet-writer) nor with hyparquet: its column types, the recorded values (the closed
 * form of implicit Euler for a falling ball), and the key-value metadata of the sweep.
 */
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseParam } from './param-spec.js';
import { parseRecord } from './record-spec.js';
import { runSweep } from './sweep.js';
import { BALL_SCENE, repoRoot } from './results-test-support.js';

describe('sweep results.parquet read by DuckDB', function () {
  this.timeout(240000);

  it('columns, values and metadata as DuckDB reads them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-sweep-duckdb-'));
    const scene = path.join(dir, 'ball.scn');
    fs.writeFileSync(scene, BALL_SCENE);
    const s = await runSweep({
      scene,
      params: [parseParam('/root.gravity=0 {lin:-20:0:5} 0')],
      steps: 10,
      records: [parseRecord('/ball/dofs.position:5')],
      out: path.join(dir, 'out'),
      threads: 1,
    });
    expect(s.ok).to.equal(5);
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      const file = s.files.parquet.replace(/'/g, "''");
      const schema = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`))
        .getRowObjectsJS()
        .map((r) => [r['column_name'], r['column_type']]);
      expect(schema).to.deep.include.members([
        ['/root.gravity', 'DOUBLE'],
        ['step', 'INTEGER'],
        ['time', 'DOUBLE'],
        ['/ball/dofs.position', 'DOUBLE[]'],
      ]);
      const rows = (
        await c.runAndReadAll(
          `SELECT "/root.gravity" AS g, step, time, "/ball/dofs.position" AS x FROM read_parquet('${file}') ORDER BY g, step`,
        )
      ).getRowObjectsJS();
      expect(rows).to.have.length(15);
      const h = 0.01;
      for (const r of rows) {
        const g = r['g'] as number,
          n = Number(r['step']);
        const y = (r['x'] as number[])[1];
        // implicit Euler from rest: y_n = h² g n (n + 1) / 2
        const exact = (h * h * g * n * (n + 1)) / 2;
        expect(Math.abs(y - exact)).to.be.at.most(1e-14 * Math.max(1, Math.abs(exact)));
        expect(r['time'] as number).to.be.closeTo(n * h, 1e-15);
      }
      expect(rows.map((r) => r['g'])).to.deep.equal([-20, -20, -20, -15, -15, -15, -10, -10, -10, -5, -5, -5, 0, 0, 0]);
      const meta = (
        await c.runAndReadAll(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${file}')`)
      ).getRowObjectsJS();
      const sweep = meta.find((m) => m['k'] === 'sofa-ts.sweep');
      const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'packages/sofa-ts/package.json'), 'utf8')) as { version: string })
        .version;
      expect(JSON.parse(sweep!['v'] as string)).to.include({ sofaTs: version, steps: 10 });
    } finally {
      c.closeSync();
      db.closeSync();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
