import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './corpus-test-support.js';

const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');
const packageVersion = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'packages/sofa-ts/package.json'), 'utf8')) as { version: string })
  .version;

/** Every Markdown file of the README and docs/ (not the generated component pages). */
function docFiles(): string[] {
  const out = [path.join(repoRoot, 'README.md')];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  walk(path.join(repoRoot, 'docs'));
  return out;
}

/** The scripts a user is told to run: those the README and docs name, and the `node X` of every
 *  npm script of the root package.json (`npm run bench` runs benchmarks/run.mjs). */
function documentedScripts(): string[] {
  const text = docFiles()
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');
  const scripts = new Set<string>();
  for (const m of text.matchAll(/\b((?:benchmarks|scripts|tests\/dist)\/[\w./-]+\.m?js)\b/g)) scripts.add(m[1]);
  const npmScripts = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  for (const command of Object.values(npmScripts)) {
    for (const n of command.matchAll(/\bnode ((?:benchmarks|scripts|tests\/dist)\/[\w./-]+\.m?js)/g)) scripts.add(n[1]);
  }
  return [...scripts].sort();
}

describe("sofa-ts --version and the scripts' --help", () => {
  it('sofa-ts --version prints the version of the sofa-ts package', () => {
    for (const flag of ['--version', '-V']) {
      const r = spawnSync(process.execPath, [bin, flag], { encoding: 'utf8' });
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.equal(`sofa-ts ${packageVersion} (Node ${process.version})\n`);
    }
  });

  it("run's summary and the JSON of regression and check name the version", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-version-'));
    const r = spawnSync(process.execPath, [bin, 'run', 'scenes/default.scn', '-n', '2'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.contain(`sofa-ts      ${packageVersion} (Node ${process.version})`);
    const json = path.join(dir, 'check.json');
    const c = spawnSync(process.execPath, [bin, 'check', 'scenes/default.scn', '-n', '1', '-j', '1', '--json', json], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(c.status, c.stderr).to.equal(0);
    expect((JSON.parse(fs.readFileSync(json, 'utf8')) as { sofaTs: string }).sofaTs).to.equal(packageVersion);
  });

  const scripts = documentedScripts();
  it('the docs and npm scripts name the benchmark, test and fuzz scripts', () => {
    for (const s of [
      'benchmarks/run.mjs',
      'benchmarks/contact.mjs',
      'benchmarks/sweep.mjs',
      'scripts/run-tests.mjs',
      'scripts/pack.mjs',
      'tests/dist/fuzz/cli.js',
    ])
      expect(scripts).to.include(s);
  });

  for (const script of scripts) {
    it(`node ${script} --help prints its usage and does nothing else`, () => {
      // In an empty folder: a script that started its job instead would write there (out/...) or
      // run for minutes (the timeout).
      const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-help-'));
      const r = spawnSync(process.execPath, [path.join(repoRoot, script), '--help'], { cwd, encoding: 'utf8', timeout: 20000 });
      expect(r.error, `${script} --help did not end within 20 s`).to.equal(undefined);
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.match(/^usage: node /);
      expect(r.stdout).to.contain('--help');
      expect(fs.readdirSync(cwd)).to.deep.equal([]);
    });
  }
});
