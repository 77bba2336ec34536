import { DataParseError, tokens, type DataType } from '@sofa-ts/core';

/**
 * SOFA's Image<T> (image plugin, CImgData.h): a list of frames along time, each a 4-D CImg
 * (x, y, z, spectrum). Here one typed array holds every frame in CImg's planar order: x fastest,
 * then y, z, channel, frame — offset = x + w·(y + h·(z + d·(c + s·t))), the order of the .raw
 * files SOFA reads and writes.
 */

/** The pixel types of SOFA's image templates (ImageUC = unsigned char, ImageD = double, ...). */
export type PixelType = 'C' | 'UC' | 'I' | 'UI' | 'S' | 'US' | 'L' | 'UL' | 'F' | 'D' | 'B';

export type PixelArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

export const PIXEL_TYPES: readonly PixelType[] = ['UC', 'D', 'B', 'C', 'I', 'UI', 'S', 'US', 'L', 'UL', 'F'];

/** The C++ type name CImg prints for each pixel type (messages, MetaImage's ElementType). */
export const PIXEL_C_NAMES: Readonly<Record<PixelType, string>> = {
  C: 'char',
  UC: 'unsigned char',
  I: 'int',
  UI: 'unsigned int',
  S: 'short',
  US: 'unsigned short',
  L: 'long',
  UL: 'unsigned long',
  F: 'float',
  D: 'double',
  B: 'bool',
};

/** A new zeroed pixel array. long / unsigned long (64-bit in SOFA on Linux) are held as doubles:
 *  exact up to 2⁵³, which no image value of the plugin's scenes reaches. */
export function newPixelArray(type: PixelType, n: number): PixelArray {
  switch (type) {
    case 'C':
      return new Int8Array(n);
    case 'UC':
    case 'B':
      return new Uint8Array(n);
    case 'S':
      return new Int16Array(n);
    case 'US':
      return new Uint16Array(n);
    case 'I':
      return new Int32Array(n);
    case 'UI':
      return new Uint32Array(n);
    case 'F':
      return new Float32Array(n);
    case 'D':
    case 'L':
    case 'UL':
      return new Float64Array(n);
  }
}

