import { BaseObject } from './base-object.js';
import { componentCall } from './component-call.js';
import type { Data } from './data.js';

/**
 * SOFA's DataEngine: a component that computes output Data from input Data, lazily.
 *
 * Every output carries a read hook (Data.setReadHook): whoever reads it — the component itself, a
 * consumer, or a follower through a data link such as `indices="@box.indices"` — first makes the
 * engine recompute when one of its inputs changed since the last update. Inputs are compared by
 * their change counters, so a chain of engines and links updates in dependency order without any
 * scheduling. Updates are armed by `startUpdates()` (called at the end of the engine's init): a
 * link resolved while the scene is being built sees the declared defaults, as in SOFA.
 */
export abstract class DataEngine extends BaseObject {
  private readonly engineInputs: Data<unknown>[] = [];
  private readonly engineOutputs: Data<unknown>[] = [];
  /** Input counters at the end of the last update (same order as engineInputs). */
  private seenCounters: number[] = [];
  private updating = false;
  /** True while the input counters are being compared: a cycle of links back to this engine stops here. */
  private checking = false;
  private armed = false;

  /** Declares Data the outputs depend on. */
  protected addInput(...data: Data<unknown>[]): void {
    for (const d of data) this.engineInputs.push(d);
  }

  /** Declares Data computed by updateOutputs; reading one brings it up to date first. */
  protected addOutput(...data: Data<unknown>[]): void {
    for (const d of data) {
      this.engineOutputs.push(d);
      d.setReadHook(() => this.updateIfDirty());
    }
  }

  /** Computes the outputs from the inputs (may read inputs and write outputs freely). */
  protected abstract updateOutputs(): void;

  /** Arms lazy updates and runs the first update now (end of init, as SOFA's engines do). */
  protected startUpdates(): void {
    this.armed = true;
    this.update();
  }

  /** Runs updateOutputs now, then records the input counters it saw. */
  update(): void {
    if (this.updating) return;
    this.updating = true;
    const caller = componentCall.current;
    componentCall.current = this;
    try {
      this.updateOutputs();
    } finally {
      this.seenCounters = this.engineInputs.map((d) => d.counter);
      this.updating = false;
    }
    componentCall.current = caller;
  }

  /** True when an input changed since the last update (or no update ran yet). */
  isDirty(): boolean {
    if (this.seenCounters.length !== this.engineInputs.length) return true;
    for (let i = 0; i < this.engineInputs.length; i++) if (this.engineInputs[i].counter !== this.seenCounters[i]) return true;
    return false;
  }

  /**
   * The read hook of the outputs: recompute if armed and an input changed. Reading an input's counter
   * may update engines upstream; when the links loop back to this engine (an engine whose input follows
   * a Data computed from its own output, as a topology's edges set from a NearestPointROI feeding a
   * BoxROI of the same node) the inner read sees the current outputs, as SOFA's dirty flags do.
   */
  updateIfDirty(): void {
    if (!this.armed || this.updating || this.checking) return;
    this.checking = true;
    let dirty: boolean;
    try {
      dirty = this.isDirty();
    } finally {
      this.checking = false;
    }
    if (dirty) this.update();
  }
}
