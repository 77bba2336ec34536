import { exitCodeOfSignal } from './exit-codes.js';

/**
 * SIGINT and SIGTERM during a run: the first one is recorded (`signal`) and the run stops after the
 * step in progress, with its files complete; a second one exits at once (what was written stays:
 * state files are appended frame by frame). Steps are synchronous, so the loop must give Node a
 * chance to deliver signals: `poll()` yields to the event loop when `intervalMs` of stepping went by.
 */
export class Interruption {
  signal: NodeJS.Signals | undefined;
  private lastYield = performance.now();
  private readonly handler = (signal: NodeJS.Signals): void => {
    if (this.signal !== undefined) {
      this.out.write(`\n${signal} again: exiting now\n`);
      process.exit(exitCodeOfSignal(signal));
    }
    this.signal = signal;
    this.out.write(`\n${signal}: finishing the current step (send it again to quit at once)\n`);
  };

  constructor(private readonly out: NodeJS.WriteStream = process.stderr, private readonly intervalMs = 20) {
    process.on('SIGINT', this.handler);
    process.on('SIGTERM', this.handler);
  }

  /** Lets pending signals be handled (yields at most every `intervalMs`). */
  async poll(): Promise<void> {
    const now = performance.now();
    if (now - this.lastYield < this.intervalMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
  }

  dispose(): void {
    process.off('SIGINT', this.handler);
    process.off('SIGTERM', this.handler);
  }
}
