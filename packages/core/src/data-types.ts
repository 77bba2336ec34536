/**
 * Value types of Data fields, with SOFA's attribute syntax.
 *
 * A DataType parses the text of an XML attribute (or of a linked Data printed as text) and prints a
 * value back in the same syntax, so `print(parse(s))` is the canonical form of `s`. Numbers and
 * vectors are whitespace separated ("1 2 3"); booleans accept 0/1/true/false; option groups accept
 * a name or its index, as SOFA's OptionsGroup does.
 */
export interface DataType<T> {
  /** The type as SOFA names it in its component reference ("double", "vector<int>", ...). */
  readonly name: string;
  /** Parses the attribute text; throws DataParseError with what was expected. */
  parse(text: string): T;
  print(value: T): string;
  /** A copy that does not share storage with `value` (arrays are copied). */
  clone(value: T): T;
  /** Accepted option names, for enumerations (docs and "did you mean"). */
  readonly options?: readonly string[];
}

export class DataParseError extends Error {
  /** For arrays of reals: the group size, so that the scene reader can try SOFA's stream reading. */
  readonly group: number | undefined;
  constructor(
    readonly expected: string,
    readonly hint?: string,
    group?: number,
  ) {
    super(`expected ${expected}`);
    this.name = 'DataParseError';
    this.group = group;
  }
}

const LEADING_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/;

/**
 * What SOFA's stream reading (`in >> double`, `in >> Vec3`) makes of an array of reals that the
 * strict reader refuses: numbers written without a space between them ("0-0.707107" is 0, then
 * −0.707107: strtod stops where a number ends), and a last incomplete group, which SOFA drops
 * (its `in >> Vec3` fails). Returns the numbers so read and what was changed, or undefined when
 * the text holds something else than numbers.
 */
export function sofaStreamReading(text: string, group: number): { values: Float64Array; changes: string[] } | undefined {
  const values: number[] = [];
  const changes: string[] = [];
  for (const tok of tokens(text)) {
    const lower = tok.toLowerCase();
    if (['inf', '+inf', 'infinity', '-inf', '-infinity', 'nan'].includes(lower)) {
      values.push(parseNumberToken(tok, ''));
      continue;
    }
    const parts: string[] = [];
    let rest = tok;
    while (rest.length > 0) {
      const m = LEADING_NUMBER.exec(rest);
      if (!m) return undefined;
      parts.push(m[0]);
      rest = rest.slice(m[0].length);
    }
    if (parts.length > 1) changes.push(`'${tok}' read as ${parts.join(' ')}`);
    for (const p of parts) values.push(Number(p));
  }
  const extra = group > 1 ? values.length % group : 0;
  if (extra > 0) changes.push(`the last ${extra} number(s) of an incomplete group of ${group} ignored`);
  return changes.length > 0 ? { values: Float64Array.from(values.slice(0, values.length - extra)), changes } : undefined;
}

/**
 * Splits SOFA attribute text into tokens: whitespace separated; commas and square brackets are
 * separators too, as SOFA's readers skip them in vectors and matrices (`[1 0 0,0 1 0,0 0 1]`).
 */
export function tokens(text: string): string[] {
  const t = text.trim();
  if (t === '') return [];
  return t.split(/[\s,[\]]+/).filter((s) => s.length > 0);
}

/** Formats a number as SOFA prints doubles in attributes (shortest round-trip form). */
export function printNumber(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return String(x);
}

function parseNumberToken(tok: string, expected: string): number {
  const lower = tok.toLowerCase();
  if (lower === 'inf' || lower === '+inf' || lower === 'infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  if (lower === 'nan') return NaN;
  // Number('') is 0 and Number('0x10') is 16: only accept decimal floating-point syntax.
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(tok)) throw new DataParseError(expected, `got '${tok}'`);
  return Number(tok);
}

function parseIntToken(tok: string, expected: string, unsigned: boolean): number {
  if (!/^[+-]?\d+$/.test(tok)) {
    // SOFA reads "1.0" into an int through istream as 1 and leaves ".0" unread; accept integral reals.
    const v = parseNumberToken(tok, expected);
    if (!Number.isInteger(v)) throw new DataParseError(expected, `got '${tok}'`);
    return v;
  }
  const v = Number(tok);
  if (unsigned && v < 0) throw new DataParseError(expected, `got negative '${tok}'`);
  return v;
}

function one(text: string, expected: string): string {
  const ts = tokens(text);
  if (ts.length !== 1) throw new DataParseError(expected, ts.length === 0 ? 'got nothing' : `got ${ts.length} values`);
  return ts[0];
}

export const Real: DataType<number> = {
  name: 'double',
  parse: (t) => parseNumberToken(one(t, 'a number'), 'a number'),
  print: printNumber,
  clone: (v) => v,
};

export const Int: DataType<number> = {
  name: 'int',
  parse: (t) => parseIntToken(one(t, 'an integer'), 'an integer', false),
  print: (v) => String(v),
  clone: (v) => v,
};

export const UInt: DataType<number> = {
  name: 'unsigned int',
  parse: (t) => parseIntToken(one(t, 'a non-negative integer'), 'a non-negative integer', true),
  print: (v) => String(v),
  clone: (v) => v,
};

export const Bool: DataType<boolean> = {
  name: 'bool',
  parse: (t) => {
    const s = one(t, 'a boolean (0, 1, true or false)').toLowerCase();
    if (s === '1' || s === 'true') return true;
    if (s === '0' || s === 'false') return false;
    throw new DataParseError('a boolean (0, 1, true or false)', `got '${t.trim()}'`);
  },
  print: (v) => (v ? '1' : '0'),
  clone: (v) => v,
};

