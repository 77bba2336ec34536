import { printNumber } from '@sofa-ts/core';
import type { SofaImage } from '../image.js';
import type { ImageLPTransform } from '../image-transform.js';
import { PIXEL_BYTES } from './image-file.js';
import { MET_NAMES } from './metaimage.js';
import { quatToMatrix3At } from '@sofa-ts/linalg';

/**
 * The .mhd header and .raw bytes SOFA's save_metaimage writes for an image and its transform:
 * NDims 3 (4 with several frames), the voxel size, position, orientation (row-major rotation),
 * isPerpective (sic) and the data file's base name; the voxels little-endian in CImg's order.
 */
export function metaImageFiles(img: SofaImage, t: ImageLPTransform, rawName: string): { header: string; raw: Uint8Array } {
  const nd = img.frames === 1 ? 3 : 4;
  const dims = [img.width, img.height, img.depth, img.frames].slice(0, nd);
  const R = new Array<number>(9);
  quatToMatrix3At(R, 0, t.q, 0);
  const p = (v: number): string => printNumber(v);
  const lines = [
    'ObjectType = Image',
    `NDims = ${nd}`,
    `ElementNumberOfChannels = ${img.spectrum}`,
    `DimSize = ${dims.join(' ')}`,
    `ElementType = ${MET_NAMES[img.pixelType]}`,
    `ElementSpacing = ${[...Array.from(t.scale, p), ...(nd === 4 ? [p(t.scaleT)] : [])].join(' ')}`,
    `Position = ${[...Array.from(t.translation, p), ...(nd === 4 ? [p(t.offsetT)] : [])].join(' ')}`,
    `Orientation = ${R.map(p).join(' ')}`,
    `isPerpective = ${t.perspective}`,
    `ElementDataFile = ${rawName}`,
  ];
  const size = PIXEL_BYTES[img.pixelType];
  const raw = new Uint8Array(img.data.length * size);
  const v = new DataView(raw.buffer);
  const d = img.data;
  for (let i = 0; i < d.length; i++) {
    const o = i * size;
    switch (img.pixelType) {
      case 'C':
        v.setInt8(o, d[i]);
        break;
      case 'UC':
      case 'B':
        raw[o] = d[i];
        break;
      case 'S':
        v.setInt16(o, d[i], true);
        break;
      case 'US':
        v.setUint16(o, d[i], true);
        break;
      case 'I':
        v.setInt32(o, d[i], true);
        break;
      case 'UI':
        v.setUint32(o, d[i], true);
        break;
      case 'F':
        v.setFloat32(o, d[i], true);
        break;
      case 'D':
        v.setFloat64(o, d[i], true);
        break;
      case 'L':
        v.setBigInt64(o, BigInt(Math.trunc(d[i])), true);
        break;
      case 'UL':
        v.setBigUint64(o, BigInt(Math.trunc(d[i])), true);
        break;
    }
  }
  return { header: lines.join('\n') + '\n', raw };
}
