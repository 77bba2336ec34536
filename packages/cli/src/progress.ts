import pc from 'picocolors';

/** Step progress: a bar redrawn in place on a terminal, a plain line every 10% otherwise. */
export class Progress {
  private lastDecile = -1;
  private lastDraw = 0;
  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  /** Ends a bar left unfinished (a run stopped early), so what follows starts on its own line. */
  stop(): void {
    if (this.out.isTTY && this.lastDraw !== 0) this.out.write('\n');
    this.lastDraw = 0;
  }

  update(done: number): void {
    if (this.total <= 0) return;
    if (this.out.isTTY) {
      const now = Date.now();
      if (done < this.total && now - this.lastDraw < 80) return;
      this.lastDraw = now;
      const width = 30;
      const filled = Math.round((width * done) / this.total);
      const pct = Math.floor((100 * done) / this.total);
      this.out.write(
        `\r${pc.cyan('[' + '#'.repeat(filled) + ' '.repeat(width - filled) + ']')} ${String(pct).padStart(3)}%  step ${done}/${this.total}`,
      );
      if (done >= this.total) {
        this.out.write('\n');
        this.lastDraw = 0;
      }
    } else {
      const decile = Math.floor((10 * done) / this.total);
      if (decile !== this.lastDecile) {
        this.lastDecile = decile;
        this.out.write(`step ${done}/${this.total} (${decile * 10}%)\n`);
      }
    }
  }
}
