/**
 * The datagram SoftRobots' InteractiveControl sends to its motor boards (its Network and
 * SplitFloat modules), 30 bytes:
 *
 *   byte 0      message type (set_setpoint = 1) in the high nibble, bits 24–27 of the id in the low one
 *   bytes 1–3   bits 16–23, 8–15, 0–7 of the id
 *   bytes 4–6   time in units of 100 µs within the current second, big-endian
 *   bytes 7–8   board address, little-endian (0x300)
 *   byte 9      mode (bits 5–7), "setpoint unchanged" (bit 4), inhibition (bits 2–3), motor (bits 0–1)
 *   bytes 10–13 setpoint, SplitFloat format (floatToSplitBytes)
 *
 * The id is a 28-bit checksum: start from the low nibble of byte 0, then for bytes 4 … 29 rotate
 * the 28 bits right by one and add the byte.
 */
export const DATAGRAM_SIZE = 30;
export const SET_SETPOINT = 1;
/** The setpoint that means "unchanged" (0xFFFFFFFF as a number, as SoftRobots compares it). */
export const UNCHANGED = 0xffffffff;

/**
 * SplitFloat: the float32 value f = s·m·2^e with m in [0.5, 1) (frexp), as 4 little-endian bytes:
 * the 23 bits of trunc(m·2²³) (bytes 0–2, bit 23 the sign), then e as a signed byte. NaN is
 * 00 00 00 7F, +∞ 7F FF FF 7F, −∞ 80 00 00 7F (the bytes SoftRobots writes; its comment gives the
 * infinities' mantissas in the other byte order); exponents above 126 give ±∞, below −126 zero.
 */
export function floatToSplitBytes(value: number, out: Uint8Array, at: number): void {
  const f = Math.fround(value);
  const put = (b0: number, b1: number, b2: number, b3: number): void => {
    out[at] = b0;
    out[at + 1] = b1;
    out[at + 2] = b2;
    out[at + 3] = b3;
  };
  if (Number.isNaN(f)) return put(0, 0, 0, 0x7f);
  const negative = f < 0 || Object.is(f, -0);
  if (!Number.isFinite(f)) return negative ? put(0x80, 0, 0, 0x7f) : put(0x7f, 0xff, 0xff, 0x7f);
  if (f === 0) return put(0, 0, 0, 0);
  // frexp: |f| = m·2^e, m in [0.5, 1)
  let e = Math.floor(Math.log2(Math.abs(f))) + 1;
  let m = Math.abs(f) / 2 ** e;
  if (m >= 1) {
    m /= 2;
    e += 1;
  }
  if (m < 0.5) {
    m *= 2;
    e -= 1;
  }
  if (e > 0x7e) return negative ? put(0x80, 0, 0, 0x7f) : put(0x7f, 0xff, 0xff, 0x7f);
  if (e < -0x7e) return put(0, 0, 0, 0);
  const mi = Math.trunc(m * 2 ** 23) & 0x7fffff;
  put(mi & 0xff, (mi >> 8) & 0xff, ((mi >> 16) & 0xff) | (negative ? 0x80 : 0), e & 0xff);
}

/** The 28-bit checksum id of a datagram (see the top comment). */
export function datagramId(b: Uint8Array): number {
  let c = b[0] & 0x0f;
  for (let i = 4; i < DATAGRAM_SIZE; i++) {
    c = (c >>> 1) + ((c & 1) << 27);
    c = (c + b[i]) & 0x0fffffff;
  }
  return c;
}

export interface SetpointMessage {
  mode: number;
  motor: number;
  setpoint: number;
  /** Time in units of 100 µs within the current second (SoftRobots: tv_usec / 100). */
  time100us: number;
  address?: number;
  inhibition?: number;
}

/** The set_setpoint datagram, as InteractiveControl builds it. */
export function setpointDatagram(m: SetpointMessage): Uint8Array {
  const b = new Uint8Array(DATAGRAM_SIZE);
  b[0] = SET_SETPOINT << 4;
  b[4] = (m.time100us >> 16) & 0xff;
  b[5] = (m.time100us >> 8) & 0xff;
  b[6] = m.time100us & 0xff;
  const address = m.address ?? 0x300;
  b[7] = address & 0xff;
  b[8] = (address >> 8) & 0xff;
  b[9] = ((m.mode & 0x07) << 5) | (((m.inhibition ?? 0) & 0x03) << 2) | (m.motor & 0x03);
  if (m.setpoint === UNCHANGED) b[9] |= 1 << 4;
  else floatToSplitBytes(m.setpoint, b, 10);
  const id = datagramId(b);
  b[0] = (b[0] & 0xf0) | ((id >> 24) & 0x0f);
  b[1] = (id >> 16) & 0xff;
  b[2] = (id >> 8) & 0xff;
  b[3] = id & 0xff;
  return b;
}
