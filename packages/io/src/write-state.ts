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
import { createHash, type Hash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { SofaError, writeFailure } from '@sofa-ts/core';
import { formatSofaNumber } from './number-format.js';

import { formatSofaVector } from './format-vector.js';
export { formatSofaVector };

/** The text of one frame, newline terminated. */
export function formatStateFrame(time: number, x: ArrayLike<number>, v?: ArrayLike<number>): string {
  let text = `T= ${formatSofaNumber(time)}\n  X= ${formatSofaVector(x)}\n`;
  if (v !== undefined) text += `  V= ${formatSofaVector(v)}\n`;
  return text;
}

export interface StateWriterOptions {
  /** Compress the output; by default, when the file name ends with `.gz`. */
  readonly gzip?: boolean;
  /**
   * Continue an existing file (a resumed run): its first `bytes` bytes must have this SHA-256 (what
   * the writer had written when the checkpoint was taken); the rest is cut off and frames are
   * appended. Throws a SofaError naming the file when it is missing, shorter or different.
   */
  readonly continueAt?: StateFileMark;
}

/** How far a state file was written: its length, the SHA-256 of its content, its frames. */
export interface StateFileMark {
  readonly bytes: number;
  readonly sha256: string;
  readonly frames: number;
  readonly time: number;
}

/** Writes a state file frame by frame, durably.
 *
 *  The file is created (or truncated) under its final name and every frame is appended by one write
 *  as soon as it is given, so a run that stops — an error, a divergence, Ctrl-C, a crash, kill -9 —
 *  leaves every frame written before it on disk, and no temporary file. A gzip file is a sequence
 *  of gzip members (RFC 1952 allows it; gunzip, zlib and SOFA read them as one stream): an empty
 *  member when the file is opened, then one member per frame, so the file is valid gzip after any
 *  complete write. `close()` syncs it to disk. A write that fails (ENOSPC, EIO, EDQUOT) is cut back
 *  to the end of the last complete frame and throws with the system's reason; a file whose folder
 *  was removed while it was written is an error too (its frames would go nowhere). (A kill landing
 *  inside a write can still leave a torn last frame; the reader then reports the file as truncated.) */
export class StateWriter {
  readonly path: string;
  readonly gzip: boolean;
  private fd: number | undefined;
  private frames = 0;
  private lastTime = NaN;
  private bytes = 0;
  private hash: Hash = createHash('sha256');
  /** The mark before the last frame (undoLastFrame goes back to it). */
  private previous: { bytes: number; hash: Hash; frames: number; time: number } | undefined;

  constructor(filePath: string, options: StateWriterOptions = {}) {
    this.path = path.resolve(filePath);
    this.gzip = options.gzip ?? filePath.endsWith('.gz');
    if (options.continueAt) {
      this.continueFile(options.continueAt);
      return;
    }
    try {
      this.fd = fs.openSync(this.path, 'w');
    } catch (cause) {
      throw writeFailure('state file', this.path, cause);
    }
    // A gzip file needs at least one member to be valid, even before its first frame.
    if (this.gzip) this.write(zlib.gzipSync(Buffer.alloc(0)));
  }

  /** Checks the file's first `mark.bytes` bytes, cuts the rest, opens it to append. */
  private continueFile(mark: StateFileMark): void {
    let prefix: Buffer;
    try {
      const fd = fs.openSync(this.path, 'r');
      try {
        const size = fs.fstatSync(fd).size;
        if (size < mark.bytes)
          throw new SofaError(
            `state file ${this.path} has ${size} bytes, ${mark.bytes} when the checkpoint was taken: it is not the file the checkpointed run wrote`,
          );
        prefix = Buffer.alloc(mark.bytes);
        let off = 0;
        while (off < mark.bytes) {
          const k = fs.readSync(fd, prefix, off, mark.bytes - off, off);
          if (k === 0) break;
          off += k;
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch (cause) {
      if (cause instanceof SofaError) throw cause;
      throw new SofaError(`cannot continue state file ${this.path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    this.hash.update(prefix);
    if (this.hash.copy().digest('hex') !== mark.sha256)
      throw new SofaError(`state file ${this.path} differs from what the checkpointed run had written: its frames are not continued`, {
        hint: "write the resumed run's states to another folder",
      });
    try {
      fs.truncateSync(this.path, mark.bytes);
      this.fd = fs.openSync(this.path, 'a');
    } catch (cause) {
      throw new SofaError(`cannot continue state file ${this.path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    this.bytes = mark.bytes;
    this.frames = mark.frames;
    this.lastTime = mark.time;
  }

  /** How far the file is written (for a checkpoint; see StateWriterOptions.continueAt). */
  get mark(): StateFileMark {
    return { bytes: this.bytes, sha256: this.hash.copy().digest('hex'), frames: this.frames, time: this.lastTime };
  }

  /** Number of frames written so far. */
  get frameCount(): number {
    return this.frames;
  }

  /** Time of the last frame written (NaN before the first). */
  get lastFrameTime(): number {
    return this.lastTime;
  }

  get isOpen(): boolean {
    return this.fd !== undefined;
  }

  /** Append one frame (V omitted when not given); it is in the file when this returns. */
  writeFrame(time: number, x: ArrayLike<number>, v?: ArrayLike<number>): void {
    if (this.fd === undefined) throw new SofaError(`state file already closed: ${this.path}`);
    const text = Buffer.from(formatStateFrame(time, x, v), 'utf8');
    const previous = { bytes: this.bytes, hash: this.hash.copy(), frames: this.frames, time: this.lastTime };
    this.write(this.gzip ? zlib.gzipSync(text) : text);
    this.previous = previous;
    this.frames++;
    this.lastTime = time;
  }

  /** Removes the frame the last writeFrame wrote (once): a recorder whose other files could not take
   *  that frame cuts it here too, so that every file ends on the same frame. */
  undoLastFrame(): void {
    const p = this.previous;
    if (this.fd === undefined || p === undefined) return;
    this.previous = undefined;
    try {
      fs.ftruncateSync(this.fd, p.bytes);
    } catch (cause) {
      throw writeFailure('state file', this.path, cause);
    }
    this.bytes = p.bytes;
    this.hash = p.hash;
    this.frames = p.frames;
    this.lastTime = p.time;
  }

  /** Finish the file: sync it to disk and close it (what was written stays, even if this fails). */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      fs.fsyncSync(fd);
    } catch (cause) {
      throw writeFailure('state file', this.path, cause);
    } finally {
      fs.closeSync(fd);
    }
  }

  private write(bytes: Buffer): void {
    const fd = this.fd!;
    try {
      // writeSync may write less than asked; loop until everything is out.
      let offset = 0;
      while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (cause) {
      // the part of the frame that was written is cut: the file ends on its last complete frame
      let cut = '';
      try {
        fs.ftruncateSync(fd, this.bytes);
      } catch (e) {
        cut = `; the partial frame could not be cut back (${e instanceof Error ? e.message : String(e)})`;
      }
      const error = writeFailure('state file', this.path, cause);
      throw cut ? new SofaError(error.message + cut, { cause }) : error;
    }
    // an open file whose name is gone (its folder removed) takes writes that no one will read
    if (fs.fstatSync(fd).nlink === 0)
      throw new SofaError(`cannot write state file ${this.path}: the file was removed while it was written (its folder deleted?)`);
    this.bytes += bytes.length;
    this.hash.update(bytes);
  }
}

/** Write a whole state file at once. */
export function writeStateFile(
  filePath: string,
  frames: Iterable<{ time: number; X: ArrayLike<number>; V?: ArrayLike<number> | undefined }>,
  options: StateWriterOptions = {},
): void {
  const writer = new StateWriter(filePath, options);
  try {
    for (const f of frames) writer.writeFrame(f.time, f.X, f.V);
  } finally {
    writer.close();
  }
}
