import { DataEngine, Enum, UInt, sofaComponent, type Data } from '@sofa-ts/core';
import { ImageData, SofaImage, castValue } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { ONE_IMAGE_TEMPLATES, templatePixelType } from './image-support.js';
import { VectorData, findInVectors } from './mesh-vector-data.js';

const OVERLAPS = [
  '0 - Average pixels',
  '1 - Use image order as priority',
  '2 - Alpha blending according to distance from border',
  '3 - Take farthest pixel from border',
  '4 - Add pixels of each images',
  '5 - Set overlapping pixels of the first image to zero (only if the corresponding pixel in the other images different to zero)',
] as const;
const INTERPOLATIONS = ['Nearest', 'Linear', 'Cubic'] as const;

/**
 * SOFA's MergeImages: one axis-aligned image covering the bounding boxes of image1 … imageN
 * (voxel size: the smallest of the inputs', origin: the box's lowest corner). Each output voxel
 * takes the non-zero values of the inputs at its centre (nearest voxel or trilinear), combined
 * where several overlap: average, first image first, alpha blending by the distance to the
 * inputs' borders, farthest from a border, sum, or the first image's value zeroed.
 */
@sofaComponent({
  name: 'MergeImages',
  category: 'Engine',
  module: 'image',
  description: 'Merge images into one axis-aligned image (overlap: average, order, alpha blend, farthest from border, sum, intersection).',
  templates: ONE_IMAGE_TEMPLATES,
  defaultTemplate: 'ImageUC',
})
export class MergeImages extends DataEngine {
  readonly overlap = this.initData({
    name: 'overlap',
    type: Enum(OVERLAPS),
    default: OVERLAPS[0],
    help: 'method for handling overlapping regions',
  });
  readonly interpolation = this.initData({
    name: 'interpolation',
    type: Enum(INTERPOLATIONS),
    default: INTERPOLATIONS[0],
    help: 'Interpolation method.',
  });
  readonly nbImages = this.initData({ name: 'nbImages', type: UInt, default: 0, help: 'number of images to merge' });
  readonly image = this.initData({
    name: 'image',
    type: ImageData,
    default: SofaImage.empty(),
    help: 'Image',
    aliases: ['outputImage'],
    output: true,
  });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'Transform',
    aliases: ['outputTransform'],
    output: true,
  });
  private readonly images = new VectorData<SofaImage>(
    'image',
    (spec) => this.input(this.initData({ ...spec, type: ImageData, default: SofaImage.empty() })),
    'input image',
    false,
  );
  private readonly transforms = new VectorData<ImageLPTransform>(
    'transform',
    (spec) => this.input(this.initData({ ...spec, type: ImageTransformData, default: new ImageLPTransform() })),
    'input transform',
    false,
  );

  private input<T>(d: Data<T>): Data<T> {
    this.addInput(d as Data<unknown>);
    return d;
  }

  constructor() {
    super();
    this.addInput(this.overlap, this.interpolation, this.nbImages);
    this.addOutput(this.image, this.transform);
  }

  override findData(name: string): Data<unknown> | undefined {
    return super.findData(name) ?? findInVectors([this.images, this.transforms] as VectorData<unknown>[], name);
  }

  override init(): void {
    if (this.interpolation.value === 'Cubic')
      throw this.dataError(this.interpolation, 'cubic interpolation is not implemented in sofa-ts (Nearest and Linear are)');
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const nb = this.nbImages.value;
    this.images.resize(nb);
    this.transforms.resize(nb);
    if (nb === 0) return;
    const ims = this.images.items.slice(0, nb).map((d) => d.value);
    const trs = this.transforms.items.slice(0, nb).map((d) => d.value);
    const lo = [Infinity, Infinity, Infinity],
      hi = [-Infinity, -Infinity, -Infinity];
    const minScale = [Infinity, Infinity, Infinity];
    const p = [0, 0, 0];
    for (let j = 0; j < nb; j++) {
      const im = ims[j];
      for (let c = 0; c < 8; c++) {
        trs[j].fromImage(c & 1 ? im.width - 1 : 0, c & 2 ? im.height - 1 : 0, c & 4 ? im.depth - 1 : 0, p);
        for (let k = 0; k < 3; k++) {
          lo[k] = Math.min(lo[k], p[k]);
          hi[k] = Math.max(hi[k], p[k]);
        }
      }
      for (let k = 0; k < 3; k++) minScale[k] = Math.min(minScale[k], Math.abs(trs[j].scale[k]));
    }
    const outT = trs[0].clone();
    outT.params.set([0, 0, 0], 3);
    outT.params.set(lo, 0);
    outT.params.set(minScale, 6);
    outT.update();
    const in0 = ims[0];
    const type = templatePixelType(this);
    if (in0.isEmpty) {
      this.image.value = SofaImage.empty(type);
      this.transform.value = outT;
      return;
    }
    const dim = [0, 1, 2].map((k) => Math.trunc(Math.abs(hi[k] - lo[k]) / minScale[k]));
    const out = SofaImage.create(type, dim[0], dim[1], dim[2], in0.spectrum, in0.frames);
    const mode = OVERLAPS.indexOf(this.overlap.value);
    const linear = this.interpolation.value === 'Linear';
    const nt = in0.frames,
      nc = in0.spectrum;
    // per input: values (t, c) at the voxel, distance to its border, whether any is non-zero
    const vals = ims.map(() => new Float64Array(nt * nc));
    const dist = ims.map(() => [0, 0, 0]);
    const hits: number[] = [];
    const ip = [0, 0, 0];
    for (let z = 0; z < dim[2]; z++)
      for (let y = 0; y < dim[1]; y++)
        for (let x = 0; x < dim[0]; x++) {
          outT.fromImage(x, y, z, p);
          hits.length = 0;
          for (let j = 0; j < nb; j++) {
            const im = ims[j];
            trs[j].toImage(p[0], p[1], p[2], ip);
            if (ip[0] < 0 || ip[1] < 0 || ip[2] < 0 || ip[0] > im.width - 1 || ip[1] > im.height - 1 || ip[2] > im.depth - 1) continue;
            const v = vals[j];
            v.fill(0);
            let nonzero = false;
            for (let t = 0; t < Math.min(nt, im.frames); t++)
              for (let c = 0; c < Math.min(nc, im.spectrum); c++) {
                const s = linear ? trilinear(im, ip, c, t) : im.get(Math.round(ip[0]), Math.round(ip[1]), Math.round(ip[2]), c, t);
                v[t * nc + c] = s;
                if (s !== 0) nonzero = true;
              }
            dist[j] = [0, 1, 2].map((k) => Math.min(ip[k], [im.width, im.height, im.depth][k] - ip[k] - 1));
            if (nonzero) hits.push(j);
          }
          if (hits.length === 0) continue;
          const o = (t: number, c: number): number => x + dim[0] * (y + dim[1] * (z + dim[2] * (c + nc * t)));
          const put = (t: number, c: number, v: number): void => {
            out.data[o(t, c)] = castValue(type, type === 'F' || type === 'D' ? v : Math.trunc(v));
          };
          const n = nt * nc;
          const first = vals[hits[0]];
          if (hits.length === 1) {
            for (let i = 0; i < n; i++) if (first[i] !== 0) put(Math.floor(i / nc), i % nc, first[i]);
            continue;
          }
          const acc = Float64Array.from(first);
          if (mode === 0 || mode === 4) {
            for (const j of hits.slice(1)) for (let i = 0; i < n; i++) acc[i] += vals[j][i];
            for (let i = 0; i < n; i++) put(Math.floor(i / nc), i % nc, mode === 0 ? acc[i] / hits.length : acc[i]);
          } else if (mode === 1) {
            for (let h = hits.length - 1; h >= 0; h--)
              for (let i = 0; i < n; i++) if (vals[hits[h]][i] !== 0) put(Math.floor(i / nc), i % nc, vals[hits[h]][i]);
          } else if (mode === 2) {
            const d0 = dist[hits[0]],
              d1 = dist[hits[1]];
            let dir = 0;
            if (d1[1] !== d0[1]) dir = 1;
            if (d1[2] !== d0[2]) dir = 2;
            let count = d0[dir];
            for (let i = 0; i < n; i++) acc[i] *= d0[dir];
            for (const j of hits.slice(1)) {
              count += dist[j][dir];
              for (let i = 0; i < n; i++) acc[i] += vals[j][i] * dist[j][dir];
            }
            for (let i = 0; i < n; i++) put(Math.floor(i / nc), i % nc, acc[i] / count);
          } else if (mode === 3) {
            let u = dist[hits[0]];
            for (const j of hits.slice(1))
              if (dist[j][0] > u[0] || dist[j][1] > u[1] || dist[j][2] > u[2]) {
                u = dist[j];
                acc.set(vals[j]);
              }
            for (let i = 0; i < n; i++) put(Math.floor(i / nc), i % nc, acc[i]);
          } else {
            for (const j of hits.slice(1)) for (let i = 0; i < n; i++) if (acc[i] !== 0 && vals[j][i] !== 0) acc[i] = 0;
            for (let i = 0; i < n; i++) put(Math.floor(i / nc), i % nc, acc[i]);
          }
        }
    this.image.value = out;
    this.transform.value = outT;
  }
}

/** CImg's linear_atXYZ: trilinear interpolation (coordinates inside the image). */
function trilinear(im: SofaImage, p: readonly number[], c: number, t: number): number {
  const x0 = Math.floor(p[0]),
    y0 = Math.floor(p[1]),
    z0 = Math.floor(p[2]);
  const x1 = Math.min(x0 + 1, im.width - 1),
    y1 = Math.min(y0 + 1, im.height - 1),
    z1 = Math.min(z0 + 1, im.depth - 1);
  const fx = p[0] - x0,
    fy = p[1] - y0,
    fz = p[2] - z0;
  const g = (x: number, y: number, z: number): number => im.get(x, y, z, c, t);
  const a = g(x0, y0, z0) * (1 - fx) + g(x1, y0, z0) * fx,
    b = g(x0, y1, z0) * (1 - fx) + g(x1, y1, z0) * fx,
    d = g(x0, y0, z1) * (1 - fx) + g(x1, y0, z1) * fx,
    e = g(x0, y1, z1) * (1 - fx) + g(x1, y1, z1) * fx;
  return (a * (1 - fy) + b * fy) * (1 - fz) + (d * (1 - fy) + e * fy) * fz;
}