/** The value range of a pixel type (CImg's cimg::type<T>::min()/max()). */
export function pixelRange(type: PixelType): [number, number] {
  switch (type) {
    case 'C':
      return [-128, 127];
    case 'UC':
      return [0, 255];
    case 'B':
      return [0, 1];
    case 'S':
      return [-32768, 32767];
    case 'US':
      return [0, 65535];
    case 'I':
      return [-2147483648, 2147483647];
    case 'UI':
      return [0, 4294967295];
    case 'L':
      return [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
    case 'UL':
      return [0, Number.MAX_SAFE_INTEGER];
    case 'F':
      return [-3.4028234663852886e38, 3.4028234663852886e38];
    case 'D':
      return [-Number.MAX_VALUE, Number.MAX_VALUE];
  }
}

/** Whether the pixel type holds integers (a cast truncates toward zero, as C++'s does). */
export function isIntegerPixel(type: PixelType): boolean {
  return type !== 'F' && type !== 'D';
}

/** The pixel type of a template name: 'ImageUC' → 'UC'; undefined when it is not an image template. */
export function pixelTypeOfTemplate(template: string): PixelType | undefined {
  const m = /^Image(C|UC|I|UI|S|US|L|UL|F|D|B|R)$/.exec(template.trim());
  if (!m) return undefined;
  return m[1] === 'R' ? 'D' : (m[1] as PixelType);
}

/** The image templates, for a component's `templates`. */
export const IMAGE_TEMPLATES: readonly string[] = PIXEL_TYPES.map((t) => `Image${t}`);

export class SofaImage {
  constructor(
    readonly pixelType: PixelType,
    readonly width: number,
    readonly height: number,
    readonly depth: number,
    readonly spectrum: number,
    readonly frames: number,
    readonly data: PixelArray,
  ) {
    if (data.length !== width * height * depth * spectrum * frames)
      throw new Error(`image data of ${data.length} values for ${width}×${height}×${depth}×${spectrum}×${frames}`);
  }

  /** A zeroed image. */
  static create(type: PixelType, w: number, h: number, d: number, s = 1, t = 1): SofaImage {
    return new SofaImage(type, w, h, d, s, t, newPixelArray(type, w * h * d * s * t));
  }

  static empty(type: PixelType = 'UC'): SofaImage {
    return SofaImage.create(type, 0, 0, 0, 0, 0);
  }

  /** No frame, or frames of no voxel (SOFA's isEmpty is "no frame"; a 0-sized frame is as empty). */
  get isEmpty(): boolean {
    return this.data.length === 0;
  }

  /** Voxels of one channel of one frame: w·h·d. */
  get voxelCount(): number {
    return this.width * this.height * this.depth;
  }

  /** SOFA's imCoord: (x, y, z, spectrum, time). */
  get dimensions(): [number, number, number, number, number] {
    return [this.width, this.height, this.depth, this.spectrum, this.frames];
  }

  offset(x: number, y: number, z: number, c = 0, t = 0): number {
    return x + this.width * (y + this.height * (z + this.depth * (c + this.spectrum * t)));
  }

  get(x: number, y: number, z: number, c = 0, t = 0): number {
    return this.data[this.offset(x, y, z, c, t)];
  }

  /** A copy holding its own pixels. */
  clone(): SofaImage {
    return new SofaImage(this.pixelType, this.width, this.height, this.depth, this.spectrum, this.frames, this.data.slice());
  }

  /** This image in another pixel type: values cast as C++ does (truncation toward zero, bool = ≠ 0).
   *  The same object when the type is already right. */
  as(type: PixelType): SofaImage {
    if (type === this.pixelType) return this;
    const out = newPixelArray(type, this.data.length);
    castInto(out, type, this.data);
    return new SofaImage(type, this.width, this.height, this.depth, this.spectrum, this.frames, out);
  }

  /** Smallest and largest value (0, 0 for an empty image). */
  range(): [number, number] {
    const d = this.data;
    if (d.length === 0) return [0, 0];
    let lo = d[0],
      hi = d[0];
    for (let i = 1; i < d.length; i++) {
      const v = d[i];
      if (v < lo) lo = v;
      else if (v > hi) hi = v;
    }
    return [lo, hi];
  }
}

/** out[i] = (T)src[i]: bool keeps ≠ 0 as 1; integer types truncate toward zero (typed arrays do,
 *  and wrap out-of-range values as a C++ conversion of an in-range integer does). */
export function castInto(out: PixelArray, type: PixelType, src: ArrayLike<number>): void {
  if (type === 'B') for (let i = 0; i < src.length; i++) out[i] = src[i] !== 0 ? 1 : 0;
  else if (type === 'L' || type === 'UL') for (let i = 0; i < src.length; i++) out[i] = Math.trunc(src[i]);
  else out.set(src);
}

/** Stores v into an array of pixel type `type` (see castInto). */
export function castValue(type: PixelType, v: number): number {
  if (type === 'B') return v !== 0 ? 1 : 0;
  if (type === 'L' || type === 'UL') return Math.trunc(v);
  return v;
}

/**
 * The Data type of images. As in SOFA, the text form is the dimensions "w h d s t": reading it
 * gives a zeroed image of those dimensions (unsigned char until the component casts it to its
 * template). A link copies the pixels.
 */
export const ImageData: DataType<SofaImage> = {
  name: 'Image',
  parse: (t) => {
    const ts = tokens(t);
    if (ts.length === 0) return SofaImage.empty();
    if (ts.length !== 5) throw new DataParseError('the 5 dimensions of an image (x y z channels frames)', `got ${ts.length} numbers`);
    const n = ts.map(Number);
    if (n.some((v) => !Number.isInteger(v) || v < 0)) throw new DataParseError('5 non-negative integers', `got '${t.trim()}'`);
    if (n[0] * n[1] * n[2] * n[3] * n[4] > 2 ** 28) throw new DataParseError('an image of at most 2^28 values', `got '${t.trim()}'`);
    return SofaImage.create('UC', n[0], n[1], n[2], n[3], n[4]);
  },
  print: (v) => v.dimensions.join(' '),
  clone: (v) => v.clone(),
};
