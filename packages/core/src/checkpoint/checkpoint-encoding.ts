import { SofaError } from '../errors.js';
import { sha256 } from './sha256.js';
import {
  checkpointTypedArrays,
  isCheckpointTypedArray,
  typedArrayKind,
  type CheckpointRecord,
  type CheckpointValue,
} from './checkpoint-value.js';
import type { IdentityEntry } from './scene-baseline.js';
import type { ComponentCheckpoint, SavedData, SceneCheckpoint } from './scene-checkpoint.js';

/**
 * The checkpoint file (`.ckpt`), version 1, little-endian:
 *
 *   offset 0   8 bytes   magic "SOFATSCK"
 *          8   u32       format version (1)
 *         12   u32       flags (0)
 *         16   f64       payload length P, bytes
 *         24   P bytes   payload: one value (below) holding the whole SceneCheckpoint
 *       24+P   32 bytes  SHA-256 of bytes [0, 24+P)
 *
 * A value is a tag byte and its body: 0 null, 1 false, 2 true, 3 f64 (8 bytes), 4 string (u32
 * byte length, UTF-8), 5 typed array (u8 kind: Float64, Float32, Int32, Uint32, Int16, Uint16,
 * Int8, Uint8, Uint8Clamped; u32 byte length; raw bytes), 6 list (u32 count, values), 7 record
 * (u32 count, then key as a string body and a value, each). Numbers and arrays are stored bit for
 * bit. A truncated or damaged file fails the length or checksum test before anything is read.
 */
export const CHECKPOINT_FORMAT_VERSION = 1;
const MAGIC = 'SOFATSCK';
const HEADER = 24;
const DIGEST = 32;

class Writer {
  buf = new Uint8Array(1 << 16);
  view = new DataView(this.buf.buffer);
  n = 0;
  private readonly enc = new TextEncoder();
  private reserve(k: number): void {
    if (this.n + k <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.n + k) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
    this.view = new DataView(b.buffer);
  }
  u8(x: number): void {
    this.reserve(1);
    this.buf[this.n++] = x;
  }
  u32(x: number): void {
    this.reserve(4);
    this.view.setUint32(this.n, x, true);
    this.n += 4;
  }
  f64(x: number): void {
    this.reserve(8);
    this.view.setFloat64(this.n, x, true);
    this.n += 8;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
  }
  string(s: string): void {
    const b = this.enc.encode(s);
    this.u32(b.length);
    this.bytes(b);
  }
  value(v: CheckpointValue | undefined): void {
    if (v === null || v === undefined) this.u8(0);
    else if (v === false) this.u8(1);
    else if (v === true) this.u8(2);
    else if (typeof v === 'number') {
      this.u8(3);
      this.f64(v);
    } else if (typeof v === 'string') {
      this.u8(4);
      this.string(v);
    } else if (isCheckpointTypedArray(v)) {
      this.u8(5);
      this.u8(typedArrayKind(v));
      this.u32(v.byteLength);
      this.bytes(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
    } else if (Array.isArray(v)) {
      this.u8(6);
      this.u32(v.length);
      for (const x of v) this.value(x as CheckpointValue);
    } else {
      const entries = Object.entries(v as Record<string, CheckpointValue | undefined>).filter(([, x]) => x !== undefined);
      this.u8(7);
      this.u32(entries.length);
      for (const [k, x] of entries) {
        this.string(k);
        this.value(x);
      }
    }
  }
}

class Reader {
  private p = 0;
  private readonly view: DataView;
  private readonly dec = new TextDecoder('utf-8', { fatal: true });
  constructor(
    private readonly b: Uint8Array,
    private readonly end: number,
    private readonly fail: (what: string) => SofaError,
  ) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.p = HEADER;
  }
  private need(k: number): void {
    if (this.p + k > this.end) throw this.fail(`a value runs past the end of the payload at byte ${this.p}`);
  }
  u8(): number {
    this.need(1);
    return this.b[this.p++];
  }
  u32(): number {
    this.need(4);
    const x = this.view.getUint32(this.p, true);
    this.p += 4;
    return x;
  }
  f64(): number {
    this.need(8);
    const x = this.view.getFloat64(this.p, true);
    this.p += 8;
    return x;
  }
  string(): string {
    const n = this.u32();
    this.need(n);
    const s = this.dec.decode(this.b.subarray(this.p, this.p + n));
    this.p += n;
    return s;
  }
  value(depth = 0): CheckpointValue {
    if (depth > 64) throw this.fail('values nested too deep');
    const tag = this.u8();
    switch (tag) {
      case 0:
        return null;
      case 1:
        return false;
      case 2:
        return true;
      case 3:
        return this.f64();
      case 4:
        return this.string();
      case 5: {
        const kind = this.u8();
        const cls = checkpointTypedArrays[kind];
        if (!cls) throw this.fail(`unknown array kind ${kind} at byte ${this.p - 1}`);
        const n = this.u32();
        if (n % cls.BYTES_PER_ELEMENT !== 0) throw this.fail(`an array of ${n} bytes is not whole ${cls.name} values`);
        this.need(n);
        // Copied into its own (aligned) buffer (a Node Buffer's slice would be a view).
        const bytes = new Uint8Array(n);
        bytes.set(this.b.subarray(this.p, this.p + n));
        this.p += n;
        return new cls(bytes.buffer, 0, n / cls.BYTES_PER_ELEMENT);
      }
      case 6: {
        const n = this.u32();
        const out: CheckpointValue[] = [];
        for (let i = 0; i < n; i++) out.push(this.value(depth + 1));
        return out;
      }
      case 7: {
        const n = this.u32();
        const out: Record<string, CheckpointValue> = {};
        for (let i = 0; i < n; i++) {
          const k = this.string();
          out[k] = this.value(depth + 1);
        }
        return out;
      }
      default:
        throw this.fail(`unknown value tag ${tag} at byte ${this.p - 1}`);
    }
  }
  get atEnd(): boolean {
    return this.p === this.end;
  }
}

