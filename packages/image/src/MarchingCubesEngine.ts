import { Bool, DataEngine, IndexArray, Real, RealArray, VecN, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { ImageData, SofaImage } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { ONE_IMAGE_TEMPLATES } from './image-support.js';
import { isosurface } from './isosurface.js';

/**
 * SOFA's MarchingCubesEngine: the isosurface value = isoValue of the first channel of the image
 * (the frame of the current time), as a triangle mesh in space. The image is sampled on a grid of
 * subdiv points per axis spanning its voxels (trilinear interpolation; 0: the image's own voxels),
 * as CImg's isosurface3d does; the triangulation is by marching tetrahedra (isosurface.ts), whose
 * vertices are on the grid's edges and cube diagonals. With invertNormals (SOFA's default) the
 * triangles face the values above isoValue, else below.
 */
@sofaComponent({
  name: 'MarchingCubesEngine',
  category: 'Engine',
  module: 'image',
  description: 'Compute an isosurface from an image (marching tetrahedra on the sampled grid).',
  templates: ONE_IMAGE_TEMPLATES,
  defaultTemplate: 'ImageUC',
})
export class MarchingCubesEngine extends DataEngine {
  readonly isoValue = this.initData({ name: 'isoValue', type: Real, default: 1, help: 'pixel value to extract isosurface' });
  readonly subdiv = this.initData({
    name: 'subdiv',
    type: VecN(3, 'Vec3u'),
    default: Float64Array.of(0, 0, 0),
    help: 'number of subdividions in x,y,z directions (use image dimension if =0)',
  });
  readonly invertNormals = this.initData({ name: 'invertNormals', type: Bool, default: true, help: 'invert triangle vertex order' });
  readonly showMesh = this.initData({
    name: 'showMesh',
    type: Bool,
    default: false,
    help: 'show reconstructed mesh (drawing: inert in a batch run)',
  });
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty(), help: 'input image' });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'image transform',
  });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'output positions',
    output: true,
  });
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
    this.addInput(this.isoValue, this.subdiv, this.invertNormals, this.image, this.transform);
    this.addOutput(this.position, this.triangles);
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
    const im = this.image.value;
    if (im.isEmpty) {
      this.position.value = new Float64Array(0);
      this.triangles.value = new Uint32Array(0);
      return;
    }
    const dims = [im.width, im.height, im.depth];
    const n = [0, 1, 2].map((i) => (this.subdiv.value[i] > 0 ? Math.trunc(this.subdiv.value[i]) : dims[i]));
    const base = Math.min(this.time, im.frames - 1) * im.spectrum * im.voxelCount;
    const grid = new Float64Array(n[0] * n[1] * n[2]);
    const step = [0, 1, 2].map((i) => (n[i] > 1 ? (dims[i] - 1) / (n[i] - 1) : 0));
    const val = (x: number, y: number, z: number): number => im.data[base + x + im.width * (y + im.height * z)];
    for (let k = 0; k < n[2]; k++)
      for (let j = 0; j < n[1]; j++)
        for (let i = 0; i < n[0]; i++) {
          // trilinear interpolation at image coordinates (i, j, k)·step
          const x = i * step[0],
            y = j * step[1],
            z = k * step[2];
          const x0 = Math.min(Math.floor(x), dims[0] - 1),
            y0 = Math.min(Math.floor(y), dims[1] - 1),
            z0 = Math.min(Math.floor(z), dims[2] - 1);
          const x1 = Math.min(x0 + 1, dims[0] - 1),
            y1 = Math.min(y0 + 1, dims[1] - 1),
            z1 = Math.min(z0 + 1, dims[2] - 1);
          const fx = x - x0,
            fy = y - y0,
            fz = z - z0;
          const c00 = val(x0, y0, z0) * (1 - fx) + val(x1, y0, z0) * fx;
          const c10 = val(x0, y1, z0) * (1 - fx) + val(x1, y1, z0) * fx;
          const c01 = val(x0, y0, z1) * (1 - fx) + val(x1, y0, z1) * fx;
          const c11 = val(x0, y1, z1) * (1 - fx) + val(x1, y1, z1) * fx;
          grid[i + n[0] * (j + n[1] * k)] = (c00 * (1 - fy) + c10 * fy) * (1 - fz) + (c01 * (1 - fy) + c11 * fy) * fz;
        }
    const { points, triangles } = isosurface(grid, n[0], n[1], n[2], this.isoValue.value);
    const tr = this.transform.value;
    const out = new Float64Array(points.length);
    for (let p = 0; p < points.length; p += 3) tr.fromImage(points[p] * step[0], points[p + 1] * step[1], points[p + 2] * step[2], out, p);
    if (this.invertNormals.value)
      for (let t = 0; t < triangles.length; t += 3) {
        const a = triangles[t];
        triangles[t] = triangles[t + 2];
        triangles[t + 2] = a;
      }
    this.position.value = out;
    this.triangles.value = triangles;
  }
}
