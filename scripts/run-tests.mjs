#!/usr/bin/env node
// Runs every compiled test (packages/*/dist/**/*.spec.js, examples, tests/) with mocha's spec
// reporter and ends with the line CI reads: `N passed, M failed`.
import Mocha from 'mocha';
import { globSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const patterns = ['packages/*/dist/**/*.spec.js', 'examples/*/dist/**/*.spec.js', 'tests/dist/**/*.spec.js'];
const files = patterns.flatMap((p) => globSync(p, { cwd: root })).sort().map((f) => path.join(root, f));
const grep = process.argv.indexOf('--grep');

const mocha = new Mocha({ reporter: 'spec', timeout: 120000, ...(grep > 0 ? { grep: process.argv[grep + 1] } : {}) });
for (const f of files) mocha.addFile(f);
await mocha.loadFilesAsync();
const runner = mocha.run((failures) => {
  const s = runner.stats ?? { passes: 0, failures };
  const pending = s.pending ? `, ${s.pending} skipped` : '';
  console.log(`${s.passes} passed, ${s.failures} failed${pending}`);
  process.exitCode = failures > 0 ? 1 : 0;
});
