import * as fs from 'node:fs';
import { SofaError, writeFailure } from '@sofa-ts/core';
import type { EncodedResult } from './result-codec.js';

/** The outcome of one case, one line of the journal. */
export interface JournalEntry {
  readonly id: string;
  readonly index: number;
  /** Parameter values by path, as the results table holds them. */
  readonly params: Record<string, number | string>;
  readonly status: 'ok' | 'failed';
  /** Runs it took (a failed case was retried). */
  readonly attempts: number;
  readonly result?: EncodedResult;
  /** A failed case: its message, and the step reached (0: at load or init). */
  readonly error?: string;
  readonly step?: number;
  /** Where it ran (host:pid of a queue worker, 'local' for the thread pool). */
  readonly ranOn?: string;
}

/**
 * The sweep's journal, DIR/cases.jsonl: one JSON line per finished case, appended as each case
 * ends. It is what a re-run resumes from: a case whose identity has a line is not run again. A
 * line is one write, synced to disk at most every second and at close; a line torn by a crash is
 * ignored on reading (that case runs again). The first line of an identity counts, so a case that
 * somehow came back twice is kept once.
 */
export class Journal {
  private fd: number | undefined;
  private lastSync = 0;

  constructor(readonly file: string) {
    try {
      this.fd = fs.openSync(file, 'a+');
      // a line torn by a crash gets its end, so the next line starts on its own
      const size = fs.fstatSync(this.fd).size;
      const last = Buffer.alloc(1);
      if (size > 0 && fs.readSync(this.fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) fs.writeSync(this.fd, '\n');
    } catch (cause) {
      throw writeFailure('the sweep journal', file, cause);
    }
  }

  /** The entries already in a journal file, by identity (none when the file does not exist). */
  static read(file: string): Map<string, JournalEntry> {
    const out = new Map<string, JournalEntry>();
    if (!fs.existsSync(file)) return out;
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    for (const line of lines) {
      if (line.trim() === '') continue;
      let e: JournalEntry;
      try {
        e = JSON.parse(line) as JournalEntry;
      } catch {
        continue; // a line torn by a crash
      }
      if (typeof e.id === 'string' && !out.has(e.id)) out.set(e.id, e);
    }
    return out;
  }

  append(e: JournalEntry): void {
    if (this.fd === undefined) throw new SofaError(`the sweep journal ${this.file} is closed`);
    const bytes = Buffer.from(JSON.stringify(e) + '\n');
    const size = fs.fstatSync(this.fd).size;
    try {
      let off = 0;
      while (off < bytes.length) off += fs.writeSync(this.fd, bytes, off, bytes.length - off);
      const now = Date.now();
      if (now - this.lastSync > 1000) {
        fs.fsyncSync(this.fd);
        this.lastSync = now;
      }
    } catch (cause) {
      // a line written in part is cut: the journal ends on its last whole line
      try {
        fs.ftruncateSync(this.fd, size);
      } catch {
        // the write's failure is the one reported
      }
      throw writeFailure('the sweep journal', this.file, cause);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      fs.fsyncSync(fd);
    } catch (cause) {
      throw writeFailure('the sweep journal', this.file, cause);
    } finally {
      fs.closeSync(fd);
    }
  }
}
