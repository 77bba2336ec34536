import { Bool, DataEngine, IndexArray, Real, RealArray, nonNegative, sofaComponent, type SofaEvent } from '@sofa-ts/core';
import { ImageData, SofaImage, newPixelArray, pixelTypeOfTemplate } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { voronoiMesh } from './voronoi-mesh.js';

/**
 * SOFA's VoronoiToMeshEngine (image plugin): the flat faces between the regions of a label image
 * (a Voronoi image, ImageSampler's `voronoi`) as a mesh in space: positions, edges and triangles
 * (voronoi-mesh.ts), from the frame of the current time.
 * Label 0 is the outside: without a `background` image, an outside voxel takes label mx + i
 * (mx = the image's largest label + 1, in the pixel type), i = 0…5 the nearest of the image's six
 * sides (x = 0, x = w−1, y = 0, ...; the first of equals), so that the corners of the outer surface
 * are detected; with one, mx + background − 1 (a Voronoi image of the outside, for surface details).
 * Faces between two background labels are left out. Each face loop is fanned around its centroid
 * (a point after the vertices): triangles (centroid, previous, current). Positions are the
 * transform's fromImage of the vertices' image coordinates.
 */
@sofaComponent({
  name: 'VoronoiToMeshEngine',
  category: 'Engine',
  module: 'image',
  description: 'Generate flat faces between adjacent regions of an image',
  templates: ['ImageUI', 'ImageUC', 'ImageUS', 'ImageUL'],
  defaultTemplate: 'ImageUI',
})
export class VoronoiToMeshEngine extends DataEngine {
  readonly showMesh = this.initData({
    name: 'showMesh',
    type: Bool,
    default: false,
    help: 'show reconstructed mesh (drawing: inert in a batch run)',
  });
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty('UI'), help: 'Voronoi image' });
  readonly background = this.initData({
    name: 'background',
    type: ImageData,
    default: SofaImage.empty('UI'),
    help: 'Optional Voronoi image of the background to surface details',
  });
  readonly transform = this.initData({ name: 'transform', type: ImageTransformData, default: new ImageLPTransform(), help: '' });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'output positions',
    output: true,
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'output edges',
    output: true,
  });
  readonly triangles = this.initData({
    name: 'triangles',
    type: IndexArray(3, 'vector<Triangle>'),
    default: new Uint32Array(0),
    help: 'output triangles',
    output: true,
  });
  readonly minLength = this.initData({
    name: 'minLength',
    type: Real,
    default: 2,
    range: nonNegative,
    help: 'minimum edge length in pixels',
  });
  private time = 0;

  constructor() {
    super();
    this.addInput(this.image, this.background, this.transform, this.minLength);
    this.addOutput(this.position, this.triangles, this.edges);
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
      this.edges.value = new Uint32Array(0);
      this.triangles.value = new Uint32Array(0);
      return;
    }
    const type = pixelTypeOfTemplate(this.template || 'ImageUI') ?? 'UI';
    const n = im.voxelCount;
    const frame = Math.min(this.time, im.frames - 1);
    const base = frame * im.spectrum * n;
    // labels in the template's pixel type: sums wrap as SOFA's T arithmetic does
    const labels = newPixelArray(type, n);
    for (let i = 0; i < n; i++) labels[i] = im.data[base + i];
    let max = -Infinity;
    for (let i = base; i < base + im.spectrum * n; i++) if (im.data[i] > max) max = im.data[i];
    const t1 = newPixelArray(type, 1);
    t1[0] = max + 1;
    const mx = t1[0];
    const [w, h, d] = [im.width, im.height, im.depth];
    const bk = this.background.value;
    if (bk.isEmpty) {
      for (let z = 0; z < d; z++)
        for (let y = 0; y < h; y++)
          for (let x = 0; x < w; x++) {
            const o = x + w * (y + h * z);
            if (labels[o] !== 0) continue;
            const dists = [x, w - 1 - x, y, h - 1 - y, z, d - 1 - z];
            let best = 0;
            for (let i = 1; i < 6; i++) if (dists[i] < dists[best]) best = i;
            labels[o] = mx + best;
          }
    } else {
      if (bk.width !== w || bk.height !== h || bk.depth !== d)
        throw this.error(
          `the background image (${bk.width}×${bk.height}×${bk.depth}) does not have the image's dimensions (${w}×${h}×${d})`,
          'give the Voronoi image of the same grid as background',
        );
      const bBase = Math.min(this.time, bk.frames - 1) * bk.spectrum * n;
      for (let i = 0; i < n; i++) if (labels[i] === 0) labels[i] = mx + bk.data[bBase + i] - 1;
    }
    const mesh = voronoiMesh(labels, w, h, d, this.minLength.value, mx);
    const tr = this.transform.value;
    const nv = mesh.points.length / 3;
    const pos = new Float64Array(3 * (nv + mesh.faces.length));
    for (let p = 0; p < nv; p++) tr.fromImage(mesh.points[3 * p], mesh.points[3 * p + 1], mesh.points[3 * p + 2], pos, 3 * p);
    let nTri = 0;
    for (const f of mesh.faces) nTri += f.length;
    const tri = new Uint32Array(3 * nTri);
    let k = 0;
    mesh.faces.forEach((f, i) => {
      // centroid of the face's positions in space
      const c = nv + i;
      for (const p of f) for (let a = 0; a < 3; a++) pos[3 * c + a] += pos[3 * p + a];
      for (let a = 0; a < 3; a++) pos[3 * c + a] /= f.length;
      for (let j = 0; j < f.length; j++) {
        tri[k++] = c;
        tri[k++] = f[j === 0 ? f.length - 1 : j - 1];
        tri[k++] = f[j];
      }
    });
    this.position.value = pos;
    this.edges.value = mesh.edges;
    this.triangles.value = tri;
  }
}
