/**
 * What a mutant did. Acceptable: it ran (finite states), stopped with a located error, or was
 * stopped by the divergence guard. Defects: a JavaScript exception that is not a scene error
 * (`internal`), a dead worker (`crash`: V8 fatal error, memory cap), a hang (`timeout`), a run
 * that ends with a non-finite state (`silent-nan`); an error without a location is reported too.
 * A mutant that loaded a large problem (at least LARGE_PROBLEM_DOFS degrees of freedom, e.g. a grid
 * scaled 1000×: bounded, just long) and is still stepping at the time limit is `slow`, not a hang;
 * so is one that answers, or makes progress, on a second try five times as long. A hang is a mutant
 * that does neither.
 */
export const LARGE_PROBLEM_DOFS = 20_000;

export type FuzzClass = 'ran' | 'located-error' | 'diverged' | 'slow' | 'unlocated-error' | 'internal' | 'crash' | 'timeout' | 'silent-nan';

export const defectClasses: readonly FuzzClass[] = ['internal', 'crash', 'timeout', 'silent-nan'];

export interface FuzzJob {
  id: number;
  text: string;
  fileName: string;
  dataPaths: string[];
  steps: number;
}

export interface FuzzOutcome {
  kind: FuzzClass;
  message?: string;
  stack?: string | undefined;
}
