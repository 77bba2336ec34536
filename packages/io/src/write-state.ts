/** SOFA's WriteState text format, written.
 *
 *  One frame per recorded time:
 *  ```
 *  T= <time>
 *    X= <all position scalars>
 *    V= <all velocity scalars>      (optional)
 *  ```
 *  Every number is printed as `std::ostream << double` prints it (6 significant digits), so a file
 *  written here is byte-for-byte what SOFA would write for the same values. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { SofaError } from '@sofa-ts/core';
import { formatSofaNumber } from './number-format.js';

/** The scalars of one vector, space separated (SOFA writes no trailing separator). */
export function formatSofaVector(values: ArrayLike<number>): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) parts[i] = formatSofaNumber(values[i]!);
  return parts.join(' ');
}

/** The text of one frame, newline terminated. */
export function formatStateFrame(time: number, x: ArrayLike<number>, v?: ArrayLike<number>): string {
  let text = `T= ${formatSofaNumber(time)}\n  X= ${formatSofaVector(x)}\n`;
  if (v !== undefined) text += `  V= ${formatSofaVector(v)}\n`;
  return text;
}

export interface StateWriterOptions {
  /** Compress the output; by default, when the file name ends with `.gz`. */
  readonly gzip?: boolean;
  /** Pending text size that triggers a write (default 1 MiB); each gzip write is one member. */
  readonly flushBytes?: number;
}

// Text is handed to the file in chunks of about this size: bounded memory for long runs, and
// each gzip chunk becomes one gzip member (a sequence of members is a valid .gz file).
const DEFAULT_FLUSH_BYTES = 1 << 20;

/** Writes a state file frame by frame.
 *
 *  Frames go to a temporary file beside the target, renamed over it by `close()`: a run that
 *  crashes or is aborted leaves any previous output untouched and never a truncated file. */
export class StateWriter {
  readonly path: string;
  readonly gzip: boolean;
  private readonly tempPath: string;
  private readonly flushBytes: number;
  private fd: number | undefined;
  private pending: string[] = [];
  private pendingLength = 0;
  private frames = 0;

  constructor(filePath: string, options: StateWriterOptions = {}) {
    this.path = path.resolve(filePath);
    this.gzip = options.gzip ?? filePath.endsWith('.gz');
    this.flushBytes = options.flushBytes ?? DEFAULT_FLUSH_BYTES;
    const suffix = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    this.tempPath = path.join(path.dirname(this.path), `.${path.basename(this.path)}.${suffix}.tmp`);
    try {
      this.fd = fs.openSync(this.tempPath, 'wx');
    } catch (cause) {
      throw new SofaError(`cannot open state file for writing: ${this.path}`, { cause });
    }
  }

  /** Number of frames written so far. */
  get frameCount(): number {
    return this.frames;
  }

  get isOpen(): boolean {
    return this.fd !== undefined;
  }

  /** Append one frame (V omitted when not given). */
  writeFrame(time: number, x: ArrayLike<number>, v?: ArrayLike<number>): void {
    if (this.fd === undefined) throw new SofaError(`state file already closed: ${this.path}`);
    const text = formatStateFrame(time, x, v);
    this.pending.push(text);
    this.pendingLength += text.length;
    this.frames++;
    if (this.pendingLength >= this.flushBytes) this.flush();
  }

  /** Finish the file: write what is pending, then move it to its final name. */
  close(): void {
    if (this.fd === undefined) return;
    try {
      this.flush(true);
      fs.fsyncSync(this.fd);
      fs.closeSync(this.fd);
      this.fd = undefined;
      fs.renameSync(this.tempPath, this.path);
    } catch (cause) {
      this.abort();
      throw new SofaError(`cannot write state file ${this.path}`, { cause });
    }
  }

  /** Give up: remove the temporary file, leave the target as it was. */
  abort(): void {
    if (this.fd !== undefined) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // The descriptor is unusable either way; removing the file is what matters.
      }
      this.fd = undefined;
    }
    fs.rmSync(this.tempPath, { force: true });
  }

  private flush(final = false): void {
    // A gzip file with no member at all is not valid gzip; an empty file still gets one.
    if (this.pendingLength === 0 && !(final && this.gzip && this.frames === 0)) return;
    const text = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingLength = 0;
    const bytes = this.gzip ? zlib.gzipSync(text) : text;
    // writeSync may write less than asked; loop until everything is out.
    let offset = 0;
    while (offset < bytes.length) offset += fs.writeSync(this.fd!, bytes, offset, bytes.length - offset);
  }
}

/** Write a whole state file at once (atomically, like StateWriter). */
export function writeStateFile(
  filePath: string,
  frames: Iterable<{ time: number; X: ArrayLike<number>; V?: ArrayLike<number> | undefined }>,
  options: StateWriterOptions = {},
): void {
  const writer = new StateWriter(filePath, options);
  try {
    for (const f of frames) writer.writeFrame(f.time, f.X, f.V);
  } catch (e) {
    writer.abort();
    throw e;
  }
  writer.close();
}
