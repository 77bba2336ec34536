import { BaseObject, DataParseError, Real, SofaError, stateTypeOf, type Data } from '@sofa-ts/core';

/**
 * Data values as they cross the channel. Numbers, booleans and strings travel in the JSON header
 * (non-finite numbers as `{"$f": "nan" | "inf" | "-inf"}`, which JSON cannot say); typed arrays as
 * raw bytes in a blob, with the shape SofaPython3 gives them: `(n, k)` for a vector of k-tuples
 * (positions of a Vec3d state: k = 3, of a Rigid3d state: k = 7), `(n,)` for a flat vector.
 */
export type WireValue =
  | number
  | boolean
  | string
  | null
  | { $f: 'nan' | 'inf' | '-inf' }
  | { $b: number; dtype: 'f8' | 'u4' | 'i4'; shape: number[] }
  | WireValue[];

export function wireNumber(x: number): WireValue {
  if (Number.isFinite(x)) return x;
  return { $f: Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf' };
}

export function numberOfWire(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && '$f' in v) {
    const f = (v as { $f: string }).$f;
    return f === 'nan' ? NaN : f === 'inf' ? Infinity : -Infinity;
  }
  return undefined;
}

/**
 * The size of the tuples of a vector Data, from its SOFA type name and owner: `vector<Vec3d>` 3,
 * `vector<fixed_array<unsigned int,4>>` 4, a state's `vector<Coord>`/`vector<Deriv>` the coordinate
 * or derivative size of its template; 1 for a flat vector (`vector<double>`, indices, `Vec3d`).
 */
export function tupleSizeOf(d: Data<unknown>): number {
  const name = d.spec.type.name;
  if (name === 'vector<Coord>' || name === 'vector<Deriv>') {
    // a Data linked to a state's (addData with a link) has that state's template
    let src: Data<unknown> = d;
    for (let k = 0; src.parent && k < 64; k++) src = src.parent;
    const owner = src.owner;
    const t = owner instanceof BaseObject ? stateTypeOf(owner.template || 'Vec3d') : undefined;
    if (t) return name === 'vector<Coord>' ? t.coordSize : t.derivSize;
    return 1;
  }
  let k = tupleOfType.get(name);
  if (k === undefined) {
    k = tupleSizeOfTypeName(name);
    tupleOfType.set(name, k);
  }
  return k;
}

/** The tuple size of the type names that say it themselves (all but a state's Coord/Deriv), found once per name. */
const tupleOfType = new Map<string, number>();

function tupleSizeOfTypeName(name: string): number {
  let m = /^vector<(?:Vec|Mat)(\d+)[df]?>$/.exec(name);
  if (m) return Number(m[1]);
  m = /^vector<fixed_array<[^,]+,\s*(\d+)>\s*>$/.exec(name);
  if (m) return Number(m[1]);
  if (/^vector<Rigid3[df]?(Types)?::Coord>$/.test(name) || name === 'vector<Rigid3d>') return 7;
  return 1;
}

/** Encodes a Data's value; array bytes are appended to `blobs`. */
export function wireOfValue(d: Data<unknown>, value: unknown, blobs: ArrayBufferView[]): WireValue {
  if (typeof value === 'number') return wireNumber(value);
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (value instanceof Float64Array || value instanceof Uint32Array || value instanceof Int32Array) {
    const k = tupleSizeOf(d);
    const dtype = value instanceof Float64Array ? 'f8' : value instanceof Uint32Array ? 'u4' : 'i4';
    blobs.push(value);
    const isVector = d.spec.type.name.startsWith('vector');
    const shape = isVector && k > 1 && value.length % k === 0 ? [value.length / k, k] : [value.length];
    return { $b: blobs.length - 1, dtype, shape };
  }
  if (ArrayBuffer.isView(value)) {
    const a = Float64Array.from(value as unknown as ArrayLike<number>);
    blobs.push(a);
    return { $b: blobs.length - 1, dtype: 'f8', shape: [a.length] };
  }
  if (Array.isArray(value) && value.every((s) => typeof s === 'string')) return value as string[];
  // anything else travels as SOFA's text (what the Data prints)
  return d.spec.type.print(value);
}

/** A value sent by Python for a Data: `{text}`, a number or bool, or an array blob. */
export type WireInput =
  { text: string } | { num: WireValue } | { bool: boolean } | { array: { $b: number; shape: number[] } } | { strings: string[] };

/**
 * Writes a value that Python sent into a Data, with the rules of a scene attribute (the same
 * parsing, the same errors). A float64 array into a Data holding a Float64Array of the same length
 * is copied into that array, as SOFA writes into the Data's storage: a MechanicalObject's
 * position written from Python is the state's position.
 */
