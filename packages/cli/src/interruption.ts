/**
 * SIGINT and SIGTERM during a run: the first one is recorded (`signal`) and the run stops after the
 * step in progress, with its state files complete; the handlers are then removed, so a further
 * signal has its default effect (the process ends; what was written stays, state files being
 * appended frame by frame). Steps are synchronous: Node delivers a signal only when the loop gives
 * it a turn, which `poll()` does when `intervalMs` of stepping went by. A signal arriving during a
 * step is therefore handled when that step ends.
 */
export class Interruption {
  signal: NodeJS.Signals | undefined;
  private lastYield = performance.now();
  private readonly handler = (signal: NodeJS.Signals): void => {
    this.signal = signal;
    this.dispose();
    this.out.write(`\n${signal}: stopping after the current step\n`);
  };

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly intervalMs = 20,
  ) {
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
