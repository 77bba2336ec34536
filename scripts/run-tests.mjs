#!/usr/bin/env node
// Runs every compiled test (packages/*/dist/**/*.spec.js, examples, tests/) with mocha's spec
// reporter and ends with the line CI reads: `N passed, M failed`.
import Mocha from 'mocha';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node scripts/run-tests.mjs [--grep TEXT]
Runs every compiled test (packages/*/dist, examples/*/dist, tests/dist; build first: npm test does)
and ends with the line \`N passed, M failed\`.
  --grep TEXT   only the tests whose full title matches TEXT
  -h, --help    print this and exit`);
  process.exit(0);
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// Compiled spec files under packages/*/dist, examples/*/dist and tests/dist (fs.globSync needs Node 22).
function specsUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? specsUnder(p) : e.name.endsWith('.spec.js') ? [p] : [];
  });
}
const distDirs = ['packages', 'examples'].flatMap((top) =>
  fs
    .readdirSync(path.join(root, top), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.join(root, top, e.name, 'dist')),
);
const files = [...distDirs, path.join(root, 'tests', 'dist')].flatMap(specsUnder).sort();
const grep = process.argv.indexOf('--grep');

// The tests' temporary folders (os.tmpdir() here, in the programs they start and in python3) go
// into one folder of this run, removed at its end: a folder a test leaves, or one a stopped worker
// could not remove, does not pile up in the system's.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-tests-'));
process.env.TMPDIR = scratch;

const mocha = new Mocha({ reporter: 'spec', timeout: 120000, ...(grep > 0 ? { grep: process.argv[grep + 1] } : {}) });
for (const f of files) mocha.addFile(f);
await mocha.loadFilesAsync();
const runner = mocha.run((failures) => {
  try {
    fs.rmSync(scratch, { recursive: true, force: true });
  } catch (e) {
    console.error(`warning: the tests' temporary folder ${scratch} is not removed: ${e.message}`);
  }
  const s = runner.stats ?? { passes: 0, failures };
  const pending = s.pending ? `, ${s.pending} skipped` : '';
  console.log(`${s.passes} passed, ${s.failures} failed${pending}`);
  process.exitCode = failures > 0 ? 1 : 0;
});
