import { SofaImage, newPixelArray, type PixelType } from '../image.js';
import { PIXEL_BYTES, readValues, type ImageFile } from './image-file.js';

/**
 * INRIMAGE-4 volumes (.inr, .inr.gz after gunzip): a text header in blocks of 256 bytes, from
 * "#INRIMAGE-4#{" to "##}", then the voxels with their VDIM values interleaved (CImg keeps them as
 * channels). VX VY VZ give the voxel size, TX TY TZ the translation and RX RY RZ a rotation vector
 * (SOFA's _load_gz_inr reads them too).
 */
export function readInrImage(bytes: Uint8Array, what: string): ImageFile & { rotationVector: number[] } {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 1 << 16)));
  if (!head.startsWith('#INRIMAGE-4#{')) throw new Error(`${what} is not an INRIMAGE-4 file (no '#INRIMAGE-4#{' header)`);
  const end = head.indexOf('##}');
  if (end < 0) throw new Error(`${what}: INRIMAGE header has no end ('##}')`);
  const headerBytes = head.indexOf('\n', end) + 1;
  const fields = new Map<string, string>();
  for (const line of head.slice(0, end).split('\n')) {
    const m = /^\s*([A-Z]+)\s*=\s*(.*)$/.exec(line);
    if (m) fields.set(m[1], m[2].trim());
  }
  const int = (k: string, d: number): number => (fields.has(k) ? Number.parseInt(fields.get(k)!, 10) : d);
  const real = (k: string, d: number): number => (fields.has(k) ? Number.parseFloat(fields.get(k)!) : d);
  const w = int('XDIM', 1),
    h = int('YDIM', 1),
    d = int('ZDIM', 1),
    vdim = int('VDIM', 1);
  const typeText = (fields.get('TYPE') ?? '').toLowerCase();
  const pixsize = Number.parseInt(fields.get('PIXSIZE') ?? '', 10);
  const cpu = (fields.get('CPU') ?? '').toLowerCase();
  if (![w, h, d, vdim].every((x) => Number.isInteger(x) && x > 0))
    throw new Error(`${what}: bad INRIMAGE dimensions ${w} ${h} ${d} ${vdim}`);
  if (!Number.isInteger(pixsize)) throw new Error(`${what}: INRIMAGE header has no PIXSIZE`);
  if (cpu === '') throw new Error(`${what}: INRIMAGE header has no CPU (byte order)`);
  let type: PixelType | undefined;
  if (typeText.startsWith('float') || typeText.startsWith('double')) type = pixsize === 64 ? 'D' : pixsize === 32 ? 'F' : undefined;
  else if (/fixed|int/.test(typeText)) {
    const signed = !typeText.startsWith('unsigned');
    type =
      pixsize === 8 ? (signed ? 'C' : 'UC') : pixsize === 16 ? (signed ? 'S' : 'US') : pixsize === 32 ? (signed ? 'I' : 'UI') : undefined;
  }
  if (!type) throw new Error(`${what}: INRIMAGE pixel type '${fields.get('TYPE') ?? ''}' of ${pixsize} bits is not supported`);
  const n = w * h * d * vdim;
  if (headerBytes + n * PIXEL_BYTES[type] > bytes.length) throw new Error(`${what} is truncated`);
  const interleaved = newPixelArray(type, n);
  readValues(bytes, headerBytes, type, n, interleaved, cpu.startsWith('sun') || cpu.startsWith('sgi'));
  const img = SofaImage.create(type, w, h, d, vdim, 1);
  const vox = w * h * d;
  for (let i = 0; i < vox; i++) for (let c = 0; c < vdim; c++) img.data[i + c * vox] = interleaved[i * vdim + c];
  return {
    image: img,
    scale: [real('VX', 1), real('VY', 1), real('VZ', 1)],
    translation: [real('TX', 0), real('TY', 0), real('TZ', 0)],
    rotationVector: [real('RX', 0), real('RY', 0), real('RZ', 0)],
  };
}

/** The rotation matrix (row-major) of a rotation vector (axis · angle), Rodrigues' formula. */
export function rotationVectorToMatrix(r: readonly number[]): number[] {
  const th2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  const th = Math.sqrt(th2);
  let c: number, k1: number, k2: number;
  if (th > 1e-5) {
    c = Math.cos(th);
    k1 = Math.sin(th) / th;
    k2 = (1 - c) / th2;
  } else {
    k2 = 0.5 - th2 / 24;
    c = 1 - th2 * k2;
    k1 = 1 - th2 / 6;
  }
  // R = c·I + k2·r rᵀ + k1·[r]×
  const m = new Array<number>(9);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j] = k2 * r[i] * r[j] + (i === j ? c : 0);
  m[1] -= k1 * r[2];
  m[3] += k1 * r[2];
  m[2] += k1 * r[1];
  m[6] -= k1 * r[1];
  m[5] -= k1 * r[0];
  m[7] += k1 * r[0];
  return m;
}
