import { SofaImage, newPixelArray, type PixelType } from '../image.js';
import { PIXEL_BYTES, readValues, type ImageFile } from './image-file.js';

/** MetaImage element types and the pixel types they hold. */
const MET_TYPES: Readonly<Record<string, PixelType>> = {
  MET_CHAR: 'C',
  MET_UCHAR: 'UC',
  MET_SHORT: 'S',
  MET_USHORT: 'US',
  MET_INT: 'I',
  MET_UINT: 'UI',
  MET_LONG: 'L',
  MET_ULONG: 'UL',
  MET_FLOAT: 'F',
  MET_DOUBLE: 'D',
  MET_BOOL: 'B',
};

export const MET_NAMES: Readonly<Record<PixelType, string>> = Object.fromEntries(
  Object.entries(MET_TYPES).map(([k, v]) => [v, k]),
) as Record<PixelType, string>;

/** The fields of a MetaImage header (.mhd) as SOFA's load_metaimage reads them. */
export interface MetaImageHeader {
  readonly dims: [number, number, number, number];
  readonly channels: number;
  readonly type: PixelType;
  readonly dataFile: string | undefined;
  readonly headerSize: number;
  readonly bigEndian: boolean;
  readonly scale: number[];
  readonly translation: number[];
  readonly rotationMatrix: number[];
  readonly offsetT: number;
  readonly scaleT: number;
  readonly isPerspective: number;
}

/** Parses the text of a .mhd header; throws with what is wrong. */
export function parseMetaImageHeader(text: string): MetaImageHeader {
  let nbdims = 4,
    channels = 1,
    type: PixelType = 'UC',
    dataFile: string | undefined,
    headerSize = 0,
    bigEndian = false,
    isPerspective = 0,
    offsetT = 0,
    scaleT = 1;
  const dims: [number, number, number, number] = [1, 1, 1, 1];
  const scale = [1, 1, 1],
    translation = [0, 0, 0],
    rotationMatrix = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const numbers = (v: string, key: string): number[] => {
    const n = v.trim().split(/\s+/).map(Number);
    if (n.some((x) => !Number.isFinite(x))) throw new Error(`MetaImage header: ${key} = '${v.trim()}' is not a list of numbers`);
    return n;
  };
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z0-9_]+)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1],
      v = m[2];
    switch (key) {
      case 'ObjectType':
        if (v.trim() !== 'Image') throw new Error(`MetaImage header: ObjectType '${v.trim()}' is not Image`);
        break;
      case 'NDims':
        nbdims = numbers(v, key)[0];
        if (!Number.isInteger(nbdims) || nbdims < 1 || nbdims > 4)
          throw new Error(`MetaImage header: NDims = ${v.trim()} (1 to 4 supported)`);
        break;
      case 'ElementNumberOfChannels':
        channels = numbers(v, key)[0];
        break;
      case 'DimSize':
      case 'dimensions':
      case 'dim': {
        const n = numbers(v, key);
        for (let i = 0; i < nbdims && i < n.length; i++) dims[i] = n[i];
        break;
      }
      case 'ElementSpacing':
      case 'spacing':
      case 'scale3d':
      case 'voxelSize': {
        const n = numbers(v, key);
        for (let i = 0; i < 3 && i < nbdims && i < n.length; i++) scale[i] = n[i];
        if (nbdims > 3 && n.length > 3) scaleT = n[3];
        break;
      }
      case 'Position':
      case 'Offset':
      case 'translation':
      case 'origin': {
        const n = numbers(v, key);
        for (let i = 0; i < 3 && i < nbdims && i < n.length; i++) translation[i] = n[i];
        if (nbdims > 3 && n.length > 3) offsetT = n[3];
        break;
      }
      case 'Orientation':
      case 'TransformMatrix':
      case 'Rotation': {
        const n = numbers(v, key);
        for (let i = 0; i < 3 && i < nbdims; i++)
          for (let j = 0; j < 3 && j < nbdims; j++) rotationMatrix[3 * i + j] = n[i * nbdims + j] ?? rotationMatrix[3 * i + j];
        break;
      }
      case 'isPerpective':
        isPerspective = numbers(v, key)[0];
        break;
      case 'ElementType':
      case 'voxelType': {
        const t = MET_TYPES[v.trim()];
        if (!t) throw new Error(`MetaImage header: unknown ElementType '${v.trim()}' (one of ${Object.keys(MET_TYPES).join(', ')})`);
        type = t;
        break;
      }
      case 'ElementDataFile':
        dataFile = v.trim();
        break;
      case 'HeaderSize':
        headerSize = numbers(v, key)[0];
        break;
      case 'ElementByteOrderMSB':
      case 'BinaryDataByteOrderMSB':
        bigEndian = /^true$/i.test(v.trim());
        break;
    }
  }
  if (dims.some((d) => !Number.isInteger(d) || d < 0) || !Number.isInteger(channels) || channels < 1)
    throw new Error(`MetaImage header: bad dimensions ${dims.join(' ')} × ${channels} channels`);
  return { dims, channels, type, dataFile, headerSize, bigEndian, scale, translation, rotationMatrix, offsetT, scaleT, isPerspective };
}

/**
 * Reads the pixels a MetaImage header describes from the bytes of its data file: frames one after
 * the other, each in CImg's planar order. HeaderSize −1 means the data are the last bytes of the file.
 */
export function readMetaImage(h: MetaImageHeader, raw: Uint8Array, what: string): ImageFile {
  const [w, hh, d, t] = h.dims;
  const n = w * hh * d * h.channels * t;
  const bytes = n * PIXEL_BYTES[h.type];
  const start = h.headerSize < 0 ? raw.length - bytes : h.headerSize;
  if (start < 0 || start + bytes > raw.length)
    throw new Error(
      `${what} holds ${raw.length} bytes, fewer than the ${bytes} of a ${w}×${hh}×${d}×${h.channels}×${t} ${MET_NAMES[h.type]} image`,
    );
  const data = newPixelArray(h.type, n);
  readValues(raw, start, h.type, n, data, h.bigEndian);
  return {
    image: new SofaImage(h.type, w, hh, d, h.channels, t, data),
    scale: h.scale,
    translation: h.translation,
    rotationMatrix: h.rotationMatrix,
    offsetT: h.offsetT,
    scaleT: h.scaleT,
    isPerspective: h.isPerspective,
  };
}
