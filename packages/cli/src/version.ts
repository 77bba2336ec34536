import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The version of the installed sofa-ts (its package.json), printed by `--version`, in `run`'s
 *  summary and in the JSON files the commands write. */
export const SOFA_TS_VERSION: string = (require('sofa-ts/package.json') as { version: string }).version;

/** `sofa-ts 0.1.0 (Node v20.19.0)`: what `--version` prints. */
export function versionLine(): string {
  return `sofa-ts ${SOFA_TS_VERSION} (Node ${process.version})`;
}
