import type { StateFrame } from '../read-state.js';

/**
 * Walks the frames of a state file as SOFA's ReadState reads its file (ReadState::readNext): a call
 * with time t consumes every frame whose time is ≤ t and returns the last of them, or undefined when
 * no new frame was reached. With `loop`, the file is read again from its start once exhausted, each
 * pass shifted by the time of the last frame read (so frame 0 of pass 2 replaces the last frame of
 * pass 1 at the same time, as in SOFA).
 */
export class FrameCursor {
  private index = 0;
  /** Shift of the current pass: the time of the last frame read when the file was rewound. */
  private loopTime = 0;
  /** Time (shift included) of the last frame consumed. */
  private lastTime = 0;

  constructor(
    private readonly frames: readonly StateFrame[],
    private readonly loop: boolean,
  ) {}

  /** Checkpoint: where the cursor is. */
  readonly checkpointFields = ['index', 'loopTime', 'lastTime'] as const;

  /** Back to the first frame (SOFA reopens the file at reset). */
  rewind(): void {
    this.index = 0;
    this.loopTime = 0;
    this.lastTime = 0;
  }

  /** Consumes the frames with time ≤ `time`; returns the last one consumed in this call. */
  advance(time: number): StateFrame | undefined {
    let last: StateFrame | undefined;
    for (;;) {
      if (this.index >= this.frames.length) {
        // A pass that does not move time forward would loop for ever: stop there.
        if (!this.loop || this.frames.length === 0 || this.lastTime <= this.loopTime) break;
        this.loopTime = this.lastTime;
        this.index = 0;
      }
      const frame = this.frames[this.index];
      const t = frame.time + this.loopTime;
      if (t > time) break;
      last = frame;
      this.lastTime = t;
      this.index++;
    }
    return last;
  }
}
