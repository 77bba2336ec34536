import * as fs from 'node:fs';
import * as path from 'node:path';
import { StateWriter, type StateFileMark } from '@sofa-ts/io';
import type { VisitedState } from './states.js';

/**
 * Writes mechanical states in SOFA's WriteState format, one file per state, as frames
 * `T= t / X= … / V= …`. Each `record` appends one frame to every file and hands it to the system
 * before returning (see StateWriter): whatever stops the run, the files hold every frame recorded
 * before, and — unless the process is killed inside `record` — all of them end on the same frame.
 */
export class StateRecorder {
  private readonly writers: StateWriter[];
  private frames = 0;
  private lastTime = NaN;

  /**
   * `fileOf(s)` gives each state's file path (a `.gz` name is written gzipped). `continueAt`, one
   * mark per state (a resumed run), continues existing files from those marks (see StateWriter).
   */
  constructor(
    readonly states: readonly VisitedState[],
    fileOf: (s: VisitedState) => string,
    private readonly withVelocity = true,
    continueAt?: readonly StateFileMark[],
  ) {
    this.writers = [];
    try {
      states.forEach((s, i) => {
        const file = fileOf(s);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        const mark = continueAt?.[i];
        this.writers.push(new StateWriter(file, mark ? { continueAt: mark } : {}));
      });
      if (continueAt) {
        this.frames = continueAt[0]?.frames ?? 0;
        this.lastTime = continueAt[0]?.time ?? NaN;
      }
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /** Appends the current positions (and velocities) of every state at time t. When one file cannot
   *  take the frame (a full disk), the files written before it drop it again and the error is
   *  thrown: every file ends on the same, complete frame. */
  record(t: number): void {
    for (let i = 0; i < this.states.length; i++) {
      const s = this.states[i].state;
      try {
        this.writers[i].writeFrame(t, s.x, this.withVelocity ? s.v : undefined);
      } catch (e) {
        for (let j = 0; j < i; j++) {
          try {
            this.writers[j].undoLastFrame();
          } catch {
            // the first failure is the one reported
          }
        }
        throw e;
      }
    }
    this.frames++;
    this.lastTime = t;
  }

  /** How far each file is written, in state order (what a checkpoint keeps). */
  get marks(): StateFileMark[] {
    return this.writers.map((w) => w.mark);
  }

  get files(): string[] {
    return this.writers.map((w) => w.path);
  }

  /** Frames recorded in every file. */
  get frameCount(): number {
    return this.frames;
  }

  /** Time of the last frame recorded (NaN before the first). */
  get lastFrameTime(): number {
    return this.lastTime;
  }

  /** Syncs and closes every file (all of them, even if one fails; the first failure is thrown). */
  close(): void {
    let failure: unknown;
    for (const w of this.writers) {
      try {
        w.close();
      } catch (e) {
        failure ??= e;
      }
    }
    if (failure !== undefined) throw failure;
  }
}
