import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './corpus-test-support.js';

/**
 * The house rule of docs/development.md: one concept per file, and a source file longer than
 * about 700 lines says in its header why it is one file (a line `Long file: <reason>` in its first
 * comment), so that the next engineer splits it or knows why not.
 */

const LIMIT = 700;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.(ts|mjs|py)$/.test(e.name) && !e.name.endsWith('.d.ts') && !e.name.endsWith('.wasm.ts')) out.push(p);
  }
  return out;
}

describe('source files: none over 700 lines without its reason in the header', () => {
  it(`every source file of packages/, tests/, scripts/ and benchmarks/ has at most ${LIMIT} lines or a "Long file:" line in its first 60`, () => {
    const long: string[] = [];
    for (const top of ['packages', 'tests/src', 'scripts', 'benchmarks']) {
      const dir = path.join(repoRoot, top);
      if (!fs.existsSync(dir)) continue;
      for (const file of sources(dir)) {
        const lines = fs.readFileSync(file, 'utf8').split('\n');
        if (lines.length <= LIMIT) continue;
        if (!lines.slice(0, 60).some((l) => /Long file: \S/.test(l))) long.push(`${path.relative(repoRoot, file)} (${lines.length} lines)`);
      }
    }
    expect(long, 'long files without a reason').to.deep.equal([]);
  });
});
