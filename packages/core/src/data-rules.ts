import type { Data } from './data.js';
import { printNumber } from './data-types.js';
import { SofaError, type SourceLocation } from './errors.js';

/**
 * The numbers a Data field accepts, declared with the field (`range` in its DataSpec) so that the
 * check, its message and the component reference all come from one place. It applies to every
 * number of the value (a scalar, each component of a vector, each entry of a list).
 *
 * Whatever the range, a number set by the scene must be finite: NaN never, ±inf only where the
 * range says so (an unbounded limit). Out-of-range values are refused with a located error, except
 * where SOFA warns and replaces them (`reset`): then sofa-ts does the same and says so.
 */
export interface NumberRange {
  /** What is accepted, for messages and docs: '> 0', 'in [0, 0.5)'. */
  readonly accepts: string;
  /** True when x is accepted (x is not NaN; it is ±inf only with allowInfinity). */
  readonly test: (x: number) => boolean;
  /** The value SOFA puts instead of an out-of-range one (with a warning); absent: refused. */
  readonly reset?: number;
  /** ±inf accepted (and given to `test`). */
  readonly allowInfinity?: boolean;
}

/** A range from its description and its test (the builders below cover the usual ones). */
export const numberRange = (accepts: string, test: (x: number) => boolean): NumberRange => ({ accepts, test });
const range = numberRange;

/** x > 0 */
export const positive = range('> 0', (x) => x > 0);
/** x ≥ 0 */
export const nonNegative = range('>= 0', (x) => x >= 0);
/** x ≥ lo */
export const atLeast = (lo: number): NumberRange => range(`>= ${lo}`, (x) => x >= lo);
/** x > lo */
export const greaterThan = (lo: number): NumberRange => range(`> ${lo}`, (x) => x > lo);
/** lo ≤ x ≤ hi */
export const inClosed = (lo: number, hi: number): NumberRange => range(`in [${lo}, ${hi}]`, (x) => x >= lo && x <= hi);
/** lo ≤ x < hi */
export const inHalfOpen = (lo: number, hi: number): NumberRange => range(`in [${lo}, ${hi})`, (x) => x >= lo && x < hi);
/** x ≤ hi (with x ≥ 0: a count or size bounded to keep the work bounded) */
export const countAtMost = (hi: number): NumberRange => range(`in [0, ${hi}]`, (x) => x >= 0 && x <= hi);
/** lo < x < hi */
export const inOpen = (lo: number, hi: number): NumberRange => range(`in (${lo}, ${hi})`, (x) => x > lo && x < hi);
/** Any finite number: the default rule, spelled out where a field needs a declaration anyway. */
export const finite = range('finite', () => true);

/** SOFA's reaction to an out-of-range value: a warning, and `value` instead. */
export function orReset(r: NumberRange, value: number): NumberRange {
  return { ...r, reset: value };
}

/** The same range, ±inf accepted too (an unbounded limit). */
export function orInfinite(r: NumberRange): NumberRange {
  return { ...r, allowInfinity: true, accepts: `${r.accepts} (inf allowed)` };
}

/** What a range says in the component reference: 'a finite number > 0; SOFA resets it to 0.45'. */
export function describeRange(r: NumberRange): string {
  const what = r === finite ? 'finite' : r.accepts;
  return r.reset === undefined ? what : `${what}, else reset to ${printNumber(r.reset)} with a warning (as SOFA)`;
}

/** Problems found in the Data of one owner: errors refuse the scene, warnings are reported. */
export interface DataCheck {
  readonly errors: SofaError[];
  readonly warnings: SofaError[];
}

/**
 * Checks the Data the scene (or code) set on `owner` against their declared ranges, and every
 * number of them for finiteness; resets the values SOFA resets. Outputs and Data left at their
 * default are not checked. `who` names the owner in messages, `fallback` locates a Data without
 * its own position (a value set in code). `which` restricts the check to the values given directly
 * ('unlinked': known before any component runs) or to those that follow another Data ('linked':
 * known once their source is initialised).
 */
export function checkDataRanges(
  fields: readonly Data<unknown>[],
  who: string,
  fallback: SourceLocation | undefined,
  which: 'all' | 'unlinked' | 'linked' = 'all',
): DataCheck {
  const out: DataCheck = { errors: [], warnings: [] };
  for (const d of fields) {
    if (!d.isSet || d.spec.output) continue;
    if (which !== 'all' && (d.parent === undefined) !== (which === 'unlinked')) continue;
    const r = d.spec.range;
    const v = d.value;
    if (typeof v === 'number') {
      const bad = verdict(v, r);
      if (bad === undefined) continue;
      const loc = d.loc ?? fallback;
      const opts = { ...(loc ? { loc } : {}), component: who };
      if (bad === 'reset') {
        d.value = r!.reset!;
        out.warnings.push(
          new SofaError(
            `'${d.name}' must be ${r!.accepts}, got ${printNumber(v)}: it is set to ${printNumber(r!.reset!)}, as SOFA does`,
            opts,
          ),
        );
      } else {
        out.errors.push(new SofaError(`'${d.name}' must be ${expected(r)}, got ${printNumber(v)}`, opts));
      }
    } else if (isNumberArray(v)) {
      const loc = d.loc ?? fallback;
      const opts = { ...(loc ? { loc } : {}), component: who };
      let refused = -1;
      let firstReset = -1;
      let resets = 0;
      for (let i = 0; i < v.length && refused < 0; i++) {
        const bad = verdict(v[i], r);
        if (bad === 'refuse') refused = i;
        else if (bad === 'reset' && resets++ === 0) firstReset = i;
      }
      if (refused >= 0) {
        out.errors.push(
          new SofaError(
            `'${d.name}' must hold ${r === undefined || r === finite ? 'finite numbers' : `numbers ${expected(r)}`}, got ${printNumber(v[refused])} at index ${refused}`,
            opts,
          ),
        );
      } else if (resets > 0) {
        const what =
          resets === 1
            ? `${printNumber(v[firstReset])} at index ${firstReset}`
            : `${resets} values (the first ${printNumber(v[firstReset])} at index ${firstReset})`;
        out.warnings.push(
          new SofaError(`'${d.name}' must hold numbers ${r!.accepts}, got ${what}: set to ${printNumber(r!.reset!)}, as SOFA does`, opts),
        );
        const copy = v.slice();
        for (let i = 0; i < copy.length; i++) if (verdict(copy[i], r) === 'reset') copy[i] = r!.reset!;
        d.value = copy as never;
      }
    }
  }
  return out;
}

type NumberArray = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

function isNumberArray(v: unknown): v is NumberArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof BigInt64Array) && !(v instanceof BigUint64Array);
}

/** undefined: accepted; 'reset': out of range where SOFA resets; 'refuse': refused. */
function verdict(x: number, r: NumberRange | undefined): 'reset' | 'refuse' | undefined {
  if (Number.isNaN(x)) return 'refuse';
  if (!Number.isFinite(x) && !r?.allowInfinity) return 'refuse';
  if (r === undefined || r.test(x)) return undefined;
  return r.reset === undefined ? 'refuse' : 'reset';
}

function expected(r: NumberRange | undefined): string {
  if (r === undefined || r === finite) return 'finite';
  return r.allowInfinity ? r.accepts : `finite and ${r.accepts}`;
}
