import * as fs from 'node:fs';
import * as path from 'node:path';
import { StateWriter } from '@sofa-ts/io';
import type { VisitedState } from './states.js';

/**
 * Writes mechanical states in SOFA's WriteState format, one file per state, as frames
 * `T= t / X= … / V= …`. Files are written to temporary names and renamed when closed, so an
 * interrupted run never leaves a truncated file under the final name.
 */
export class StateRecorder {
  private readonly writers: StateWriter[];

  /** `fileOf(s)` gives each state's file path (a `.gz` name is written gzipped). */
  constructor(readonly states: readonly VisitedState[], fileOf: (s: VisitedState) => string, private readonly withVelocity = true) {
    this.writers = states.map((s) => {
      const file = fileOf(s);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      return new StateWriter(file);
    });
  }

  /** Appends the current positions (and velocities) of every state at time t. */
  record(t: number): void {
    for (let i = 0; i < this.states.length; i++) {
      const s = this.states[i]!.state;
      this.writers[i]!.writeFrame(t, s.x, this.withVelocity ? s.v : undefined);
    }
  }

  get files(): string[] {
    return this.writers.map((w) => w.path);
  }

  close(): void {
    for (const w of this.writers) w.close();
  }

  /** Drops the temporary files (for runs that failed). */
  abort(): void {
    for (const w of this.writers) w.abort();
  }
}
