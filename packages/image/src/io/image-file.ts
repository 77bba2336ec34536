import type { PixelArray, PixelType, SofaImage } from '../image.js';

/**
 * What an image file gives: the pixels (in the file's own pixel type) and, where the format says,
 * the placement: voxel size, translation, rotation (a row-major 3×3 matrix), time offset and scale,
 * perspective flag. The container keeps only what its scene did not set.
 */
export interface ImageFile {
  readonly image: SofaImage;
  readonly scale?: readonly number[];
  readonly translation?: readonly number[];
  readonly rotationMatrix?: readonly number[];
  readonly offsetT?: number;
  readonly scaleT?: number;
  readonly isPerspective?: number;
}

/** Bytes of one value of each pixel type in a file. */
export const PIXEL_BYTES: Readonly<Record<PixelType, number>> = {
  C: 1,
  UC: 1,
  B: 1,
  S: 2,
  US: 2,
  I: 4,
  UI: 4,
  F: 4,
  L: 8,
  UL: 8,
  D: 8,
};

/** Reads n values of `type` from bytes at `offset` into out (little endian unless `bigEndian`). */
export function readValues(
  bytes: Uint8Array,
  offset: number,
  type: PixelType,
  n: number,
  out: PixelArray | Float64Array,
  bigEndian = false,
): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = !bigEndian;
  const size = PIXEL_BYTES[type];
  for (let i = 0, p = offset; i < n; i++, p += size) {
    let v: number;
    switch (type) {
      case 'C':
        v = view.getInt8(p);
        break;
      case 'UC':
        v = bytes[p];
        break;
      case 'B':
        v = bytes[p] !== 0 ? 1 : 0;
        break;
      case 'S':
        v = view.getInt16(p, le);
        break;
      case 'US':
        v = view.getUint16(p, le);
        break;
      case 'I':
        v = view.getInt32(p, le);
        break;
      case 'UI':
        v = view.getUint32(p, le);
        break;
      case 'F':
        v = view.getFloat32(p, le);
        break;
      case 'D':
        v = view.getFloat64(p, le);
        break;
      case 'L':
        v = Number(view.getBigInt64(p, le));
        break;
      case 'UL':
        v = Number(view.getBigUint64(p, le));
        break;
    }
    out[i] = v;
  }
}

/** Euler angles in degrees (R = Rz·Ry·Rx, SOFA's Quat::toEulerVector) of a row-major rotation matrix. */
export function eulerDegreesOfMatrix(r: readonly number[]): [number, number, number] {
  const k = 180 / Math.PI;
  const roll = Math.atan2(r[7], r[8]);
  const pitch = Math.asin(Math.max(-1, Math.min(1, -r[6])));
  const yaw = Math.atan2(r[3], r[0]);
  return [roll * k, pitch * k, yaw * k];
}
