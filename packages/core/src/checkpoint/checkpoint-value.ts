import { SofaError } from '../errors.js';

/** The typed arrays a checkpoint stores as raw bytes (bitwise exact, NaN payloads and −0 included). */
export type CheckpointTypedArray =
  Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array | Uint8ClampedArray;

/**
 * What a checkpoint can hold: numbers (any double, exactly), booleans, strings, null, typed arrays,
 * and lists and records of these. `undefined` in a record means "absent" (the key is not stored).
 */
export type CheckpointValue =
  | null
  | boolean
  | number
  | string
  | CheckpointTypedArray
  | readonly CheckpointValue[]
  | { readonly [key: string]: CheckpointValue | undefined };

/** A component's saved state: named values. */
export type CheckpointRecord = { [key: string]: CheckpointValue | undefined };

const TYPED_ARRAYS = [
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Int16Array,
  Uint16Array,
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
] as const;

/** The constructors of the typed arrays a checkpoint stores, by their index in the file format. */
export const checkpointTypedArrays: readonly (typeof TYPED_ARRAYS)[number][] = TYPED_ARRAYS;

/**
 * The kind of a typed array: its index in checkpointTypedArrays, by class (a subclass such as
 * Node's Buffer counts as its base class, Uint8Array), or −1.
 */
export function typedArrayKind(v: unknown): number {
  if (!ArrayBuffer.isView(v)) return -1;
  for (let k = 0; k < TYPED_ARRAYS.length; k++) if (v instanceof TYPED_ARRAYS[k]) return k;
  return -1;
}

export function isCheckpointTypedArray(v: unknown): v is CheckpointTypedArray {
  return typedArrayKind(v) >= 0;
}

/** A copy of a typed array in a fresh buffer of its base class, bit for bit (same-type set copies bytes). */
export function copyTypedArray<T extends CheckpointTypedArray>(v: T): T {
  const C = TYPED_ARRAYS[typedArrayKind(v)] as unknown as new (n: number) => T;
  const out = new C(v.length);
  (out as unknown as { set(a: ArrayLike<number>): void }).set(v);
  return out;
}

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || ArrayBuffer.isView(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** True when `v` is a value a checkpoint can hold (checked deeply). */
export function isCheckpointValue(v: unknown): v is CheckpointValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return true;
  if (isCheckpointTypedArray(v)) return true;
  if (Array.isArray(v)) return v.every(isCheckpointValue);
  if (isPlainRecord(v)) return Object.values(v).every((x) => x === undefined || isCheckpointValue(x));
  return false;
}

/**
 * A deep copy (typed arrays copied, so later steps do not change what was saved). Throws a
 * SofaError naming `where` for a value a checkpoint cannot hold (a class instance, a function).
 */
export function copyCheckpointValue(v: unknown, where: string): CheckpointValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  if (isCheckpointTypedArray(v)) return copyTypedArray(v);
  if (Array.isArray(v)) return v.map((x, i) => copyCheckpointValue(x, `${where}[${i}]`));
  if (isPlainRecord(v)) {
    const out: Record<string, CheckpointValue> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = copyCheckpointValue(x, `${where}.${k}`);
    return out;
  }
  const what = typeof v === 'object' && v !== null ? (v.constructor?.name ?? 'object') : typeof v;
  throw new SofaError(
    `checkpoint: ${where} is a ${what}, which a checkpoint cannot hold (numbers, booleans, strings, typed arrays, lists and records of these)`,
  );
}

/** Bitwise equality of two checkpoint values (numbers compared by their bits: NaN = NaN, 0 ≠ −0). */
export function checkpointValuesEqual(a: CheckpointValue | undefined, b: CheckpointValue | undefined): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined || typeof a !== 'object' || typeof b !== 'object') return false;
  if (isCheckpointTypedArray(a) || isCheckpointTypedArray(b)) {
    if (
      !isCheckpointTypedArray(a) ||
      !isCheckpointTypedArray(b) ||
      typedArrayKind(a) !== typedArrayKind(b) ||
      a.byteLength !== b.byteLength
    )
      return false;
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
      y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => checkpointValuesEqual(x as CheckpointValue, b[i] as CheckpointValue));
  }
  const ra = a as Record<string, CheckpointValue | undefined>,
    rb = b as Record<string, CheckpointValue | undefined>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined),
    kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => checkpointValuesEqual(ra[k], rb[k]));
}

