import * as fs from 'node:fs';

/**
 * The wire between the engine and python3: length-prefixed frames on two blocking file descriptors,
 * read and written synchronously, so that a controller called in the middle of a step is answered
 * before the step goes on (the engine waits in `read`, as SofaPython3's engine waits for the
 * interpreter it embeds).
 *
 * A frame is `u32 n | u32 h | header (h bytes of UTF-8 JSON) | blobs`, n counting everything after
 * itself, little-endian. The header's `b` lists the byte lengths of the blobs that follow it: raw
 * typed-array bytes (float64 positions cross as themselves, never as text).
 */
export interface Frame {
  readonly header: Record<string, unknown>;
  readonly blobs: Uint8Array[];
}

/** The other side closed the channel (python3 exited, or its end was closed). */
export class ChannelClosed extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'ChannelClosed';
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Channel {
  private buf = Buffer.allocUnsafe(1 << 16);
  private closed = false;

  /** `closer` releases the descriptors (FileHandles close their own); by default they are closed here. */
  constructor(
    private readonly inFd: number,
    private readonly outFd: number,
    private readonly peer = 'python3',
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

  /** Reads one frame, blocking; throws ChannelClosed at the end of the stream. */
  receive(): Frame {
    if (this.closed) throw new ChannelClosed(`the channel to ${this.peer} is closed`);
    this.readExactly(4);
    const n = this.buf.readUInt32LE(0);
    if (this.buf.length < n) this.buf = Buffer.allocUnsafe(Math.max(n, 2 * this.buf.length));
    this.readExactly(n);
    const h = this.buf.readUInt32LE(0);
    const header = JSON.parse(decoder.decode(this.buf.subarray(4, 4 + h))) as Record<string, unknown>;
    const lengths = (header['b'] as number[] | undefined) ?? [];
    const blobs: Uint8Array[] = [];
    let o = 4 + h;
    for (const len of lengths) {
      // a copy: typed arrays over it need their own aligned buffer, and `buf` is reused
      blobs.push(Uint8Array.prototype.slice.call(this.buf, o, o + len));
      o += len;
    }
    return { header, blobs };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
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

  private readExactly(n: number): void {
    let got = 0;
    while (got < n) {
      let r: number;
      try {
        r = fs.readSync(this.inFd, this.buf, got, n - got, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN' || code === 'EINTR') continue;
        throw new ChannelClosed(`reading from ${this.peer} failed: ${(e as Error).message}`);
      }
      if (r === 0) throw new ChannelClosed(`${this.peer} closed the channel`);
      got += r;
    }
  }

  private writeAll(b: Buffer): void {
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