export function writeWireInput(d: Data<unknown>, input: WireInput, blobs: readonly Uint8Array[], warn?: (detail: string) => void): void {
  try {
    writeInput(d, input, blobs, warn);
  } catch (e) {
    if (e instanceof DataParseError)
      throw new SofaError(`bad value for '${d.name}' (${d.spec.type.name}): expected ${e.expected}${e.hint ? `, ${e.hint}` : ''}`);
    throw e;
  }
}

function writeInput(d: Data<unknown>, input: WireInput, blobs: readonly Uint8Array[], warn?: (detail: string) => void): void {
  const cur = d.value;
  if ('text' in input) {
    if (input.text.trim().startsWith('@'))
      throw new SofaError(
        `'${d.name}': a value is expected here, not a link ('${input.text.trim()}'); use setParent or give the link at creation`,
      );
    d.read(input.text);
    return;
  }
  if ('bool' in input) {
    if (typeof cur === 'boolean') d.value = input.bool;
    else d.read(input.bool ? '1' : '0');
    return;
  }
  if ('num' in input) {
    const x = numberOfWire(input.num);
    if (x === undefined) throw new SofaError(`'${d.name}': not a number`);
    // a double takes the number as it is (what its text would parse to); others parse it (an
    // int refuses 0.5, an option group names its choices)
    if (d.spec.type === Real) d.value = x;
    else d.read(printExact(x));
    return;
  }
  if ('strings' in input) {
    d.read(input.strings.join(' '));
    return;
  }
  const bytes = blobs[input.array.$b];
  if (!bytes || bytes.byteLength % 8 !== 0) throw new SofaError(`'${d.name}': malformed array from Python`);
  const values = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  if (cur instanceof Float64Array) {
    const k = tupleSizeOf(d);
    if (k > 1 && values.length % k !== 0)
      throw new SofaError(
        `bad value for '${d.name}' (${d.spec.type.name}): expected numbers in groups of ${k}, got ${values.length} numbers`,
      );
    const fixed = isFixedSize(d.spec.type.name);
    if (fixed && values.length < cur.length && values.length > 0 && warn) {
      // SOFA's stream reading of a fixed-size vector: the numbers given, the others kept
      const v = Float64Array.from(cur);
      v.set(values);
      warn(
        `'${d.name}' (${d.spec.type.name}) was given ${values.length} of its ${cur.length} numbers: the others keep their values (${Array.from(v.subarray(values.length)).join(' ')}), as SOFA reads a short vector`,
      );
      d.value = v;
      return;
    }
    if (fixed && values.length !== cur.length)
      throw new SofaError(`bad value for '${d.name}' (${d.spec.type.name}): expected ${cur.length} numbers, got ${values.length}`);
    if (values.length === cur.length && d.parent === undefined) {
      cur.set(values);
      d.value = cur; // marks the write (isSet, counter) with the same storage
    } else {
      d.value = Float64Array.from(values);
    }
    return;
  }
  if (cur instanceof Uint32Array || cur instanceof Int32Array) {
    const out = cur instanceof Uint32Array ? new Uint32Array(values.length) : new Int32Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const x = values[i];
      const ok = Number.isInteger(x) && (cur instanceof Uint32Array ? x >= 0 && x <= 0xffffffff : x >= -0x80000000 && x <= 0x7fffffff);
      if (!ok)
        throw new SofaError(
          `bad value for '${d.name}' (${d.spec.type.name}): expected ${cur instanceof Uint32Array ? 'non-negative integers' : 'integers'}, got ${x} at ${i}`,
        );
      out[i] = x;
    }
    const k = tupleSizeOf(d);
    if (k > 1 && out.length % k !== 0)
      throw new SofaError(`bad value for '${d.name}' (${d.spec.type.name}): expected integers in groups of ${k}, got ${out.length}`);
    d.value = out;
    return;
  }
  // scalars, option groups, strings: through SOFA's text, exactly (shortest round-trip numbers)
  d.read(Array.from(values, printExact).join(' '));
}

/** Whether a type is a fixed-size vector (Vec3d, RGBAColor, Quat: SOFA reads a short one leniently), found once per name. */
function isFixedSize(name: string): boolean {
  let f = fixedOfType.get(name);
  if (f === undefined) {
    f = !name.startsWith('vector') && /^(Vec\d|RGBAColor|Quat)/.test(name);
    fixedOfType.set(name, f);
  }
  return f;
}

const fixedOfType = new Map<string, boolean>();

/** A number printed so that parsing it gives the same double (JavaScript's shortest form). */
function printExact(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return String(x);
}
