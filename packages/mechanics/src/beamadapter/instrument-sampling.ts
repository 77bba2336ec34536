import type { WireRestShape } from './WireRestShape.js';

/**
 * The deployed abscissae of nested instruments (BeamAdapter's computeInstrumentsCurvAbs and
 * sortCurvAbs), measured from the base: 0, then per instrument i (covering [b_i, b_i + ℓ_i]) and
 * per section [k_j, k_{j+1}] of n_j beams, its key point b_i + k_j when > 0 and, over the part of
 * the section beyond the last abscissa sampled so far (s, shared by the instruments in order),
 * ⌊(b_i + k_{j+1} − s)·n_j/(k_{j+1} − k_j)⌋ nodes spaced (k_{j+1} − k_j)/n_j back from b_i + k_{j+1};
 * then its tip when > 0. Sorted; an abscissa closer than `threshold` to the last one kept is dropped.
 */
export function samplingAbscissae(shapes: readonly WireRestShape[], begins: readonly number[], threshold: number): number[] {
  const out: number[] = [0];
  let sampled = 0;
  for (let i = 0; i < shapes.length; i++) {
    const keys = shapes[i].sectionKeys,
      b = begins[i];
    for (let j = 0; j + 1 < keys.length; j++) {
      const a = b + keys[j],
        e = b + keys[j + 1];
      if (a > 0) out.push(a);
      const interval = e - sampled;
      if (interval > 0) {
        const len = keys[j + 1] - keys[j],
          density = shapes[i].sectionAt(j).nbBeams.value;
        if (len <= 0 || density === 0) {
          sampled = e;
          continue;
        }
        const ratio = density / len;
        for (let k = Math.floor(interval * ratio); k > 0; k--) out.push(e - k / ratio);
        sampled = e;
      }
    }
    const tip = b + keys[keys.length - 1];
    if (tip > 0) out.push(tip);
  }
  out.sort((p, q) => p - q);
  const kept: number[] = [];
  for (const v of out) if (kept.length === 0 || Math.abs(v - kept[kept.length - 1]) >= threshold) kept.push(v);
  return kept;
}

/** For each abscissa, the instruments covering it within `threshold` (BeamAdapter's fillInstrumentCurvAbsTable). */
export function instrumentsAt(curv: readonly number[], begins: readonly number[], ends: readonly number[], threshold: number): number[][] {
  const table: number[][] = curv.map(() => []);
  for (let id = 0; id < begins.length; id++) {
    const lo = begins[id] - threshold,
      hi = ends[id] + threshold;
    for (let i = 0; i < curv.length; i++) {
      if (curv[i] < lo) continue;
      if (curv[i] > hi) break;
      table[i].push(id);
    }
  }
  return table;
}

/**
 * The abscissae the new nodes had at the last step (BeamAdapter's totalLengthIsChanging): when the
 * deployed length changed by Δ (more than `threshold`), a node carried by one instrument only was at
 * s − Δ (the instrument slides through the base), never before the node ahead of it.
 */
export function slideUnsharedNodes(
  curv: readonly number[],
  previous: readonly number[],
  table: readonly number[][],
  threshold: number,
): number[] {
  const out = [...curv];
  const d = curv[curv.length - 1] - previous[previous.length - 1];
  if (Math.abs(d) <= threshold) return out;
  for (let i = 0; i < table.length; i++) {
    if (table[i].length !== 1) continue;
    out[i] -= d;
    if (i > 1 && out[i] < out[i - 1]) out[i] = out[i - 1];
  }
  return out;
}
