import { createHash } from 'node:crypto';
import type { CaseLoadOptions } from './run-case.js';
import type { RecordSpec } from './record-spec.js';

/** What a case computes besides its parameters: the same for every case of a sweep. */
export interface SweepKey {
  /** bundleHash of the scene and the files it reads. */
  readonly sceneHash: string;
  readonly steps: number;
  readonly records: readonly RecordSpec[];
  readonly load: Pick<CaseLoadOptions, 'strict' | 'skipUnknown' | 'plugins'>;
}

/**
 * A case's identity: SHA-256 over the scene and every file it reads, the number of steps, what is
 * recorded, the loading rules and the parameters' attribute texts (path and text, in order). Two
 * runs with the same identity compute the same numbers, so a finished case is never run again on
 * resume, and a case is never counted twice (the queue's job id is this identity).
 */
export function caseId(key: SweepKey, params: readonly { readonly path: string; readonly text: string }[]): string {
  const h = createHash('sha256');
  h.update(
    JSON.stringify({
      v: 1,
      scene: key.sceneHash,
      steps: key.steps,
      records: key.records.map((r) => r.text + (r.every > 0 ? `:${r.every}` : '')),
      strict: Boolean(key.load.strict),
      skipUnknown: Boolean(key.load.skipUnknown),
      plugins: key.load.plugins ?? [],
      params: params.map((p) => [p.path, p.text]),
    }),
  );
  return h.digest('hex').slice(0, 32);
}
