import type { SourceLocation } from '@sofa-ts/core';

/** Maps character offsets of a text to 1-based line and column numbers.
 *  Line breaks are `\n`, `\r\n` or a lone `\r`; a column counts UTF-16 code units. */
export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 /* \n */) this.starts.push(i + 1);
      else if (c === 13 /* \r */ && text.charCodeAt(i + 1) !== 10) this.starts.push(i + 1);
    }
  }

  /** 1-based line and column of `offset`. */
  position(offset: number): { line: number; column: number } {
    // Binary search for the last line start <= offset.
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + 1 };
  }

  /** The offset of a 1-based line and column (clamped to the text's lines). */
  offsetOf(line: number, column: number): number {
    const l = Math.min(Math.max(line, 1), this.starts.length);
    return this.starts[l - 1] + column - 1;
  }

  /** A SourceLocation in `file` for `offset`. */
  location(file: string, offset: number): SourceLocation {
    return { file, ...this.position(offset) };
  }
}
