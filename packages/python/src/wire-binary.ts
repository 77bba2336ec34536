import type { Data } from '@sofa-ts/core';
import { tupleSizeOf, type WireInput } from './wire-values.js';

/**
 * The binary frames of the per-step traffic (a controller's event, its answer, a Data read from a
 * handler): fixed fields instead of JSON, so that a step with a Python controller costs little more
 * than the round trip itself. A binary frame is `u32 n | u32 (0x80000000 | kind) | fields`; every
 * other frame is JSON (`u32 n | u32 h | header | blobs`, channel.ts). Little-endian; a string is
 * `u32 byteLength | UTF-8`.
 *
 *   EVENT      engine → Python   f64 rev, f64 subtreeRev, u32 obj, str method, str type, u8 isHandled,
 *                                u8 extra (0 none, 1 f64 dt, 2 str key), u32 m, m × (u32 slot, u32 byteLength, value)
 *   EVENT_RET  Python → engine   writes, u8 handled, u8 readsChanged, [u32 r, r × (u32 owner, str name)],
 *                                f64 seconds (the handler's run, as Python timed it)
 *   GET        Python → engine   writes, u32 owner, str name
 *   VALUE      engine → Python   f64 rev, f64 subtreeRev, value
 *
 * `slot` indexes the reads the handler reported last time (EVENT_RET), in their order. A value is
 * `u8 tag` then: FLOAT f64 (a Python float), INT f64 (an integral number: a Python int, or float for
 * a double Data, as JSON gave it), BOOL u8, ARRAY u8 dtype (0 f8, 1 u4, 2 i4), u8 ndim, ndim × u32,
 * zeros up to a multiple of 8 bytes from the frame's start, the raw bytes; JSON str (strings, lists of strings, anything else).
 * `writes` is `u32 w, w × (u32 owner, str name, write value, str file, u32 line)`, a write value
 * `u8 tag` then: NUM f64, BOOL u8, ARRAY u32 count and count × f64, TEXT str, STRINGS u32 count and
 * count × str, FROM u32 owner and str name (a Data written from another Data).
 */
export const BINARY_FLAG = 0x80000000;
export const FrameKind = { EVENT: 1, EVENT_RET: 2, GET: 3, VALUE: 4 } as const;

const ValueTag = { FLOAT: 0, INT: 1, BOOL: 2, ARRAY: 3, JSON: 4 } as const;
const WriteTag = { NUM: 0, BOOL: 1, ARRAY: 2, TEXT: 3, STRINGS: 4, FROM: 5 } as const;

/** A growable output buffer, kept and refilled frame after frame (no allocation per step once grown). */
export class BinaryWriter {
  buf = Buffer.allocUnsafe(1 << 12);
  pos = 0;

  /** Starts a binary frame of this kind (its length is filled by `finish`). */
  begin(kind: number): void {
    this.pos = 8;
    this.buf.writeUInt32LE((BINARY_FLAG | kind) >>> 0, 4);
  }

  /** The frame, its length written: a view of the buffer, valid until the next `begin`. */
  finish(): Buffer {
    this.buf.writeUInt32LE(this.pos - 4, 0);
    return this.buf.subarray(0, this.pos);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const b = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.pos + n));
    this.buf.copy(b, 0, 0, this.pos);
    this.buf = b;
  }

  u8(x: number): void {
    this.room(1);
    this.buf[this.pos++] = x;
  }

  u32(x: number): void {
    this.room(4);
    this.buf.writeUInt32LE(x >>> 0, this.pos);
    this.pos += 4;
  }

  /** Overwrites a u32 written before (a length known once what follows it is written). */
  patchU32(at: number, x: number): void {
    this.buf.writeUInt32LE(x >>> 0, at);
  }

  f64(x: number): void {
    this.room(8);
    this.buf.writeDoubleLE(x, this.pos);
    this.pos += 8;
  }

  str(s: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    this.room(4 + 3 * s.length);
    const n = this.buf.write(s, this.pos + 4, 'utf8');
    this.buf.writeUInt32LE(n, this.pos);
    this.pos += 4 + n;
  }

  bytes(v: ArrayBufferView): void {
    this.room(v.byteLength);
    this.buf.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), this.pos);
    this.pos += v.byteLength;
  }

  /** Zero bytes up to a multiple of 8 from the frame's start (raw arrays start aligned for numpy). */
  align8(): void {
    const pad = (8 - (this.pos % 8)) % 8;
    this.room(pad);
    this.buf.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
  }
}

/** Reads the fields of a received binary frame (a view of the channel's buffer). */
export class BinaryReader {
  pos = 0;
  constructor(public buf: Buffer) {}

  u8(): number {
    return this.buf[this.pos++];
  }