/** The checkpoint as one value (the payload). */
function toValue(c: SceneCheckpoint): CheckpointValue {
  return {
    step: c.step,
    time: c.time,
    identity: c.identity.map((e) => ({ key: e.key, cls: e.cls, template: e.template, data: e.data })),
    components: c.components.map((k) => ({
      key: k.key,
      data: k.data.map((d) => ({ name: d.name, isSet: d.isSet, ...d.value })),
      ...(k.state !== undefined ? { state: k.state } : {}),
    })),
    simulation: c.simulation,
    extra: c.extra,
  };
}

function fromValue(v: CheckpointValue, fail: (what: string) => SofaError): SceneCheckpoint {
  const rec = (x: CheckpointValue | undefined, what: string): Record<string, CheckpointValue> => {
    if (x === null || x === undefined || typeof x !== 'object' || Array.isArray(x) || isCheckpointTypedArray(x))
      throw fail(`${what} is not a record`);
    return x as Record<string, CheckpointValue>;
  };
  const list = (x: CheckpointValue | undefined, what: string): readonly CheckpointValue[] => {
    if (!Array.isArray(x)) throw fail(`${what} is not a list`);
    return x as readonly CheckpointValue[];
  };
  const num = (x: CheckpointValue | undefined, what: string): number => {
    if (typeof x !== 'number') throw fail(`${what} is not a number`);
    return x;
  };
  const str = (x: CheckpointValue | undefined, what: string): string => {
    if (typeof x !== 'string') throw fail(`${what} is not a string`);
    return x;
  };
  const top = rec(v, 'the payload');
  const identity: IdentityEntry[] = list(top['identity'], 'identity').map((e, i) => {
    const r = rec(e, `identity[${i}]`);
    const data: Record<string, number> = {};
    for (const [k, h] of Object.entries(rec(r['data'], `identity[${i}].data`))) data[k] = num(h, `identity[${i}].data.${k}`);
    return {
      key: str(r['key'], `identity[${i}].key`),
      cls: str(r['cls'], `identity[${i}].cls`),
      template: str(r['template'], `identity[${i}].template`),
      data,
    };
  });
  const components: ComponentCheckpoint[] = list(top['components'], 'components').map((e, i) => {
    const r = rec(e, `components[${i}]`);
    const data: SavedData[] = list(r['data'], `components[${i}].data`).map((d, j) => {
      const s = rec(d, `components[${i}].data[${j}]`);
      const value = 't' in s ? { t: str(s['t'], 'text') } : { v: s['v'] as CheckpointValue };
      if (!('t' in s) && !('v' in s)) throw fail(`components[${i}].data[${j}] has no value`);
      return { name: str(s['name'], 'name'), isSet: s['isSet'] === true, value };
    });
    return {
      key: str(r['key'], `components[${i}].key`),
      data,
      ...(r['state'] !== undefined ? { state: rec(r['state'], `components[${i}].state`) as CheckpointRecord } : {}),
    };
  });
  return {
    step: num(top['step'], 'step'),
    time: num(top['time'], 'time'),
    identity,
    components,
    simulation: rec(top['simulation'], 'simulation') as CheckpointRecord,
    extra: rec(top['extra'], 'extra') as CheckpointRecord,
  };
}

