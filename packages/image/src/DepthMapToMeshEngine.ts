import { DataEngine, IndexArray, Real, RealArray, Vec2, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { ImageData, SofaImage } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { ONE_IMAGE_TEMPLATES } from './image-support.js';

/**
 * SOFA's DepthMapToMeshEngine: a mesh of a depth image (first channel). Each pixel (x, y) is a
 * vertex at image coordinates (x, y, value·depthFactor − 0.5) through the transform (the 0.5 is
 * the camera's offset from the image plane); values·depthFactor below minThreshold make invalid
 * vertices (depth 0). Each pixel square gives the triangles (x,y)(x+1,y)(x,y+1) and
 * (x+1,y)(x+1,y+1)(x,y+1) whose vertices are valid and whose values differ pairwise by less than
 * diffThreshold. texCoord = (x/(w−1), y/(h−1)) + texOffset. The texture image is only drawn.
 */
@sofaComponent({
  name: 'DepthMapToMeshEngine',
  category: 'Engine',
  module: 'image',
  description: 'Compute a mesh from a depth map image.',
  templates: ONE_IMAGE_TEMPLATES,
  defaultTemplate: 'ImageUC',
})
export class DepthMapToMeshEngine extends DataEngine {
  readonly depthFactor = this.initData({ name: 'depthFactor', type: Real, default: 1, help: 'Intensity to depth factor' });
  readonly minThreshold = this.initData({ name: 'minThreshold', type: Real, default: 0.1, help: 'minimal depth for point creation' });
  readonly diffThreshold = this.initData({
    name: 'diffThreshold',
    type: Real,
    default: 1,
    help: 'maximal depth variation for triangle creation',
  });
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty(), help: 'depth image' });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'image transform',
  });
  readonly texImage = this.initData({
    name: 'texImage',
    type: ImageData,
    default: SofaImage.empty(),
    help: 'texture image (drawing only)',
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'output positions',
    output: true,
  });
  readonly texCoord = this.initData({
    name: 'texCoord',
    type: RealArray(2),
    default: new Float64Array(0),
    help: 'output texture coordinates',
    output: true,
  });
  readonly texOffset = this.initData({ name: 'texOffset', type: Vec2, default: new Float64Array(2), help: 'texture offsets (in [0,1])' });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'output triangles',
    output: true,
  });
  private time = 0;

  constructor() {
    super();
    this.addInput(this.image, this.transform, this.depthFactor, this.minThreshold, this.diffThreshold, this.texOffset);
    this.addOutput(this.position, this.texCoord, this.triangles);
  }

  override init(): void {
    this.startUpdates();
  }

  override handleEvent(event: SofaEvent): void {
    if (event.type !== 'AnimateEndEvent') return;
    const frames = this.image.value.frames;
    if (frames <= 1) return;
    let t = this.transform.value.timeToImage(this.context.getTime());
    t -= Math.trunc(Math.trunc(t) / frames) * frames;
    t = Math.min(frames - 1, Math.max(0, t - Math.floor(t) > 0.5 ? Math.ceil(t) : Math.floor(t)));
    if (t !== this.time) {
      this.time = t;
      this.update();
    }
  }

  protected updateOutputs(): void {
    const im = this.image.value,
      tr = this.transform.value;
    const w = im.width,
      h = im.height;
    const n = im.isEmpty ? 0 : w * h;
    const pos = new Float64Array(3 * n),
      tc = new Float64Array(2 * n);
    const valid = new Uint8Array(n);
    const base = Math.min(this.time, Math.max(0, im.frames - 1)) * im.spectrum * im.voxelCount;
    const f = this.depthFactor.value,
      minT = this.minThreshold.value,
      off = this.texOffset.value;
    const I = (x: number, y: number): number => im.data[base + x + w * y];
    for (let y = 0, i = 0; y < h && n > 0; y++)
      for (let x = 0; x < w; x++, i++) {
        tc[2 * i] = x / (w - 1) + off[0];
        tc[2 * i + 1] = y / (h - 1) + off[1];
        let val = I(x, y) * f;
        if (val < minT) val = 0;
        else valid[i] = 1;
        tr.fromImage(x, y, val - 0.5, pos, 3 * i);
      }
    const tri: number[] = [];
    const dT = this.diffThreshold.value;
    const ok = (a: number, b: number, c: number, va: number, vb: number, vc: number): boolean =>
      valid[a] === 1 && valid[b] === 1 && valid[c] === 1 && Math.abs(va - vb) < dT && Math.abs(vb - vc) < dT && Math.abs(vc - va) < dT;
    for (let y = 0; y + 1 < h; y++)
      for (let x = 0; x + 1 < w; x++) {
        const p00 = x + y * w,
          p10 = p00 + 1,
          p01 = p00 + w,
          p11 = p01 + 1;
        if (ok(p00, p10, p01, I(x, y), I(x + 1, y), I(x, y + 1))) tri.push(p00, p10, p01);
        if (ok(p10, p11, p01, I(x + 1, y), I(x + 1, y + 1), I(x, y + 1))) tri.push(p10, p11, p01);
      }
    this.position.value = pos;
    this.texCoord.value = tc;
    this.triangles.value = Uint32Array.from(tri);
  }
}
