/** Where a piece of a scene came from: 1-based line and column in a file (or a pseudo-file name
 *  such as `<string>` for scenes given as text). */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export function formatLocation(loc: SourceLocation | undefined): string {
  return loc ? `${loc.file}:${loc.line}:${loc.column}` : '<unknown location>';
}

/** The kinds of scene problems tools tell apart. */
export type SofaErrorCode =
  | 'unknown-component'
  | 'missing-plugin'
  | 'unused-attribute'
  | 'deprecated'
  | 'template-fallback'
  | 'xml-leniency'
  | 'skipped-component'
  | 'unresolved-data-link';

/** An error a user can act on: where (file:line:column), which component, what was expected and,
 *  when a near name exists, a "did you mean". The CLI prints `message` only, never a stack trace. */
export class SofaError extends Error {
  readonly loc: SourceLocation | undefined;
  readonly component: string | undefined;
  readonly detail: string;
  readonly hint: string | undefined;
  /** What kind of problem this is, for tools that sort problems (`sofa-ts check`), e.g.
   *  'unknown-component', 'unused-attribute', 'deprecated', 'template-fallback'. */
  readonly code: SofaErrorCode | undefined;
  /** The component that raised it (BaseObject.error sets it), for reports that add its node path. */
  readonly source: object | undefined;

  constructor(
    detail: string,
    options: { loc?: SourceLocation; component?: string; hint?: string; cause?: unknown; code?: SofaErrorCode; source?: object } = {},
  ) {
    const where = options.loc ? `${formatLocation(options.loc)}: ` : '';
    const who = options.component ? `${options.component}: ` : '';
    const hint = options.hint ? ` (${options.hint})` : '';
    super(`${where}${who}${detail}${hint}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SofaError';
    this.loc = options.loc;
    this.component = options.component;
    this.detail = detail;
    this.hint = options.hint;
    this.code = options.code;
    this.source = options.source;
  }
}

/** Several errors found in one pass (a scene is checked whole before it is reported). */
export class SofaErrors extends SofaError {
  readonly errors: readonly SofaError[];
  constructor(errors: readonly SofaError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'SofaErrors';
    this.errors = errors;
  }
}

/** Damerau-free Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[n];
}

/** The closest candidates to `name` (case-insensitive), best first; empty when none is near. Empty
 *  names (an unnamed node) are never suggested, nor anything for an empty name: every name starts
 *  with ''. */
export function nearestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const lower = name.toLowerCase();
  const scored: Array<[number, string]> = [];
  if (lower === '') return [];
  for (const c of new Set(candidates)) {
    if (c === '') continue;
    const cl = c.toLowerCase();
    let d = editDistance(lower, cl);
    if (cl.startsWith(lower) || lower.startsWith(cl)) d = Math.min(d, 1);
    const budget = Math.max(2, Math.floor(Math.max(name.length, c.length) / 3));
    if (d <= budget) scored.push([d, c]);
  }
  scored.sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1]));
  return scored.slice(0, max).map((s) => s[1]);
}

export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  if (name.trim() === '') return undefined;
  const near = nearestNames(name, candidates).filter((n) => n !== '');
  if (near.length === 0) return undefined;
  return `did you mean ${near.map((n) => `'${n}'`).join(' or ')}?`;
}