export const Str: DataType<string> = {
  name: 'string',
  parse: (t) => t,
  print: (v) => v,
  clone: (v) => v,
};

/** A fixed-size vector of reals, e.g. gravity "0 -9.81 0" (Vec3d). */
export function VecN(n: number, name = `Vec${n}d`): DataType<Float64Array> {
  const expected = `${n} numbers`;
  return {
    name,
    parse: (t) => {
      const ts = tokens(t);
      if (ts.length !== n) throw new DataParseError(expected, `got ${ts.length}`);
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = parseNumberToken(ts[i], expected);
      return out;
    },
    print: (v) => Array.from(v, printNumber).join(' '),
    clone: (v) => Float64Array.from(v),
  };
}

export const Vec2: DataType<Float64Array> = VecN(2);
export const Vec3: DataType<Float64Array> = VecN(3);

/**
 * A flat array of reals grouped in tuples of `tupleSize` (vector<Vec3d> is tuple 3, vector<Rigid3d>
 * tuple 7, vector<double> tuple 1). The text must hold a multiple of the tuple size; tupleSize 0
 * means "any length" (the owner checks the grouping at init, e.g. from its template).
 */
export function RealArray(tupleSize: number, name?: string): DataType<Float64Array> {
  const expected = tupleSize > 1 ? `numbers in groups of ${tupleSize}` : 'a list of numbers';
  return {
    name: name ?? (tupleSize > 1 ? `vector<Vec${tupleSize}d>` : 'vector<double>'),
    parse: (t) => {
      const ts = tokens(t);
      if (tupleSize > 1 && ts.length % tupleSize !== 0) throw new DataParseError(expected, `got ${ts.length} numbers`, tupleSize);
      const out = new Float64Array(ts.length);
      for (let i = 0; i < ts.length; i++) {
        try {
          out[i] = parseNumberToken(ts[i], expected);
        } catch (e) {
          throw new DataParseError(expected, (e as DataParseError).hint, Math.max(1, tupleSize));
        }
      }
      return out;
    },
    print: (v) => Array.from(v, printNumber).join(' '),
    clone: (v) => Float64Array.from(v),
  };
}

/** A flat array of non-negative integers (indices), grouped in tuples like RealArray. */
export function IndexArray(tupleSize = 1, name?: string): DataType<Uint32Array> {
  const expected = tupleSize > 1 ? `non-negative integers in groups of ${tupleSize}` : 'a list of non-negative integers';
  return {
    name: name ?? (tupleSize > 1 ? `vector<fixed_array<unsigned int,${tupleSize}>>` : 'vector<unsigned int>'),
    parse: (t) => {
      const ts = tokens(t);
      if (tupleSize === 1 && ts.some((tok) => INDEX_RANGE.test(tok))) return Uint32Array.from(expandIndexRanges(ts, expected));
      if (tupleSize > 1 && ts.length % tupleSize !== 0) throw new DataParseError(expected, `got ${ts.length} integers`);
      const out = new Uint32Array(ts.length);
      for (let i = 0; i < ts.length; i++) out[i] = parseIntToken(ts[i], expected, true);
      return out;
    },
    print: (v) => Array.from(v, String).join(' '),
    clone: (v) => Uint32Array.from(v),
  };
}

export const Indices: DataType<Uint32Array> = IndexArray(1);

/** `a-b` or `a-b-step`: SOFA reads a vector of integers with ranges, "0-8" for 0 1 … 8. */
const INDEX_RANGE = /^(\d+)-(\d+)(?:-(\d+))?$/;

/** The integers of a token list where `a-b[-step]` tokens stand for a..b (inclusive, step ≥ 1). */
function expandIndexRanges(ts: readonly string[], expected: string): number[] {
  const out: number[] = [];
  for (const tok of ts) {
    const m = INDEX_RANGE.exec(tok);
    if (!m) {
      out.push(parseIntToken(tok, expected, true));
      continue;
    }
    const a = Number(m[1]),
      b = Number(m[2]),
      step = m[3] === undefined ? 1 : Number(m[3]);
    if (step < 1) throw new DataParseError(expected, `got a range step of 0 in '${tok}'`);
    if (a <= b) for (let i = a; i <= b; i += step) out.push(i);
    else for (let i = a; i >= b; i -= step) out.push(i);
  }
  return out;
}

export const StringArray: DataType<string[]> = {
  name: 'vector<string>',
  // Also the list form SOFA's Python-era scenes write: ['a.vert', 'b.vert'].
  parse: (t) => tokens(t).map((s) => s.replace(/^(['"])(.*)\1$/, '$2')),
  print: (v) => v.join(' '),
  clone: (v) => v.slice(),
};

/**
 * An option group (SOFA OptionsGroup): one of a fixed set of names; the index of an option is
 * accepted too. The value is the option's name.
 */
export function Enum<const O extends readonly string[]>(options: O, name = 'OptionsGroup'): DataType<O[number]> {
  const expected = `one of ${options.map((o) => `'${o}'`).join(', ')}`;
  return {
    name,
    options,
    parse: (t) => {
      const s = t.trim();
      const exact = options.find((o) => o === s) ?? options.find((o) => o.toLowerCase() === s.toLowerCase());
      if (exact !== undefined) return exact;
      if (/^\d+$/.test(s) && Number(s) < options.length) return options[Number(s)];
      throw new DataParseError(expected, `got '${s}'`);
    },
    print: (v) => v,
    clone: (v) => v,
  };
}
