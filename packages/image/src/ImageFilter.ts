import { DataEngine, Enum, RealArray, sofaComponent } from '@sofa-ts/core';
import { ImageData, SofaImage, pixelRange } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { imagePairTemplates, templatePixelType } from './image-support.js';
import { blur } from './filters/deriche.js';
import { chamferDistance } from './filters/distance.js';
import { meanDiffusion } from './filters/mean-diffusion.js';
import { resize } from './filters/resize.js';
import { structureTensors } from './filters/structure-tensors.js';

/** SOFA's filter options, by id. */
export const IMAGE_FILTERS = [
  '0 - None',
  '1 - Blur ( sigma )',
  '2 - Blur Median ( n )',
  '3 - Blur Bilateral ( sigma_s, sigma_r)',
  '4 - Blur Anisotropic ( amplitude )',
  '5 - Deriche ( sigma , order , axis )',
  '6 - Crop ( xmin , ymin , zmin , xmax , ymax , zmax)',
  '7 - Resize( dimx , dimy , dimz , no interp.|nearest neighb.|moving av.|linear|grid|bicubic|lanzcos)',
  '8 - Trim ( tmin , tmax )',
  '9 - Dilate ( size )',
  '10 - Erode ( size )',
  '11 - Noise ( sigma , gaussian|uniform|Salt&Pepper|Poisson|Rician )',
  '12 - Quantize ( nbLevels )',
  '13 - Threshold ( min , max )',
  '14 - Laplacian',
  '15 - Structure tensors ( scheme )',
  '16 - Distance ( value, scale )',
  '17 - Gradient ( axis x | y | z | magnitude)',
  '18 - Hessian (axis1 , axis2) ',
  '19 - Normalize ( out_min, out_max , in_min, in_max)',
  '20 - Resample ( ox , oy , oz , dimx , dimy , dimz , dx , dy , dz  , nearest neighb.|linear|cubic)',
  '21 - SelectChannels ( c0, c1 )',
  '22 - Skeleton from distance map',
  '23 - Mean Diffusion ( max iterations=0 (0->until convergence), fixed boundaries=1, exclude outside=1, threshold=eps )',
  '24 - Fill Holes (inval=0, outval=1)',
  '25 - Label connected components (tolerance=0)',
  '26 - Largest connected component (tolerance=0)',
  '27 - Mirror (axis=0)',
  '28 - Sharpen (sigma)',
  '29 - Expand ( size )',
] as const;

/** The filters computed here (the others are refused at init with the list). */
const SUPPORTED = new Set([0, 1, 6, 7, 13, 15, 16, 23, 27]);

/**
 * SOFA's ImageFilter: outputImage = filter(inputImage), outputTransform = inputTransform adjusted
 * where the filter moves the grid (crop, resize). The output is of the second template's type
 * (ImageUC,ImageD: unsigned char in, double out; one template: the same for both).
 */
@sofaComponent({
  name: 'ImageFilter',
  category: 'Engine',
  module: 'image',
  description: 'Filter an image (blur, crop, resize, threshold, structure tensors, distance map, mean diffusion, mirror).',
  templates: imagePairTemplates([
    'ImageD,ImageUC',
    'ImageD,ImageB',
    'ImageUS,ImageUC',
    'ImageUC,ImageUS',
    'ImageUC,ImageB',
    'ImageUS,ImageB',
    'ImageS,ImageB',
    'ImageS,ImageUC',
  ]),
  defaultTemplate: 'ImageUC,ImageUC',
})
export class ImageFilter extends DataEngine {
  readonly filter = this.initData({ name: 'filter', type: Enum(IMAGE_FILTERS), default: IMAGE_FILTERS[0], help: 'Filter' });
  readonly param = this.initData({ name: 'param', type: RealArray(1), default: new Float64Array(0), help: 'Parameters' });
  readonly inputImage = this.initData({ name: 'inputImage', type: ImageData, default: SofaImage.empty(), help: 'input image' });
  readonly inputTransform = this.initData({
    name: 'inputTransform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'input transform',
  });
  readonly outputImage = this.initData({
    name: 'outputImage',
    type: ImageData,
    default: SofaImage.empty(),
    help: 'output image',
    output: true,
  });
  readonly outputTransform = this.initData({
    name: 'outputTransform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'output transform',
    output: true,
  });

  constructor() {
    super();
    this.addInput(this.filter, this.param, this.inputImage, this.inputTransform);
    this.addOutput(this.outputImage, this.outputTransform);
  }

  get filterId(): number {
    return IMAGE_FILTERS.indexOf(this.filter.value);
  }

  override init(): void {
    if (!SUPPORTED.has(this.filterId))
      throw this.dataError(
        this.filter,
        `filter '${this.filter.value}' is not implemented in sofa-ts`,
        `implemented: ${[...SUPPORTED].map((i) => IMAGE_FILTERS[i]).join('; ')}`,
      );
    this.startUpdates();
  }

