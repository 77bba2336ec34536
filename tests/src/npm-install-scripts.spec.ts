/**
 * `npm ci` prints no warning of ours: npm 11 blocks dependencies' install scripts and warns about
 * every one that package.json's allowScripts does not cover. Ours are denied, because what they do
 * is not needed: esbuild's postinstall checks (or downloads) the binary that its platform package
 * (@esbuild/linux-x64 …) already installs, and msgpackr-extract's builds the native extension
 * that its prebuilt platform package already holds; zeromq's (an optional dependency of
 * @sofa-ts/softrobots) builds the addon that its package ships prebuilt in build/<platform>/ (the
 * CommunicationController tests exchange messages through it). (lerna, whose nx had a third one, was unused
 * and is no longer a dependency.) These tests check both halves: nothing is left uncovered, and
 * what the denied scripts would have provided works.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { repoRoot } from './corpus-test-support.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('npm install scripts (npm ci without warnings)', function () {
  this.timeout(120000);

  it('allowScripts covers every dependency with an install script', function () {
    const version = spawnSync(npm, ['--version'], { encoding: 'utf8' });
    const major = Number(version.stdout?.split('.')[0]);
    if (version.error || !(major >= 11)) {
      console.log(`    skipped: npm ${version.stdout?.trim() || '(not found)'} has no allowScripts (npm 11 and later)`);
      this.skip();
    }
    const r = spawnSync(npm, ['install-scripts', 'ls'], { cwd: repoRoot, encoding: 'utf8' });
    if (/Unknown command/i.test(r.stderr + r.stdout)) {
      console.log(`    skipped: npm ${version.stdout.trim()} has no install-scripts command`);
      this.skip();
    }
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('No packages with unreviewed install scripts.');
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    expect(pkg.allowScripts).to.deep.equal({ esbuild: false, 'msgpackr-extract': false, zeromq: false });
  });

  it('esbuild works without its postinstall, and msgpackr loads the prebuilt extension without its install script', async () => {
    const require = createRequire(path.join(repoRoot, 'packages', 'viewer', 'package.json'));
    const esbuild = (await import(require.resolve('esbuild'))) as { transformSync(code: string, o: { loader: string }): { code: string } };
    expect(esbuild.transformSync('const x: number = 1; export { x };', { loader: 'ts' }).code).to.match(/const x = 1;/);
    const bullmq = createRequire(require.resolve('bullmq'));
    const msgpackr = createRequire(bullmq.resolve('msgpackr'));
    const extract = msgpackr('msgpackr-extract') as { extractStrings?: unknown };
    expect(typeof extract.extractStrings).to.equal('function');
  });
});
