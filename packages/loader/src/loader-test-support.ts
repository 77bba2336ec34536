// Helpers for the tests of this package (not part of the public API).
import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SceneElement } from '@sofa-ts/core';

/** Writes `files` (relative path -> content) under a fresh temporary folder; returns the folder. */
export function writeTempTree(files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-loader-'));
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return root;
}

export function removeTempTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** `name=value` pairs of an element, in order. */
export function attrs(element: SceneElement): string[] {
  return element.attributes.map((a) => `${a.name}=${a.value}`);
}

/** `line:column` of a location. */
export function at(loc: { line: number; column: number }): string {
  return `${loc.line}:${loc.column}`;
}

/** Runs `fn` and returns the error it throws (fails when it does not throw). */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

/** `line:column` of the first occurrence of `needle` in `text` (1-based; `\n` line breaks). */
export function posOf(text: string, needle: string): string {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`'${needle}' not in text`);
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

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
