import { Channel, ChannelClosed } from './channel.js';

/** The addon of native/sofats_python.c: CPython in this process (in-process-python.ts loads it). */
export interface PythonAddon {
  open(
    options: { executable: string; packageDir: string; pythonPath: readonly string[]; cwd: string },
    onFrames: (frames: Buffer) => Buffer,
  ): boolean;
  exchange(frames: Buffer): Buffer;
  close(): void;
  /** The engine changed its working directory (process.chdir): Python's side keeps its own. */
  engineCwdChanged(): void;
  /** The engine's process exits: the scripts' atexit functions run, their open files are flushed. */
  shutdown(): void;
}

/**
 * The channel to an interpreter embedded in this process: the frames of the two-process mode, with
 * function calls in place of pipes. A read hands Python the frames written since the last one and
 * takes its answer (addon.exchange); a request Python makes while it runs (a Data read inside a
 * handler) arrives as a call of `serveIncoming`, which the session serves at once, before Python
 * goes on: no process waits for another to be woken.
 */
export class InProcessChannel extends Channel {
  private out = Buffer.allocUnsafe(1 << 12);
  private outLen = 0;
  /** Bytes Python answered and not yet moved into the frame buffer: stash[stashAt, stash.length). */
  private stash: Buffer | undefined;
  private stashAt = 0;
  /** Serves one request of Python's (set by the session: PythonSession.serveRequest). */
  server: ((frame: ReturnType<Channel['receive']>) => void) | undefined;

  constructor(
    private readonly addon: PythonAddon,
    closer: () => void,
  ) {
    super(-1, -1, 'python3 (in-process)', closer);
  }

  /** Python's requests, made while it runs: served now; the answers go back as the call's result. */
  serveIncoming(frames: Buffer): Buffer {
    this.stash = frames;
    this.stashAt = 0;
    const serve = this.server;
    if (!serve) throw new ChannelClosed('python3 (in-process) made a request before the engine could serve it');
    while (this.end > this.start || (this.stash !== undefined && this.stashAt < this.stash.length)) serve(this.receive());
    return this.takeOut();
  }

  protected override writeAll(b: Buffer): void {
    if (this.outLen + b.length > this.out.length) {
      const bigger = Buffer.allocUnsafe(Math.max(2 * this.out.length, this.outLen + b.length));
      this.out.copy(bigger, 0, 0, this.outLen);
      this.out = bigger;
    }
    b.copy(this.out, this.outLen);
    this.outLen += b.length;
  }

  /**
   * Python's answer, taken when the buffer needs bytes: the frames written since the last read go
   * to Python (addon.exchange), which serves them, calling serveIncoming for requests of its own;
   * the buffer is looked at only after the call, as those nested frames went through it.
   */
  protected override fillTo(n: number): void {
    while (this.end - this.start < n) {
      if (this.stash === undefined || this.stashAt >= this.stash.length) {
        let got: Buffer;
        try {
          got = this.addon.exchange(this.takeOut());
        } catch (e) {
          if ((e as { code?: string }).code === 'PYTHON') throw new ChannelClosed(`${this.peer} failed: ${(e as Error).message}`);
          throw e;
        }
        // nothing back: Python's session ended (sys.exit in the script, or closed)
        if (got.length === 0) throw new ChannelClosed(`${this.peer} closed the channel`);
        this.stash = got;
        this.stashAt = 0;
        continue;
      }
      this.makeRoom(n);
      const k = Math.min(this.buf.length - this.end, this.stash.length - this.stashAt);
      this.stash.copy(this.buf, this.end, this.stashAt, this.stashAt + k);
      this.stashAt += k;
      this.end += k;
    }
  }

  /**
   * The frames written since the last read, taken: a view of the buffer, which the addon copies
   * into Python's bytes before anything runs that could write into it again.
   */
  private takeOut(): Buffer {
    const b = this.out.subarray(0, this.outLen);
    this.outLen = 0;
    return b;
  }
}
