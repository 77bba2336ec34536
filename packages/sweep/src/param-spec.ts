import { SofaError } from '@sofa-ts/core';

/**
 * `--param PATH=SPEC`: which Data a sweep varies and over which values.
 *
 *   PATH   a Data by scene path: /Beam/FEM.youngModulus, /root.gravity, /finger/cable.value
 *   SPEC   v1,v2,…          a list of attribute texts (as written in a scene file)
 *          lin:A:B:N        N values from A to B, evenly spaced (numpy.linspace's values)
 *          log:A:B:N        N values from A to B, evenly spaced in log (numpy.geomspace's), A, B > 0
 *          rand:A:B         a uniform sample in [A, B)         (with --samples and --seed)
 *          logrand:A:B      a log-uniform sample in [A, B)
 *          lhs:A:B          a Latin-hypercube sample in [A, B): one value in each of the N strata
 *          loglhs:A:B       the same in log
 *          text{SPEC}text   the values of SPEC inside a text: mu={lin:0:0.6:7}, "0 {lin:-20:0:5} 0"
 *
 * A number given to a Data is written in its shortest exact form (String(x)), so the Data reads
 * back the very double of the sweep.
 */
export interface ParamValue {
  /** The attribute text the Data is set from. */
  readonly text: string;
  /** What the results table holds: the number (inside a template too), else the text. */
  readonly value: number | string;
}

export type ParamAxis =
  | { readonly path: string; readonly spec: string; readonly kind: 'grid'; readonly values: readonly ParamValue[] }
  | {
      readonly path: string;
      readonly spec: string;
      readonly kind: 'sample';
      readonly law: 'uniform' | 'log';
      readonly lhs: boolean;
      readonly lo: number;
      readonly hi: number;
      readonly prefix: string;
      readonly suffix: string;
    };

/** Parses `PATH=SPEC` (the first '=' separates them). Errors are SofaErrors naming the argument. */
export function parseParam(arg: string): ParamAxis {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new SofaError(`--param '${arg}': expected PATH=SPEC (e.g. /Beam/FEM.youngModulus=lin:1e3:1e5:5)`);
  const path = arg.slice(0, eq).trim();
  const spec = arg.slice(eq + 1);
  if (!/\.[^./]+$/.test(path))
    throw new SofaError(`--param '${arg}': '${path}' is not a Data path (expected /node/object.field or /node.field)`);
  const fail = (why: string): never => {
    throw new SofaError(`--param '${arg}': ${why}`);
  };
  let prefix = '';
  let suffix = '';
  let body = spec;
  const open = spec.indexOf('{');
  if (open >= 0) {
    const close = spec.lastIndexOf('}');
    if (close < open) fail("a '{' without its '}'");
    prefix = spec.slice(0, open);
    suffix = spec.slice(close + 1);
    body = spec.slice(open + 1, close);
    if (/[{}]/.test(prefix + suffix + body)) fail('one {…} at most');
  }
  const m = /^(lin|log|rand|logrand|lhs|loglhs):(.*)$/.exec(body.trim());
  if (!m) {
    const items = body.split(',');
    if (items.some((s) => s.trim() === '')) fail('an empty value in the list');
    const values = items.map((item) => {
      const t = item.trim();
      const n = Number(t);
      return { text: prefix + t + suffix, value: Number.isFinite(n) && /^[-+0-9.]/.test(t) ? n : t };
    });
    return { path, spec, kind: 'grid', values };
  }
  const kind = m[1];
  const parts = m[2].split(':');
  const num = (s: string | undefined, what: string): number => {
    const x = Number(s);
    if (s === undefined || s.trim() === '' || !Number.isFinite(x)) fail(`${what} must be a finite number, got '${s ?? ''}'`);
    return x;
  };
  const isLog = kind.startsWith('log');
  if (kind === 'lin' || kind === 'log') {
    if (parts.length !== 3) fail(`${kind}:A:B:N expected`);
    const a = num(parts[0], 'A'),
      b = num(parts[1], 'B');
    const n = Number(parts[2]);
    if (!Number.isInteger(n) || n < 1) fail(`N must be a positive integer, got '${parts[2]}'`);
    if (isLog && (a <= 0 || b <= 0)) fail('log:A:B:N needs A > 0 and B > 0');
    const xs = isLog ? geomspace(a, b, n) : linspace(a, b, n);
    return { path, spec, kind: 'grid', values: xs.map((x) => ({ text: prefix + String(x) + suffix, value: x })) };
  }
  if (parts.length !== 2) fail(`${kind}:A:B expected`);
  const lo = num(parts[0], 'A'),
    hi = num(parts[1], 'B');
  if (!(hi > lo)) fail(`B must be greater than A`);
  if (isLog && lo <= 0) fail(`${kind}:A:B needs A > 0`);
  return { path, spec, kind: 'sample', law: isLog ? 'log' : 'uniform', lhs: kind.endsWith('lhs'), lo, hi, prefix, suffix };
}

/** n values from a to b: a + i·(b − a)/(n − 1), the last one b exactly (numpy.linspace). */
export function linspace(a: number, b: number, n: number): number[] {
  if (n === 1) return [a];
  const step = (b - a) / (n - 1);
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? b : a + i * step));
}

/** n values from a to b in geometric progression, 10^linspace(log10 a, log10 b, n) with the ends
 *  exact (numpy.geomspace). */
export function geomspace(a: number, b: number, n: number): number[] {
  if (n === 1) return [a];
  const la = Math.log10(a),
    step = (Math.log10(b) - la) / (n - 1);
  return Array.from({ length: n }, (_, i) => (i === 0 ? a : i === n - 1 ? b : 10 ** (la + i * step)));
}

/** The value of a sample axis for u in [0, 1). */
export function sampleValue(axis: Extract<ParamAxis, { kind: 'sample' }>, u: number): ParamValue {
  const x =
    axis.law === 'log' ? Math.exp(Math.log(axis.lo) + u * (Math.log(axis.hi) - Math.log(axis.lo))) : axis.lo + u * (axis.hi - axis.lo);
  return { text: axis.prefix + String(x) + axis.suffix, value: x };
}

/** Whether the parameter was given in log (log:, logrand:, loglhs:): its plots get a log axis. */
export function isLogAxis(a: ParamAxis): boolean {
  return a.kind === 'sample' ? a.law === 'log' : /(^|\{)\s*log:/.test(a.spec);
}
