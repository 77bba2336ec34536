import { SofaError } from '@sofa-ts/core';

/**
 * `--record WHAT[:K]`: what a sweep keeps of each case, at the last step, or every K steps (step 0,
 * the state after init, included) and at the last step.
 *
 *   /node/object.field        a Data by scene path (a number, a text, or a vector of numbers)
 *   /node/object.field[i,j]   items i, j of a vector Data (points of a state: 3 numbers each for Vec3)
 *   states                    position and velocity of every mechanical state
 *   solver                    solver figures: ODE/linear iterations and residual, constraint
 *                             iterations, rows and max |λ| (summed or maxed over the solvers)
 *   energy                    kinetic and potential energy (J), as `sofa-ts run --plot` computes them
 *   wall                      wall time: load and steps (ms) at the end; with :K, each sampled step's ms
 */
export type RecordSpec =
  | { readonly kind: 'data'; readonly path: string; readonly select?: readonly number[]; readonly every: number; readonly text: string }
  | { readonly kind: 'states' | 'solver' | 'energy' | 'wall'; readonly every: number; readonly text: string };

const KEYWORDS = ['states', 'solver', 'energy', 'wall'] as const;

export function parseRecord(arg: string): RecordSpec {
  let text = arg.trim();
  let every = 0;
  const k = /^(.*):(\d+)$/.exec(text);
  if (k) {
    every = Number(k[2]);
    if (!Number.isSafeInteger(every) || every < 1) throw new SofaError(`--record '${arg}': K must be a positive integer`);
    text = k[1];
  }
  if ((KEYWORDS as readonly string[]).includes(text)) return { kind: text as (typeof KEYWORDS)[number], every, text };
  let path = text;
  let select: number[] | undefined;
  const sel = /^(.*)\[([0-9,\s]+)\]$/.exec(text);
  if (sel) {
    path = sel[1];
    select = sel[2].split(',').map((s) => Number(s.trim()));
    if (select.some((i) => !Number.isSafeInteger(i))) throw new SofaError(`--record '${arg}': [i,j,…] takes item indices`);
  }
  if (!/\.[^./[\]]+$/.test(path))
    throw new SofaError(
      `--record '${arg}': expected a Data path (/node/object.field), or one of ${KEYWORDS.join(', ')}, optionally followed by :K`,
    );
  return { kind: 'data', path, ...(select ? { select } : {}), every, text };
}
