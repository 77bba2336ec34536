import { Bool, DataEngine, Enum, IndexArray, Int, Real, RealArray, sofaComponent } from '@sofa-ts/core';
import { ImageData, SofaImage } from './image.js';
import { ImageLPTransform, ImageTransformData } from './image-transform.js';
import { ONE_IMAGE_TEMPLATES } from './image-support.js';
import { VoronoiSampler } from './voronoi-sampling.js';

const METHODS = [
  '0 - Regular sampling (at voxel center(0) or corners (1)) ',
  '1 - Uniform sampling using Fast Marching and Lloyd relaxation (nbSamples | bias distances=false | nbiterations=100  | FastMarching(0)/Dijkstra(1)/ParallelMarching(2)=1 | PMM max iter | PMM tolerance)',
] as const;

/**
 * SOFA's ImageSampler. Method 0, regular: one sample per non-zero voxel (any channel) at its centre,
 * or with param[0] = 1 at the corners of the non-zero voxels; edges join samples one voxel apart
 * along x, y, z; a hexahedron joins 8 samples forming a cube (SOFA's vertex order). Positions in
 * space through the image transform. Method 1, uniform: param = nbSamples, bias (0 only),
 * Lloyd iterations (100), distance method (1 = Dijkstra only): see voronoi-sampling.ts.
 */
@sofaComponent({
  name: 'ImageSampler',
  category: 'Engine',
  module: 'image',
  description:
    'Samples an object represented by an image: regular grid of its voxels (positions, edges, hexahedra) or uniform geodesic Voronoi sampling.',
  templates: ['ImageB', ...ONE_IMAGE_TEMPLATES.filter((t) => t !== 'ImageB')],
  defaultTemplate: 'ImageB',
})
export class ImageSampler extends DataEngine {
  readonly image = this.initData({ name: 'image', type: ImageData, default: SofaImage.empty('B'), help: 'input image' });
  readonly transform = this.initData({
    name: 'transform',
    type: ImageTransformData,
    default: new ImageLPTransform(),
    help: 'image transform',
  });
  readonly method = this.initData({ name: 'method', type: Enum(METHODS), default: METHODS[0], help: 'method (param)' });
  readonly computeRecursive = this.initData({
    name: 'computeRecursive',
    type: Bool,
    default: false,
    help: 'if true: insert nodes recursively and build the graph',
  });
  readonly param = this.initData({ name: 'param', type: RealArray(1), default: new Float64Array(0), help: 'Parameters' });
  readonly position = this.initData({
    name: 'position',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'output positions',
    output: true,
  });
  readonly fixedPosition = this.initData({
    name: 'fixedPosition',
    type: RealArray(3),
    default: new Float64Array(0),
    help: 'user defined sample positions',
  });
  readonly edges = this.initData({
    name: 'edges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'edges connecting neighboring nodes',
    output: true,
  });
  readonly graphEdges = this.initData({
    name: 'graphEdges',
    type: IndexArray(2, 'vector<Edge>'),
    default: new Uint32Array(0),
    help: 'oriented graph connecting parent to child nodes',
    output: true,
  });
  readonly hexahedra = this.initData({
    name: 'hexahedra',
    type: IndexArray(8, 'vector<Hexahedron>'),
    default: new Uint32Array(0),
    help: 'output hexahedra',
    output: true,
  });
  readonly distances = this.initData({
    name: 'distances',
    type: ImageData,
    default: SofaImage.empty('D'),
    help: 'geodesic distances to the samples (method 1)',
    output: true,
  });
  readonly voronoi = this.initData({
    name: 'voronoi',
    type: ImageData,
    default: SofaImage.empty('UI'),
    help: 'Voronoi cells of the samples, numbered from 1 (method 1)',
    output: true,
  });
  readonly clearData = this.initData({ name: 'clearData', type: Bool, default: true, help: 'clear distance image after computation' });
  readonly showSamplesScale = this.initData({
    name: 'showSamplesScale',
    type: Real,
    default: 0,
    help: 'show samples (drawing: inert in a batch run)',
  });
  readonly drawMode = this.initData({
    name: 'drawMode',
    type: Int,
    default: 0,
    help: '0: points, 1: spheres (drawing: inert in a batch run)',
  });
  readonly showEdges = this.initData({ name: 'showEdges', type: Bool, default: false, help: 'show edges (drawing: inert in a batch run)' });
  readonly showGraph = this.initData({ name: 'showGraph', type: Bool, default: false, help: 'show graph (drawing: inert in a batch run)' });
  readonly showFaces = this.initData({
    name: 'showFaces',
    type: Bool,
    default: false,
    help: 'show the faces of cubes (drawing: inert in a batch run)',
  });

  constructor() {
    super();
    this.addInput(this.image, this.transform, this.method, this.param, this.fixedPosition, this.computeRecursive);
    this.addOutput(this.position, this.edges, this.graphEdges, this.hexahedra, this.distances, this.voronoi);
  }