  protected updateOutputs(): void {
    const inImg = this.inputImage.value;
    const inT = this.inputTransform.value;
    const outType = templatePixelType(this, this.template.includes(',') ? 1 : 0);
    const p = this.param.value;
    const outT = inT.clone();
    const at = (i: number, d: number): number => (p.length > i ? p[i] : d);
    if (inImg.isEmpty) {
      this.outputImage.value = SofaImage.empty(outType);
      this.outputTransform.value = outT;
      return;
    }
    let out: SofaImage;
    const dims = [inImg.width, inImg.height, inImg.depth];
    switch (this.filterId) {
      case 1: {
        out = inImg.as(outType);
        if (out === inImg) out = inImg.clone();
        blur(out, at(0, 0));
        break;
      }
      case 6: {
        const lo = [0, 1, 2].map((i) => Math.trunc(at(i, 0)));
        const hi = [0, 1, 2].map((i) => Math.trunc(at(3 + i, dims[i] - 1)));
        out = crop(inImg, lo, hi, outType);
        outT.fromImage(lo[0], lo[1], lo[2], outT.params, 0);
        outT.setCamPos((out.width - 1) / 2, (out.height - 1) / 2);
        break;
      }
      case 7: {
        const nd = [0, 1, 2].map((i) => Math.trunc(at(i, dims[i])));
        const interp = Math.trunc(at(3, 1));
        if (interp < 0 || interp > 3)
          throw this.dataError(
            this.param,
            `resize interpolation ${interp} is not implemented (0 none, 1 nearest, 2 moving average, 3 linear are)`,
          );
        if (nd.some((n) => !(n > 0))) throw this.dataError(this.param, `resize to ${nd.join('×')} voxels`);
        out = resize(inImg, nd, interp, outType);
        if (interp) {
          const s = outT.params;
          for (let k = 0; k < 3; k++) {
            if (nd[k] !== 1 && dims[k] !== 1) s[6 + k] *= (dims[k] - 1) / (nd[k] - 1);
            else {
              s[k] += (dims[k] / nd[k] - 1) * 0.5 * s[6 + k];
              s[6 + k] *= dims[k] / nd[k];
            }
          }
          outT.setCamPos((out.width - 1) / 2, (out.height - 1) / 2);
        }
        break;
      }
      case 13: {
        // threshold (min, max): 1 where min ≤ value ≤ max, else 0 (first channel: SOFA loops over x, y, z)
        const [tlo, thi] = pixelRange(inImg.pixelType);
        const lo = at(0, tlo),
          hi = at(1, thi);
        out = inImg.as(outType);
        if (out === inImg) out = inImg.clone();
        for (let t = 0; t < out.frames; t++) {
          const base = t * out.spectrum * out.voxelCount;
          for (let i = base; i < base + out.voxelCount; i++) out.data[i] = inImg.data[i] >= lo && inImg.data[i] <= hi ? 1 : 0;
        }
        break;
      }
      case 15:
        out = structureTensors(inImg, Math.trunc(at(0, 1)), outType);
        break;
      case 16: {
        const scale = at(1, 1);
        const d = chamferDistance(
          inImg,
          at(0, 0),
          [0, 1, 2].map((i) => inT.scale[i] * scale),
        );
        out = d.as(outType);
        break;
      }
      case 23: {
        out = inImg.as(outType);
        if (out === inImg) out = inImg.clone();
        const sweeps = meanDiffusion(
          out,
          Math.trunc(at(0, 0)),
          at(1, 1) !== 0,
          at(2, 1) !== 0,
          at(3, outType === 'F' ? 1.2e-7 : outType === 'D' ? 2.2e-16 : 0),
        );
        if (this.printLog.value) this.warn(`mean diffusion: ${sweeps} sweeps`);
        break;
      }
      case 27: {
        const axis = Math.trunc(at(0, 0));
        out = inImg.as(outType);
        if (out === inImg) out = inImg.clone();
        mirror(out, axis);
        break;
      }
      default:
        out = inImg.as(outType);
        if (out === inImg) out = inImg.clone();
    }
    outT.update();
    this.outputImage.value = out;
    this.outputTransform.value = outT;
  }
}

/** The voxels lo..hi (inclusive; clamped to the image) of every channel and frame. */
function crop(src: SofaImage, lo: number[], hi: number[], type: SofaImage['pixelType']): SofaImage {
  const n = [0, 1, 2].map((i) => Math.max(0, hi[i] - lo[i] + 1));
  const out = SofaImage.create(type, n[0], n[1], n[2], src.spectrum, src.frames);
  const w = src.width,
    h = src.height,
    d = src.depth;
  let o = 0;
  for (let p = 0; p < src.spectrum * src.frames; p++)
    for (let z = 0; z < n[2]; z++)
      for (let y = 0; y < n[1]; y++)
        for (let x = 0; x < n[0]; x++) {
          const X = x + lo[0],
            Y = y + lo[1],
            Z = z + lo[2];
          // CImg's get_crop fills outside voxels with 0
          const inside = X >= 0 && Y >= 0 && Z >= 0 && X < w && Y < h && Z < d;
          out.data[o++] = inside
            ? type === 'B'
              ? src.data[X + w * (Y + h * (Z + d * p))] !== 0
                ? 1
                : 0
              : src.data[X + w * (Y + h * (Z + d * p))]
            : 0;
        }
  return out;
}

/** Reverses the voxels along an axis (0 x, 1 y, 2 z). */
function mirror(img: SofaImage, axis: number): void {
  const { width: w, height: h, depth: d } = img;
  const n = [w, h, d][axis] ?? w;
  const stride = axis === 1 ? w : axis === 2 ? w * h : 1;
  const vox = img.voxelCount;
  for (let p = 0; p < img.spectrum * img.frames; p++)
    for (let o = 0; o < vox; o++) {
      const x = o % w,
        y = ((o - x) / w) % h,
        z = (o - x - w * y) / (w * h);
      const i = [x, y, z][axis] ?? x;
      if (2 * i >= n - 1) continue;
      const a = p * vox + o,
        b = a + (n - 1 - 2 * i) * stride;
      const t = img.data[a];
      img.data[a] = img.data[b];
      img.data[b] = t;
    }
}