type TypedArrayClass<T extends CheckpointTypedArray> = { new (n: number): T; readonly name: string };

/**
 * Reads a component's saved record back, with located errors: a missing key or a value of the
 * wrong kind names the component and the key (a checkpoint of another version of the component,
 * or a damaged file that passed the checksum), never a silent default.
 */
export class CheckpointReader {
  constructor(
    readonly record: CheckpointRecord,
    readonly where: string,
  ) {}

  has(key: string): boolean {
    return this.record[key] !== undefined;
  }

  private fail(key: string, expected: string): SofaError {
    const v = this.record[key];
    const got = v === undefined ? 'it is missing' : `got ${describeValue(v)}`;
    return new SofaError(`checkpoint: ${this.where}: '${key}' should be ${expected}, ${got}`, {
      hint: 'the checkpoint was written by another version of this component, or is damaged',
    });
  }

  number(key: string): number {
    const v = this.record[key];
    if (typeof v !== 'number') throw this.fail(key, 'a number');
    return v;
  }

  bool(key: string): boolean {
    const v = this.record[key];
    if (typeof v !== 'boolean') throw this.fail(key, 'a boolean');
    return v;
  }

  string(key: string): string {
    const v = this.record[key];
    if (typeof v !== 'string') throw this.fail(key, 'a string');
    return v;
  }

  /** A saved typed array of class `cls` (a copy owned by the caller). */
  array<T extends CheckpointTypedArray>(key: string, cls: TypedArrayClass<T>): T {
    const v = this.record[key];
    if (!isCheckpointTypedArray(v) || !(v instanceof cls) || TYPED_ARRAYS[typedArrayKind(v)] !== (cls as unknown))
      throw this.fail(key, `a ${cls.name}`);
    return v as T;
  }

  /**
   * The saved array put into `current` when it has the same length (so views into a solver's
   * global vectors stay views), else a new array of the saved length (a buffer sized at the first
   * step, not yet allocated in a scene that has not stepped). Returns the array to keep.
   */
  restoreArray<T extends CheckpointTypedArray>(key: string, current: T): T {
    const saved = this.array(key, TYPED_ARRAYS[typedArrayKind(current)] as unknown as TypedArrayClass<T>);
    if (saved.length === current.length) {
      (current as unknown as { set(a: ArrayLike<number>): void }).set(saved);
      return current;
    }
    return copyTypedArray(saved);
  }

  /** Like restoreArray, but the length must match (a state's vectors; a resize is not restored silently). */
  restoreArrayInPlace(key: string, current: CheckpointTypedArray, what = key): void {
    const saved = this.array(key, TYPED_ARRAYS[typedArrayKind(current)] as unknown as TypedArrayClass<CheckpointTypedArray>);
    if (saved.length !== current.length)
      throw new SofaError(`checkpoint: ${this.where}: ${what} has ${current.length} values, the checkpoint ${saved.length}`, {
        hint: 'the scene changed size since the checkpoint was taken (topological changes are not checkpointed)',
      });
    (current as unknown as { set(a: ArrayLike<number>): void }).set(saved);
  }

  list(key: string): readonly CheckpointValue[] {
    const v = this.record[key];
    if (!Array.isArray(v)) throw this.fail(key, 'a list');
    return v as readonly CheckpointValue[];
  }

  /** A nested record, read with its own reader. */
  sub(key: string): CheckpointReader {
    const v = this.record[key];
    if (v === null || typeof v !== 'object' || Array.isArray(v) || isCheckpointTypedArray(v)) throw this.fail(key, 'a record');
    return new CheckpointReader(v as CheckpointRecord, `${this.where}.${key}`);
  }