  u32(): number {
    const x = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return x;
  }

  f64(): number {
    const x = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return x;
  }

  str(): string {
    const n = this.u32();
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }

  /** n bytes copied (typed arrays over them need their own aligned buffer; the channel's is reused). */
  copy(n: number): Uint8Array {
    const b = Uint8Array.prototype.slice.call(this.buf, this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
}

/** A Data read from a handler, as it is sent: its shape fixed once (the Data's type and owner do not change). */
export interface ReadSlot {
  readonly data: Data<unknown>;
  /** Its index in the reads the handler reported. */
  readonly slot: number;
  /** Tuple size (tupleSizeOf), and whether the Data is a vector (shape (n, k) rather than (n,)). */
  readonly k: number;
  readonly vector: boolean;
}

export function readSlot(data: Data<unknown>, slot: number): ReadSlot {
  return { data, slot, k: tupleSizeOf(data), vector: data.spec.type.name.startsWith('vector') };
}

/**
 * A Data's value in binary, with what wireOfValue gives in JSON: the same Python values (an
 * integral number a Python int, as JSON prints it; arrays with SofaPython3's shapes).
 */
export function writeValue(w: BinaryWriter, s: ReadSlot, value: unknown): void {
  if (typeof value === 'number') {
    // JSON prints integral doubles below 1e21 without a point (Python reads an int), others as floats
    if (Number.isInteger(value) && Math.abs(value) < 1e21) w.u8(ValueTag.INT);
    else w.u8(ValueTag.FLOAT);
    w.f64(value);
    return;
  }
  if (typeof value === 'boolean') {
    w.u8(ValueTag.BOOL);
    w.u8(value ? 1 : 0);
    return;
  }
  if (value instanceof Float64Array || value instanceof Uint32Array || value instanceof Int32Array) {
    w.u8(ValueTag.ARRAY);
    w.u8(value instanceof Float64Array ? 0 : value instanceof Uint32Array ? 1 : 2);
    if (s.vector && s.k > 1 && value.length % s.k === 0) {
      w.u8(2);
      w.u32(value.length / s.k);
      w.u32(s.k);
    } else {
      w.u8(1);
      w.u32(value.length);
    }
    w.align8();
    w.bytes(value);
    return;
  }
  if (ArrayBuffer.isView(value)) {
    w.u8(ValueTag.ARRAY);
    w.u8(0);
    w.u8(1);
    const a = Float64Array.from(value as unknown as ArrayLike<number>);
    w.u32(a.length);
    w.align8();
    w.bytes(a);
    return;
  }
  // strings, lists of strings as they are; anything else as SOFA's text (what the Data prints)
  w.u8(ValueTag.JSON);
  if (typeof value === 'string' || (Array.isArray(value) && value.every((x) => typeof x === 'string'))) w.str(JSON.stringify(value));
  else w.str(JSON.stringify(s.data.spec.type.print(value)));
}

/** One Data write a handler made: where, what, and the script's line that made it. */
export interface BinaryWrite {
  owner: number;
  name: string;
  value: WireInput | undefined;
  from: { owner: number; name: string } | undefined;
  blobs: Uint8Array[];
  file: string;
  line: number;
}

/** Reads the writes of a frame, calling `apply` on each in order (the same object refilled). */
export function readWrites(r: BinaryReader, apply: (w: BinaryWrite) => void): void {
  const count = r.u32();
  const w: BinaryWrite = { owner: 0, name: '', value: undefined, from: undefined, blobs: [], file: '', line: 0 };
  for (let i = 0; i < count; i++) {
    w.owner = r.u32();
    w.name = r.str();
    w.value = undefined;
    w.from = undefined;
    w.blobs = [];
    const tag = r.u8();
    switch (tag) {
      case WriteTag.NUM:
        w.value = { num: r.f64() };
        break;
      case WriteTag.BOOL:
        w.value = { bool: r.u8() !== 0 };
        break;
      case WriteTag.ARRAY: {
        const n = r.u32();
        w.blobs = [r.copy(8 * n)];
        w.value = { array: { $b: 0, shape: [n] } };
        break;
      }
      case WriteTag.TEXT:
        w.value = { text: r.str() };
        break;
      case WriteTag.STRINGS: {
        const n = r.u32();
        const strings: string[] = [];
        for (let j = 0; j < n; j++) strings.push(r.str());
        w.value = { strings };
        break;
      }
      case WriteTag.FROM: {
        const owner = r.u32();
        w.from = { owner, name: r.str() };
        break;
      }
      default:
        throw new TypeError(`malformed write from Python (tag ${tag}): the Python package and the engine are of different versions?`);
    }
    w.file = r.str();
    w.line = r.u32();
    apply(w);
  }
}
