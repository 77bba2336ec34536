#!/usr/bin/env node
// Packs every package of packages/ into tarballs (npm pack), for installing sofa-ts without a
// registry: `npm install ./sofa-ts-*.tgz` in any folder gives the packages and the `sofa-ts` command.
//   node scripts/pack.mjs [--out DIR]      (default out/tarballs; run `tsc -b` first: npm run pack:tarballs does)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node scripts/pack.mjs [--out DIR]
Packs every package of packages/ into tarballs (npm pack) for installing sofa-ts without a registry
(run tsc -b first: npm run pack:tarballs does).
  --out DIR     folder of the tarballs (default out/tarballs)
  -h, --help    print this and exit`);
  process.exit(0);
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const i = process.argv.indexOf('--out');
const out = path.resolve(i > 0 ? process.argv[i + 1] : path.join(root, 'out', 'tarballs'));
const packages = fs
  .readdirSync(path.join(root, 'packages'))
  .filter((d) => fs.existsSync(path.join(root, 'packages', d, 'package.json')))
  .sort();
for (const p of packages) {
  if (!fs.existsSync(path.join(root, 'packages', p, 'dist', 'index.js'))) {
    console.error(`packages/${p} is not built (run npm run build first)`);
    process.exit(1);
  }
}
fs.mkdirSync(out, { recursive: true });
for (const f of fs.readdirSync(out)) if (/^sofa-ts.*\.tgz$/.test(f)) fs.rmSync(path.join(out, f));
// npm's own configuration from an enclosing `npm run` (npm_config_*, npm_package_*) must not leak in.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const r = spawnSync(npm, ['pack', ...packages.flatMap((p) => ['-w', `packages/${p}`]), '--pack-destination', out, '--silent'], {
  cwd: root,
  env,
  encoding: 'utf8',
});
if (r.status !== 0) {
  console.error(r.error ? `npm pack could not run: ${r.error.message}` : r.stderr);
  process.exit(1);
}
const made = fs
  .readdirSync(out)
  .filter((f) => f.endsWith('.tgz'))
  .sort();
console.log(`${made.length} tarballs in ${path.relative(process.cwd(), out) || '.'}:\n${made.map((f) => `  ${f}`).join('\n')}`);
console.log(`install them anywhere: npm install ${path.join(path.relative(process.cwd(), out) || '.', 'sofa-ts-*.tgz')}`);