  /** The records of a saved list, each with its reader. */
  records(key: string): CheckpointReader[] {
    return this.list(key).map((v, i) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || isCheckpointTypedArray(v)) throw this.fail(key, 'a list of records');
      return new CheckpointReader(v as CheckpointRecord, `${this.where}.${key}[${i}]`);
    });
  }
}

function describeValue(v: CheckpointValue): string {
  if (isCheckpointTypedArray(v)) return `a ${TYPED_ARRAYS[typedArrayKind(v)].name} of ${v.length}`;
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (v === null) return 'null';
  return typeof v === 'object' ? 'a record' : `a ${typeof v} (${String(v)})`;
}

/**
 * The named own fields of `obj` as a record (the declarative form of Checkpointable: a component
 * lists its hidden state in `checkpointFields`). A field may hold a number, a boolean, a string,
 * null/undefined, a typed array, or a plain record or list of these.
 */
export function checkpointFields(obj: object, names: readonly string[], where: string): CheckpointRecord {
  const o = obj as Record<string, unknown>;
  const out: CheckpointRecord = {};
  for (const n of names) {
    if (!(n in o)) throw new SofaError(`checkpoint: ${where} lists '${n}' in checkpointFields, but has no such field`);
    const v = o[n];
    // Copied by the capture (an array that is also a Data's value is then saved once).
    out[n] = v === undefined ? null : (v as CheckpointValue);
  }
  return out;
}

/**
 * Puts fields saved by checkpointFields back: typed arrays into the current ones when they have
 * the same class and length (views stay views), else replaced by the saved ones; records of
 * arrays field by field; other values assigned.
 */
export function restoreFields(obj: object, saved: CheckpointReader, names: readonly string[]): void {
  const o = obj as Record<string, unknown>;
  for (const n of names) {
    if (!(n in saved.record))
      throw new SofaError(`checkpoint: ${saved.where}: '${n}' is missing`, {
        hint: 'the checkpoint was written by another version of this component, or is damaged',
      });
    o[n] = restoredValue(o[n], saved.record[n] ?? null, `${saved.where}.${n}`);
  }
}

function restoredValue(current: unknown, v: CheckpointValue, where: string): unknown {
  const mismatch = (): SofaError =>
    new SofaError(
      `checkpoint: ${where}: the saved value (${describeValue(v)}) does not fit the field (${current === null || current === undefined ? String(current) : typeof current === 'object' ? (current.constructor?.name ?? 'object') : typeof current})`,
      { hint: 'the checkpoint was written by another version of this component, or is damaged' },
    );
  if (v === null) return current === null ? null : undefined;
  if (isCheckpointTypedArray(v)) {
    if (isCheckpointTypedArray(current)) {
      if (typedArrayKind(current) !== typedArrayKind(v)) throw mismatch();
      if (current.length === v.length) {
        (current as unknown as { set(a: ArrayLike<number>): void }).set(v);
        return current;
      }
    } else if (current !== undefined && current !== null) throw mismatch();
    return copyTypedArray(v);
  }
  if (Array.isArray(v)) {
    if (current !== undefined && current !== null && !Array.isArray(current)) throw mismatch();
    const cur = (current ?? []) as unknown[];
    return v.map((x, i) => restoredValue(cur[i], x as CheckpointValue, `${where}[${i}]`));
  }
  if (typeof v === 'object') {
    if (
      current !== undefined &&
      current !== null &&
      (typeof current !== 'object' || isCheckpointTypedArray(current) || Array.isArray(current))
    )
      throw mismatch();
    const target = (current ?? {}) as Record<string, unknown>;
    for (const [k, x] of Object.entries(v)) if (x !== undefined) target[k] = restoredValue(target[k], x, `${where}.${k}`);
    return target;
  }
  if (current !== undefined && current !== null && typeof current !== typeof v) throw mismatch();
  return v;
}
