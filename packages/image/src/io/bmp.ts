import { SofaImage } from '../image.js';
import type { ImageFile } from './image-file.js';

/**
 * Windows bitmaps (.bmp) as CImg's load_bmp gives them: an unsigned char image of 3 channels
 * (R, G, B), the file's bottom-up rows turned so that y = 0 is the top row. Uncompressed 1, 4, 8
 * (palette), 24 and 32-bit files; a compressed one is refused with the reason.
 */
export function readBmp(bytes: Uint8Array, what: string): ImageFile {
  if (bytes.length < 54 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) throw new Error(`${what} is not a BMP file (no 'BM' signature)`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dataOffset = v.getUint32(10, true);
  const headerSize = v.getUint32(14, true);
  const width = v.getInt32(18, true);
  const rawHeight = v.getInt32(22, true);
  const bpp = v.getUint16(28, true);
  const compression = headerSize >= 40 ? v.getUint32(30, true) : 0;
  if (compression !== 0 && compression !== 3) throw new Error(`${what}: compressed BMP (compression ${compression}) is not supported`);
  if (width <= 0 || rawHeight === 0) throw new Error(`${what}: bad BMP size ${width}×${rawHeight}`);
  const height = Math.abs(rawHeight);
  const bottomUp = rawHeight > 0;
  let paletteSize = headerSize >= 40 ? v.getUint32(46, true) : 0;
  if (bpp <= 8 && paletteSize === 0) paletteSize = 1 << bpp;
  const paletteAt = 14 + headerSize;
  const rowBytes = Math.ceil((width * bpp) / 32) * 4;
  if (![1, 4, 8, 24, 32].includes(bpp)) throw new Error(`${what}: ${bpp}-bit BMP is not supported`);
  if (dataOffset + rowBytes * height > bytes.length) throw new Error(`${what} is truncated`);
  const img = SofaImage.create('UC', width, height, 1, 3, 1);
  const d = img.data;
  const plane = width * height;
  for (let row = 0; row < height; row++) {
    const y = bottomUp ? height - 1 - row : row;
    const base = dataOffset + row * rowBytes;
    for (let x = 0; x < width; x++) {
      let r: number, g: number, b: number;
      if (bpp >= 24) {
        const p = base + x * (bpp / 8);
        b = bytes[p];
        g = bytes[p + 1];
        r = bytes[p + 2];
      } else {
        const bit = x * bpp;
        const byte = bytes[base + (bit >> 3)];
        const idx = (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        if (idx >= paletteSize) throw new Error(`${what}: palette index ${idx} beyond the ${paletteSize} colours`);
        const p = paletteAt + 4 * idx;
        b = bytes[p];
        g = bytes[p + 1];
        r = bytes[p + 2];
      }
      const o = x + width * y;
      d[o] = r;
      d[o + plane] = g;
      d[o + 2 * plane] = b;
    }
  }
  return { image: img };
}
