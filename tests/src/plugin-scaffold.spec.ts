import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PLUGIN_DEV_DEPENDENCIES, PLUGIN_KINDS, scaffoldPlugin, type PluginKind } from '@sofa-ts/cli';
import { repoRoot } from './corpus-test-support.js';

/**
 * `sofa-ts new plugin NAME --kind KIND`: a scaffold of every kind, written outside the repository,
 * builds (one `tsc -b` over the ten packages) and passes its own test (their specs run by one
 * mocha process, results read per kind). The packages resolve sofa-ts through a node_modules link
 * to this repository's; the packed-tarball install of plugin-install.spec.ts does it the npm way.
 */

const kinds = Object.keys(PLUGIN_KINDS) as PluginKind[];
const bin = path.join(repoRoot, 'packages/cli/bin/sofa-ts.js');

interface MochaJson {
  tests: Array<{ fullTitle: string; file: string; err: { message?: string } }>;
  failures: Array<{ fullTitle: string; file: string; err: { message?: string } }>;
}

describe('sofa-ts new plugin: a scaffold of each kind builds and passes its own test', function () {
  this.timeout(600000);
  let dir = '';
  let build: ReturnType<typeof spawnSync>;
  let results: MochaJson = { tests: [], failures: [] };
  const folder = (k: PluginKind): string => path.join(dir, `sofa-ts-plugin-demo-${k}`);

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-scaffold-'));
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    for (const k of kinds) scaffoldPlugin(`sofa-ts-plugin-demo-${k}`, { kind: k, dir });
    build = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', ...kinds.map(folder)], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (build.status !== 0) return;
    const specs = kinds.flatMap((k) =>
      fs
        .readdirSync(path.join(folder(k), 'dist'))
        .filter((f) => f.endsWith('.spec.js'))
        .map((f) => path.join(folder(k), 'dist', f)),
    );
    const run = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'node_modules/mocha/bin/mocha.js'), '--reporter', 'json', '--timeout', '60000', ...specs],
      { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    const json = run.stdout.slice(run.stdout.indexOf('{'));
    results = JSON.parse(json) as MochaJson;
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const k of kinds) {
    it(`${k}: ${PLUGIN_KINDS[k].summary}`, () => {
      expect(build.status, `tsc -b failed:\n${build.stdout}${build.stderr}`).to.equal(0);
      const mine = (t: { file: string }): boolean => t.file.startsWith(folder(k) + path.sep);
      const failed = results.failures.filter(mine);
      expect(failed.map((f) => `${f.fullTitle}: ${f.err.message}`)).to.deep.equal([]);
      expect(results.tests.filter(mine).length, 'tests run').to.be.at.least(1);
    });
  }

  it('package.json: a sofa-ts plugin (the field RequiredPlugin checks), exports, types, files, peers by version', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(folder('actuator'), 'package.json'), 'utf8'));
    expect(pkg['sofa-ts']).to.deep.equal({ plugin: true });
    expect(pkg.exports['.']).to.deep.equal({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(pkg.types).to.equal('./dist/index.d.ts');
    expect(pkg.files).to.include.members(['dist', 'scenes', '!dist/**/*.spec.*']);
    expect(pkg.peerDependencies).to.deep.equal({ '@sofa-ts/core': '^0.1.0', '@sofa-ts/softrobots': '^0.1.0' });
    expect(pkg.devDependencies).to.include({ 'sofa-ts': '^0.1.0', '@sofa-ts/cli': '^0.1.0', '@sofa-ts/core': '^0.1.0' });
    expect(pkg.scripts.test).to.equal('tsc -p . && mocha "dist/**/*.spec.js"');
    const scene = fs.readFileSync(path.join(folder('actuator'), 'scenes', 'sofa-ts-plugin-demo-actuator.scn'), 'utf8');
    expect(scene).to.contain('<RequiredPlugin pluginName="sofa-ts-plugin-demo-actuator"/>');
    expect(scene).to.contain('<DemoActuator ');
  });

  it("the scaffold's TypeScript and test tools are the versions this repository builds with", () => {
    const root = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    for (const [name, range] of Object.entries(PLUGIN_DEV_DEPENDENCIES)) expect(range, name).to.equal(root.devDependencies[name]);
  });

  it('the example plugin declares itself a sofa-ts plugin the same way', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'examples/plugin-example/package.json'), 'utf8'));
    expect(pkg['sofa-ts']).to.deep.equal({ plugin: true });
  });

  it('the command refuses an invalid package name, an unknown kind, a taken component name and a non-empty folder', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-new-'));
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [bin, ...args], { cwd: tmp, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    try {
      const bad = cli('new', 'plugin', 'My Plugin');
      expect(bad.status).to.equal(1);
      expect(bad.stderr).to.contain("'My Plugin' is not a valid npm package name");
      const kind = cli('new', 'plugin', 'p', '--kind', 'spring');
      expect(kind.status).to.not.equal(0);
      expect(kind.stderr).to.contain("argument 'spring' is invalid");
      const taken = cli('new', 'plugin', 'base', '--kind', 'forcefield');
      expect(taken.status).to.equal(1);
      expect(taken.stderr).to.contain("the component name 'BaseForceField' is taken");
      const ok = cli('new', 'plugin', '@lab/sofa-ts-plugin-gel', '--kind', 'mass');
      expect(ok.status, ok.stderr).to.equal(0);
      expect(fs.readdirSync(path.join(tmp, 'sofa-ts-plugin-gel', 'src')).sort()).to.deep.equal([
        'GelMass.spec.ts',
        'GelMass.ts',
        'index.ts',
      ]);
      expect(JSON.parse(fs.readFileSync(path.join(tmp, 'sofa-ts-plugin-gel', 'package.json'), 'utf8')).name).to.equal(
        '@lab/sofa-ts-plugin-gel',
      );
      const again = cli('new', 'plugin', '@lab/sofa-ts-plugin-gel', '--kind', 'mass');
      expect(again.status).to.equal(1);
      expect(again.stderr).to.contain('exists and is not empty');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