  override init(): void {
    if (this.computeRecursive.value) throw this.dataError(this.computeRecursive, 'recursive sampling is not implemented in sofa-ts');
    if (this.method.value !== METHODS[0]) {
      const p = this.param.value;
      const distance = p.length > 3 ? Math.trunc(p[3]) : 1;
      if (distance !== 1)
        throw this.dataError(
          this.param,
          `distance method ${distance} is not implemented in sofa-ts: the uniform sampling computes its distances by Dijkstra (1)`,
        );
      if (p.length > 1 && p[1] !== 0)
        throw this.dataError(this.param, 'distances biased by the image (param[1]) are not implemented in sofa-ts');
      if (this.fixedPosition.value.length > 0)
        throw this.dataError(this.fixedPosition, 'fixed sample positions are not implemented in sofa-ts');
    }
    this.startUpdates();
  }

  protected updateOutputs(): void {
    if (this.method.value !== METHODS[0]) return this.uniformSampling();
    const atCorners = this.param.value.length > 0 && this.param.value[0] !== 0;
    const im = this.image.value;
    const tr = this.transform.value;
    const W = im.width + 1,
      H = im.height + 1,
      D = im.depth + 1;
    // occupancy of the (w+1)×(h+1)×(d+1) grid (SOFA's boolean image)
    const occ = new Uint8Array(W * H * D);
    const at = (x: number, y: number, z: number): number => x + W * (y + H * z);
    const vox = im.voxelCount;
    if (!im.isEmpty)
      for (let z = 0; z < im.depth; z++)
        for (let y = 0; y < im.height; y++)
          for (let x = 0; x < im.width; x++) {
            let on = false;
            for (let c = 0; c < im.spectrum && !on; c++) on = im.data[x + im.width * (y + im.height * z) + c * vox] !== 0;
            if (!on) continue;
            if (atCorners) {
              for (let k = 0; k < 2; k++) for (let j = 0; j < 2; j++) for (let i = 0; i < 2; i++) occ[at(x + i, y + j, z + k)] = 1;
            } else occ[at(x, y, z)] = 1;
          }
    const index = new Int32Array(W * H * D).fill(-1);
    const pos: number[] = [],
      edges: number[] = [],
      hexa: number[] = [];
    const c = [0, 0, 0];
    let nb = 0;
    for (let z = 0; z < D; z++)
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          const o = at(x, y, z);
          if (!occ[o]) continue;
          const off = atCorners ? -0.5 : 0;
          tr.fromImage(x + off, y + off, z + off, c);
          pos.push(c[0], c[1], c[2]);
          index[o] = nb;
          if (x && occ[o - 1]) edges.push(index[o - 1], nb);
          if (y && occ[o - W]) edges.push(index[o - W], nb);
          if (z && occ[o - W * H]) edges.push(index[o - W * H], nb);
          if (x && y && z) {
            const cube = [o - 1, o - W, o - W * H, o - 1 - W, o - 1 - W * H, o - W - W * H, o - 1 - W - W * H];
            if (cube.every((q) => occ[q]))
              hexa.push(
                nb,
                index[o - W],
                index[o - 1 - W],
                index[o - 1],
                index[o - W * H],
                index[o - W - W * H],
                index[o - 1 - W - W * H],
                index[o - 1 - W * H],
              );
          }
          nb++;
        }
    this.position.value = Float64Array.from(pos);
    this.edges.value = Uint32Array.from(edges);
    this.hexahedra.value = Uint32Array.from(hexa);
    this.graphEdges.value = new Uint32Array(0);
  }

  /** Method 1: geodesic farthest point sampling and Lloyd relaxation (voronoi-sampling.ts). */
  private uniformSampling(): void {
    const im = this.image.value,
      tr = this.transform.value;
    const p = this.param.value;
    const nb = p.length > 0 ? Math.trunc(p[0]) : 0;
    const lloydIt = p.length > 2 ? Math.trunc(p[2]) : 100;
    const vox = im.voxelCount;
    const mask = new Uint8Array(vox);
    for (let c = 0; c < im.spectrum; c++) for (let o = 0; o < vox; o++) if (im.data[o + c * vox] !== 0) mask[o] = 1;
    const s = new VoronoiSampler(mask, im.width, im.height, im.depth, tr.scale);
    const { samples, iterations } = s.sample(nb, lloydIt);
    if (samples.length < nb) this.warn(`only ${samples.length} samples of the ${nb} asked: the object has no more voxels to sample`);
    if (this.printLog.value) this.warn(`uniform sampling: ${samples.length} samples, ${iterations} Lloyd iterations`);
    const pos = new Float64Array(3 * samples.length);
    samples.forEach((q, i) => tr.fromImage(q[0], q[1], q[2], pos, 3 * i));
    this.position.value = pos;
    this.edges.value = new Uint32Array(0);
    this.hexahedra.value = new Uint32Array(0);
    this.graphEdges.value = new Uint32Array(0);
    if (this.clearData.value) {
      this.voronoi.value = SofaImage.empty('UI');
      this.distances.value = SofaImage.empty('D');
    } else {
      this.voronoi.value = new SofaImage('UI', im.width, im.height, im.depth, 1, 1, s.voronoi);
      this.distances.value = new SofaImage('D', im.width, im.height, im.depth, 1, 1, s.distances);
    }
  }
}
