import { expect } from 'chai';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { corpusRoot, hasCorpus, repoRoot } from './corpus-test-support.js';

/**
 * sofa-ts installed the npm way, outside the repository and without a registry that has sofa-ts:
 * the workspace packed into tarballs (scripts/pack.mjs), a plugin scaffolded with `--tarballs`, and
 * ONE `npm install` in it (third-party packages from npm's cache or registry). Every check below
 * uses that install: the plugin's own `npm test`, the installed `sofa-ts` command running
 * Demos/liver.scn and the plugin's scene, listing the plugin's component, scaffolding again.
 * Skipped only when npm itself cannot run.
 */

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// npm's configuration from an enclosing `npm test` (npm_config_*, npm_package_*) must not leak in.
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))), NO_COLOR: '1' };

function run(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
}
function ok(r: SpawnSyncReturns<string>, what: string): string {
  expect(r.status, `${what} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}\n${r.stderr}`).to.equal(0);
  return r.stdout;
}

describe('sofa-ts from packed tarballs, installed with a scaffolded plugin outside the repository', function () {
  this.timeout(900000);
  const hasNpm = run(npm, ['--version'], os.tmpdir()).status === 0;
  let dir = '';
  let plugin = '';
  let install: SpawnSyncReturns<string> | undefined;
  const sofaTs = (...args: string[]): SpawnSyncReturns<string> =>
    run(process.execPath, [path.join(plugin, 'node_modules', '@sofa-ts', 'cli', 'bin', 'sofa-ts.js'), ...args], plugin);

  before(function () {
    if (!hasNpm) {
      console.log('    (skipped: npm is not available on this machine, the tarballs cannot be packed or installed)');
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-install-'));
    ok(run(process.execPath, [path.join(repoRoot, 'scripts/pack.mjs'), '--out', path.join(dir, 'tarballs')], repoRoot), 'npm pack');
    ok(
      run(
        process.execPath,
        [
          path.join(repoRoot, 'packages/cli/bin/sofa-ts.js'),
          'new',
          'plugin',
          'sofa-ts-plugin-drag',
          '--kind',
          'forcefield',
          '--dir',
          dir,
          '--tarballs',
          path.join(dir, 'tarballs'),
        ],
        repoRoot,
      ),
      'sofa-ts new plugin',
    );
    plugin = path.join(dir, 'sofa-ts-plugin-drag');
    install = run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund'], plugin);
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('npm install of the plugin gets sofa-ts from the tarballs, into the temporary folder, and builds the plugin', () => {
    ok(install!, 'npm install');
    expect(path.relative(repoRoot, plugin).startsWith('..')).to.equal(true);
    const req = createRequire(path.join(plugin, 'noop.js'));
    for (const p of ['sofa-ts', '@sofa-ts/core', '@sofa-ts/cli', '@sofa-ts/mechanics']) {
      const resolved = fs.realpathSync(req.resolve(p));
      expect(resolved.startsWith(fs.realpathSync(plugin) + path.sep), `${p} → ${resolved}`).to.equal(true);
    }
    expect(fs.existsSync(path.join(plugin, 'dist', 'index.js')), 'prepare built the plugin').to.equal(true);
    const pkg = JSON.parse(fs.readFileSync(path.join(plugin, 'package.json'), 'utf8'));
    expect(pkg.devDependencies['@sofa-ts/core']).to.match(/^file:\.\.\/tarballs\/sofa-ts-core-\d+\.\d+\.\d+\.tgz$/);
  });

  it('every installed package has exports, types and its declared files, and ships no tests', () => {
    const modules = path.join(plugin, 'node_modules');
    const names = ['sofa-ts', ...fs.readdirSync(path.join(modules, '@sofa-ts')).map((n) => `@sofa-ts/${n}`)];
    expect(names.length).to.equal(fs.readdirSync(path.join(repoRoot, 'packages')).length);
    for (const n of names) {
      const root = path.join(modules, n);
      const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
      expect(pkg.exports['.'], n).to.deep.equal({ types: './dist/index.d.ts', default: './dist/index.js' });
      expect(fs.existsSync(path.join(root, pkg.types)), `${n} types`).to.equal(true);
      const files = (d: string): string[] =>
        fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(d, e.name)) : [e.name]));
      expect(
        files(root).filter((f) => /\.spec\.(js|ts|d\.ts)$|\.spec\.js\.map$|test-support/.test(f)),
        n,
      ).to.deep.equal([]);
    }
    expect(fs.existsSync(path.join(plugin, 'node_modules', '.bin', 'sofa-ts'))).to.equal(true);
    // the scene schema for editors (docs/editors.md), written when the CLI package is packed
    const schema = path.join(modules, '@sofa-ts', 'cli', 'schema');
    expect(fs.readFileSync(path.join(schema, 'sofa-ts.xsd'), 'utf8')).to.contain('<xs:element name="MechanicalObject">');
    expect(JSON.parse(fs.readFileSync(path.join(schema, 'sofa-ts.json'), 'utf8')).components.length).to.be.greaterThan(400);
  });

  it('npm test of the scaffolded plugin passes there (K by finite differences, the hanging equilibrium)', () => {
    const out = ok(run(npm, ['test'], plugin), 'npm test');
    expect(out).to.match(/2 passing/);
  });

  it('the installed sofa-ts command runs the plugin scene and documents its component', () => {
    const r = ok(sofaTs('run', 'scenes/sofa-ts-plugin-drag.scn', '-n', '50'), 'sofa-ts run');
    expect(r).to.match(/steps\s+50 × dt 0.01 s/);
    const c = ok(sofaTs('components', 'DragForceField', '--plugin', 'sofa-ts-plugin-drag'), 'sofa-ts components');
    expect(c).to.contain('package    sofa-ts-plugin-drag');
    expect(c).to.contain('restLength');
    const docs = path.join(dir, 'reference');
    ok(sofaTs('docs', '--out', docs, '--plugin', 'sofa-ts-plugin-drag', '--only-plugins'), 'sofa-ts docs');
    expect(fs.readdirSync(docs).sort()).to.deep.equal(['DragForceField.md', 'README.md']);
  });

  it('the installed sofa-ts command runs Demos/liver.scn of the SOFA corpus', function () {
    if (!hasCorpus) this.skip();
    const examples = path.join(corpusRoot, 'sofa', 'examples');
    const r = ok(
      sofaTs(
        'run',
        path.join(examples, 'Demos', 'liver.scn'),
        '-n',
        '20',
        '--data-path',
        path.join(corpusRoot, 'sofa', 'share'),
        '--data-path',
        examples,
      ),
      'sofa-ts run liver.scn',
    );
    expect(r).to.match(/steps\s+20 × dt 0.02 s → t = 0.4 s/);
    expect(r).to.match(/EulerImplicitSolver/);
  });

  it('the installed CLI scaffolds another plugin (the templates are in its tarball)', () => {
    ok(
      sofaTs('new', 'plugin', 'sofa-ts-plugin-gel', '--kind', 'mass', '--dir', dir, '--tarballs', path.join(dir, 'tarballs')),
      'sofa-ts new plugin',
    );
    expect(fs.existsSync(path.join(dir, 'sofa-ts-plugin-gel', 'src', 'GelMass.ts'))).to.equal(true);
  });
});
