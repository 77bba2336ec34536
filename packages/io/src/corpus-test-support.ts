// Test support of this package (not part of the public API).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * SOFA's regression corpus, found as tests/src/corpus.ts finds it: SOFA_REGRESSION_DIR, else
 * ../shared/sofa-regression beside the repository (the first folder above this file holding
 * packages/ and package.json). Specs that need it skip when it is absent.
 */
export function corpusRoot(): string {
  const fromEnv = process.env['SOFA_REGRESSION_DIR'];
  if (fromEnv) return fromEnv;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!(fs.existsSync(path.join(dir, 'packages')) && fs.existsSync(path.join(dir, 'package.json'))) && path.dirname(dir) !== dir)
    dir = path.dirname(dir);
  return path.resolve(dir, '..', 'shared', 'sofa-regression');
}
