import * as fs from 'node:fs';
import { BINARY_FLAG, BinaryReader } from './wire-binary.js';

/**
 * The wire between the engine and python3: length-prefixed frames on two blocking file descriptors,
 * read and written synchronously, so that a controller called in the middle of a step is answered
 * before the step goes on (the engine waits in `read`, as SofaPython3's engine waits for the
 * interpreter it embeds).
 *
 * A frame is `u32 n | u32 h | header (h bytes of UTF-8 JSON) | blobs`, n counting everything after
 * itself, little-endian. The header's `b` lists the byte lengths of the blobs that follow it: raw
 * typed-array bytes (float64 positions cross as themselves, never as text). A second word with its
 * top bit set marks instead a binary frame of the per-step traffic (wire-binary.ts).
 */
export interface Frame {
  readonly binary: false;
  readonly header: Record<string, unknown>;
  readonly blobs: Uint8Array[];
}

/** A binary frame: its kind, and a reader at its first field (a view of the channel's buffer, valid until the next receive). */
export interface BinaryFrame {
  readonly binary: true;
  readonly kind: number;
  readonly reader: BinaryReader;
}

/** The other side closed the channel (python3 exited, or its end was closed). */
export class ChannelClosed extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'ChannelClosed';
  }
}

const encoder = new TextEncoder();

export class Channel {
  protected buf = Buffer.allocUnsafe(1 << 16);
  /** The bytes received and not yet taken: buf[start, end). */
  protected start = 0;
  protected end = 0;
  private readonly reader = new BinaryReader(this.buf);
  private closed = false;
  /** A non-blocking descriptor of the input pipe, for polling (-1: none). */
  private pollFd: number | undefined;

  /** `closer` releases the descriptors (FileHandles close their own); by default they are closed here. */
  constructor(
    private readonly inFd: number,
    private readonly outFd: number,
    protected readonly peer = 'python3',
    private readonly closer?: () => void,
  ) {}

  /** Writes one frame (blocking until the pipe took all of it). */
  send(header: Record<string, unknown>, blobs: readonly ArrayBufferView[] = []): void {
    if (this.closed) throw new ChannelClosed(`the channel to ${this.peer} is closed`);
    const h = encoder.encode(JSON.stringify(blobs.length > 0 ? { ...header, b: blobs.map((b) => b.byteLength) } : header));
    let n = 4 + h.length;
    for (const b of blobs) n += b.byteLength;
    const out = Buffer.allocUnsafe(4 + n);
    out.writeUInt32LE(n, 0);
    out.writeUInt32LE(h.length, 4);
    out.set(h, 8);
    let o = 8 + h.length;
    for (const b of blobs) {
      out.set(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), o);
      o += b.byteLength;
    }
    this.writeAll(out);
  }

  /** Writes a binary frame made by a BinaryWriter (`finish()`). */
  sendRaw(frame: Buffer): void {
    if (this.closed) throw new ChannelClosed(`the channel to ${this.peer} is closed`);
    this.writeAll(frame);
  }

  /**
   * Reads one frame, blocking; throws ChannelClosed at the end of the stream. What the pipe holds is
   * read at once (a whole frame in one system call, as the other side writes it in one). With
   * `pollMicros`, the pipe is polled that long before the read blocks.
   */
  receive(pollMicros = 0): Frame | BinaryFrame {
    if (this.closed) throw new ChannelClosed(`the channel to ${this.peer} is closed`);
    if (pollMicros > 0 && this.end - this.start < 8) this.poll(pollMicros);
    this.fillTo(4);
    const n = this.buf.readUInt32LE(this.start);
    this.fillTo(4 + n);
    const b = this.start + 4;
    this.start += 4 + n;
    if (this.start === this.end) this.start = this.end = 0;
    const h = this.buf.readUInt32LE(b);
    if (h & BINARY_FLAG) {
      const r = this.reader;
      r.buf = this.buf;
      r.pos = b + 4;
      return { binary: true, kind: h & 0xff, reader: r };
    }
    const header = JSON.parse(this.buf.toString('utf8', b + 4, b + 4 + h)) as Record<string, unknown>;
    const lengths = (header['b'] as number[] | undefined) ?? [];
    const blobs: Uint8Array[] = [];
    let o = b + 4 + h;
    for (const len of lengths) {
      // a copy: typed arrays over it need their own aligned buffer, and `buf` is reused
      blobs.push(Uint8Array.prototype.slice.call(this.buf, o, o + len));
      o += len;
    }
    return { binary: false, header, blobs };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.pollFd !== undefined && this.pollFd >= 0) fs.closeSync(this.pollFd);
    if (this.closer) {
      this.closer();
      return;
    }
    for (const fd of new Set([this.inFd, this.outFd])) {
      try {
        fs.closeSync(fd);
      } catch {
        // already closed by the other side's exit: nothing to release
      }
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Polls the pipe for up to `micros`, through a second, non-blocking descriptor of it (Linux
   * opens a pipe again from /proc/self/fd; elsewhere no poll: the blocking read waits alone).
   */
  private poll(micros: number): void {
    if (this.inFd < 0) return;
    if (this.pollFd === undefined) {
      try {
        this.pollFd =
          process.platform === 'linux' ? fs.openSync(`/proc/self/fd/${this.inFd}`, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK) : -1;
      } catch {
        this.pollFd = -1;
      }
    }
    if (this.pollFd < 0) return;
    const until = performance.now() + micros / 1000;
    // an empty pipe is an EAGAIN error: made without a stack trace while polling
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      while (this.end === this.start && performance.now() < until) {
        try {
          const r = fs.readSync(this.pollFd, this.buf, this.end, this.buf.length - this.end, null);
          if (r === 0) return; // the other side closed: the blocking read says so
          this.end += r;
        } catch {
          // nothing yet
        }
      }
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  /** Reads until the buffer holds `n` bytes from `start` (made room for first). */
  protected fillTo(n: number): void {
    if (this.end - this.start >= n) return;
    this.makeRoom(n);
    while (this.end - this.start < n) {
      const r = this.readSome(this.buf, this.end, this.buf.length - this.end);
      if (r === 0) throw new ChannelClosed(`${this.peer} closed the channel`);
      this.end += r;
    }
  }

  /** Makes the buffer hold `n` bytes from `start` (what it holds moved to its front, or a bigger one). */
  protected makeRoom(n: number): void {
    if (this.buf.length - this.start >= n) return;
    const b = this.buf.length < n ? Buffer.allocUnsafe(Math.max(n, 2 * this.buf.length)) : this.buf;
    this.buf.copy(b, 0, this.start, this.end);
    this.end -= this.start;
    this.start = 0;
    this.buf = b;
  }

  /** Reads what comes into buf[offset, offset + length), blocking; 0 at the end of the stream. */
  protected readSome(buf: Buffer, offset: number, length: number): number {
    for (;;) {
      try {
        return fs.readSync(this.inFd, buf, offset, length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN' || code === 'EINTR') continue;
        throw new ChannelClosed(`reading from ${this.peer} failed: ${(e as Error).message}`);
      }
    }
  }

  /** Writes all of b (blocking until the other side took it). */
  protected writeAll(b: Buffer): void {
    let o = 0;
    while (o < b.length) {
      try {
        o += fs.writeSync(this.outFd, b, o, b.length - o);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN' || code === 'EINTR') continue;
        throw new ChannelClosed(
          code === 'EPIPE' ? `${this.peer} closed the channel` : `writing to ${this.peer} failed: ${(e as Error).message}`,
        );
      }
    }
  }
}
