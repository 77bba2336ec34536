/**
 * The packets SoftRobots' SerialPortBridgeGeneric sends (the format its Data help gives), for
 * `values` v₀ … v_{size−1}:
 *
 *   plain:              [h₀, v₀, …, v_{size−1}]                       (bytes)
 *   precise:            [h₀, MSB(v₀), LSB(v₀), …]                     (16-bit values, 2·size + 1 bytes)
 *   precise and split:  [h₀, first size bytes of the above, h₁, last size bytes]
 *
 * The split cuts the 2·size data bytes in two halves, as SoftRobots does (an odd size cuts a value).
 */
export function serialPacket(values: ArrayLike<number>, header: ArrayLike<number>, precise: boolean, split: boolean): Uint8Array {
  const size = values.length;
  if (!precise) {
    const out = new Uint8Array(size + 1);
    out[0] = header[0];
    for (let i = 0; i < size; i++) out[i + 1] = values[i];
    return out;
  }
  const data = new Uint8Array(2 * size);
  for (let i = 0; i < size; i++) {
    data[2 * i] = (values[i] >> 8) & 0xff;
    data[2 * i + 1] = values[i] & 0xff;
  }
  const out = new Uint8Array(2 * size + (split ? 2 : 1));
  out[0] = header[0];
  if (!split) {
    out.set(data, 1);
  } else {
    out.set(data.subarray(0, size), 1);
    out[size + 1] = header[1];
    out.set(data.subarray(size), size + 2);
  }
  return out;
}
