import type { Data } from './data.js';

/**
 * SOFA's DataTracker: remembers the counters of some Data so that a component can tell, at the
 * start of a step, whether one of them was set since it last built what depends on them (a force
 * list, a goal, a rest shape). Checking costs one counter read per Data; nothing is copied.
 */
export class DataTracker {
  private readonly data: readonly Data<unknown>[];
  private readonly seen: Float64Array;

  constructor(...data: Data<unknown>[]) {
    this.data = data;
    this.seen = new Float64Array(data.length).fill(-1);
  }

  /** True when one of the tracked Data changed since the last `clean()` (or was never cleaned). */
  isDirty(): boolean {
    const d = this.data;
    for (let i = 0; i < d.length; i++) if (d[i].counter !== this.seen[i]) return true;
    return false;
  }

  /** Records the current counters: the tracked Data are now up to date. */
  clean(): void {
    const d = this.data;
    for (let i = 0; i < d.length; i++) this.seen[i] = d[i].counter;
  }
}
