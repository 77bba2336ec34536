import * as fs from 'node:fs';
import * as path from 'node:path';
import { SofaError, decodeCheckpoint, encodeCheckpoint, writeFailure, type SceneCheckpoint } from '@sofa-ts/core';

/**
 * Writes a checkpoint file (format: core's checkpoint-encoding.ts) atomically: into a temporary
 * file of the same folder (`.<name>.<pid>.tmp`), synced, then renamed over `file` (a reader sees
 * the old file or the new one, never part of one); the folder is synced where the platform allows.
 * On failure the temporary file is removed and a SofaError names the file.
 */
export function writeCheckpointFile(file: string, c: SceneCheckpoint): void {
  const bytes = encodeCheckpoint(c);
  const dir = path.dirname(path.resolve(file));
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  let fd: number | undefined;
  try {
    fs.mkdirSync(dir, { recursive: true });
    fd = fs.openSync(tmp, 'w');
    let off = 0;
    while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, file);
  } catch (cause) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // the write's error is the one reported
      }
    }
    fs.rmSync(tmp, { force: true });
    throw writeFailure('checkpoint', file, cause);
  }
  // The rename is durable once the folder is synced (not possible on every platform).
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    // Folders cannot be opened for sync on some platforms; the file itself is synced.
  }
}

/** Reads a checkpoint file; a missing, damaged or foreign file is a SofaError saying which and why. */
export function readCheckpointFile(file: string): SceneCheckpoint {
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(file);
  } catch (cause) {
    throw new SofaError(`cannot read checkpoint ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  return decodeCheckpoint(bytes, file);
}
