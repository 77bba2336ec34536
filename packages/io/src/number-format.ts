/** Number printing and parsing as SOFA's text files see them.
 *
 *  SOFA writes doubles with `std::ostream << double` at the default precision 6, which is C's
 *  `%g` with 6 significant digits. Regression references are compared after the current value has
 *  gone through that printing, so the rounding must be bit-for-bit the same as glibc's: the exact
 *  binary value is rounded to nearest, ties to even. */

/** Significant digits of `std::ostream`'s default precision. */
export const SOFA_PRECISION = 6;

/** Print `x` as `std::cout << x` does with the default stream state (printf `%g`, 6 digits). */
export function formatSofaNumber(x: number): string {
  return formatCppNumber(x, SOFA_PRECISION);
}

/**
 * Print `x` as `stream << std::setprecision(p) << x` does in the default float field: printf's
 * `%.pg` (p significant digits, 0 read as 1, at most 99: JavaScript's exact digits stop at 100),
 * glibc's rounding (ties to even on the exact value).
 */
export function formatCppNumber(x: number, precision: number): string {
  const p = Math.min(99, Math.max(1, Math.floor(precision)));
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const sign = x < 0 ? '-' : '';
  const { digits, exponent } = roundToSignificant(Math.abs(x), p);
  // %g picks fixed notation when -4 <= exponent < precision, scientific otherwise.
  if (exponent >= -4 && exponent < p) return sign + fixedNotation(digits, exponent);
  return sign + scientificNotation(digits, exponent);
}

/** Round a finite positive number to `p` significant digits: the digit string (length p, first
 *  digit non-zero) and the decimal exponent of its first digit. */
export function roundToSignificant(x: number, p: number): { digits: string; exponent: number } {
  // JavaScript's toExponential rounds the exact value correctly but breaks ties upwards; glibc
  // breaks them to even. A tie means the exact value has p+1 significant digits ending in 5, and
  // then the (p+1)-digit rounding is that exact value, so only those candidates need a closer look.
  const longer = splitExponential(x.toExponential(p));
  if (longer.digits.endsWith('5') && isExactDecimal(x, longer.digits, longer.exponent)) {
    return roundHalfEven(longer.digits, longer.exponent);
  }
  return splitExponential(x.toExponential(p - 1));
}

function splitExponential(s: string): { digits: string; exponent: number } {
  const e = s.indexOf('e');
  return { digits: s.slice(0, e).replace('.', ''), exponent: Number(s.slice(e + 1)) };
}

/** True when the double `x` (> 0) equals the decimal `0.d1d2... × 10^(exponent+1)` exactly. */
function isExactDecimal(x: number, digits: string, exponent: number): boolean {
  const { mantissa, binaryExponent } = decompose(x);
  // x = mantissa·2^b and the decimal is n·10^k; compare them as integers after clearing the
  // negative powers on both sides.
  const n = BigInt(digits);
  const k = exponent - (digits.length - 1);
  let left = mantissa;
  let right = n;
  if (binaryExponent >= 0) left <<= BigInt(binaryExponent);
  else right <<= BigInt(-binaryExponent);
  if (k >= 0) right *= 10n ** BigInt(k);
  else left *= 10n ** BigInt(-k);
  return left === right;
}

/** x = mantissa · 2^binaryExponent with an integer mantissa (x finite and positive). */
function decompose(x: number): { mantissa: bigint; binaryExponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // Subnormals have no implicit leading 1 and the exponent of the smallest normal.
  if (biased === 0) return { mantissa: fraction, binaryExponent: -1074 };
  return { mantissa: fraction | (1n << 52n), binaryExponent: biased - 1075 };
}

/** Drop the last digit (an exact 5 with nothing after it) rounding to even. */
function roundHalfEven(digits: string, exponent: number): { digits: string; exponent: number } {
  const kept = digits.slice(0, -1);
  const lastKept = Number(kept[kept.length - 1]);
  if (lastKept % 2 === 0) return { digits: kept, exponent };
  const bumped = (BigInt(kept) + 1n).toString();
  // 99...9 + 1 carries into a new digit: renormalise to the same number of digits.
  if (bumped.length > kept.length) return { digits: bumped.slice(0, kept.length), exponent: exponent + 1 };
  return { digits: bumped, exponent };
}

function fixedNotation(digits: string, exponent: number): string {
  let intPart: string;
  let fracPart: string;
  if (exponent >= 0) {
    intPart = digits.slice(0, exponent + 1);
    fracPart = digits.slice(exponent + 1);
  } else {
    intPart = '0';
    fracPart = '0'.repeat(-exponent - 1) + digits;
  }
  // %g drops trailing zeros of the fraction, and the point when nothing is left after it.
  fracPart = fracPart.replace(/0+$/, '');
  return fracPart.length > 0 ? `${intPart}.${fracPart}` : intPart;
}

function scientificNotation(digits: string, exponent: number): string {
  const frac = digits.slice(1).replace(/0+$/, '');
  const mantissa = frac.length > 0 ? `${digits[0]}.${frac}` : digits[0];
  // C prints at least two exponent digits, always signed.
  const expSign = exponent < 0 ? '-' : '+';
  const expDigits = String(Math.abs(exponent)).padStart(2, '0');
  return `${mantissa}e${expSign}${expDigits}`;
}

/** Value of `x` once it has been written by SOFA and read back: what a reference file holds. */
export function roundLikeSofa(x: number): number {
  return parseSofaNumber(formatSofaNumber(x))!;
}

// A C decimal floating literal as strtod accepts it, plus the inf/nan spellings C++ prints.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/** Parse one scalar token of a SOFA text file; undefined when it is not a number. */
export function parseSofaNumber(token: string): number | undefined {
  if (DECIMAL.test(token)) return Number(token);
  const special = SPECIAL.exec(token);
  if (!special) return undefined;
  if (special[2].toLowerCase() === 'nan') return NaN;
  return special[1] === '-' ? -Infinity : Infinity;
}
