import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './corpus-test-support.js';

// The mathematics that has one home (docs/architecture.md): the Hamilton product and the 3×3
// inverse live in linalg, and a component calls them instead of writing them out again. A second
// copy drifts: its summation order differs, and the two give different bits for the same rotation.

/** Every non-test TypeScript source of the packages, with its path relative to the repository. */
function sources(): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !e.name.includes('test-support') && !e.name.endsWith('.d.ts'))
        out.push({ file: path.relative(repoRoot, p), text: fs.readFileSync(p, 'utf8') });
    }
  };
  const packages = path.join(repoRoot, 'packages');
  for (const pkg of fs.readdirSync(packages)) {
    const src = path.join(packages, pkg, 'src');
    if (fs.existsSync(src)) walk(src);
  }
  return out;
}

/** The files (other than `home`) with a line matching one of `patterns`, as `file:line`. */
function copiesOutside(home: string, patterns: readonly RegExp[]): string[] {
  const found: string[] = [];
  for (const { file, text } of sources()) {
    if (file === home) continue;
    text.split('\n').forEach((line, i) => {
      if (patterns.some((p) => p.test(line))) found.push(`${file}:${i + 1}`);
    });
  }
  return found;
}

describe('one home for the small mathematics', () => {
  it("the Hamilton product is written only in linalg's quaternion.ts", () => {
    // the first component of a ⊗ b, w_a·x_b + x_a·w_b, in the spellings the sources use
    const patterns = [
      /\b(\w*)w \* (\w*)x \+ \1x \* \2w\b/, // aw * bx + ax * bw
      /\b(\w+)\[(\w+ \+ )?3\] \* (\w+)\[(\w+ \+ )?0\] \+ \1\[(\w+ \+ )?0\] \* \3\[(\w+ \+ )?3\]/, // a[3] * b[0] + a[0] * b[3]
    ];
    expect(copiesOutside(path.join('packages', 'linalg', 'src', 'quaternion.ts'), patterns)).to.deep.equal([]);
  });

  it("a 3×3 inverse is declared only in linalg's dense.ts", () => {
    const patterns = [/function\s+(invert3|inverse3|inv3|mat3Inv\w*|invert3x3|inverse3x3)\s*\(/];
    expect(copiesOutside(path.join('packages', 'linalg', 'src', 'dense.ts'), patterns)).to.deep.equal([]);
  });
});
