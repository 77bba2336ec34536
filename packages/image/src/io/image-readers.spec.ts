import { expect } from 'chai';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { readBmp } from './bmp.js';
import { readInrImage, rotationVectorToMatrix } from './inrimage.js';
import { parseMetaImageHeader, readMetaImage } from './metaimage.js';
import { parseAnalyzeHeader, readAnalyze } from './analyze.js';
import { SofaImage } from '../image.js';
import { ImageLPTransform } from '../image-transform.js';
import { metaImageFiles } from './metaimage-writer.js';
import { el, find, initScene } from '../image-test-support.js';
import type { ImageContainer } from '../ImageContainer.js';

/** A 24-bit bottom-up BMP of w×h pixels whose pixel (x, y) (y = 0 the top row) is rgb(x, y). */
function bmp(w: number, h: number, rgb: (x: number, y: number) => [number, number, number]): Uint8Array {
  const row = Math.ceil((w * 3) / 4) * 4;
  const b = new Uint8Array(54 + row * h);
  const v = new DataView(b.buffer);
  b[0] = 0x42;
  b[1] = 0x4d;
  v.setUint32(2, b.length, true);
  v.setUint32(10, 54, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, w, true);
  v.setInt32(22, h, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, 24, true);
  for (let fileRow = 0; fileRow < h; fileRow++)
    for (let x = 0; x < w; x++) {
      const [r, g, bl] = rgb(x, h - 1 - fileRow);
      const o = 54 + fileRow * row + 3 * x;
      b[o] = bl;
      b[o + 1] = g;
      b[o + 2] = r;
    }
  return b;
}

describe('image file readers', () => {
  it('BMP: three channels R, G, B, row y = 0 at the top (bottom-up file)', () => {
    const { image } = readBmp(
      bmp(5, 3, (x, y) => [10 * x, 20 * y, 7]),
      'test.bmp',
    );
    expect(image.dimensions).to.deep.equal([5, 3, 1, 3, 1]);
    expect(image.get(4, 0, 0, 0)).to.equal(40);
    expect(image.get(4, 2, 0, 1)).to.equal(40);
    expect(image.get(1, 1, 0, 2)).to.equal(7);
  });

  it('MetaImage: header fields and little-endian voxels in x, y, z order', () => {
    const h = parseMetaImageHeader(
      'ObjectType = Image\nNDims = 3\nDimSize = 2 3 4\nElementType = MET_SHORT\nElementSpacing = 0.5 1 2\nPosition = 1 2 3\nElementDataFile = x.raw\n',
    );
    const raw = new Uint8Array(2 * 24);
    const v = new DataView(raw.buffer);
    for (let i = 0; i < 24; i++) v.setInt16(2 * i, i - 5, true);
    const f = readMetaImage(h, raw, 'x.raw');
    expect(f.image.pixelType).to.equal('S');
    expect(f.image.get(1, 2, 3)).to.equal(1 + 2 * 2 + 6 * 3 - 5);
    expect(f.scale).to.deep.equal([0.5, 1, 2]);
    expect(f.translation).to.deep.equal([1, 2, 3]);
    expect(() => readMetaImage(h, raw.subarray(0, 10), 'x.raw')).to.throw(/fewer than the 48 /);
  });

  it('INRIMAGE: channels interleaved per voxel in the file become planes; rotation vector to matrix', () => {
    let header = '#INRIMAGE-4#{\nXDIM=2\nYDIM=1\nZDIM=1\nVDIM=3\nTYPE=float\nPIXSIZE=32 bits\nCPU=decm\nVX=2\nVY=3\nVZ=4\nTX=1\n';
    header += '\n'.repeat(256 - header.length - 4) + '##}\n';
    const data = new Float32Array([1, 2, 3, 4, 5, 6]);
    const bytes = new Uint8Array([...new TextEncoder().encode(header), ...new Uint8Array(data.buffer)]);
    const f = readInrImage(Uint8Array.from(zlib.gunzipSync(zlib.gzipSync(bytes))), 't.inr');
    expect(f.image.dimensions).to.deep.equal([2, 1, 1, 3, 1]);
    expect(Array.from(f.image.data)).to.deep.equal([1, 4, 2, 5, 3, 6]);
    expect(f.scale).to.deep.equal([2, 3, 4]);
    // a quarter turn about z
    const R = rotationVectorToMatrix([0, 0, Math.PI / 2]);
    expect(R.map((x) => Math.round(x * 1e12) / 1e12)).to.deep.equal([0, -1, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('Analyze: dimensions, data type and voxel size of the 348-byte header', () => {
    const hdr = new Uint8Array(348);
    const v = new DataView(hdr.buffer);
    v.setInt32(0, 348, true);
    [3, 4, 2, 1].forEach((d, i) => v.setInt16(40 + 2 * i, d, true));
    v.setInt16(70, 512, true); // unsigned short
    v.setFloat32(80, 0.5, true);
    v.setFloat32(84, 0.25, true);
    v.setFloat32(88, 2, true);
    const h = parseAnalyzeHeader(hdr, 'a.hdr');
    const raw = new Uint8Array(2 * 8);
    new DataView(raw.buffer).setUint16(2 * 7, 65535, true);
    const f = readAnalyze(h, raw, 0, 'a.img');
    expect(f.image.dimensions).to.deep.equal([4, 2, 1, 1, 1]);
    expect(f.image.get(3, 1, 0)).to.equal(65535);
    expect(f.scale).to.deep.equal([0.5, 0.25, 2]);
  });

  it('ImageContainer reads back what ImageExporter writes (pixels, type, placement)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sofa-ts-image-'));
    const img = SofaImage.create('F', 3, 2, 2, 2, 1);
    for (let i = 0; i < img.data.length; i++) img.data[i] = i * 0.25 - 1;
    const t = new ImageLPTransform([1, -2, 3, 0, 0, 90, 0.5, 0.5, 2]);
    const { header, raw } = metaImageFiles(img, t, 'v.raw');
    fs.writeFileSync(path.join(dir, 'v.mhd'), header);
    fs.writeFileSync(path.join(dir, 'v.raw'), raw);
    const root = initScene([el('ImageContainer', { name: 'c', template: 'ImageF', filename: 'v.raw' }, path.join(dir, 'scene.scn'))]);
    const c = find<ImageContainer>(root, 'c');
    expect(Array.from(c.image.value.data)).to.deep.equal(Array.from(img.data));
    const p = c.transform.value.params;
    expect(Array.from(p.subarray(0, 3))).to.deep.equal([1, -2, 3]);
    expect(p[5]).to.be.closeTo(90, 1e-9);
    expect(Array.from(p.subarray(6, 9))).to.deep.equal([0.5, 0.5, 2]);
    fs.rmSync(dir, { recursive: true });
  });
});
