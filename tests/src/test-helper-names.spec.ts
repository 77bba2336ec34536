import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './corpus-test-support.js';

/**
 * The one naming rule of test helpers: a source file that only specs (and other helpers) import
 * is named `*test-support.ts`, so that the packages' `files` lists (`!src/**\/*test-support.ts`)
 * keep it out of the npm tarballs and the next engineer knows it from its name.
 */

const sourceFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? sourceFiles(path.join(dir, e.name))
        : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')
          ? [path.join(dir, e.name)]
          : [],
    );
const isTest = (f: string): boolean => /\.spec\.ts$|test-support\.ts$/.test(f);
/** Code of the npm tarballs: packages' sources other than tests (tests/ itself is never packed; its fuzz CLI may use the helpers). */
const isShipped = (f: string): boolean => !isTest(f) && !path.relative(repoRoot, f).startsWith(`tests${path.sep}`);

/** The files a file imports by a relative specifier ('./x.js', '../y/z.js'), as source paths. */
function relativeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g)].map((m) =>
    path.resolve(path.dirname(file), `${m[1]}.ts`),
  );
  return found.filter((f) => fs.existsSync(f));
}

describe('test helper names', () => {
  it('every source file imported by tests only is named *test-support.ts; every *test-support.ts is imported by tests only', () => {
    const roots = [
      ...fs.readdirSync(path.join(repoRoot, 'packages')).map((p) => path.join(repoRoot, 'packages', p, 'src')),
      path.join(repoRoot, 'tests', 'src'),
    ].filter((d) => fs.existsSync(d));
    const files = roots.flatMap(sourceFiles);
    const importers = new Map<string, string[]>();
    for (const f of files) for (const t of relativeImports(f)) importers.set(t, [...(importers.get(t) ?? []), f]);
    const misnamed: string[] = [],
      shipped: string[] = [];
    for (const f of files) {
      const by = importers.get(f) ?? [];
      if (by.length === 0) continue; // entry points (index.ts, bins) and specs
      if (by.every(isTest) && !isTest(f)) misnamed.push(path.relative(repoRoot, f));
      if (by.some(isShipped) && isTest(f))
        shipped.push(
          `${path.relative(repoRoot, f)} (imported by ${by
            .filter(isShipped)
            .map((b) => path.relative(repoRoot, b))
            .join(', ')})`,
        );
    }
    expect(misnamed, 'test helpers not named *test-support.ts').to.deep.equal([]);
    expect(shipped, 'helpers named *test-support.ts but used by shipped code').to.deep.equal([]);
  });
});
