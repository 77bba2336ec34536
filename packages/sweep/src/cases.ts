import { SofaError } from '@sofa-ts/core';
import { sampleValue, type ParamAxis, type ParamValue } from './param-spec.js';
import { Random } from './random.js';

/** Cases one sweep may have (checked before any is built). */
export const MAX_CASES = 10_000_000;

/** One case of a sweep: a value for every parameter, in the order the parameters were given. */
export interface SweepCase {
  /** Position in the sweep (grid index major, then sample index). */
  readonly index: number;
  readonly params: readonly { readonly path: string; readonly value: ParamValue }[];
}

/**
 * The cases of a sweep: the grid of the list and range parameters (the first one varies slowest)
 * times `samples` draws of the sampled ones (rand, lhs, …), the same draws at every grid point.
 * The draws come from one generator seeded with `seed`, parameter after parameter in the order
 * given: a Latin-hypercube parameter takes a random permutation of the `samples` strata and a
 * uniform position in each (McKay, Beckman and Conover, 1979), so each stratum [k/S, (k+1)/S) of
 * every such parameter holds exactly one case; a `rand` parameter takes independent draws.
 */
export function buildCases(axes: readonly ParamAxis[], samples: number | undefined, seed: number): SweepCase[] {
  const grid = axes.filter((a) => a.kind === 'grid');
  const sampled = axes.filter((a): a is Extract<ParamAxis, { kind: 'sample' }> => a.kind === 'sample');
  if (sampled.length > 0 && (samples === undefined || samples < 1))
    throw new SofaError(`--samples N is needed for the sampled parameters (${sampled.map((a) => a.path).join(', ')})`);
  if (sampled.length === 0 && samples !== undefined)
    throw new SofaError('--samples is for sampled parameters (rand:, logrand:, lhs:, loglhs:); none was given');
  const paths = new Set<string>();
  for (const a of axes) {
    if (paths.has(a.path)) throw new SofaError(`--param: '${a.path}' is given twice`);
    paths.add(a.path);
  }
  const s = sampled.length > 0 ? samples! : 1;
  if (s > MAX_CASES) throw new SofaError(`--samples ${s}: at most ${MAX_CASES} cases are run by one sweep`);
  const rng = new Random(seed);
  const draws = new Map<string, ParamValue[]>();
  for (const a of sampled) {
    if (a.lhs) {
      const perm = rng.permutation(s);
      draws.set(
        a.path,
        perm.map((k) => sampleValue(a, (k + rng.next()) / s)),
      );
    } else {
      draws.set(
        a.path,
        Array.from({ length: s }, () => sampleValue(a, rng.next())),
      );
    }
  }
  const gridSize = grid.reduce((n, a) => n * a.values.length, 1);
  if (gridSize * s > MAX_CASES) throw new SofaError(`the sweep has ${gridSize * s} cases; at most ${MAX_CASES} are run by one sweep`);
  const cases: SweepCase[] = [];
  for (let g = 0; g < gridSize; g++) {
    // grid point g → one value index per grid axis, the last axis fastest
    const pick = new Map<string, ParamValue>();
    let rest = g;
    for (let k = grid.length - 1; k >= 0; k--) {
      const a = grid[k];
      if (a.kind !== 'grid') continue;
      pick.set(a.path, a.values[rest % a.values.length]);
      rest = Math.floor(rest / a.values.length);
    }
    for (let j = 0; j < s; j++) {
      const params = axes.map((a) => ({ path: a.path, value: a.kind === 'grid' ? pick.get(a.path)! : draws.get(a.path)![j] }));
      cases.push({ index: cases.length, params });
    }
  }
  return cases;
}
