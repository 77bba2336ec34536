/** A problem in a mesh file, at a 1-based line (0 when it concerns the whole file). */
export class MeshFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`${line > 0 ? `${file}:${line}` : file}: ${detail}`);
    this.name = 'MeshFileError';
  }
}

/**
 * Reads a text mesh file the way C++ streams do — whitespace-separated tokens across lines
 * (`file >> x`) mixed with whole-line reads (`getline`) — while knowing the line of everything it
 * returns, so that errors point at the line of the mesh file. Carriage returns are ignored.
 */
export class TextScanner {
  private readonly lines: string[];
  /** Index of the current line, and position in it. */
  private li = 0;
  private col = 0;
  /** 1-based line of the last token or line returned. */
  line = 0;

  /** Length of the text, the bound of any count the file declares. */
  readonly chars: number;

  constructor(
    text: string,
    readonly file: string,
  ) {
    this.chars = text.length;
    this.lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    if (this.lines.length > 0 && this.lines[this.lines.length - 1] === '') this.lines.pop();
  }

  get atEnd(): boolean {
    this.skipSpaces();
    return this.li >= this.lines.length;
  }

  /** The rest of the current line (std::getline), then moves to the next line; undefined at the end. */
  readLine(): string | undefined {
    if (this.li >= this.lines.length) return undefined;
    const s = this.lines[this.li].slice(this.col);
    this.line = this.li + 1;
    this.li++;
    this.col = 0;
    return s;
  }

  /** What readLine would return, without consuming it. */
  peekLine(): string | undefined {
    return this.li < this.lines.length ? this.lines[this.li].slice(this.col) : undefined;
  }

  /** The next whitespace-separated token, across lines; undefined at the end of the file. */
  token(): string | undefined {
    this.skipSpaces();
    if (this.li >= this.lines.length) return undefined;
    const l = this.lines[this.li];
    let e = this.col;
    while (e < l.length && !isSpace(l.charCodeAt(e))) e++;
    const t = l.slice(this.col, e);
    this.col = e;
    this.line = this.li + 1;
    return t;
  }

  /**
   * Checks a count the file declares (numbers to read, elements) before anything is sized by it:
   * a file of L characters holds fewer than L numbers.
   */
  count(n: number, what: string): number {
    if (n > this.chars) throw this.fail(`${what} is ${n}, more than a file of ${this.chars} characters can hold`);
    return n;
  }

  /** The next token, which must exist. */
  expectToken(what: string): string {
    const t = this.token();
    if (t === undefined) throw this.fail(`expected ${what}, found the end of the file`);
    return t;
  }

  /** The next token as an integer. */
  int(what: string): number {
    const t = this.expectToken(what);
    if (!/^[+-]?\d+$/.test(t)) throw this.fail(`expected ${what} (an integer), found '${t}'`);
    return Number(t);
  }

  /** The next token as a real number. */
  number(what: string): number {
    const t = this.expectToken(what);
    const v = parseReal(t);
    if (v === undefined) throw this.fail(`expected ${what} (a number), found '${t}'`);
    return v;
  }

  /** An error at the line of the last token or line read. */
  fail(detail: string, line = this.line): MeshFileError {
    return new MeshFileError(this.file, line, detail);
  }

  private skipSpaces(): void {
    while (this.li < this.lines.length) {
      const l = this.lines[this.li];
      while (this.col < l.length && isSpace(l.charCodeAt(this.col))) this.col++;
      if (this.col < l.length) return;
      this.li++;
      this.col = 0;
    }
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

/** A decimal real in C syntax (also inf and nan), or undefined. */
export function parseReal(t: string): number | undefined {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  const l = t.toLowerCase();
  if (l === 'inf' || l === '+inf' || l === 'infinity') return Infinity;
  if (l === '-inf' || l === '-infinity') return -Infinity;
  if (l === 'nan' || l === '-nan') return NaN;
  return undefined;
}

/** Splits a line into whitespace-separated tokens. */
export function lineTokens(line: string): string[] {
  const t = line.trim();
  return t === '' ? [] : t.split(/\s+/);
}
