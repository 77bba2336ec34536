import type { WireRestShape } from './WireRestShape.js';

/**
 * Deployed nodes of nested instruments, refilled at each step (no allocation once grown): their
 * abscissae from the base, and for each the first (outermost) instrument covering it and how many do.
 */
export class NodeTable {
  abs = new Float64Array(16);
  first = new Int32Array(16);
  count = new Int32Array(16);
  n = 0;

  /** Room for m nodes (grows, keeping nothing). */
  reserve(m: number): void {
    if (this.abs.length >= m) return;
    const c = Math.max(m, 2 * this.abs.length);
    this.abs = new Float64Array(c);
    this.first = new Int32Array(c);
    this.count = new Int32Array(c);
  }

  /** The abscissae in use. */
  get abscissae(): Float64Array {
    return this.abs.subarray(0, this.n);
  }
}

/** Most abscissae samplingAbscissae can write for these instruments. */
export function samplingCapacity(shapes: readonly WireRestShape[]): number {
  let m = 1;
  for (const s of shapes) m += s.totalBeams + 2 * s.sectionCount + 2;
  return m;
}

/**
 * The deployed abscissae of nested instruments (BeamAdapter's computeInstrumentsCurvAbs and
 * sortCurvAbs), measured from the base, into t.abs (t.n of them): 0, then per instrument i
 * (covering [b_i, b_i + ℓ_i]) and per section [k_j, k_{j+1}] of n_j beams, its key point b_i + k_j
 * when > 0 and, over the part of the section beyond the last abscissa sampled so far (s, shared by
 * the instruments in order), ⌊(b_i + k_{j+1} − s)·n_j/(k_{j+1} − k_j)⌋ nodes spaced
 * (k_{j+1} − k_j)/n_j back from b_i + k_{j+1}; then its tip when > 0. Sorted; an abscissa closer
 * than `threshold` to the last one kept is dropped.
 */
export function samplingAbscissae(shapes: readonly WireRestShape[], begins: ArrayLike<number>, threshold: number, t: NodeTable): void {
  t.reserve(samplingCapacity(shapes));
  const out = t.abs;
  let n = 0;
  out[n++] = 0;
  let sampled = 0;
  for (let i = 0; i < shapes.length; i++) {
    const keys = shapes[i].sectionKeys,
      b = begins[i];
    for (let j = 0; j + 1 < keys.length; j++) {
      const a = b + keys[j],
        e = b + keys[j + 1];
      if (a > 0) out[n++] = a;
      const interval = e - sampled;
      if (interval > 0) {
        const len = keys[j + 1] - keys[j],
          density = shapes[i].sectionAt(j).nbBeams.value;
        if (len <= 0 || density === 0) {
          sampled = e;
          continue;
        }
        const ratio = density / len;
        for (let k = Math.floor(interval * ratio); k > 0; k--) out[n++] = e - k / ratio;
        sampled = e;
      }
    }
    const tip = b + keys[keys.length - 1];
    if (tip > 0) out[n++] = tip;
  }
  out.subarray(0, n).sort();
  let kept = 0;
  for (let k = 0; k < n; k++) if (kept === 0 || Math.abs(out[k] - out[kept - 1]) >= threshold) out[kept++] = out[k];
  t.n = kept;
}

/** For each node of t, the first instrument covering it within `threshold` and their number (BeamAdapter's fillInstrumentCurvAbsTable). */
export function instrumentsAt(t: NodeTable, begins: ArrayLike<number>, ends: ArrayLike<number>, threshold: number): void {
  t.first.fill(-1, 0, t.n);
  t.count.fill(0, 0, t.n);
  for (let id = 0; id < begins.length; id++) {
    const lo = begins[id] - threshold,
      hi = ends[id] + threshold;
    for (let i = 0; i < t.n; i++) {
      if (t.abs[i] < lo) continue;
      if (t.abs[i] > hi) break;
      if (t.count[i] === 0) t.first[i] = id;
      t.count[i]++;
    }
  }
}

/**
 * The abscissae the new nodes had at the last step (BeamAdapter's totalLengthIsChanging), into out:
 * when the deployed length changed by Δ (more than `threshold`), a node carried by one instrument
 * only was at s − Δ (the instrument slides through the base), never before the node ahead of it.
 */
export function slideUnsharedNodes(t: NodeTable, previous: NodeTable, threshold: number, out: Float64Array): void {
  const n = t.n;
  out.set(t.abs.subarray(0, n));
  const d = t.abs[n - 1] - previous.abs[previous.n - 1];
  if (Math.abs(d) <= threshold) return;
  for (let i = 0; i < n; i++) {
    if (t.count[i] !== 1) continue;
    out[i] -= d;
    if (i > 1 && out[i] < out[i - 1]) out[i] = out[i - 1];
  }
}
