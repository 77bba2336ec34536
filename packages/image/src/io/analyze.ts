import { SofaImage, newPixelArray, type PixelType } from '../image.js';
import { PIXEL_BYTES, readValues, type ImageFile } from './image-file.js';

/** Analyze 7.5 / NIfTI-1 data types. */
const ANALYZE_TYPES: Readonly<Record<number, PixelType>> = { 2: 'UC', 4: 'S', 8: 'I', 16: 'F', 64: 'D', 256: 'C', 512: 'US', 768: 'UI' };

/** The parts of an Analyze / NIfTI header (.hdr) an image needs. */
export interface AnalyzeHeader {
  readonly dims: [number, number, number, number];
  readonly type: PixelType;
  readonly bigEndian: boolean;
  /** pixdim[1..3]: the voxel size. */
  readonly voxelSize: number[];
  /** NIfTI quatern_b, c, d and qoffset_x, y, z (SOFA's readNiftiHeader reads them from any .hdr). */
  readonly quatern: number[];
  readonly qoffset: number[];
  /** vox_offset: where the voxels start in a single-file .nii. */
  readonly voxOffset: number;
}

/** Parses a 348-byte Analyze / NIfTI-1 header; the byte order is the one where sizeof_hdr is 348. */
export function parseAnalyzeHeader(bytes: Uint8Array, what: string): AnalyzeHeader {
  if (bytes.length < 348) throw new Error(`${what} is not an Analyze header (${bytes.length} bytes, fewer than 348)`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let le = true;
  if (v.getInt32(0, true) !== 348) {
    if (v.getInt32(0, false) !== 348) throw new Error(`${what} is not an Analyze header (sizeof_hdr is not 348)`);
    le = false;
  }
  const dim = (i: number): number => v.getInt16(40 + 2 * i, le);
  const nd = dim(0);
  const dims: [number, number, number, number] = [1, 1, 1, 1];
  for (let i = 0; i < 4 && i < nd; i++) dims[i] = Math.max(1, dim(i + 1));
  const datatype = v.getInt16(70, le);
  const type = ANALYZE_TYPES[datatype];
  if (!type) throw new Error(`${what}: Analyze data type ${datatype} is not supported`);
  const f = (o: number): number => v.getFloat32(o, le);
  return {
    dims,
    type,
    bigEndian: !le,
    voxelSize: [f(80), f(84), f(88)],
    quatern: [f(256), f(260), f(264)],
    qoffset: [f(268), f(272), f(276)],
    voxOffset: f(108),
  };
}

/** The image of an Analyze header and its voxel bytes (the .img, or the .nii after vox_offset). The
 *  4th dimension becomes channels, as CImg's load_analyze makes it. */
export function readAnalyze(h: AnalyzeHeader, raw: Uint8Array, offset: number, what: string): ImageFile {
  const [w, hh, d, s] = h.dims;
  const n = w * hh * d * s;
  if (offset + n * PIXEL_BYTES[h.type] > raw.length) throw new Error(`${what} is too short for a ${w}×${hh}×${d}×${s} image`);
  const data = newPixelArray(h.type, n);
  readValues(raw, offset, h.type, n, data, h.bigEndian);
  // Rotation of the NIfTI quaternion (a = √(1 − b² − c² − d²)), as SOFA's readNiftiHeader.
  const [b, c, dd] = h.quatern;
  const a = Math.sqrt(Math.max(0, 1 - (b * b + c * c + dd * dd)));
  const rotationMatrix = [
    a * a + b * b - c * c - dd * dd,
    2 * (b * c - a * dd),
    2 * (b * dd + a * c),
    2 * (b * c + a * dd),
    a * a + c * c - b * b - dd * dd,
    2 * (c * dd - a * b),
    2 * (b * dd - a * c),
    2 * (c * dd + a * b),
    a * a + dd * dd - b * b - c * c,
  ];
  return { image: new SofaImage(h.type, w, hh, d, s, 1, data), scale: h.voxelSize, translation: h.qoffset, rotationMatrix };
}