/** The bytes of a checkpoint file. */
export function encodeCheckpoint(c: SceneCheckpoint): Uint8Array {
  const w = new Writer();
  for (let i = 0; i < 8; i++) w.u8(MAGIC.charCodeAt(i));
  w.u32(CHECKPOINT_FORMAT_VERSION);
  w.u32(0);
  w.f64(0);
  w.value(toValue(c));
  w.view.setFloat64(16, w.n - HEADER, true);
  w.bytes(sha256(w.buf.subarray(0, w.n)));
  return w.buf.slice(0, w.n);
}

/**
 * Reads checkpoint bytes; `source` names them in errors. A file that is not a checkpoint, of a
 * newer format, truncated or damaged is refused with what is wrong.
 */
export function decodeCheckpoint(bytes: Uint8Array, source = 'checkpoint'): SceneCheckpoint {
  const fail = (what: string): SofaError =>
    new SofaError(`${source}: ${what}`, { hint: 'the checkpoint file is damaged; resume from another checkpoint' });
  if (bytes.length < 8 || String.fromCharCode(...bytes.subarray(0, 8)) !== MAGIC) {
    throw new SofaError(`${source}: not a sofa-ts checkpoint (no "${MAGIC}" signature)`, {
      hint: 'checkpoints are the .ckpt files written by `sofa-ts run --checkpoint-every`',
    });
  }
  if (bytes.length < HEADER) throw fail(`truncated: ${bytes.length} bytes, shorter than the header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== CHECKPOINT_FORMAT_VERSION) {
    throw new SofaError(`${source}: checkpoint format version ${version}; this sofa-ts reads version ${CHECKPOINT_FORMAT_VERSION}`, {
      hint: version > CHECKPOINT_FORMAT_VERSION ? 'it was written by a newer sofa-ts' : 'it was written by an older sofa-ts',
    });
  }
  const payload = view.getFloat64(16, true);
  const expected = HEADER + payload + DIGEST;
  if (!Number.isInteger(payload) || payload < 0) throw fail('damaged header (payload length)');
  if (bytes.length < expected) throw fail(`truncated: ${bytes.length} bytes, ${expected} expected`);
  if (bytes.length > expected) throw fail(`${bytes.length - expected} unexpected byte(s) after the end`);
  const end = HEADER + payload;
  const digest = sha256(bytes.subarray(0, end));
  for (let i = 0; i < DIGEST; i++)
    if (digest[i] !== bytes[end + i]) throw fail('damaged: the SHA-256 checksum does not match its contents');
  const r = new Reader(bytes, end, fail);
  const v = r.value();
  if (!r.atEnd) throw fail('the payload has bytes after its value');
  return fromValue(v, fail);
}
